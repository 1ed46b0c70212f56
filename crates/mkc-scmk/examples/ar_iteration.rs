//! Time SCMK iterations on AR (n = 840, 120 classes, the paper's 12 kernels).
//!
//! `cargo run --release -p mkc-scmk --example ar_iteration -- [path.mat] [alpha] [beta] [iters] [qp_tol] [apg|smo]`
//! (default path `/work/shared/data/external/ar/AR_840n_768d_120c.mat`, α = 1, β = 1e-5,
//! 5 iterations, qp_tol = 1e-6, APG). Rows are L2-normalised (the `_uni` variant the benchmark ran on), the 12
//! kernels of `KernelSpec::scmk_twelve` are divided by their largest entry. Runs the
//! algorithm for 1..=iters iterations with a single k-means replicate and reports the
//! time of each additional iteration, then scores the labels of the longest run.

use std::time::Instant;

use faer::Mat;
use mkc_core::ParamGuard;
use mkc_kernels::{build, KernelSpec, Normalization};
use mkc_scmk::{ScmkParams, ZSolver};

fn main() -> mkc_core::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let path = args
        .get(1)
        .cloned()
        .unwrap_or_else(|| "/work/shared/data/external/ar/AR_840n_768d_120c.mat".into());
    let alpha: f64 = args.get(2).and_then(|v| v.parse().ok()).unwrap_or(1.0);
    let beta: f64 = args.get(3).and_then(|v| v.parse().ok()).unwrap_or(1e-5);
    let iters: usize = args.get(4).and_then(|v| v.parse().ok()).unwrap_or(5);
    let qp_tol: f64 = args.get(5).and_then(|v| v.parse().ok()).unwrap_or(1e-6);
    let solver = match args.get(6).map(String::as_str) {
        Some("smo") => ZSolver::Smo,
        Some("apg") => ZSolver::Apg,
        _ => ZSolver::Auto,
    };
    if !std::path::Path::new(&path).exists() {
        println!("skip: {path} not found");
        return Ok(());
    }
    let mat = mkc_data::read_mat(&path)?;
    let x = mat.require("X")?.to_mat("X")?;
    let y: Vec<usize> = mat
        .require("y")?
        .to_vec("y")?
        .iter()
        .map(|&v| v as usize - 1)
        .collect();
    let (n, d) = (x.nrows(), x.ncols());
    let norms: Vec<f64> = (0..n)
        .map(|i| (0..d).map(|j| x[(i, j)] * x[(i, j)]).sum::<f64>().sqrt())
        .collect();
    let x = Mat::from_fn(n, d, |i, j| x[(i, j)] / norms[i]);
    let c = y.iter().max().map_or(0, |m| m + 1);
    let t0 = Instant::now();
    let ks = build(
        x.as_ref(),
        &KernelSpec::scmk_twelve(),
        &[Normalization::DivideByMax],
    )?;
    println!(
        "AR: n = {n}, d = {d}, c = {c}; 12 kernels built in {:.2} s",
        t0.elapsed().as_secs_f64()
    );
    let refs: Vec<_> = ks.iter().map(|k| k.as_ref()).collect();
    let mut prev = 0.0;
    let mut last = None;
    for t in 1..=iters {
        let params = ScmkParams::new(c, alpha, beta)
            .min_iter(t)
            .max_iter(t)
            .n_init(1)
            .qp_tol(qp_tol)
            .z_solver(solver)
            .check()?;
        let start = Instant::now();
        let fit = params.fit(&refs)?;
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{t} iteration(s): {secs:.2} s (this iteration {:.2} s); pair updates {}, APG iterations {}, nnz(Z) {}, max KKT {:.1e}, J = {:.6e}",
            secs - prev,
            fit.info.qp_pair_updates[t - 1],
            fit.info.apg_iterations[t - 1],
            fit.info.z_nnz[t - 1],
            fit.info.max_kkt_violation[t - 1],
            fit.info.objective[t - 1],
        );
        let [e, z, w] = fit.info.seconds[t - 1];
        println!("    phases of iteration {t}: K_w + eigensolve {e:.2} s, Z step {z:.2} s, h/w/J {w:.2} s");
        prev = secs;
        last = Some(fit);
    }
    if let Some(fit) = last {
        let s = mkc_metrics::score_all(&y, &fit.labels)?;
        println!(
            "weights {:?}",
            fit.weights
                .iter()
                .map(|w| format!("{w:.3}"))
                .collect::<Vec<_>>()
        );
        println!("after {iters} iterations (1 k-means replicate): {s:?}");
    }
    Ok(())
}
