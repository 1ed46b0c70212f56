//! RMKKM and RKKM in a few lines: three views of UCI Multiple Features (the registry's
//! `mfeat`, committed under `data/`), one Gaussian kernel per view; RMKKM learns the
//! kernel weights, RKKM runs on each kernel alone. Prints weights, labels and scores.
//!
//! ```text
//! cargo run --release -p mkc-robust --example rmkkm_quickstart
//! ```
//! The data directory is `MKC_DATA_DIR`, else `./data` (run from the repository root).

#[path = "../../mkc-simplemkkm/examples/common/mod.rs"]
mod common;

use mkc_robust::prelude::*;

fn main() -> Result<()> {
    // One kernel per view: features z-scored, Gaussian with σ = the median distance.
    let Some((kernels, truth)) = common::table_kernels() else {
        return Ok(());
    };
    let data = common::named_set(&kernels)?;

    // RMKKM with the paper's γ = 0.3 (10 fresh starts of the partition step per pass).
    let fit = RmkkmParams::new()
        .gamma(0.3)
        .max_iter(20)
        .fit(&data, common::K, 0)?;
    let w = fit.kernel_weights.as_ref().expect("RMKKM learns weights");
    for (name, wt) in data.names().iter().zip(&w.values) {
        println!("w[{name}] = {wt:.4}");
    }
    println!("first labels: {:?}", &fit.labels[..20]);
    println!("RMKKM: {}", common::scores(&truth, &fit.labels)?);

    // RKKM on each kernel alone, best of 10 starts.
    for (p, name) in data.names().iter().enumerate() {
        let one = data.select(&[p])?;
        let fit = RkkmParams::new().n_init(10).fit(&one, common::K, 0)?;
        println!("RKKM on {name}: {}", common::scores(&truth, &fit.labels)?);
    }
    Ok(())
}
