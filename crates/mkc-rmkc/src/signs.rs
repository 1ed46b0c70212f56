//! Cluster indices (the public labels, `0..2`) and the ±1 labels y the algorithms work
//! with: cluster 1 ↔ y = +1, cluster 0 ↔ y = −1.

use mkc_core::{Error, Result};

/// Cluster indices of ±1 labels: −1 → 0, +1 → 1.
pub(crate) fn clusters(y: &[f64]) -> Vec<usize> {
    y.iter().map(|&t| usize::from(t > 0.0)).collect()
}

/// ±1 labels of given cluster indices (`what` names them in errors): n labels, each 0
/// or 1, both present. 1 → +1, 0 → −1.
pub(crate) fn signs(what: &str, labels: &[usize], n: usize) -> Result<Vec<f64>> {
    mkc_core::validate::len(what, labels.len(), n)?;
    if let Some(i) = labels.iter().position(|&l| l > 1) {
        return Err(Error::input(
            what,
            format!("label {} at index {i} is not 0 or 1", labels[i]),
        ));
    }
    if labels.iter().all(|&l| l == labels[0]) {
        return Err(Error::input(
            what,
            "only one cluster; a two-cluster start needs both",
        ));
    }
    Ok(labels
        .iter()
        .map(|&l| if l == 1 { 1.0 } else { -1.0 })
        .collect())
}
