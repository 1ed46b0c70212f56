//! LG-MMC with the linear kernel on a registered dataset (features scaled per column to
//! [−1, 1], as the authors' package does), printing the clustering error and the time.
//!
//! ```text
//! MKC_DATA_DIR=/path/to/data cargo run --release -p mkc-lgmmc --example lgmmc_linear -- mnist-1v7 10 0.03
//! ```
//! Arguments: dataset name, C (default 1), balance as a fraction of n (default 0.03),
//! label rule (`decision`, the default, or `eigenvector`).

use mkc_core::ParamGuard;
use mkc_data::{DataDir, Features, Registry};
use mkc_lgmmc::{Balance, LabelRule, LgmmcParams};

fn main() -> mkc_core::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map(String::as_str).unwrap_or("ionosphere");
    let c: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let frac: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0.03);
    let ds = Registry::load_default()?.load(name, &DataDir::resolve(None))?;
    let Features::Dense(mut x) = ds.features.clone() else {
        return Err(mkc_core::Error::input(name, "needs dense features"));
    };
    // Per column to [−1, 1]; constant columns to 0.
    for j in 0..x.ncols() {
        let (lo, hi) = x
            .col(j)
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
                (a.min(v), b.max(v))
            });
        for i in 0..x.nrows() {
            x[(i, j)] = if hi > lo {
                2.0 * (x[(i, j)] - lo) / (hi - lo) - 1.0
            } else {
                0.0
            };
        }
    }
    let t0 = std::time::Instant::now();
    let rule = if args.get(3).map(String::as_str) == Some("eigenvector") {
        LabelRule::Eigenvector
    } else {
        LabelRule::Decision
    };
    let fit = LgmmcParams::new()
        .c(c)
        .balance(Balance::Fraction(frac))
        .label_rule(rule)
        .check()?
        .fit_linear(x.as_ref())?;
    let secs = t0.elapsed().as_secs_f64();
    let truth: Vec<usize> = ds.labels.clone();
    let acc = mkc_metrics::accuracy(&truth, &fit.labels)?;
    println!(
        "{name}: n = {}, error = {:.2}%, {secs:.2} s, rounds {}, stop {:?}, solves {} ({} inner), T = {}, objective {:?}",
        x.nrows(),
        100.0 * (1.0 - acc),
        fit.rounds,
        fit.stop,
        fit.alpha_solves,
        fit.inner_iterations,
        fit.label_vectors.len(),
        fit.objective_trace
    );
    if std::env::var("LGMMC_DEBUG").is_ok() {
        let ones = fit.labels.iter().filter(|&&l| l == 1).count();
        println!("cluster sizes {} / {}", ones, fit.labels.len() - ones);
        for (t, y) in fit.label_vectors.iter().enumerate() {
            let l: Vec<usize> = y.iter().map(|&v| usize::from(v > 0.0)).collect();
            let a = mkc_metrics::accuracy(&truth, &l)?;
            println!(
                "  y_{t}: μ = {:.4}, error {:.2}%, 1ᵀy = {}",
                fit.mu[t],
                100.0 * (1.0 - a),
                y.iter().sum::<f64>()
            );
        }
    }
    Ok(())
}
