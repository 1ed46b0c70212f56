//! LG-MMC on a registered two-class dataset: a Gaussian kernel (the kernel path) and the
//! linear kernel of the features (the feature-space path), each scored against the
//! classes, with what Algorithm 1 did.
//!
//! ```text
//! cargo run --release -p mkc-lgmmc --example lgmmc_quickstart -- [dataset] [C] [balance] [eigenvector]
//! ```
//! Dataset: a registry name (default `ionosphere`, committed under `data/`; the data
//! directory is `MKC_DATA_DIR`, else `./data`). C (default 1), the balance β as a fraction
//! of n (default 0.03), and `eigenvector` for the paper's label rule (default: the signs
//! of the decision values, as the authors' code). Features are scaled per column to
//! [−1, 1], as the authors' package does.

use mkc_data::{Features, Registry};
use mkc_kernels::{build, KernelSpec, Width};
use mkc_lgmmc::prelude::*;
use mkc_lgmmc::{Balance, LabelRule, LgmmcDiagnostics};

fn report(what: &str, fit: &Clustering<LgmmcDiagnostics>, truth: &[usize]) -> Result<()> {
    let acc = mkc_metrics::accuracy(truth, &fit.labels)?;
    let d = &fit.diagnostics;
    let ones = fit.labels.iter().filter(|&&l| l == 1).count();
    println!(
        "{what}: error {:.2}%, clusters {} / {}, {} rounds ({:?}), objective of eq. (7) {:.6e}",
        100.0 * (1.0 - acc),
        fit.labels.len() - ones,
        ones,
        fit.iterations,
        d.stop,
        fit.final_objective().unwrap_or(f64::NAN),
    );
    println!(
        "  {} label vectors, μ = {:?}, {} α-solves ({} inner iterations), {}",
        d.label_vectors.len(),
        d.mu.iter().map(|m| format!("{m:.3}")).collect::<Vec<_>>(),
        d.alpha_solves,
        d.inner_iterations,
        fit.timings,
    );
    Ok(())
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map(String::as_str).unwrap_or("ionosphere");
    let c: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let frac: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0.03);
    let rule = match args.get(3).map(String::as_str) {
        Some("eigenvector") => LabelRule::Eigenvector,
        _ => LabelRule::Decision,
    };
    let Some(ds) = Registry::load_or_skip(name)? else {
        return Ok(());
    };
    let Features::Dense(mut x) = ds.features.clone() else {
        return Err(Error::input(name, "needs dense features"));
    };
    mkc_data::preprocess::min_max(&mut x, -1.0, 1.0);
    println!("{name}: n = {}, d = {}", x.nrows(), x.ncols());

    let params = LgmmcParams::new()
        .c(c)
        .balance(Balance::Fraction(frac))
        .label_rule(rule);
    // σ = the RMS pairwise distance (the middle of the paper's five widths).
    let gauss = build(
        x.as_ref(),
        &[KernelSpec::Gaussian {
            width: Width::MeanRatio { ratio: 1.0 },
        }],
        &[],
    )?;
    let data = KernelSet::new(&gauss)?.with_names(vec!["gauss(σ=rms)".into()])?;
    report("Gaussian kernel", &params.fit(&data, 2, 0)?, &ds.labels)?;
    let data = KernelSet::from_features(x.as_ref())?;
    report("linear kernel", &params.fit(&data, 2, 0)?, &ds.labels)?;
    Ok(())
}
