//! Average-kernel k-means (SimpleMKKM's Avg-KKM baseline): kernel k-means on the uniform
//! combination (1/m) Σ_p K_p. The combination is formed once and shared by all restarts.

use super::kkm::{check_common, fit, PARAMS};
use super::{Input, Method, Outcome};
use crate::params::{ParamSet, ParamSpec};
use faer::Mat;
use mkc_core::Result;
use rayon::prelude::*;

/// Kernel k-means on the uniformly weighted kernel sum.
pub struct AvgKkm;

fn uniform(input: &Input<'_>) -> Result<(Mat<f64>, Vec<f64>)> {
    let m = input.kernels.len();
    let w = vec![1.0 / m.max(1) as f64; m];
    let refs: Vec<_> = input.kernels.iter().map(|k| k.as_ref()).collect();
    Ok((mkc_linalg::weighted_sum(&w, &refs)?, w))
}

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
    fn check(&self, p: &ParamSet) -> Result<()> {
        check_common(p)
    }
    fn run(&self, input: &Input<'_>, p: &ParamSet, seed: u64) -> Result<Outcome> {
        let (k, w) = uniform(input)?;
        let mut out = fit(k.as_ref(), input.n_clusters, p, seed)?;
        out.weights = Some(w);
        Ok(out)
    }
    fn run_restarts(&self, input: &Input<'_>, p: &ParamSet, seeds: &[u64]) -> Vec<Result<Outcome>> {
        let t0 = std::time::Instant::now();
        let (k, w) = match uniform(input) {
            Ok(x) => x,
            Err(e) => {
                return seeds
                    .iter()
                    .map(|_| Err(mkc_core::Error::input("avg-kkm", e.to_string())))
                    .collect()
            }
        };
        let shared = t0.elapsed().as_secs_f64() / seeds.len().max(1) as f64;
        seeds
            .par_iter()
            .map(|&s| {
                let t = std::time::Instant::now();
                let mut out = fit(k.as_ref(), input.n_clusters, p, s)?;
                out.weights = Some(w.clone());
                out.seconds = shared + t.elapsed().as_secs_f64();
                Ok(out)
            })
            .collect()
    }
}
