//! Row scaling: every row to unit Euclidean length.

use faer::MatMut;

/// Scale every row of `m` to unit Euclidean length, in place; zero rows stay zero. The
/// row normalisation of a spectral embedding before k-means (Ng, Jordan & Weiss, NIPS
/// 2001), of the relaxed partition matrix H of the multiple kernel k-means family, and
/// of feature preprocessing. Infallible: a row holding a non-finite entry stays
/// non-finite (callers validate their input).
///
/// ```
/// let mut m = faer::mat![[3.0, 4.0], [0.0, 0.0], [-1.0, 0.0]];
/// mkc_linalg::unit_rows(m.as_mut());
/// assert_eq!(m, faer::mat![[0.6, 0.8], [0.0, 0.0], [-1.0, 0.0]]);
/// ```
pub fn unit_rows(mut m: MatMut<'_, f64>) {
    for i in 0..m.nrows() {
        let norm = (0..m.ncols())
            .map(|j| m[(i, j)] * m[(i, j)])
            .sum::<f64>()
            .sqrt();
        if norm > 0.0 {
            for j in 0..m.ncols() {
                m[(i, j)] /= norm;
            }
        }
    }
}
