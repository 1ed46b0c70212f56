//! `cargo xtask compare …`: side-by-side timings against Python references.

use clap::Subcommand;

mod eigen;
mod kkm;
mod svm;

#[derive(Subcommand)]
pub enum What {
    /// Top-k symmetric eigenpairs against scipy.sparse.linalg.eigsh / scipy.linalg.eigh.
    Eigen,
    /// Kernel k-means against a vectorised numpy implementation.
    Kkm,
    /// C-SVC on a precomputed kernel against libsvm (scikit-learn SVC).
    Svm,
}

pub fn run(what: What) -> Result<(), Box<dyn std::error::Error>> {
    match what {
        What::Eigen => eigen::run(),
        What::Kkm => kkm::run(),
        What::Svm => svm::run(),
    }
}
