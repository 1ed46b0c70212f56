//! LG-MMC on a registered two-class dataset: the linear kernel of the features (the
//! feature-space path) and a Gaussian kernel (the kernel path), each scored against the
//! classes, with what Algorithm 1 did.
//!
//! ```text
//! cargo run --release -p mkc-lgmmc --example lgmmc_quickstart -- [dataset] [C] [balance] [eigenvector]
//! ```
//! Dataset: a registry name (default `ionosphere`, committed under `data/`; the data
//! directory is `MKC_DATA_DIR`, else `./data`). C (default 1), the balance β as a fraction
//! of n (default 0.03), and `eigenvector` for the paper's label rule (default: the signs
//! of the decision values, as the authors' code). Features are scaled per column to
//! [−1, 1], as the authors' package does.

mod common;

use mkc_lgmmc::prelude::*;
use mkc_lgmmc::{Balance, LabelRule, LgmmcDiagnostics};

fn details(fit: &Clustering<LgmmcDiagnostics>) -> [String; 2] {
    let d = &fit.diagnostics;
    [
        format!(
            "{} rounds ({:?}), objective of eq. (7) {:.6e}",
            fit.iterations,
            d.stop,
            fit.final_objective().unwrap_or(f64::NAN),
        ),
        format!(
            "{} label vectors, μ = {:?}, {} α-solves ({} inner iterations), {}",
            d.label_vectors.len(),
            d.mu.iter().map(|m| format!("{m:.3}")).collect::<Vec<_>>(),
            d.alpha_solves,
            d.inner_iterations,
            fit.timings,
        ),
    ]
}

fn main() -> Result<()> {
    let Some(run) = common::two_class("ionosphere")? else {
        return Ok(());
    };
    let rule = match run.flag.as_deref() {
        Some("eigenvector") => LabelRule::Eigenvector,
        _ => LabelRule::Decision,
    };
    let params = LgmmcParams::new()
        .c(run.c)
        .balance(Balance::Fraction(run.balance))
        .label_rule(rule);
    run.linear_and_gaussian(|data| params.fit(data, 2, 0), details)
}
