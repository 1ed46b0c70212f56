//! The multiple kernel k-means family in a few lines: three views of UCI Multiple
//! Features (the registry's `mfeat`, committed under `data/`), one Gaussian kernel per
//! view, and every method of the family fitted through the one method API; prints each
//! method's kernel weights, iterations and scores.
//!
//! ```text
//! cargo run --release -p mkc-mkkm --example mkkm_family_quickstart
//! ```
//! The data directory is `MKC_DATA_DIR`, else `./data` (run from the repository root).

use mkc_data::preprocess::{z_score, StdDev};
use mkc_data::{DataDir, Features, Registry};
use mkc_kernels::{KernelSpec, Width};
use mkc_mkkm::prelude::*;

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
    for (_, x) in views
        .iter()
        .filter(|(v, _)| ["fac", "fou", "kar"].contains(&v.as_str()))
    {
        let mut x = x.clone();
        z_score(&mut x, StdDev::Population);
        kernels.extend(mkc_kernels::build(x.as_ref(), &[gaussian], &[])?);
    }
    let data = KernelSet::new(&kernels)?;

    // Every method centres the kernels and scales them to unit diagonal first.
    let methods: Vec<Box<dyn DynClusterer>> = vec![
        Box::new(MkkmParams::new()),
        Box::new(MkkmMirParams::new()),
        Box::new(MkkmMmParams::new()),
        Box::new(LfMvcParams::new().lambda(2.0)),
        Box::new(LmkkmParams::new()),
    ];
    for m in &methods {
        let fit = m.fit_dyn(&data, ds.n_classes(), 0)?;
        let scores = mkc_metrics::score_all(&ds.labels, &fit.labels)?;
        println!(
            "{:>8}: weights {:.3?}, {} iterations, ACC {:.1} NMI {:.1} purity {:.1}",
            m.name(),
            fit.weights().unwrap_or_default(),
            fit.iterations,
            100.0 * scores.acc,
            100.0 * scores.nmi_max,
            100.0 * scores.purity
        );
    }
    Ok(())
}
