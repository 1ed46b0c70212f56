//! RMKC and iterSVR on a registered two-class dataset with the paper's 10 Gaussian
//! kernels (σ = 10%, …, 100% of the range of pairwise distances, multiplicatively
//! normalised), through the workspace's method API: labels, learned θ, accuracy, and
//! where the time went.
//!
//! ```text
//! cargo run --release -p mkc-rmkc --example rmkc_quickstart -- [dataset] [C] [p]
//! ```
//! Dataset: a registry name (default `ionosphere`, committed under `data/`; the data
//! directory is `MKC_DATA_DIR`, else `./data`). C (default 0.1, the best of the paper's
//! grid on Ionosphere in our Table 2) and the norm on θ: `1` (default), `2` or `none`.

use mkc_data::{Features, Registry};
use mkc_kernels::{build, KernelSpec, Normalization};
use mkc_metrics::{accuracy, nmi, NmiNorm};
use mkc_rmkc::prelude::*;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map(String::as_str).unwrap_or("ionosphere");
    let c: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(0.1);
    let norm = match args.get(2).map(String::as_str) {
        Some("2") => Norm::L2,
        Some("none") => Norm::None,
        _ => Norm::L1,
    };
    let Some(ds) = Registry::load_or_skip(name)? else {
        return Ok(());
    };
    let Features::Dense(x) = &ds.features else {
        return Err(Error::input(name, "needs dense features"));
    };
    let specs = KernelSpec::rmkc_gaussians();
    let kernels = build(x.as_ref(), &specs, &[Normalization::Multiplicative])?;
    let names = (1..=10).map(|k| format!("gauss(σ={}·range)", k as f64 / 10.0));
    let data = KernelSet::new(&kernels)?.with_names(names.collect())?;
    println!("{name}: n = {}, {} kernels", data.n(), data.len());

    // RMKC on all ten kernels: two clusters, one seed (the paper averages 30).
    let fit = RmkcParams::new().c(c).norm(norm).fit(&data, 2, 0)?;
    let d = &fit.diagnostics;
    println!(
        "RMKC (C = {c}, {norm:?}): accuracy {:.2}%, NMI {:.3}, J {:.5} after {} iterations (converged: {})",
        100.0 * accuracy(&ds.labels, &fit.labels)?,
        nmi(&ds.labels, &fit.labels, NmiNorm::Arithmetic)?,
        d.objective,
        fit.iterations,
        fit.converged,
    );
    println!(
        "  SVM solves: {} init, {} θ, {} labels; {}",
        d.init_solves, d.theta_solves, d.label_solves, fit.timings,
    );
    let theta = fit.kernel_weights.as_ref().expect("RMKC learns θ");
    println!("  θ on {:?}:", theta.constraint);
    for (kernel, w) in data.names().iter().zip(&theta.values) {
        println!("    {kernel:<20} {w:.3}");
    }
    println!(
        "  first labels: {:?}",
        &fit.labels[..20.min(fit.labels.len())]
    );

    // iterSVR, the single-kernel baseline, on each kernel (ℓ = 0.3N, the paper's bound
    // for unbalanced data such as Ionosphere's 126/225).
    let itersvr = IterSvrParams::new().c(1.0).balance(0.3);
    for p in [1, 4, 9] {
        let one = data.select(&[p])?;
        let fit = itersvr.fit(&one, 2, 0)?;
        println!(
            "iterSVR on {}: accuracy {:.2}%, {} SVR fits, {} labels changed",
            one.names()[0],
            100.0 * accuracy(&ds.labels, &fit.labels)?,
            fit.iterations,
            fit.diagnostics.relabelled(),
        );
    }
    Ok(())
}
