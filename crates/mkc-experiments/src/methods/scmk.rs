//! SCMK and SCSK (Kang, Peng & Cheng, AAAI 2017, `mkc-scmk`): twin learning of similarity
//! and clustering, with multiple kernels (Algorithm 2) or one kernel at a time
//! (Algorithm 1). α and β have no paper defaults (the paper searches α ∈ {1e-5, …, 100},
//! β ∈ {1e-6, 1e-5}); the stopping rule and the 100 k-means replicates are the authors'.
//! The alternating loop is deterministic, so restarts share it and differ only in the
//! seed of the final k-means on P.

use super::{Input, KernelUse, Method, Outcome};
use crate::params::{ParamKind, ParamSet, ParamSpec};
use mkc_core::{Error, ParamGuard, Result};
use mkc_kmeans::KMeansParams;
use mkc_scmk::{ScmkParams, ScskParams, TwinFit, ZSolver};

/// SCMK, Algorithm 2 (all kernels).
pub struct Scmk;
/// SCSK, Algorithm 1 (each kernel separately).
pub struct Scsk;

fn specs(min_iter: &'static str, max_iter: &'static str) -> Vec<ParamSpec> {
    vec![
        ParamSpec::new(
            "alpha",
            ParamKind::Float,
            "1",
            "α > 0, weight of ‖Z‖²_F (no paper default; grid 1e-5 … 100)",
        ),
        ParamSpec::new(
            "beta",
            ParamKind::Float,
            "1e-5",
            "β ≥ 0, weight of tr(PᵀLP) (no paper default; grid 1e-6, 1e-5)",
        ),
        ParamSpec::new(
            "min_iter",
            ParamKind::Int,
            min_iter,
            "iterations before the stopping test (authors' code)",
        ),
        ParamSpec::new(
            "max_iter",
            ParamKind::Int,
            max_iter,
            "iteration cap (authors' code)",
        ),
        ParamSpec::new(
            "tol",
            ParamKind::Float,
            "1e-3",
            "stop when ‖Z − Z_old‖_F/‖Z_old‖_F < tol (authors' code)",
        ),
        ParamSpec::new(
            "qp_tol",
            ParamKind::Float,
            "1e-6",
            "KKT tolerance of the column QPs (11)",
        ),
        ParamSpec::new(
            "z_solver",
            ParamKind::Choice(&["auto", "apg", "smo"]),
            "auto",
            "Z step: accelerated projected gradient with SMO for sparse columns (auto), APG alone, or SMO alone",
        ),
        ParamSpec::new(
            "n_init",
            ParamKind::Int,
            "100",
            "k-means replicates on P (authors' code: 100)",
        ),
    ]
}

macro_rules! build {
    ($t:ident, $n:expr, $p:expr, $seed:expr) => {
        $t::new($n, $p.f64("alpha")?, $p.f64("beta")?)
            .min_iter($p.usize("min_iter")?)
            .max_iter($p.usize("max_iter")?)
            .tol($p.f64("tol")?)
            .qp_tol($p.f64("qp_tol")?)
            .z_solver(z_solver($p.str("z_solver")?))
            .n_init($p.usize("n_init")?)
            .seed($seed)
    };
}

fn z_solver(name: &str) -> ZSolver {
    match name {
        "apg" => ZSolver::Apg,
        "smo" => ZSolver::Smo,
        _ => ZSolver::Auto,
    }
}

fn outcome(fit: TwinFit, weights: bool) -> Outcome {
    let i = &fit.info;
    Outcome {
        converged: i.converged,
        phases: Vec::new(),
        diagnostics: vec![
            ("converged".into(), f64::from(u8::from(i.converged))),
            (
                "max_kkt_violation".into(),
                i.max_kkt_violation
                    .iter()
                    .cloned()
                    .fold(f64::NEG_INFINITY, f64::max),
            ),
            ("z_nnz".into(), i.z_nnz.last().copied().unwrap_or(0) as f64),
            (
                "apg_iterations".into(),
                i.apg_iterations.iter().sum::<usize>() as f64,
            ),
            (
                "smo_pair_updates".into(),
                i.qp_pair_updates.iter().sum::<usize>() as f64,
            ),
        ],
        objective: i.objective.clone(),
        iterations: i.iterations,
        weights: weights.then(|| fit.weights.clone()),
        labels: fit.labels,
        seconds: 0.0,
    }
}

/// The first seed runs the whole algorithm; the others redo only the k-means on P.
fn restarts(
    first: Result<TwinFit>,
    weights: bool,
    p: &ParamSet,
    n_clusters: usize,
    seeds: &[u64],
) -> Vec<Result<Outcome>> {
    let t0 = std::time::Instant::now();
    let fit = match first {
        Ok(f) => f,
        Err(e) => {
            return seeds
                .iter()
                .map(|_| Err(Error::input("scmk", e.to_string())))
                .collect()
        }
    };
    let share = t0.elapsed().as_secs_f64();
    seeds
        .iter()
        .enumerate()
        .map(|(r, &seed)| {
            let t = std::time::Instant::now();
            let mut f = fit.clone();
            if r > 0 {
                f.labels = KMeansParams::new()
                    .n_init(p.usize("n_init")?)
                    .max_iter(100)
                    .check()?
                    .fit_features(fit.p.as_ref(), n_clusters, seed)?
                    .labels;
            }
            let mut out = outcome(f, weights);
            out.seconds = t.elapsed().as_secs_f64() + if r == 0 { share } else { 0.0 };
            Ok(out)
        })
        .collect()
}

impl Method for Scmk {
    fn name(&self) -> &'static str {
        "scmk"
    }
    fn about(&self) -> &'static str {
        "SCMK: joint similarity, clustering and kernel weights (Kang et al. AAAI 2017, Algorithm 2)"
    }
    fn params(&self) -> Vec<ParamSpec> {
        specs("10", "500")
    }
    fn check(&self, p: &ParamSet) -> Result<()> {
        build!(ScmkParams, 1, p, 0).check().map(|_| ())
    }
    fn run(&self, input: &Input<'_>, p: &ParamSet, seed: u64) -> Result<Outcome> {
        let refs: Vec<_> = input.kernels.iter().map(|k| k.as_ref()).collect();
        Ok(outcome(
            build!(ScmkParams, input.n_clusters, p, seed)
                .check()?
                .fit(&refs)?,
            true,
        ))
    }
    fn run_restarts(&self, input: &Input<'_>, p: &ParamSet, seeds: &[u64]) -> Vec<Result<Outcome>> {
        let refs: Vec<_> = input.kernels.iter().map(|k| k.as_ref()).collect();
        let seed = seeds.first().copied().unwrap_or(0);
        let first = (|| {
            build!(ScmkParams, input.n_clusters, p, seed)
                .check()?
                .fit(&refs)
        })();
        restarts(first, true, p, input.n_clusters, seeds)
    }
}

impl Method for Scsk {
    fn name(&self) -> &'static str {
        "scsk"
    }
    fn about(&self) -> &'static str {
        "SCSK: joint similarity and clustering on each kernel (Kang et al. AAAI 2017, Algorithm 1)"
    }
    fn params(&self) -> Vec<ParamSpec> {
        specs("5", "200")
    }
    fn kernels(&self) -> KernelUse {
        KernelUse::Single
    }
    fn check(&self, p: &ParamSet) -> Result<()> {
        build!(ScskParams, 1, p, 0).check().map(|_| ())
    }
    fn run(&self, input: &Input<'_>, p: &ParamSet, seed: u64) -> Result<Outcome> {
        let Some(k) = input.kernels.first() else {
            return Err(Error::input("scsk", "no kernel given"));
        };
        Ok(outcome(
            build!(ScskParams, input.n_clusters, p, seed)
                .check()?
                .fit(k.as_ref())?,
            false,
        ))
    }
    fn run_restarts(&self, input: &Input<'_>, p: &ParamSet, seeds: &[u64]) -> Vec<Result<Outcome>> {
        let seed = seeds.first().copied().unwrap_or(0);
        let first = (|| match input.kernels.first() {
            Some(k) => build!(ScskParams, input.n_clusters, p, seed)
                .check()?
                .fit(k.as_ref()),
            None => Err(Error::input("scsk", "no kernel given")),
        })();
        restarts(first, false, p, input.n_clusters, seeds)
    }
}
