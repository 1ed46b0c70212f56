//! Spectral clustering (Ng, Jordan & Weiss 2002) with each kernel as the affinity, the SC
//! baseline of the SCMK paper (best kernel and average over kernels; `mkc-kmeans`'
//! `SpectralParams`: zero diagonal, D^{−1/2} A D^{−1/2}, top-c eigenvectors,
//! row-normalised, k-means). Protocol of the paper: k-means repeated 20 times on the
//! embedding, the lowest objective kept (`n_init = 20`). Each run is one such fit from its
//! own seed.

use super::{KernelUse, Method};
use crate::params::{ParamKind, ParamSet, ParamSpec};
use mkc_core::{DynClusterer, Result};
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
    fn build(&self, p: &ParamSet) -> Result<Box<dyn DynClusterer>> {
        Ok(Box::new(
            SpectralParams::new()
                .n_init(p.usize("n_init")?)
                .max_iter(p.usize("max_iter")?)
                .clip_negative(p.bool("clip_negative")?),
        ))
    }
}
