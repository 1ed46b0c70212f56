//! iterSVR's ε-SVR with ε = 0 on Letter A-B's Gaussian kernels (the RMKC recipe
//! `gauss10-range`), in the n-variable form min ½βᵀKβ − zᵀβ, 1ᵀβ = 0, −C ≤ β ≤ C:
//! [`mkc_svm::EpsSvr`] (which solves ε = 0 in that form) with plain SMO against the same
//! with the active-set polish (`polish(true)`, what iterSVR uses). Targets: the classes
//! with every tenth label flipped (a mid-run iterSVR labelling). Prints time, SMO
//! iterations, objective and final KKT violation of each. (Until `EpsSvr`
//! switched to the n form for ε = 0, this example also timed libsvm's 2n form; those
//! numbers are in the `mkc_svm::svr` module docs.)
//!
//! ```text
//! MKC_DATA_DIR=<data directory with letter-ab> cargo run --release -p mkc-cli --example itersvr_nform
//! ```
use mkc_core::ParamGuard;
use mkc_svm::{CheckedKernel, EpsSvrParams};
use std::error::Error;
use std::path::{Path, PathBuf};
use std::time::Instant;

fn main() -> Result<(), Box<dyn Error>> {
    let data_dir = std::env::var_os("MKC_DATA_DIR").map(PathBuf::from);
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/rmkc.toml");
    let loaded = mkc_cli::cluster::load(
        &[],
        Some("letter-ab"),
        None,
        Some("gauss10-range"),
        Some(&config),
        data_dir.as_deref(),
    )?;
    let truth = loaded.truth.as_deref().ok_or("letter-ab has no labels")?;
    let n = truth.len();
    let z: Vec<f64> = (0..n)
        .map(|i| {
            let s = if truth[i] == 0 { 1.0 } else { -1.0 };
            if i % 10 == 3 {
                -s
            } else {
                s
            }
        })
        .collect();
    for ki in [1usize, 4, 8] {
        let ck = CheckedKernel::new(loaded.kernels[ki].as_ref())?;
        for c in [1.0, 100.0] {
            let svr = |polish: bool| -> Result<_, Box<dyn Error>> {
                let t = Instant::now();
                let m = EpsSvrParams::new(c, 0.0)
                    .polish(polish)
                    .check()?
                    .solve(&ck, &z, None)?;
                Ok((m, t.elapsed().as_secs_f64()))
            };
            let (plain, t_plain) = svr(false)?;
            let (pol, t_pol) = svr(true)?;
            println!(
                "{} C = {c}: plain {t_plain:.3} s, {} iterations, objective {:.6}, violation {:.2e} | with polish {t_pol:.3} s, {} iterations, objective {:.6}, violation {:.2e}",
                loaded.names[ki], plain.status.iterations, plain.objective, plain.status.max_violation,
                pol.status.iterations, pol.objective, pol.status.max_violation
            );
        }
    }
    Ok(())
}
