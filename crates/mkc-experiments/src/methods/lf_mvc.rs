//! LF-MVC (Wang et al., IJCAI 2019; `mkc-mkkm`): late fusion alignment maximisation over
//! the kernels' base partitions. λ is tuned on the authors' grid 2^-15 … 2^15 (the
//! SimpleMKKM authors' Flower17 call: λ = 2, the default); the consensus H is computed
//! once, k-means per seed.

use super::mkkm::{family, with_labels};
use crate::params::{ParamKind, ParamSpec};
use mkc_mkkm::LfMvcParams;

const PARAMS: [ParamSpec; 4] = [
    ParamSpec::new("lambda", ParamKind::Float, "2", "weight λ of the alignment with the average kernel's partition (authors' grid 2^-15 … 2^15; SimpleMKKM's call: 2)"),
    ParamSpec::new("tol", ParamKind::Float, "1e-6", "stop at relative objective change < tol from the third iteration (authors)"),
    ParamSpec::new("max_iter", ParamKind::Int, "100", "iteration cap (authors)"),
    ParamSpec::new("accumulate", ParamKind::Bool, "false", "accumulate the H step's matrix over iterations as the authors' code does (false = the paper's algorithm, monotone)"),
];

adapter! {
    /// LF-MVC, late fusion alignment maximisation.
    LfMvc, "lf-mvc", "LF-MVC (Wang et al. 2019): consensus H aligned with rotated per-kernel base partitions (Procrustes updates) and the average kernel's", with_labels(&PARAMS),
    LfMvcParams::new() => [lambda, tol, max_iter, accumulate] then |b, p| family(b, p)?
}
