//! CPMMC on a registered two-class dataset: the linear kernel in feature space and a
//! Gaussian kernel (precomputed), each scored against the classes, with the cutting-plane
//! work and whether the partition has two clusters.
//!
//! ```text
//! cargo run --release -p mkc-mmc --example cpmmc_quickstart -- [dataset] [C] [balance] [linear]
//! ```
//! Dataset: a registry name (default `echocardiogram`, committed under `data/`; the data
//! directory is `MKC_DATA_DIR`, else `./data`; `mnist-1v7` runs the linear path on
//! 15170 × 784 features). C (default 1), the balance ℓ as a fraction of n (default 0.03),
//! and `linear` to skip the Gaussian kernel. Features are scaled per column to [−1, 1], as
//! in LG-MMC's protocol.

#[path = "../../mkc-lgmmc/examples/common/mod.rs"]
mod common;

use mkc_mmc::prelude::*;
use mkc_mmc::CpmmcDiagnostics;

fn details(fit: &Clustering<CpmmcDiagnostics>) -> [String; 2] {
    let d = &fit.diagnostics;
    [
        format!(
            "objective {:.5}, ξ {:.4}",
            fit.final_objective().unwrap_or(f64::NAN),
            d.xi
        ),
        format!(
            "{} rounds ({:?}), {} cuts, {} CCCP steps, {}",
            fit.iterations, d.stop, d.cuts, d.cccp_steps, fit.timings
        ),
    ]
}

fn main() -> Result<()> {
    let Some(run) = common::two_class("echocardiogram")? else {
        return Ok(());
    };
    let params = CpmmcParams::new().c(run.c).balance(run.balance);
    run.linear_and_gaussian(|data| params.fit(data, 2, 0), details)
}
