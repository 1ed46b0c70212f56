//! Xinwang Liu's precomputed multiple-kernel files `<name>_Kmatrix.mat`: `KH`
//! (n x n x m, MATLAB dims) and `Y` (n x 1 labels). Usually MAT v7.3 (feature
//! `mat73`); a v5 file with the same variables is read too.

use crate::mat::{read_any, MatArray};
use faer::Mat;
use mkc_core::{Error, Result};
use std::path::Path;

/// Read `KH` and `Y` from a Kmatrix file: `(kernels, labels)`, kernel `p` being
/// `KH(:, :, p)` and the labels `Y` as stored (e.g. ±1).
pub fn read_kmatrix(path: impl AsRef<Path>) -> Result<(Vec<Mat<f64>>, Vec<f64>)> {
    read_kmatrix_vars(path, "KH", "Y")
}

/// [`read_kmatrix`] with other variable names.
pub fn read_kmatrix_vars(
    path: impl AsRef<Path>,
    kernels_var: &str,
    labels_var: &str,
) -> Result<(Vec<Mat<f64>>, Vec<f64>)> {
    let file = read_any(path.as_ref())?;
    let kernels = kernel_stack(file.require(kernels_var)?, kernels_var)?;
    let y = file.require(labels_var)?.to_vec(labels_var)?;
    let n = kernels.first().map(|k| k.nrows()).unwrap_or(0);
    if y.len() != n {
        return Err(Error::shape(
            labels_var,
            format!("{n} labels (one per kernel row)"),
            format!("{}", y.len()),
        ));
    }
    Ok((kernels, y))
}

/// Split an n x n x m (or n x n) numeric array into m kernels.
pub fn kernel_stack(a: &MatArray, what: &str) -> Result<Vec<Mat<f64>>> {
    let MatArray::Numeric {
        dims,
        real,
        imag: None,
        ..
    } = a
    else {
        return Err(Error::input(
            what,
            format!(
                "expected a real numeric n x n x m array, found {}",
                a.describe()
            ),
        ));
    };
    let (n, n2, m) = match dims.as_slice() {
        [n, n2] => (*n, *n2, 1),
        [n, n2, m] => (*n, *n2, *m),
        _ => return Err(Error::shape(what, "n x n x m", a.describe())),
    };
    if n != n2 || n == 0 || m == 0 {
        return Err(Error::shape(what, "n x n x m with n, m >= 1", a.describe()));
    }
    let count = n.checked_mul(n).and_then(|v| v.checked_mul(m));
    if count != Some(real.len()) {
        return Err(Error::shape(
            what,
            format!("{n} x {n} x {m} values"),
            real.len().to_string(),
        ));
    }
    Ok((0..m)
        .map(|p| Mat::from_fn(n, n, |i, j| real[i + j * n + p * n * n]))
        .collect())
}
