//! Small internal helpers: contiguous column access with a strided fallback, and
//! locating the first non-finite entry for error messages.

use faer::{MatMut, MatRef};
use mkc_core::Error;

/// Column `j` of `m` as a slice when it is stored contiguously.
#[inline]
pub(crate) fn col<'a>(m: MatRef<'a, f64>, j: usize) -> Option<&'a [f64]> {
    m.col(j).try_as_col_major().map(|c| c.as_slice())
}

/// Mutable column `j` of `m` as a slice when it is stored contiguously.
#[inline]
pub(crate) fn col_mut<'a>(m: MatMut<'a, f64>, j: usize) -> Option<&'a mut [f64]> {
    m.col_mut(j)
        .try_as_col_major_mut()
        .map(|c| c.as_slice_mut())
}

/// The first non-finite entry of `m` (column-major order) as a typed error
/// ([`mkc_core::validate::finite`]'s).
pub(crate) fn first_non_finite(what: &str, m: MatRef<'_, f64>) -> Option<Error> {
    mkc_core::validate::finite(what, m).err()
}

/// Number of columns per rayon task for an `nrows`-tall column loop (about 64k entries).
#[inline]
pub(crate) fn col_chunk(nrows: usize, ncols: usize) -> usize {
    let per = (1 << 16) / nrows.max(1);
    per.clamp(1, ncols.max(1))
}
