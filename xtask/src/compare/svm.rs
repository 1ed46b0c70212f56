//! `cargo xtask compare svm` (to be written).

pub fn run() -> Result<(), Box<dyn std::error::Error>> {
    Err("compare svm is not implemented yet".into())
}
