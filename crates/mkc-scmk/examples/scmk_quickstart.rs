//! SCMK and SCSK on a registered dataset with the paper's 12 kernels: fit, print the
//! kernel weights of SCMK (Σ √w_i = 1, eq. 22) and score both against the classes.
//!
//! ```text
//! cargo run --release -p mkc-scmk --example scmk_quickstart -- [dataset] [alpha] [beta]
//! ```
//! Dataset: a registry name (default `optdigits-1v7`, built from data committed under
//! `data/`; the data directory is `MKC_DATA_DIR`, else `./data`). α and β default to 1
//! and 1e-5 (points of the paper's grid). Rows are scaled to unit length and each kernel
//! divided by its largest entry, as the authors' scripts do.

use mkc_data::{Features, Registry};
use mkc_kernels::{build, KernelSpec, Normalization};
use mkc_scmk::prelude::*;
use mkc_scmk::TwinDiagnostics;

fn report(what: &str, fit: &Clustering<TwinDiagnostics>, truth: &[usize]) -> Result<()> {
    let s = mkc_metrics::score_all(truth, &fit.labels)?;
    println!(
        "{what}: {s:?}\n  {} iterations (converged: {}), J = {:.6e}, nnz(Z) = {}, {}",
        fit.iterations,
        fit.converged,
        fit.final_objective().unwrap_or(f64::NAN),
        fit.diagnostics.z_nnz,
        fit.timings,
    );
    Ok(())
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map(String::as_str).unwrap_or("optdigits-1v7");
    let alpha: f64 = args.get(1).and_then(|v| v.parse().ok()).unwrap_or(1.0);
    let beta: f64 = args.get(2).and_then(|v| v.parse().ok()).unwrap_or(1e-5);
    let Some(ds) = Registry::load_or_skip(name)? else {
        return Ok(());
    };
    let Features::Dense(mut x) = ds.features.clone() else {
        return Err(Error::input(name, "needs dense features"));
    };
    mkc_data::preprocess::unit_rows(&mut x);
    let c = ds.class_names.len();
    println!("{name}: n = {}, d = {}, c = {c}", x.nrows(), x.ncols());

    let specs = KernelSpec::scmk_twelve();
    let kernels = build(x.as_ref(), &specs, &[Normalization::DivideByMax])?;
    let names = (0..specs.len()).map(|p| format!("K{p}")).collect();
    let data = KernelSet::new(&kernels)?.with_names(names)?;

    let fit = ScmkParams::new().alpha(alpha).beta(beta).fit(&data, c, 0)?;
    report("SCMK, 12 kernels", &fit, &ds.labels)?;
    if let Some(w) = &fit.kernel_weights {
        let shown: Vec<String> = w.values.iter().map(|v| format!("{v:.3}")).collect();
        println!("  weights {shown:?} (Σ √w − 1 = {:.1e})", w.violation());
    }
    // SCSK on the linear kernel (the 8th of the twelve).
    let linear = data.select(&[7])?;
    let fit = ScskParams::new()
        .alpha(alpha)
        .beta(beta)
        .fit(&linear, c, 0)?;
    report("SCSK, linear kernel", &fit, &ds.labels)?;
    Ok(())
}
