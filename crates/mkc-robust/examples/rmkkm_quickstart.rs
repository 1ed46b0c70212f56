//! RMKKM and RKKM in a few lines: three views of UCI Multiple Features (the registry's
//! `mfeat`, committed under `data/`), one Gaussian kernel per view; RMKKM learns the
//! kernel weights, RKKM runs on each kernel alone. Prints weights, labels and scores.
//!
//! ```text
//! cargo run --release -p mkc-robust --example rmkkm_quickstart
//! ```
//! The data directory is `MKC_DATA_DIR`, else `./data` (run from the repository root).

use mkc_data::preprocess::{z_score, StdDev};
use mkc_data::{DataDir, Features, Registry};
use mkc_kernels::{KernelSpec, Width};
use mkc_robust::prelude::*;

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
    let k = ds.n_classes();
    let score = |labels: &[usize]| -> Result<String> {
        let s = mkc_metrics::score_all(&ds.labels, labels)?;
        Ok(format!(
            "ACC {:.1}%  NMI {:.1}%  purity {:.1}%",
            100.0 * s.acc,
            100.0 * s.nmi_max,
            100.0 * s.purity
        ))
    };

    // RMKKM with the paper's γ = 0.3 (10 fresh starts of the partition step per pass).
    let fit = RmkkmParams::new()
        .gamma(0.3)
        .max_iter(20)
        .fit(&data, k, 0)?;
    let w = fit.kernel_weights.as_ref().expect("RMKKM learns weights");
    for (name, wt) in data.names().iter().zip(&w.values) {
        println!("w[{name}] = {wt:.4}");
    }
    println!("first labels: {:?}", &fit.labels[..20]);
    println!("RMKKM: {}", score(&fit.labels)?);

    // RKKM on each kernel alone, best of 10 starts.
    for (p, name) in data.names().iter().enumerate() {
        let one = data.select(&[p])?;
        let fit = RkkmParams::new().n_init(10).fit(&one, k, 0)?;
        println!("RKKM on {name}: {}", score(&fit.labels)?);
    }
    Ok(())
}
