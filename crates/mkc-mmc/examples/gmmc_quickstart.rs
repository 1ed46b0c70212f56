//! GMMC on a registered two-class dataset: the linear kernel of the features (the SDP's
//! matrix is (d+1) x (d+1)) and a Gaussian kernel (its eigen-features), each scored
//! against the classes, with the certified relaxation value and the solver's work.
//!
//! ```text
//! cargo run --release -p mkc-mmc --example gmmc_quickstart -- [dataset] [C] [balance] [linear]
//! ```
//! Dataset: a registry name (default `echocardiogram`, committed under `data/`; the data
//! directory is `MKC_DATA_DIR`, else `./data`). C (default 1), the balance ℓ as a
//! fraction of n (default 0.03), and `linear` to skip the Gaussian kernel. Features are
//! scaled per column to [−1, 1], as LG-MMC's package does.

use mkc_data::{Features, Registry};
use mkc_kernels::{build, KernelSpec, Width};
use mkc_mmc::gmmc::{Balance, GmmcDiagnostics};
use mkc_mmc::prelude::*;

fn report(what: &str, fit: &Clustering<GmmcDiagnostics>, truth: &[usize]) -> Result<()> {
    let acc = mkc_metrics::accuracy(truth, &fit.labels)?;
    let d = &fit.diagnostics;
    let ones = fit.labels.iter().filter(|&&l| l == 1).count();
    println!(
        "{what}: error {:.2}%, clusters {} / {}, relaxation {:.6} (gap {:.1e}), rank-one share {:.3}",
        100.0 * (1.0 - acc),
        fit.labels.len() - ones,
        ones,
        d.relaxation,
        d.gap,
        d.rank_one,
    );
    println!(
        "  r = {}, {} Newton steps in {} rounds, {:.2} s ({})",
        d.feature_dim,
        d.newton_steps,
        fit.iterations,
        fit.timings.wall(),
        fit.timings
            .phases()
            .iter()
            .map(|(p, s)| format!("{p} {s:.2} s"))
            .collect::<Vec<_>>()
            .join(", "),
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
    let params = GmmcParams::new().c(c).balance(Balance::Fraction(frac));
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
