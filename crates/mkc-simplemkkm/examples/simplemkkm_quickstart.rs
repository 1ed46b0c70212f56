//! SimpleMKKM in a few lines: three views of UCI Multiple Features (the registry's
//! `mfeat`, committed under `data/`), one Gaussian kernel per view, fitted through the
//! method API; prints the learned weights γ, the first labels and the scores.
//!
//! ```text
//! cargo run --release -p mkc-simplemkkm --example simplemkkm_quickstart
//! ```
//! The data directory is `MKC_DATA_DIR`, else `./data` (run from the repository root).

mod common;

use mkc_simplemkkm::prelude::*;

fn main() -> Result<()> {
    // One kernel per view: features z-scored, Gaussian with σ = the median distance.
    let Some((kernels, truth)) = common::table_kernels() else {
        return Ok(());
    };
    let data = common::named_set(&kernels)?;

    // SimpleMKKM (centring and unit diagonal are its default preprocessing).
    let fit = SimpleMkkmParams::new().fit(&data, common::K, 0)?;
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
    println!("{}", common::scores(&truth, &fit.labels)?);
    Ok(())
}
