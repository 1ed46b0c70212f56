//! MVSpec and AASC on UCI Ionosphere with the RMKC paper's ten Gaussian kernels (σ from 10%
//! to 100% of the range of pairwise distances, multiplicatively normalised), through the
//! workspace's method API.
//!
//! ```text
//! cargo run --release -p mkc-spectral --example spectral_quickstart -- [--data-dir DIR]
//! ```
//!
//! The data directory is `--data-dir`, else `$MKC_DATA_DIR`, else `./data` (Ionosphere is
//! committed there, so this runs from the repository root of a fresh clone). The RMKC paper
//! reports MVSpec at 70.66% accuracy on Ionosphere (best p of its grid {1, 1.5, …, 5}).

use mkc_data::{DataDir, Features, Registry};
use mkc_kernels::{KernelSpec, Normalization};
use mkc_metrics::accuracy;
use mkc_spectral::prelude::*;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = args.iter().position(|a| a == "--data-dir");
    let dir = DataDir::resolve(flag.and_then(|i| args.get(i + 1)).map(std::path::Path::new));
    let registry = Registry::load_default()?;
    if !registry.status("ionosphere", &dir)?.is_present() {
        eprintln!(
            "Ionosphere is not in {}; run from the repository root, or give --data-dir / set \
             MKC_DATA_DIR to a folder holding bundle/ionosphere.",
            dir.root.display()
        );
        return Ok(());
    }
    let ds = registry.load("ionosphere", &dir)?;
    let Features::Dense(x) = &ds.features else {
        return Err(Error::input("ionosphere", "expected one feature matrix"));
    };
    let kernels = mkc_kernels::build(
        x.as_ref(),
        &KernelSpec::rmkc_gaussians(),
        &[Normalization::Multiplicative],
    )?;
    let data = KernelSet::new(&kernels)?;

    // MVSpec over the paper's grid of p (deterministic weights; seed 0 for the final k-means).
    for p in [1.0, 2.0, 3.0, 4.0, 5.0] {
        let fit = MvspecParams::new().p(p).fit(&data, 2, 0)?;
        println!(
            "MVSpec p = {p}: ACC {:.2}%, {} iterations, weights {:.3?}",
            100.0 * accuracy(&ds.labels, &fit.labels)?,
            fit.iterations,
            fit.weights().unwrap_or_default()
        );
    }
    // AASC: the embedding is deterministic; each seed is one k-means run on it.
    let aasc = AascParams::new().check()?;
    for fit in aasc.fit_restarts(&data, 2, &[0, 1, 2]) {
        let fit = fit?;
        println!(
            "AASC: ACC {:.2}%, {} iterations, weights {:.3?}",
            100.0 * accuracy(&ds.labels, &fit.labels)?,
            fit.iterations,
            fit.weights().unwrap_or_default()
        );
    }
    Ok(())
}
