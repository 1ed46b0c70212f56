//! SimpleMKKM in a few lines: three views of UCI Multiple Features (the registry's
//! `mfeat`, committed under `data/`), one Gaussian kernel per view, fitted through the
//! method API; prints the learned weights γ, the first labels and the scores.
//!
//! ```text
//! cargo run --release -p mkc-simplemkkm --example simplemkkm_quickstart
//! ```
//! The data directory is `MKC_DATA_DIR`, else `./data` (run from the repository root).

use mkc_data::preprocess::{z_score, StdDev};
use mkc_data::{DataDir, Features, Registry};
use mkc_kernels::{KernelSpec, Width};
use mkc_simplemkkm::prelude::*;

fn main() -> Result<()> {
    let dir = DataDir::resolve(None);
    let registry = Registry::load_default()?;
    if !registry.status("mfeat", &dir)?.is_present() {
        eprintln!("mfeat is not in {}: set MKC_DATA_DIR", dir.root.display());
        return Ok(());
    }
    let ds = registry.load("mfeat", &dir)?;
    let Features::Views(views) = &ds.features else {
        return Err(Error::input("mfeat", "expected one matrix per view"));
    };

    // One kernel per view: features z-scored, Gaussian with σ = median distance.
    let gaussian = KernelSpec::Gaussian {
        width: Width::MedianRatio { ratio: 1.0 },
    };
    let mut kernels = Vec::new();
    let mut names = Vec::new();
    for (name, x) in views
        .iter()
        .filter(|(v, _)| ["fac", "fou", "kar"].contains(&v.as_str()))
    {
        let mut x = x.clone();
        z_score(&mut x, StdDev::Population);
        kernels.extend(mkc_kernels::build(x.as_ref(), &[gaussian], &[])?);
        names.push(name.clone());
    }
    let data = KernelSet::new(&kernels)?.with_names(names)?;

    // SimpleMKKM (centring and unit diagonal are its default preprocessing).
    let fit = SimpleMkkmParams::new().fit(&data, ds.n_classes(), 0)?;
    let gamma = fit
        .kernel_weights
        .as_ref()
        .expect("SimpleMKKM learns weights");
    for (name, g) in data.names().iter().zip(&gamma.values) {
        println!("γ[{name}] = {g:.4}");
    }
    println!("first labels: {:?}", &fit.labels[..20]);
    println!(
        "J(γ) {:.4} → {:.4} in {} updates",
        fit.objective[0],
        fit.final_objective().unwrap_or(f64::NAN),
        fit.iterations
    );
    let scores = mkc_metrics::score_all(&ds.labels, &fit.labels)?;
    println!(
        "ACC {:.1}%  NMI {:.1}%  purity {:.1}%",
        100.0 * scores.acc,
        100.0 * scores.nmi_max,
        100.0 * scores.purity
    );
    Ok(())
}
