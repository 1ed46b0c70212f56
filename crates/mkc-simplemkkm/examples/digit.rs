//! Digit (UCI Multiple Features, views fac, fou, kar; n = 2000, k = 10): SimpleMKKM,
//! Avg-KKM, MKKM and each view alone for several kernel recipes, against the paper's
//! Table 2 (ACC: SimpleMKKM 90.3, Avg-KKM 88.8, MKKM 47.2).
//!
//! ```text
//! cargo run --release -p mkc-simplemkkm --example digit -- [RUNS] [RECIPE...]
//! ```
//! Data: the registry's `mfeat` from the data directory (`MKC_DATA_DIR`, else `./data`,
//! where the repository commits it); skipped with a message when absent. RUNS (k-means
//! seeds; the optimisation is shared) defaults to 10; recipes: linear, gauss-median,
//! gauss-mean, gauss-rms, each optionally suffixed `-z` (features z-scored first; the
//! table's recipe is gauss-median-z). Default: all four without `-z`.
//!
//! Environment: `MKC_OPT_ONLY=1` times the SimpleMKKM optimisation only (kernels are
//! preprocessed outside the timed fit; CPU time from /proc); `MKC_SOLVER=eig` uses the
//! reference path (`Solver::Eigensolver`); `MKC_TRIAL_TOL`, `MKC_EIG_TOL`,
//! `MKC_EIG_BLOCK`, `MKC_DELTA_MAX` change the settings; `MKC_REPEAT=r` refits r times
//! (for profiling).

mod common;

use faer::Mat;
use mkc_simplemkkm::prelude::*;
use mkc_simplemkkm::{
    GoldenSection, LineSearch, Preprocessing, SimpleMkkmDiagnostics, SimpleMkkmFit, Solver,
};

use common::K;

fn env<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

/// SimpleMKKM's parameters with the settings of the environment.
fn simplemkkm_params() -> SimpleMkkmParams {
    let mut eig = mkc_simplemkkm::default_eigen_options();
    if let Some(t) = env("MKC_EIG_TOL") {
        eig = eig.tol(t);
    }
    if let Some(b) = env("MKC_EIG_BLOCK") {
        eig = eig.block_size(Some(b));
    }
    let mut params = SimpleMkkmParams::new().eigen(eig);
    if let Some(d) = env("MKC_DELTA_MAX") {
        params = params.line_search(LineSearch::GoldenSection(GoldenSection::new(d)));
    }
    if std::env::var("MKC_SOLVER").as_deref() == Ok("eig") {
        params = params.solver(Solver::Eigensolver);
    } else if let Some(t) = env("MKC_TRIAL_TOL") {
        params = params.solver(Solver::Subspace { trial_tol: t });
    }
    params
}

fn mean_std(v: &[f64]) -> (f64, f64) {
    let m = v.iter().sum::<f64>() / v.len() as f64;
    let s = (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len().max(2) - 1) as f64).sqrt();
    (100.0 * m, 100.0 * s)
}

/// Print ACC / NMI / purity over the runs (one per seed; restarts share the
/// deterministic part), return the first run.
fn report<D>(
    name: &str,
    runs: Vec<mkc_core::Result<Clustering<D>>>,
    truth: &[usize],
) -> Clustering<D> {
    let (runs, scores) = common::scored_runs(name, runs, truth);
    let col =
        |f: fn(&mkc_metrics::Scores) -> f64| mean_std(&scores.iter().map(f).collect::<Vec<_>>());
    let (a, b, c) = (col(|s| s.acc), col(|s| s.nmi_max), col(|s| s.purity));
    println!(
        "  {name:<11} ACC {:5.1} ± {:3.1}  NMI(max) {:5.1} ± {:3.1}  purity {:5.1} ± {:3.1}",
        a.0, a.1, b.0, b.1, c.0, c.1
    );
    runs.into_iter().next().expect("at least one seed")
}

/// CPU time (user + system, all threads) of this process, from /proc/self/stat.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let rest = stat.rsplit(") ").next().unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (tick(11) + tick(12)) / 100.0
}

/// The SimpleMKKM optimisation alone on kernels preprocessed outside the timed fit.
fn optimise(params: &SimpleMkkmParams, kernels: &[Mat<f64>]) -> (SimpleMkkmFit, f64) {
    let refs: Vec<_> = kernels.iter().map(|m| m.as_ref()).collect();
    let pre = Preprocessing::default().apply(&refs).unwrap();
    let pre_refs: Vec<_> = pre.iter().map(|m| m.as_ref()).collect();
    let model = params
        .clone()
        .preprocessing(Preprocessing::None)
        .check()
        .unwrap();
    let cpu0 = cpu_seconds();
    let fit = model.fit_kernels(&pre_refs, K).unwrap();
    let cpu = cpu_seconds() - cpu0;
    for _ in 0..env::<usize>("MKC_REPEAT").unwrap_or(0) {
        let again = model.fit_kernels(&pre_refs, K).unwrap();
        println!(
            "  again: optimisation {:.2?}",
            again.diagnostics.optimisation_time
        );
    }
    (fit, cpu)
}

fn print_optimisation(gamma: &[f64], trace: &[f64], d: &SimpleMkkmDiagnostics, cpu: Option<f64>) {
    let i = &d.method;
    let cpu = cpu.map_or(String::new(), |c| format!(", {c:.2} s CPU"));
    println!(
        "  SimpleMKKM: γ = {gamma:.4?}, J = {:.6}, {} iterations, {} eigensolves ({} dense, {} matvecs, {:.2?} each), forming K_γ {:.2?}, optimisation {:.2?} wall{cpu}, KKT residual {:.1e}, converged {}",
        trace.last().copied().unwrap_or(f64::NAN), trace.len() - 1, d.eigensolves, i.dense_solves, i.matvecs, i.time_per_eigensolve, i.combine_time, d.optimisation_time, i.kkt_residual, d.converged
    );
    println!(
        "    subspace: {} trial points ({} from the cache) in {:.2?}, {} expansions, {} kernel matvecs ({} certifying), {} restarts, {} retries; line-search evaluations {:?}",
        i.projected_evaluations, i.trial_cache_hits, i.trial_time, i.subspace_expansions, i.kernel_matvecs, i.certify_matvecs, i.subspace_restarts, i.retries, i.line_search_evaluations
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs: u64 = args.first().map(|r| r.parse().unwrap()).unwrap_or(10);
    let mut recipes: Vec<String> = args.iter().skip(1).cloned().collect();
    if recipes.is_empty() {
        recipes = ["linear", "gauss-median", "gauss-mean", "gauss-rms"]
            .map(String::from)
            .to_vec();
    }
    let Some((views, truth)) = common::digit_views() else {
        return;
    };
    let seeds: Vec<u64> = (0..runs).collect();
    for recipe in &recipes {
        let t = std::time::Instant::now();
        let kernels: Vec<Mat<f64>> = views.iter().map(|x| common::kernel(x, recipe)).collect();
        println!("recipe {recipe} (kernels in {:.2?})", t.elapsed());
        let params = simplemkkm_params();
        if std::env::var("MKC_OPT_ONLY").is_ok() {
            let (fit, cpu) = optimise(&params, &kernels);
            print_optimisation(
                &fit.gamma,
                &fit.objective_trace,
                &fit.diagnostics,
                Some(cpu),
            );
            continue;
        }
        let data = KernelSet::new(&kernels).unwrap();
        let s = report("SimpleMKKM", params.fit_restarts(&data, K, &seeds), &truth);
        print_optimisation(
            s.weights().unwrap_or_default(),
            &s.objective,
            &s.diagnostics,
            None,
        );
        report(
            "Avg-KKM",
            AvgParams::new().fit_restarts(&data, K, &seeds),
            &truth,
        );
        let mkkm = report(
            "MKKM",
            mkc_mkkm::MkkmParams::new().fit_restarts(&data, K, &seeds),
            &truth,
        );
        println!(
            "  MKKM: γ = {:.4?}, {} iterations",
            mkkm.weights().unwrap_or_default(),
            mkkm.iterations
        );
        for (p, name) in common::VIEWS.iter().enumerate() {
            let one = data.select(&[p]).unwrap();
            let runs = AvgParams::new().fit_restarts(&one, K, &seeds);
            report(&format!("KKM-{name}"), runs, &truth);
        }
    }
}
