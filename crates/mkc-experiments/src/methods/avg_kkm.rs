//! Average-kernel k-means (SimpleMKKM's Avg-KKM baseline): kernel k-means on the uniform
//! combination (1/m) Σ_p K_p. The combination is formed once and shared by all restarts.

use super::kkm::{params, PARAMS};
use super::Method;
use crate::params::{ParamSet, ParamSpec};
use mkc_core::{DynClusterer, Result};

/// Kernel k-means on the uniformly weighted kernel sum.
pub struct AvgKkm;

impl Method for AvgKkm {
    fn name(&self) -> &'static str {
        "avg-kkm"
    }
    fn about(&self) -> &'static str {
        "kernel k-means on the uniform combination of all kernels (Avg-KKM)"
    }
    fn params(&self) -> Vec<ParamSpec> {
        PARAMS.to_vec()
    }
    /// Kernel k-means given all kernels works on their equal-weight mean (the method API's
    /// rule for single-kernel methods), formed once for all restarts.
    fn build(&self, p: &ParamSet) -> Result<Box<dyn DynClusterer>> {
        Ok(Box::new(params(p)?))
    }
}
