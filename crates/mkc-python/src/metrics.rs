//! Clustering scores (mkc-metrics) on label vectors already encoded as `0..k` (the
//! Python wrapper `mkc.metrics` encodes arbitrary labels first).

use crate::errors::IntoPyResult;
use mkc_core::Error;
use mkc_metrics::NmiNorm;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Clustering accuracy: the best one-to-one matching of clusters to classes (Hungarian
/// algorithm), matched samples / n.
#[pyfunction]
pub fn accuracy(truth: Vec<usize>, pred: Vec<usize>) -> PyResult<f64> {
    mkc_metrics::accuracy(&truth, &pred).py()
}

/// Normalised mutual information; `average_method` is scikit-learn's name of the
/// normaliser: `"max"`, `"arithmetic"`, `"geometric"` or `"min"`.
#[pyfunction]
pub fn nmi(truth: Vec<usize>, pred: Vec<usize>, average_method: &str) -> PyResult<f64> {
    let norm = match average_method {
        "max" => NmiNorm::Max,
        "arithmetic" => NmiNorm::Arithmetic,
        "geometric" => NmiNorm::Geometric,
        "min" => NmiNorm::Min,
        other => {
            return Err(Error::param(
                "average_method",
                other,
                "expected one of max, arithmetic, geometric, min",
            ))
            .py()
        }
    };
    mkc_metrics::nmi(&truth, &pred, norm).py()
}

/// Purity: Σ over clusters of their largest class, / n.
#[pyfunction]
pub fn purity(truth: Vec<usize>, pred: Vec<usize>) -> PyResult<f64> {
    mkc_metrics::purity(&truth, &pred).py()
}

/// Adjusted Rand index (Hubert & Arabie).
#[pyfunction]
pub fn ari(truth: Vec<usize>, pred: Vec<usize>) -> PyResult<f64> {
    mkc_metrics::ari(&truth, &pred).py()
}

/// Every score from one contingency table: `acc`, `nmi_max`, `nmi_arithmetic`,
/// `purity`, `ari`.
#[pyfunction]
pub fn scores(py: Python<'_>, truth: Vec<usize>, pred: Vec<usize>) -> PyResult<Bound<'_, PyDict>> {
    let s = mkc_metrics::score_all(&truth, &pred).py()?;
    let d = PyDict::new(py);
    d.set_item("acc", s.acc)?;
    d.set_item("nmi_max", s.nmi_max)?;
    d.set_item("nmi_arithmetic", s.nmi_arith)?;
    d.set_item("purity", s.purity)?;
    d.set_item("ari", s.ari)?;
    Ok(d)
}
