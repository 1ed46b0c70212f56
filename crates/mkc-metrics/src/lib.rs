//! Clustering metrics, computed the way the five mkc papers score their results (RMKC:
//! Tzortzis & Likas, "Ratio-Based Multiple Kernel Clustering"; LG-MMC: Li, Tsang, Kwok &
//! Zhou, "Tighter and Convex Maximum Margin Clustering", AISTATS 2009; GUMKL: Tzortzis &
//! Likas, "Greedy unsupervised multiple kernel learning", SETN 2012; SCMK: Kang, Peng,
//! Cheng & Xu, "Twin learning for similarity and clustering: a unified kernel approach",
//! AAAI 2017; SimpleMKKM: Liu et al., "SimpleMKKM: Simple Multiple Kernel K-means",
//! ICML): clustering accuracy by the Hungarian algorithm (Kuhn, "The Hungarian method
//! for the assignment problem", Naval Research Logistics Quarterly 2, 1955), NMI (Strehl
//! & Ghosh, "Cluster ensembles", JMLR 3, 2002) with scikit-learn's `average_method`
//! normalisations (the SimpleMKKM authors' code uses `"max"`, scikit-learn's default is
//! `"arithmetic"`), purity, the adjusted Rand index (Hubert & Arabie, "Comparing
//! partitions", Journal of Classification 2, 1985), and the contingency table they are
//! all built from.
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

#![forbid(unsafe_code)]

mod contingency;
mod hungarian;
mod scores;

pub use contingency::Contingency;
pub use hungarian::{hungarian, hungarian_max, Assignment};
pub use scores::{
    accuracy, accuracy_of, ari, ari_of, mutual_info, nmi, nmi_of, purity, purity_of, score_all,
    NmiNorm, Scores,
};
