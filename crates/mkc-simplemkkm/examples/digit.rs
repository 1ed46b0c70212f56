//! Digit (UCI Multiple Features, views fac, fou, kar; n = 2000, k = 10): SimpleMKKM,
//! Avg-KKM and MKKM for several kernel recipes, against the paper's Table 2
//! (ACC: SimpleMKKM 90.3, Avg-KKM 88.8, MKKM 47.2).
//!
//! ```text
//! cargo run --release -p mkc-simplemkkm --example digit -- [DATA_DIR] [RUNS] [RECIPE...]
//! ```
//! DATA_DIR defaults to /work/shared/data/bundle/mfeat; RUNS (k-means seeds) to 10;
//! recipes: linear, gauss-median, gauss-mean, gauss-rms, each optionally suffixed `-z`
//! (features standardised per column first). Default: all four without `-z`.
//!
//! Environment: `MKC_OPT_ONLY=1` times the SimpleMKKM optimisation only (kernels are
//! preprocessed outside the timed fit; CPU time from /proc); `MKC_SOLVER=eig` uses the
//! reference path (`Solver::Eigensolver`); `MKC_TRIAL_TOL`, `MKC_EIG_TOL`,
//! `MKC_EIG_BLOCK`, `MKC_DELTA_MAX` change the settings; `MKC_REPEAT=r` refits r times
//! (for profiling).

use std::path::{Path, PathBuf};
use std::time::Instant;

use faer::Mat;
use mkc_core::ParamGuard;
use mkc_kernels::{gram, sq_dists, KernelFn};
use mkc_simplemkkm::{AvgParams, MkkmParams, SimpleMkkmParams};

fn read_csv(path: &Path) -> Vec<Vec<f64>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            l.split(',')
                .map(|v| {
                    v.trim()
                        .parse::<f64>()
                        .unwrap_or_else(|e| panic!("{}: {e}: {v}", path.display()))
                })
                .collect()
        })
        .collect()
}

fn to_mat(rows: &[Vec<f64>]) -> Mat<f64> {
    Mat::from_fn(rows.len(), rows[0].len(), |i, j| rows[i][j])
}

fn standardise(x: &mut Mat<f64>) {
    let n = x.nrows() as f64;
    for j in 0..x.ncols() {
        let mean = (0..x.nrows()).map(|i| x[(i, j)]).sum::<f64>() / n;
        let sd = ((0..x.nrows())
            .map(|i| (x[(i, j)] - mean).powi(2))
            .sum::<f64>()
            / n)
            .sqrt();
        for i in 0..x.nrows() {
            x[(i, j)] = if sd > 0.0 {
                (x[(i, j)] - mean) / sd
            } else {
                0.0
            };
        }
    }
}

/// Median and mean of the pairwise distances (i < j) and sqrt of the mean squared one.
fn dist_stats(x: &Mat<f64>) -> (f64, f64, f64) {
    let d2 = sq_dists(x.as_ref()).unwrap();
    let n = d2.nrows();
    let mut d: Vec<f64> = Vec::with_capacity(n * (n - 1) / 2);
    for j in 0..n {
        for i in 0..j {
            d.push(d2[(i, j)].max(0.0).sqrt());
        }
    }
    let mean = d.iter().sum::<f64>() / d.len() as f64;
    let rms = (d.iter().map(|v| v * v).sum::<f64>() / d.len() as f64).sqrt();
    d.sort_by(|a, b| a.total_cmp(b));
    (d[d.len() / 2], mean, rms)
}

fn kernel(x: &Mat<f64>, recipe: &str) -> Mat<f64> {
    let f = if recipe.starts_with("linear") {
        KernelFn::Linear
    } else {
        let (median, mean, rms) = dist_stats(x);
        let sigma = match recipe.trim_end_matches("-z") {
            "gauss-median" => median,
            "gauss-mean" => mean,
            "gauss-rms" => rms,
            r => panic!("unknown recipe {r}"),
        };
        KernelFn::Gaussian { sigma }
    };
    gram(x.as_ref(), &f).unwrap()
}

fn mean_std(v: &[f64]) -> (f64, f64) {
    let m = v.iter().sum::<f64>() / v.len() as f64;
    let s = (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len().max(2) - 1) as f64).sqrt();
    (100.0 * m, 100.0 * s)
}

fn report(name: &str, truth: &[usize], labels: impl Fn(u64) -> Vec<usize>, runs: u64) {
    let (mut acc, mut nmi, mut pur) = (vec![], vec![], vec![]);
    for s in 0..runs {
        let sc = mkc_metrics::score_all(truth, &labels(s)).unwrap();
        acc.push(sc.acc);
        nmi.push(sc.nmi_max);
        pur.push(sc.purity);
    }
    let (a, b, c) = (mean_std(&acc), mean_std(&nmi), mean_std(&pur));
    println!(
        "  {name:<11} ACC {:5.1} ± {:3.1}  NMI(max) {:5.1} ± {:3.1}  purity {:5.1} ± {:3.1}",
        a.0, a.1, b.0, b.1, c.0, c.1
    );
}

/// CPU time (user + system, all threads) of this process, from /proc/self/stat.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let rest = stat.rsplit(") ").next().unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (tick(11) + tick(12)) / 100.0
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = PathBuf::from(
        args.first()
            .cloned()
            .unwrap_or_else(|| "/work/shared/data/bundle/mfeat".into()),
    );
    let runs: u64 = args.get(1).map(|r| r.parse().unwrap()).unwrap_or(10);
    let mut recipes: Vec<String> = args.iter().skip(2).cloned().collect();
    if recipes.is_empty() {
        recipes = ["linear", "gauss-median", "gauss-mean", "gauss-rms"]
            .map(String::from)
            .to_vec();
    }
    let truth: Vec<usize> = read_csv(&dir.join("labels.csv"))
        .iter()
        .map(|r| r[0] as usize)
        .collect();
    let views: Vec<Mat<f64>> = ["fac", "fou", "kar"]
        .iter()
        .map(|v| to_mat(&read_csv(&dir.join(format!("views/{v}.csv")))))
        .collect();
    let k = 10;
    for recipe in &recipes {
        let t = Instant::now();
        let ks: Vec<Mat<f64>> = views
            .iter()
            .map(|x| {
                let mut x = x.clone();
                if recipe.ends_with("-z") {
                    standardise(&mut x);
                }
                kernel(&x, recipe)
            })
            .collect();
        let refs: Vec<_> = ks.iter().map(|m| m.as_ref()).collect();
        println!("recipe {recipe} (kernels in {:.2?})", t.elapsed());
        let mut eig = mkc_simplemkkm::default_eigen_options();
        if let Some(t) = std::env::var("MKC_EIG_TOL")
            .ok()
            .and_then(|v| v.parse().ok())
        {
            eig = eig.tol(t);
        }
        if let Some(b) = std::env::var("MKC_EIG_BLOCK")
            .ok()
            .and_then(|v| v.parse().ok())
        {
            eig = eig.block_size(Some(b));
        }
        let mut params = SimpleMkkmParams::new(k).eigen(eig);
        if let Some(d) = std::env::var("MKC_DELTA_MAX")
            .ok()
            .and_then(|v| v.parse().ok())
        {
            params = params.line_search(mkc_simplemkkm::LineSearch::GoldenSection(
                mkc_simplemkkm::GoldenSection::new(d),
            ));
        }
        match std::env::var("MKC_SOLVER").as_deref() {
            Ok("eig") => params = params.solver(mkc_simplemkkm::Solver::Eigensolver),
            _ => {
                if let Some(t) = std::env::var("MKC_TRIAL_TOL")
                    .ok()
                    .and_then(|v| v.parse().ok())
                {
                    params = params.solver(mkc_simplemkkm::Solver::Subspace { trial_tol: t });
                }
            }
        }
        // Preprocess outside the timed fit (the target excludes kernel construction).
        let pre = mkc_simplemkkm::Preprocessing::default()
            .apply(&refs)
            .unwrap();
        let pre_refs: Vec<_> = pre.iter().map(|m| m.as_ref()).collect();
        let cpu0 = cpu_seconds();
        let fit = params
            .clone()
            .preprocessing(mkc_simplemkkm::Preprocessing::None)
            .check()
            .unwrap()
            .fit(&pre_refs)
            .unwrap();
        let cpu = cpu_seconds() - cpu0;
        // MKC_REPEAT=r: fit r more times (for profiling the optimisation alone)
        let repeat: usize = std::env::var("MKC_REPEAT")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        for _ in 0..repeat {
            let again = params
                .clone()
                .preprocessing(mkc_simplemkkm::Preprocessing::None)
                .check()
                .unwrap()
                .fit(&pre_refs)
                .unwrap();
            println!("  again: optimisation {:.2?}", again.info.optimisation_time);
        }
        let i = &fit.info;
        println!(
            "  SimpleMKKM: γ = {:.4?}, J = {:.6}, {} iterations, {} eigensolves ({} dense, {} matvecs, {:.2?} each), forming K_γ {:.2?}, preprocessing {:.2?}, optimisation {:.2?} wall, {cpu:.2} s CPU, KKT residual {:.1e}, converged {}",
            fit.gamma, fit.objective, i.iterations, i.eigensolves, i.dense_solves, i.matvecs, i.time_per_eigensolve, i.combine_time, i.preprocessing_time, i.optimisation_time, i.kkt_residual, i.converged
        );
        println!(
            "    subspace: {} trial points ({} from the cache) in {:.2?}, {} expansions, {} kernel matvecs ({} certifying), {} restarts, {} retries; line-search evaluations {:?}",
            i.projected_evaluations, i.trial_cache_hits, i.trial_time, i.subspace_expansions, i.kernel_matvecs, i.certify_matvecs, i.subspace_restarts, i.retries, i.line_search_evaluations
        );
        if std::env::var("MKC_OPT_ONLY").is_ok() {
            continue;
        }
        report("SimpleMKKM", &truth, |s| fit.labels(s).unwrap(), runs);
        let avg = AvgParams::new(k).check().unwrap().fit(&refs).unwrap();
        report("Avg-KKM", &truth, |s| avg.labels(s).unwrap(), runs);
        let mk = MkkmParams::new(k).check().unwrap().fit(&refs).unwrap();
        println!(
            "  MKKM: γ = {:.4?}, {} iterations",
            mk.gamma, mk.info.iterations
        );
        report("MKKM", &truth, |s| mk.labels(s).unwrap(), runs);
        let singles = AvgParams::new(k).check().unwrap().fit_each(&refs).unwrap();
        for (name, f) in ["fac", "fou", "kar"].iter().zip(&singles) {
            report(
                &format!("KKM-{name}"),
                &truth,
                |s| f.labels(s).unwrap(),
                runs,
            );
        }
    }
}
