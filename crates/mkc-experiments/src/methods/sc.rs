//! Spectral clustering (Ng, Jordan & Weiss 2002) with each kernel as the affinity, the SC
//! baseline of the SCMK paper (best kernel and average over kernels; `mkc-kmeans`'
//! `SpectralParams`: zero diagonal, D^{−1/2} A D^{−1/2}, top-c eigenvectors,
//! row-normalised, k-means). Protocol of the paper: k-means repeated 20 times on the
//! embedding, the lowest objective kept (`n_init = 20`). Each run is one such fit from its
//! own seed.

use super::{Input, KernelUse, Method, Outcome};
use crate::params::{ParamKind, ParamSet, ParamSpec};
use mkc_core::{Error, ParamGuard, Result};
use mkc_kmeans::SpectralParams;

/// Spectral clustering, single kernel.
pub struct Spectral;

const PARAMS: &[ParamSpec] = &[
    ParamSpec::new(
        "n_init",
        ParamKind::Int,
        "20",
        "k-means replicates on the embedding; the lowest inertia wins (SCMK paper: 20)",
    ),
    ParamSpec::new(
        "max_iter",
        ParamKind::Int,
        "100",
        "Lloyd iterations per replicate",
    ),
    ParamSpec::new(
        "clip_negative",
        ParamKind::Bool,
        "false",
        "use max(K, 0) as affinity (otherwise a kernel with negative entries is an error)",
    ),
];

fn build(n_clusters: usize, p: &ParamSet, seed: u64) -> Result<SpectralParams> {
    Ok(SpectralParams::new(n_clusters)
        .n_init(p.usize("n_init")?)
        .max_iter(p.usize("max_iter")?)
        .clip_negative(p.bool("clip_negative")?)
        .seed(seed))
}

impl Method for Spectral {
    fn name(&self) -> &'static str {
        "sc"
    }
    fn about(&self) -> &'static str {
        "spectral clustering (Ng-Jordan-Weiss normalised cut) with each kernel as affinity"
    }
    fn params(&self) -> Vec<ParamSpec> {
        PARAMS.to_vec()
    }
    fn kernels(&self) -> KernelUse {
        KernelUse::Single
    }
    fn check(&self, p: &ParamSet) -> Result<()> {
        build(1, p, 0)?.check().map(|_| ())
    }
    fn run(&self, input: &Input<'_>, p: &ParamSet, seed: u64) -> Result<Outcome> {
        let Some(k) = input.kernels.first() else {
            return Err(Error::input("sc", "no kernel given"));
        };
        let fit = build(input.n_clusters, p, seed)?.check()?.fit(k.as_ref())?;
        Ok(Outcome {
            labels: fit.labels,
            objective: vec![fit.inertia],
            diagnostics: vec![(
                "eigenvalue_c".into(),
                fit.eigenvalues.last().copied().unwrap_or(f64::NAN),
            )],
            ..Outcome::default()
        })
    }
}
