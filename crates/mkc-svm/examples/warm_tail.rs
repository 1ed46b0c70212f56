//! Where a warm re-solve after one label flip spends its iterations: cold and warm solves
//! of the C-SVC at n = 2000 (the `cargo xtask compare svm` problem, least confident label
//! flipped) at a range of KKT tolerances. The numbers in the crate docs' "Speed" section
//! (at C = 10 the warm solve reaches 0.1 in 164 iterations, then about 1000 per decade, as
//! the cold one) come from here:
//!
//! ```text
//! cargo run --release -p mkc-svm --example warm_tail
//! ```
use mkc_core::ParamGuard;
use mkc_svm::{CSvcParams, CheckedKernel};

fn main() -> Result<(), mkc_core::Error> {
    let n = 2000;
    let (k, y) = mkc_svm::problems::overlapping_blobs_rbf(n, 2024);
    let ck = CheckedKernel::new(k.as_ref())?;
    for c in [1.0, 10.0] {
        let base = CSvcParams::new(c).check()?.solve(&ck, 1.0, &y, None)?;
        let margin = |i: usize| y[i] * base.decision[i];
        let flip = (0..n)
            .min_by(|&a, &b| margin(a).total_cmp(&margin(b)))
            .unwrap_or(0);
        let mut y2 = y.clone();
        y2[flip] = -y2[flip];
        let free = base.alpha.iter().filter(|&&a| a > 0.0 && a < c).count();
        println!(
            "C = {c}: flipped sample {flip} (alpha {}), {} support vectors, {free} free",
            base.alpha[flip],
            base.support.len()
        );
        for tol in [1e-1, 3e-2, 1e-2, 3e-3, 1e-3] {
            let svc = CSvcParams::new(c).tol(tol).check()?;
            let cold = svc.solve(&ck, 1.0, &y2, None)?;
            let warm = svc.solve_from(&ck, 1.0, &y2, &base, &y, 1.0)?;
            println!(
                "  tol {tol:e}: cold {} iterations, warm {} (objectives {:.6} / {:.6})",
                cold.status.iterations, warm.status.iterations, cold.objective, warm.objective
            );
        }
    }
    Ok(())
}
