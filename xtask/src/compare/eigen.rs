//! `cargo xtask compare eigen` (to be written).

pub fn run() -> Result<(), Box<dyn std::error::Error>> {
    Err("compare eigen is not implemented yet".into())
}
