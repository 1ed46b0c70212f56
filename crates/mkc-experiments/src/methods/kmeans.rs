//! k-means on the (scaled) feature matrix, k-means++ seeding (`mkc-kmeans`): the KM
//! baseline of the MMC papers (LG-MMC: "run 10 times and evaluate the average
//! performance" = `restarts = 10` with `n_init = 1`). Ignores the kernels.

use super::{Input, Method, Outcome};
use crate::params::{ParamKind, ParamSet, ParamSpec};
use mkc_core::{Error, ParamGuard, Result};

/// k-means adapter.
pub struct KMeans;

const PARAMS: &[ParamSpec] = &[
    ParamSpec::new(
        "n_init",
        ParamKind::Int,
        "1",
        "k-means++ initialisations per run; the run keeps the lowest inertia",
    ),
    ParamSpec::new(
        "max_iter",
        ParamKind::Int,
        "300",
        "Lloyd iterations per initialisation",
    ),
];

impl Method for KMeans {
    fn name(&self) -> &'static str {
        "kmeans"
    }
    fn about(&self) -> &'static str {
        "k-means on the feature matrix (k-means++ seeding); needs dense features"
    }
    fn params(&self) -> Vec<ParamSpec> {
        PARAMS.to_vec()
    }
    fn check(&self, p: &ParamSet) -> Result<()> {
        for name in ["n_init", "max_iter"] {
            if p.usize(name)? == 0 {
                return Err(Error::param(name, 0, "must be at least 1"));
            }
        }
        Ok(())
    }
    fn run(&self, input: &Input<'_>, p: &ParamSet, seed: u64) -> Result<Outcome> {
        let Some(x) = input.features else {
            return Err(Error::input(
                "kmeans",
                "needs the feature matrix (the dataset has precomputed kernels only)",
            ));
        };
        let fit = mkc_kmeans::KMeansParams::new(input.n_clusters)
            .n_init(p.usize("n_init")?)
            .max_iter(p.usize("max_iter")?)
            .seed(seed)
            .check()?
            .fit(x)?;
        Ok(Outcome {
            labels: fit.labels,
            objective: fit.inertia_trace,
            iterations: fit.n_iter,
            ..Outcome::default()
        })
    }
}
