//! Time SCMK iterations on AR (n = 840, 120 classes, the paper's 12 kernels).
//!
//! ```text
//! MKC_DATA_DIR=/path/to/data cargo run --release -p mkc-scmk --example ar_iteration -- [dataset] [alpha] [beta] [iters] [qp_tol] [auto|apg|smo]
//! ```
//! Defaults: the registry's `ar-uni` (AR with L2-normalised rows, the `_uni` variant the
//! benchmark ran on; its MAT file is external data, so the example says so and stops when
//! the data directory does not hold it), α = 1, β = 1e-5, 5 iterations, qp_tol = 1e-6,
//! `auto`. The 12 kernels of `KernelSpec::scmk_twelve` are divided by their largest entry.
//! Runs the algorithm for 1..=iters iterations with a single k-means replicate and
//! reports the time of each additional iteration, then scores the labels of the longest
//! run.

use std::time::Instant;

use mkc_core::{ParamGuard, Result};
use mkc_data::{DataDir, Features, Registry};
use mkc_kernels::{build, KernelSpec, Normalization};
use mkc_scmk::{ScmkParams, ZSolver};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map(String::as_str).unwrap_or("ar-uni");
    let arg = |i: usize, default: f64| args.get(i).and_then(|v| v.parse().ok()).unwrap_or(default);
    let (alpha, beta) = (arg(1, 1.0), arg(2, 1e-5));
    let iters = arg(3, 5.0) as usize;
    let qp_tol = arg(4, 1e-6);
    let solver = match args.get(5).map(String::as_str) {
        Some("smo") => ZSolver::Smo,
        Some("apg") => ZSolver::Apg,
        _ => ZSolver::Auto,
    };
    let ds = match Registry::load_default()?.load(name, &DataDir::resolve(None)) {
        Ok(ds) => ds,
        Err(e) => {
            println!("skip: {name} is not in the data directory (set MKC_DATA_DIR): {e}");
            return Ok(());
        }
    };
    let Features::Dense(x) = &ds.features else {
        return Err(mkc_core::Error::input(name, "needs dense features"));
    };
    let (n, d) = (x.nrows(), x.ncols());
    let c = ds.class_names.len();
    let t0 = Instant::now();
    let ks = build(
        x.as_ref(),
        &KernelSpec::scmk_twelve(),
        &[Normalization::DivideByMax],
    )?;
    println!(
        "{name}: n = {n}, d = {d}, c = {c}; 12 kernels built in {:.2} s",
        t0.elapsed().as_secs_f64()
    );
    let refs: Vec<_> = ks.iter().map(|k| k.as_ref()).collect();
    let mut prev = 0.0;
    let mut last = None;
    for t in 1..=iters {
        let params = ScmkParams::new()
            .alpha(alpha)
            .beta(beta)
            .min_iter(t)
            .max_iter(t)
            .n_init(1)
            .qp_tol(qp_tol)
            .z_solver(solver)
            .check()?;
        let start = Instant::now();
        let fit = params.fit_kernels(&refs, c, 0)?;
        let secs = start.elapsed().as_secs_f64();
        let i = &fit.info;
        println!(
            "{t} iteration(s): {secs:.2} s (this iteration {:.2} s); pair updates {}, APG iterations {}, nnz(Z) {}, max KKT {:.1e}, J = {:.6e}",
            secs - prev,
            i.qp_pair_updates[t - 1],
            i.apg_iterations[t - 1],
            i.z_nnz[t - 1],
            i.max_kkt_violation[t - 1],
            i.objective[t - 1],
        );
        let [e, z, w] = i.seconds[t - 1];
        println!("    phases of iteration {t}: K_w + eigensolve {e:.2} s, Z step {z:.2} s, h/w/J {w:.2} s");
        prev = secs;
        last = Some(fit);
    }
    if let Some(fit) = last {
        let s = mkc_metrics::score_all(&ds.labels, &fit.labels)?;
        let w: Vec<String> = fit.weights.iter().map(|w| format!("{w:.3}")).collect();
        println!("weights {w:?}");
        println!("after {iters} iterations (1 k-means replicate): {s:?}");
    }
    Ok(())
}
