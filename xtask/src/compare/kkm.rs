//! `cargo xtask compare kkm` (to be written).

pub fn run() -> Result<(), Box<dyn std::error::Error>> {
    Err("compare kkm is not implemented yet".into())
}
