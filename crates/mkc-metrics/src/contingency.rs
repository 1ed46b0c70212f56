//! Contingency table of two labelings (classes × clusters).

use mkc_core::{Error, Result};

/// Counts `n_ij` of samples with class `i` (from `truth`) and cluster `j` (from `pred`).
///
/// Labels are arbitrary `usize` values (not necessarily `0..k`, not necessarily
/// contiguous); they are mapped to dense indices in increasing order of value, kept in
/// [`Contingency::classes`] and [`Contingency::clusters`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contingency {
    /// Distinct values of `truth`, ascending; row `i` of the table is `classes[i]`.
    pub classes: Vec<usize>,
    /// Distinct values of `pred`, ascending; column `j` of the table is `clusters[j]`.
    pub clusters: Vec<usize>,
    /// Row-major counts, `classes.len() * clusters.len()` entries.
    counts: Vec<u64>,
    /// Number of samples.
    pub n: usize,
}

impl Contingency {
    /// Build the table.
    ///
    /// # Errors
    /// [`Error::InvalidInput`] if the labelings are empty, [`Error::Shape`] if their
    /// lengths differ.
    pub fn new(truth: &[usize], pred: &[usize]) -> Result<Self> {
        check_pair(truth, pred)?;
        let classes = distinct(truth);
        let clusters = distinct(pred);
        let (r, c) = (classes.len(), clusters.len());
        let mut counts = vec![0u64; r * c];
        for (&t, &p) in truth.iter().zip(pred) {
            // Both searches succeed: the values come from the same slices.
            let i = classes.binary_search(&t).unwrap_or(0);
            let j = clusters.binary_search(&p).unwrap_or(0);
            counts[i * c + j] += 1;
        }
        Ok(Self {
            classes,
            clusters,
            counts,
            n: truth.len(),
        })
    }

    /// Number of classes (rows).
    pub fn n_classes(&self) -> usize {
        self.classes.len()
    }

    /// Number of clusters (columns).
    pub fn n_clusters(&self) -> usize {
        self.clusters.len()
    }

    /// Count of class index `i` and cluster index `j` (dense indices, not label values).
    /// Out-of-range indices give 0.
    pub fn get(&self, i: usize, j: usize) -> u64 {
        if i < self.n_classes() && j < self.n_clusters() {
            self.counts[i * self.n_clusters() + j]
        } else {
            0
        }
    }

    /// Row `i` (class `classes[i]`) of the table; empty if out of range.
    pub fn row(&self, i: usize) -> &[u64] {
        let c = self.n_clusters();
        self.counts.get(i * c..(i + 1) * c).unwrap_or(&[])
    }

    /// Class sizes (row sums).
    pub fn class_sizes(&self) -> Vec<u64> {
        (0..self.n_classes())
            .map(|i| self.row(i).iter().sum())
            .collect()
    }

    /// Cluster sizes (column sums).
    pub fn cluster_sizes(&self) -> Vec<u64> {
        let mut s = vec![0u64; self.n_clusters()];
        for i in 0..self.n_classes() {
            for (sj, &v) in s.iter_mut().zip(self.row(i)) {
                *sj += v;
            }
        }
        s
    }

    /// All counts, row-major (`n_classes` rows of `n_clusters`).
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }
}

/// Same non-zero length for both labelings.
pub(crate) fn check_pair(truth: &[usize], pred: &[usize]) -> Result<()> {
    if truth.len() != pred.len() {
        return Err(Error::shape(
            "pred",
            format!("length {} (as truth)", truth.len()),
            format!("length {}", pred.len()),
        ));
    }
    if truth.is_empty() {
        return Err(Error::input("truth", "empty labeling"));
    }
    Ok(())
}

fn distinct(v: &[usize]) -> Vec<usize> {
    let mut s = v.to_vec();
    s.sort_unstable();
    s.dedup();
    s
}
