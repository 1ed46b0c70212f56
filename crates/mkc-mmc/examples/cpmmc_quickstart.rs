//! CPMMC on a registered two-class dataset: the linear kernel in feature space and a
//! Gaussian kernel (precomputed), each scored against the classes, with the cutting-plane
//! work and whether the partition has two clusters.
//!
//! ```text
//! cargo run --release -p mkc-mmc --example cpmmc_quickstart -- [dataset] [C] [balance] [linear]
//! ```
//! Dataset: a registry name (default `echocardiogram`, committed under `data/`; the data
//! directory is `MKC_DATA_DIR`, else `./data`; `mnist-1v7` runs the linear path on
//! 15170 × 784 features). C (default 1), the balance ℓ as a fraction of n (default 0.03),
//! and `linear` to skip the Gaussian kernel. Features are scaled per column to [−1, 1], as
//! in LG-MMC's protocol.

use mkc_data::{Features, Registry};
use mkc_kernels::{build, KernelSpec, Width};
use mkc_mmc::prelude::*;
use mkc_mmc::CpmmcDiagnostics;

fn report(what: &str, fit: &Clustering<CpmmcDiagnostics>, truth: &[usize]) -> Result<()> {
    let acc = mkc_metrics::accuracy(truth, &fit.labels)?;
    let d = &fit.diagnostics;
    let ones = fit.labels.iter().filter(|&&l| l == 1).count();
    println!(
        "{what}: error {:.2}%, clusters {} / {}, objective {:.5}, ξ {:.4}",
        100.0 * (1.0 - acc),
        fit.labels.len() - ones,
        ones,
        fit.final_objective().unwrap_or(f64::NAN),
        d.xi,
    );
    println!(
        "  {} rounds ({:?}), {} cuts, {} CCCP steps, {}",
        fit.iterations, d.stop, d.cuts, d.cccp_steps, fit.timings
    );
    Ok(())
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map(String::as_str).unwrap_or("echocardiogram");
    let c: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let frac: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0.03);
    let linear_only = args.get(3).map(String::as_str) == Some("linear");
    let Some(ds) = Registry::load_or_skip(name)? else {
        return Ok(());
    };
    let Features::Dense(mut x) = ds.features.clone() else {
        return Err(Error::input(name, "needs dense features"));
    };
    mkc_data::preprocess::min_max(&mut x, -1.0, 1.0);
    println!("{name}: n = {}, d = {}", x.nrows(), x.ncols());
    let params = CpmmcParams::new().c(c).balance(frac);
    let data = KernelSet::from_features(x.as_ref())?;
    report("linear kernel", &params.fit(&data, 2, 0)?, &ds.labels)?;
    if !linear_only {
        // σ = the RMS pairwise distance (the middle of LG-MMC's five widths).
        let spec = KernelSpec::Gaussian {
            width: Width::MeanRatio { ratio: 1.0 },
        };
        let gauss = build(x.as_ref(), &[spec], &[])?;
        let data = KernelSet::new(&gauss)?.with_names(vec!["gauss(σ=rms)".into()])?;
        report("Gaussian kernel", &params.fit(&data, 2, 0)?, &ds.labels)?;
    }
    Ok(())
}
