//! Does GMMC's relaxation hold the classes, and does its rounding lose them? On a
//! registered two-class set with one kernel of LG-MMC's grid, solve the relaxation and
//! compare labelings of the relaxed label matrix `F = A Z Aᵀ` (the relaxation of `f fᵀ`):
//!
//! - `signs v1`: the signs of the leading eigenvector (what GMMC returns);
//! - `best threshold v1`: the best error over every threshold of v1 (an oracle that reads
//!   the classes: a bound on what any threshold rule on v1 can reach);
//! - `signs v2`, `signs v3`: the next eigenvectors;
//! - random-hyperplane rounding (Goemans & Williamson): 2000 draws `sign(R g)`, `F = RRᵀ`,
//!   g standard normal; the draw with the largest `yᵀFy` (a rule that does not read the
//!   classes) and the best draw (oracle);
//! - the alignment `yᵀFy / (n λ₁)` (1 = y is the leading direction) of the classes and of
//!   GMMC's labels: when the classes align worse, the relaxation itself prefers GMMC's
//!   labels and no rounding of it would return the classes.
//!
//! ```text
//! cargo run --release -p mkc-mmc --example gmmc_rounding_check -- DATASET KERNEL C BALANCE
//! ```
//! DATASET a registry name (default `lamda-ionosphere`), KERNEL `linear` or the Gaussian
//! width as a multiple of the RMS pairwise distance (LG-MMC's 0.25, 0.5, 1, 2, 4; default
//! 0.5), C (default 1), BALANCE ℓ as a fraction of n (default 0.3). Features scaled per
//! column to [−1, 1] as in LG-MMC's protocol. Dense n x n eigendecomposition: n ≤ ~1500.

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, Par};
use mkc_data::{Features, Registry};
use mkc_kernels::{build, KernelSpec, Width};
use mkc_mmc::gmmc::{BarrierSolver, Relaxation};
use mkc_mmc::prelude::*;
use rand::{Rng, SeedableRng};

/// Error (%) of a 0/1 labelling against the classes.
fn error(truth: &[usize], labels: &[usize]) -> Result<f64> {
    Ok(100.0 * (1.0 - mkc_metrics::accuracy(truth, labels)?))
}

fn signs(v: &[f64]) -> Vec<usize> {
    v.iter().map(|&x| usize::from(x > 0.0)).collect()
}

/// `yᵀFy` with `F = RRᵀ` and y = ±1 from 0/1 labels.
fn quad(r: &Mat<f64>, labels: &[usize]) -> f64 {
    (0..r.ncols())
        .map(|j| {
            let s: f64 = (0..r.nrows())
                .map(|i| {
                    if labels[i] == 1 {
                        r[(i, j)]
                    } else {
                        -r[(i, j)]
                    }
                })
                .sum();
            s * s
        })
        .sum()
}

/// The best error over every threshold of v (oracle) and the size of its cluster 1.
fn best_threshold(v: &[f64], truth: &[usize]) -> Result<(f64, usize)> {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&a, &b| v[b].total_cmp(&v[a]));
    let mut labels = vec![0; v.len()];
    let mut best = (error(truth, &labels)?, 0);
    for (k, &i) in order.iter().enumerate() {
        labels[i] = 1;
        let e = error(truth, &labels)?;
        if e < best.0 {
            best = (e, k + 1);
        }
    }
    Ok(best)
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("lamda-ionosphere", String::as_str);
    let kernel = args.get(1).map_or("0.5", String::as_str);
    let c: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let frac: f64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(0.3);
    let Some(ds) = Registry::load_or_skip(name)? else {
        return Ok(());
    };
    let Features::Dense(mut x) = ds.features.clone() else {
        return Err(Error::input(name, "needs dense features"));
    };
    mkc_data::preprocess::min_max(&mut x, -1.0, 1.0);
    let n = x.nrows();
    let phi = if kernel == "linear" {
        x.clone()
    } else {
        let ratio: f64 = kernel
            .parse()
            .map_err(|_| Error::param("kernel", kernel, "`linear` or a width ratio"))?;
        let k = build(
            x.as_ref(),
            &[KernelSpec::Gaussian {
                width: Width::MeanRatio { ratio },
            }],
            &[],
        )?;
        mkc_lgmmc::kernel_features(k[0].as_ref(), Default::default(), 0)?
    };
    let rel = Relaxation::new(phi.as_ref(), c, frac * n as f64)?;
    let sol = BarrierSolver::default().solve(&rel, None)?;
    // F = RRᵀ, R = A V Λ^½ (Z = VΛVᵀ).
    let (zv, zu) = mkc_linalg::eigen::sym_evd(sol.z.as_ref())?;
    let m = zv.len();
    let root = Mat::from_fn(m, m, |i, j| zu[(i, j)] * zv[j].max(0.0).sqrt());
    let mut r = Mat::<f64>::zeros(n, m);
    matmul(
        r.as_mut(),
        Accum::Replace,
        rel.design(),
        root.as_ref(),
        1.0,
        Par::Seq,
    );
    let mut f = Mat::<f64>::zeros(n, n);
    matmul(
        f.as_mut(),
        Accum::Replace,
        r.as_ref(),
        r.transpose(),
        1.0,
        Par::Seq,
    );
    let (fv, fu) = mkc_linalg::eigen::sym_evd(f.as_ref())?;
    let col = |k: usize| (0..n).map(|i| fu[(i, n - 1 - k)]).collect::<Vec<f64>>();
    let trace: f64 = fv.iter().map(|v| v.max(0.0)).sum();
    let truth = &ds.labels;
    println!(
        "{name} (n = {n}), kernel {kernel}, C = {c}, ℓ = {frac}·n: relaxation {:.5}, λ₁..₃/tr = {:.3} {:.3} {:.3}",
        sol.dual,
        fv[n - 1] / trace,
        fv[n - 2] / trace,
        fv[n - 3] / trace
    );
    let gmmc = signs(&col(0));
    let plus = gmmc.iter().sum::<usize>();
    println!(
        "  signs v1 (GMMC): {:.2}% ({} / {})",
        error(truth, &gmmc)?,
        n - plus,
        plus
    );
    let (best, size) = best_threshold(&col(0), truth)?;
    let ones = truth.iter().filter(|&&l| l == 1).count();
    println!(
        "  best threshold v1 (oracle): {best:.2}% ({} / {size}; classes {} / {ones})",
        n - size,
        n - ones
    );
    for k in 1..3 {
        println!("  signs v{}: {:.2}%", k + 1, error(truth, &signs(&col(k)))?);
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(0);
    let (mut best_q, mut best_q_err, mut best_err) = (f64::MIN, 0.0, f64::MAX);
    for _ in 0..2000 {
        let g: Vec<f64> = (0..m)
            .map(|_| {
                let (u1, u2): (f64, f64) = (rng.random::<f64>().max(1e-300), rng.random());
                (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
            })
            .collect();
        let y: Vec<usize> = (0..n)
            .map(|i| usize::from((0..m).map(|j| r[(i, j)] * g[j]).sum::<f64>() > 0.0))
            .collect();
        let (q, e) = (quad(&r, &y), error(truth, &y)?);
        best_err = best_err.min(e);
        if q > best_q {
            (best_q, best_q_err) = (q, e);
        }
    }
    println!(
        "  hyperplane rounding: largest yᵀFy {best_q_err:.2}%, best draw (oracle) {best_err:.2}%"
    );
    let align = |labels: &[usize]| quad(&r, labels) / (n as f64 * fv[n - 1]);
    println!(
        "  alignment yᵀFy/(n λ₁): classes {:.3}, GMMC's labels {:.3}",
        align(truth),
        align(&gmmc)
    );
    Ok(())
}
