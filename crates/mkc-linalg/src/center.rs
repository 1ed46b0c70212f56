//! Kernel centring in feature space: K ← (I − 11ᵀ/n) K (I − 11ᵀ/n).

use crate::util::col_chunk;
use faer::reborrow::*;
use faer::MatMut;
use mkc_core::{validate, Result};
use rayon::prelude::*;

/// Centres a kernel in place: K_ij ← K_ij − r_i − m_j + g with r_i the row means, m_j
/// the column means and g the grand mean (= K − 1K/n − K1/n + 1K1/n²), then replaces K by
/// (K + Kᵀ)/2 to remove the rounding asymmetry.
///
/// Errors: empty, non-square, non-finite or non-symmetric input (mkc_core::validate::kernel).
pub fn center_in_place(mut k: MatMut<'_, f64>) -> Result<()> {
    let n = validate::kernel("k", k.rb())?;
    let nf = n as f64;
    let kr = k.rb();
    let col_means: Vec<f64> = (0..n)
        .into_par_iter()
        .map(|j| kr.col(j).iter().sum::<f64>() / nf)
        .collect();
    let mut row_means = vec![0.0; n];
    for j in 0..n {
        for (i, r) in row_means.iter_mut().enumerate() {
            *r += kr[(i, j)];
        }
    }
    row_means.iter_mut().for_each(|r| *r /= nf);
    let g = col_means.iter().sum::<f64>() / nf;
    let chunk = col_chunk(n, n);
    k.rb_mut()
        .par_col_chunks_mut(chunk)
        .enumerate()
        .for_each(|(b, mut blk)| {
            for jj in 0..blk.ncols() {
                let mj = col_means[b * chunk + jj];
                for i in 0..n {
                    blk[(i, jj)] += g - mj - row_means[i];
                }
            }
        });
    symmetrize_unchecked(k);
    Ok(())
}

/// A ← (A + Aᵀ)/2 in place (e.g. after rounding made a product slightly asymmetric).
///
/// # Errors
/// `a` not square.
pub fn symmetrize(a: MatMut<'_, f64>) -> Result<()> {
    mkc_core::validate::square("a", a.rb())?;
    symmetrize_unchecked(a);
    Ok(())
}

/// A ← (A + Aᵀ)/2 for a square matrix, in 64 x 64 tiles.
pub(crate) fn symmetrize_unchecked(mut a: MatMut<'_, f64>) {
    const T: usize = 64;
    let n = a.nrows();
    for jb in (0..n).step_by(T) {
        for ib in (jb..n).step_by(T) {
            for j in jb..(jb + T).min(n) {
                let i0 = if ib == jb { j + 1 } else { ib };
                for i in i0..(ib + T).min(n) {
                    let v = 0.5 * (a[(i, j)] + a[(j, i)]);
                    a[(i, j)] = v;
                    a[(j, i)] = v;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use faer::Mat;
    use mkc_core::Error;

    #[test]
    fn matches_projection_formula() {
        let n = 17;
        let x = Mat::from_fn(n, 3, |i, j| ((i * 5 + j * 3) % 7) as f64 - 2.5);
        let k = &x * x.transpose();
        let p = Mat::from_fn(n, n, |i, j| if i == j { 1.0 } else { 0.0 } - 1.0 / n as f64);
        let want = &p * &k * &p;
        let mut got = k.clone();
        center_in_place(got.as_mut()).unwrap();
        assert!((&got - &want).norm_max() < 1e-10);
        // rows and columns sum to zero, exactly symmetric
        for j in 0..n {
            assert!(got.col(j).iter().sum::<f64>().abs() < 1e-9);
            for i in 0..n {
                assert_eq!(got[(i, j)], got[(j, i)]);
            }
        }
    }

    #[test]
    fn bad_inputs_are_typed_errors() {
        let mut r = Mat::<f64>::zeros(3, 4);
        assert!(matches!(
            center_in_place(r.as_mut()),
            Err(Error::Shape { .. })
        ));
        for (mut bad, want) in mkc_core::testing::spoiled_kernels(&Mat::identity(3, 3)) {
            let e = center_in_place(bad.as_mut()).unwrap_err();
            assert_eq!(mkc_core::testing::variant(&e), want, "{e:?}");
        }
    }
}
