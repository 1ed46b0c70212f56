//! The multiple kernel k-means family in a few lines: three views of UCI Multiple
//! Features (the registry's `mfeat`, committed under `data/`), one Gaussian kernel per
//! view, and every method of the family fitted through the one method API; prints each
//! method's kernel weights, iterations and scores.
//!
//! ```text
//! cargo run --release -p mkc-mkkm --example mkkm_family_quickstart
//! ```
//! The data directory is `MKC_DATA_DIR`, else `./data` (run from the repository root).

#[path = "../../mkc-simplemkkm/examples/common/mod.rs"]
mod common;

use mkc_mkkm::prelude::*;

fn main() -> Result<()> {
    // One kernel per view: features z-scored, Gaussian with σ = the median distance.
    let Some((kernels, truth)) = common::table_kernels() else {
        return Ok(());
    };
    let data = common::named_set(&kernels)?;

    // Every method centres the kernels and scales them to unit diagonal first.
    let methods: Vec<Box<dyn DynClusterer>> = vec![
        Box::new(MkkmParams::new()),
        Box::new(MkkmMirParams::new()),
        Box::new(MkkmMmParams::new()),
        Box::new(LfMvcParams::new().lambda(2.0)),
        Box::new(LmkkmParams::new()),
    ];
    for m in &methods {
        let fit = m.fit_dyn(&data, common::K, 0)?;
        println!(
            "{:>8}: weights {:.3?}, {} iterations, {}",
            m.name(),
            fit.weights().unwrap_or_default(),
            fit.iterations,
            common::scores(&truth, &fit.labels)?
        );
    }
    Ok(())
}
