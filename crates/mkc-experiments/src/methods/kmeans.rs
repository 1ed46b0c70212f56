//! k-means on the feature matrix (k-means++ seeding) — adapter placeholder; the method engineer replaces this file.

use super::{Input, Method, Outcome};
use crate::params::{ParamSet, ParamSpec};
use mkc_core::{Error, Result};

/// Placeholder adapter.
pub struct KMeans;

impl Method for KMeans {
    fn name(&self) -> &'static str {
        "kmeans"
    }
    fn about(&self) -> &'static str {
        "k-means on the feature matrix (k-means++ seeding) (not available yet)"
    }
    fn params(&self) -> Vec<ParamSpec> {
        Vec::new()
    }
    fn run(&self, _input: &Input<'_>, _p: &ParamSet, _seed: u64) -> Result<Outcome> {
        Err(Error::input("method", "kmeans is not available yet"))
    }
}
