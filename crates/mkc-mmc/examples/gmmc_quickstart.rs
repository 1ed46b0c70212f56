//! GMMC on a registered two-class dataset: the linear kernel of the features (the SDP's
//! matrix is (d+1) x (d+1)) and a Gaussian kernel (its eigen-features), each scored
//! against the classes, with the certified relaxation value and the solver's work.
//!
//! ```text
//! cargo run --release -p mkc-mmc --example gmmc_quickstart -- [dataset] [C] [balance] [linear]
//! ```
//! Dataset: a registry name (default `echocardiogram`, committed under `data/`; the data
//! directory is `MKC_DATA_DIR`, else `./data`). C (default 1), the balance ℓ as a
//! fraction of n (default 0.03), and `linear` to skip the Gaussian kernel. Features are
//! scaled per column to [−1, 1], as LG-MMC's package does.

#[path = "../../mkc-lgmmc/examples/common/mod.rs"]
mod common;

use mkc_mmc::gmmc::{Balance, GmmcDiagnostics};
use mkc_mmc::prelude::*;

fn details(fit: &Clustering<GmmcDiagnostics>) -> [String; 2] {
    let d = &fit.diagnostics;
    let phases: Vec<String> = fit
        .timings
        .phases()
        .iter()
        .map(|(p, s)| format!("{p} {s:.2} s"))
        .collect();
    [
        format!(
            "relaxation {:.6} (gap {:.1e}), rank-one share {:.3}",
            d.relaxation, d.gap, d.rank_one
        ),
        format!(
            "r = {}, {} Newton steps in {} rounds, {:.2} s ({})",
            d.feature_dim,
            d.newton_steps,
            fit.iterations,
            fit.timings.wall(),
            phases.join(", ")
        ),
    ]
}

fn main() -> Result<()> {
    let Some(run) = common::two_class("echocardiogram")? else {
        return Ok(());
    };
    let params = GmmcParams::new()
        .c(run.c)
        .balance(Balance::Fraction(run.balance));
    run.linear_and_gaussian(|data| params.fit(data, 2, 0), details)
}
