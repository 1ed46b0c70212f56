//! Graph Laplacians of a symmetric weight matrix W (SCMK builds L from its learned
//! similarity, then takes the bottom eigenvectors).

use faer::{Mat, MatRef};
use mkc_core::{validate, Error, Result};

/// Unnormalised Laplacian L = D − W with D = diag(W1) (row sums, self-loops included, so
/// they cancel on the diagonal). Errors: invalid W (mkc_core::validate::kernel).
pub fn laplacian(w: MatRef<'_, f64>) -> Result<Mat<f64>> {
    let n = validate::kernel("w", w)?;
    let d = degrees(w);
    Ok(Mat::from_fn(n, n, |i, j| {
        if i == j {
            d[i] - w[(i, j)]
        } else {
            -w[(i, j)]
        }
    }))
}

/// Symmetric normalised Laplacian L = I − D^{-1/2} W D^{-1/2}.
///
/// Isolated vertices (degree 0) follow scipy.sparse.csgraph.laplacian(normed=True): their
/// row and column of L are zero, diagonal included. Errors: invalid W, or a negative
/// degree (a row of W summing below zero), which has no real D^{-1/2}.
pub fn normalized_laplacian(w: MatRef<'_, f64>) -> Result<Mat<f64>> {
    let n = validate::kernel("w", w)?;
    let d = degrees(w);
    if let Some(i) = d.iter().position(|&v| v < 0.0) {
        return Err(Error::input(
            "w",
            format!(
                "row {i} has negative degree {:e}; the normalised Laplacian needs D >= 0",
                d[i]
            ),
        ));
    }
    let s: Vec<f64> = d
        .iter()
        .map(|&v| if v > 0.0 { 1.0 / v.sqrt() } else { 0.0 })
        .collect();
    Ok(Mat::from_fn(n, n, |i, j| {
        let off = -s[i] * w[(i, j)] * s[j];
        if i == j && d[i] > 0.0 {
            1.0 + off
        } else {
            off
        }
    }))
}

fn degrees(w: MatRef<'_, f64>) -> Vec<f64> {
    // column sums equal row sums for symmetric W; columns are contiguous
    (0..w.ncols()).map(|j| w.col(j).iter().sum()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w() -> Mat<f64> {
        Mat::from_fn(6, 6, |i, j| {
            if i == j {
                0.0
            } else {
                1.0 / (1.0 + (i as f64 - j as f64).abs())
            }
        })
    }

    #[test]
    fn laplacian_rows_sum_to_zero_and_match_formula() {
        let w = w();
        let l = laplacian(w.as_ref()).unwrap();
        for i in 0..6 {
            let row: f64 = (0..6).map(|j| l[(i, j)]).sum();
            assert!(row.abs() < 1e-12);
            let d: f64 = (0..6).map(|j| w[(i, j)]).sum();
            assert!((l[(i, i)] - d).abs() < 1e-12);
        }
    }

    #[test]
    fn normalized_laplacian_kills_sqrt_degree_vector() {
        let w = w();
        let l = normalized_laplacian(w.as_ref()).unwrap();
        let v: Vec<f64> = (0..6)
            .map(|i| (0..6).map(|j| w[(i, j)]).sum::<f64>().sqrt())
            .collect();
        for i in 0..6 {
            let lv: f64 = (0..6).map(|j| l[(i, j)] * v[j]).sum();
            assert!(lv.abs() < 1e-12);
            assert!((l[(i, i)] - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn isolated_vertex_and_bad_inputs() {
        let mut w = w();
        for t in 0..6 {
            w[(0, t)] = 0.0;
            w[(t, 0)] = 0.0;
        }
        let l = normalized_laplacian(w.as_ref()).unwrap();
        assert!((0..6).all(|t| l[(0, t)] == 0.0 && l[(t, 0)] == 0.0));
        let mut neg = w.clone();
        neg[(1, 2)] = -10.0;
        neg[(2, 1)] = -10.0;
        assert!(matches!(
            normalized_laplacian(neg.as_ref()),
            Err(Error::InvalidInput { .. })
        ));
        assert!(matches!(
            laplacian(Mat::<f64>::zeros(2, 3).as_ref()),
            Err(Error::Shape { .. })
        ));
        let mut nan = w.clone();
        nan[(3, 3)] = f64::NAN;
        assert!(matches!(
            laplacian(nan.as_ref()),
            Err(Error::NonFinite { .. })
        ));
        let mut asym = w.clone();
        asym[(1, 2)] += 1.0;
        assert!(matches!(
            normalized_laplacian(asym.as_ref()),
            Err(Error::NotSymmetric { .. })
        ));
    }
}
