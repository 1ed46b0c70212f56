//! The Hungarian algorithm (Kuhn–Munkres with potentials, O(r² c) for r ≤ c) on a
//! rectangular cost matrix.

use faer::MatRef;
use mkc_core::{validate, Result};

/// An optimal assignment of a rectangular cost matrix.
#[derive(Debug, Clone, PartialEq)]
pub struct Assignment {
    /// For every row, its column, or `None` when there are more rows than columns and
    /// the row is left unassigned. Exactly `min(rows, cols)` rows are assigned, to
    /// distinct columns.
    pub row_to_col: Vec<Option<usize>>,
    /// Total cost of the assigned pairs.
    pub cost: f64,
}

impl Assignment {
    /// The assigned `(row, col)` pairs, by increasing row.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        self.row_to_col
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.map(|c| (i, c)))
            .collect()
    }
}

/// Minimum-cost assignment of rows to columns of `cost` (r x c, any shape).
///
/// Rectangular matrices are handled directly (the shorter side is matched completely,
/// the longer side partially), which is the same as padding with zero-cost dummy
/// rows/columns. O(min³ + min²·max) time.
///
/// # Errors
/// [`mkc_core::Error::InvalidInput`] for an empty matrix, [`mkc_core::Error::NonFinite`] for NaN/inf entries.
///
/// ```
/// use faer::mat;
/// let cost = mat![[4.0, 1.0, 3.0], [2.0, 0.0, 5.0]];
/// let a = mkc_metrics::hungarian(cost.as_ref()).unwrap();
/// assert_eq!(a.row_to_col, vec![Some(1), Some(0)]);
/// assert_eq!(a.cost, 3.0);
/// ```
pub fn hungarian(cost: MatRef<'_, f64>) -> Result<Assignment> {
    validate::non_empty("cost", cost)?;
    validate::finite("cost", cost)?;
    let (r, c) = (cost.nrows(), cost.ncols());
    let row_to_col = if r <= c {
        solve(r, c, |i, j| cost[(i, j)])
    } else {
        // Match the columns completely on the transpose, then invert.
        let col_to_row = solve(c, r, |i, j| cost[(j, i)]);
        let mut rc = vec![None; r];
        for (j, i) in col_to_row.iter().enumerate() {
            if let Some(i) = *i {
                rc[i] = Some(j);
            }
        }
        rc
    };
    let total = row_to_col
        .iter()
        .enumerate()
        .filter_map(|(i, j)| j.map(|j| cost[(i, j)]))
        .sum();
    Ok(Assignment {
        row_to_col,
        cost: total,
    })
}

/// Maximum-weight assignment (the Hungarian algorithm on `max(w) − w`).
///
/// # Errors
/// As [`hungarian`].
pub fn hungarian_max(weight: MatRef<'_, f64>) -> Result<Assignment> {
    validate::non_empty("weight", weight)?;
    validate::finite("weight", weight)?;
    let mut top = f64::NEG_INFINITY;
    for j in 0..weight.ncols() {
        for i in 0..weight.nrows() {
            top = top.max(weight[(i, j)]);
        }
    }
    let flipped = faer::Mat::from_fn(weight.nrows(), weight.ncols(), |i, j| top - weight[(i, j)]);
    let a = hungarian(flipped.as_ref())?;
    let total = a
        .row_to_col
        .iter()
        .enumerate()
        .filter_map(|(i, j)| j.map(|j| weight[(i, j)]))
        .sum();
    Ok(Assignment {
        row_to_col: a.row_to_col,
        cost: total,
    })
}

/// Shortest augmenting paths with row/column potentials (n ≤ m); every row is matched.
fn solve(n: usize, m: usize, a: impl Fn(usize, usize) -> f64) -> Vec<Option<usize>> {
    // 1-based arrays; index 0 of the columns is the virtual source.
    let mut u = vec![0.0f64; n + 1];
    let mut v = vec![0.0f64; m + 1];
    let mut p = vec![0usize; m + 1]; // p[j]: row matched to column j (0 = none)
    let mut way = vec![0usize; m + 1];
    let mut minv = vec![0.0f64; m + 1];
    let mut used = vec![false; m + 1];
    for i in 1..=n {
        p[0] = i;
        let mut j0 = 0usize;
        minv.iter_mut().for_each(|x| *x = f64::INFINITY);
        used.iter_mut().for_each(|x| *x = false);
        loop {
            used[j0] = true;
            let i0 = p[j0];
            let mut delta = f64::INFINITY;
            let mut j1 = 0usize;
            for j in 1..=m {
                if !used[j] {
                    let cur = a(i0 - 1, j - 1) - u[i0] - v[j];
                    if cur < minv[j] {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if minv[j] < delta {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            }
            if j1 == 0 {
                // Cannot happen with finite costs and n ≤ m; stop defensively.
                break;
            }
            for j in 0..=m {
                if used[j] {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if p[j0] == 0 {
                break;
            }
        }
        // Augment along the alternating path.
        loop {
            let j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
    let mut row_to_col = vec![None; n];
    for j in 1..=m {
        if p[j] != 0 {
            row_to_col[p[j] - 1] = Some(j - 1);
        }
    }
    row_to_col
}
