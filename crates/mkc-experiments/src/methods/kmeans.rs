//! k-means on the (scaled) feature matrix, k-means++ seeding (`mkc-kmeans`): the KM
//! baseline of the MMC papers (LG-MMC: "run 10 times and evaluate the average
//! performance" = `restarts = 10` with `n_init = 1`). Ignores the kernels.

use super::Method;
use crate::params::{ParamKind, ParamSet, ParamSpec};
use mkc_core::{DynClusterer, Result};

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
    fn build(&self, p: &ParamSet) -> Result<Box<dyn DynClusterer>> {
        Ok(Box::new(
            mkc_kmeans::KMeansParams::new()
                .n_init(p.usize("n_init")?)
                .max_iter(p.usize("max_iter")?),
        ))
    }
}
