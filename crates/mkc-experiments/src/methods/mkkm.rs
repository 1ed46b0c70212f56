//! The multiple kernel k-means family (`mkc-mkkm`) as the SimpleMKKM authors run it:
//! MKKM (Huang et al., 2012) and MKKM-MiR (Liu et al., 2016). The kernel weights and H
//! are deterministic: the methods' `fit_restarts` optimise once and only the final
//! k-means (10 replicates of 100 iterations) depends on the seed; each run is charged an
//! equal share of the optimisation time. Also the options every method of the family
//! shares (preprocessing, the final k-means), used by the SimpleMKKM adapters too.

use crate::params::{ParamKind, ParamSet, ParamSpec};
use mkc_core::Result;
use mkc_mkkm::{LabelOptions, MkkmMirParams, MkkmParams, Preprocessing};

/// The options of the family's shared steps: preprocessing and the final k-means on H.
pub(super) const LABEL_PARAMS: [ParamSpec; 3] = [
    ParamSpec::new("preprocess", ParamKind::Bool, "true", "centre, then unit diagonal, every kernel first (authors' code; idempotent on kernels already normalised so)"),
    ParamSpec::new("kmeans_replicates", ParamKind::Int, "10", "k-means replicates on the row-normalised H (authors: 10)"),
    ParamSpec::new("kmeans_iter", ParamKind::Int, "100", "Lloyd iterations per replicate (authors: 100)"),
];

/// The builders of the family, whose shared options [`family`] sets.
pub(super) trait Family {
    /// The builder with its preprocessing and final k-means settings.
    fn shared(self, labels: LabelOptions, prep: Preprocessing) -> Self;
}

macro_rules! family_builders {
    ($($t:ty),*) => {
        $(impl Family for $t {
            fn shared(self, labels: LabelOptions, prep: Preprocessing) -> Self {
                self.preprocessing(prep).labels(labels)
            }
        })*
    };
}

family_builders!(
    MkkmParams,
    MkkmMirParams,
    mkc_mkkm::LkamParams,
    mkc_mkkm::LfMvcParams,
    mkc_mkkm::LmkkmParams,
    mkc_mkkm::MkkmMmParams,
    mkc_mkkm::OnkcParams,
    mkc_simplemkkm::KammAParams,
    mkc_simplemkkm::SimpleMkkmParams,
    mkc_simplemkkm::AvgParams
);

/// A family builder with the options of [`LABEL_PARAMS`] set (the adapters' `then`).
pub(super) fn family<B: Family>(builder: B, p: &ParamSet) -> Result<B> {
    let (labels, prep) = labels_and_prep(p)?;
    Ok(builder.shared(labels, prep))
}

/// The final k-means settings and the preprocessing from [`LABEL_PARAMS`].
pub(super) fn labels_and_prep(p: &ParamSet) -> Result<(LabelOptions, Preprocessing)> {
    let opts = LabelOptions {
        n_init: p.usize("kmeans_replicates")?,
        max_iter: p.usize("kmeans_iter")?,
    };
    let prep = if p.bool("preprocess")? {
        Preprocessing::CenterUnitDiagonal
    } else {
        Preprocessing::None
    };
    Ok((opts, prep))
}

adapter! {
    /// MKKM (Huang et al., 2012) as in the SimpleMKKM authors' baseline.
    Mkkm, "mkkm", "MKKM (Huang et al. 2012): alternate relaxed kernel k-means and closed-form weights of Σ γ_p² K_p",
    reflect MkkmParams + LABEL_PARAMS => [tol, max_iter] then |b, p| family(b, p)?
}

adapter! {
    /// MKKM-MiR (Liu et al., AAAI 2016), matrix-induced regularisation.
    MkkmMir, "mkkm-mir", "MKKM-MiR (Liu et al. 2016): MKKM with the matrix-induced regulariser (λ/2) γᵀMγ, weights by a simplex QP",
    reflect MkkmMirParams + LABEL_PARAMS => [lambda, tol, max_iter] then |b, p| family(b, p)?
}
