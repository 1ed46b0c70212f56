//! Clustering metrics, computed the way the five mkc papers score their results
//! (`/work/shared/papers/README.md`): clustering accuracy by the Hungarian algorithm,
//! NMI with scikit-learn's `average_method` normalisations (the SimpleMKKM code uses
//! `"max"`, scikit-learn's default is `"arithmetic"`), purity, the adjusted Rand index,
//! and the contingency table they are all built from.
//!
//! Labels are `&[usize]` with arbitrary values (`[7, 7, 3]` is a valid labeling);
//! the number of clusters may differ from the number of classes. Empty labelings and
//! labelings of different lengths are typed errors ([`mkc_core::Error`]).
//!
//! ```
//! use mkc_metrics::{score_all, nmi, NmiNorm};
//!
//! let truth = [0, 0, 0, 1, 1, 1];
//! let pred = [5, 5, 9, 9, 2, 2]; // three clusters, arbitrary ids
//! let s = score_all(&truth, &pred).unwrap();
//! assert!((s.acc - 4.0 / 6.0).abs() < 1e-12);
//! assert!((s.purity - 5.0 / 6.0).abs() < 1e-12);
//! assert!((s.ari - 8.0 / 33.0).abs() < 1e-12);
//! // NMI ("arithmetic") = (2/3 ln 2) / ((ln 2 + ln 3) / 2)
//! let expected = (2.0 / 3.0 * 2f64.ln()) / (0.5 * (2f64.ln() + 3f64.ln()));
//! assert!((nmi(&truth, &pred, NmiNorm::Arithmetic).unwrap() - expected).abs() < 1e-12);
//! assert!(score_all(&truth, &pred[..5]).is_err());
//! ```

mod contingency;
mod hungarian;
mod scores;

pub use contingency::Contingency;
pub use hungarian::{hungarian, hungarian_max, Assignment};
pub use scores::{
    accuracy, accuracy_of, ari, ari_of, mutual_info, nmi, nmi_of, purity, purity_of, score_all,
    NmiNorm, Scores,
};
