//! Orthonormalisation of a new Krylov block against the current basis, with seeded
//! random replacement of directions lost to breakdown.
//!
//! Block classical Gram–Schmidt is repeated until no column loses more than 30% of its
//! norm in a pass ("twice is enough", Giraud et al. 2005), then the columns are
//! orthonormalised among themselves; a column whose norm falls to ≤ `DROP` times its
//! reference norm (the norm of A v it came from) carries no information above rounding
//! and is replaced by a random vector projected out of everything before it.

use super::par::{matmul_rows, matmul_tn};
use faer::linalg::matmul::matmul;
use faer::reborrow::*;
use faer::{Accum, Mat, MatMut, MatRef, Par};
use mkc_core::seed::Rng;
use mkc_core::{Error, Result};
use rand::Rng as _;

/// Relative norm below which a direction counts as lost (breakdown).
pub(crate) const DROP: f64 = 1e-12;
/// A pass that keeps at least this fraction of the norm needs no repetition.
const KEEP: f64 = 0.7;

/// Makes the columns of `z` orthonormal and orthogonal to the orthonormal columns of `v`.
/// `refs[i]` is the scale of column i for the breakdown test. Returns the number of
/// columns replaced by random vectors.
pub(crate) fn orthonormalize_against(
    v: MatRef<'_, f64>,
    mut z: MatMut<'_, f64>,
    refs: &[f64],
    rng: &mut Rng,
) -> Result<usize> {
    let (n, w) = (z.nrows(), z.ncols());
    if v.ncols() + w > n {
        return Err(Error::numerical(
            "block orthonormalisation",
            format!("{} + {w} columns exceed dimension {n}", v.ncols()),
        ));
    }
    // block passes against v
    if v.ncols() > 0 {
        let mut c = Mat::<f64>::zeros(v.ncols(), w);
        for _pass in 0..3 {
            let before: Vec<f64> = (0..w).map(|j| z.rb().col(j).norm_l2()).collect();
            matmul_tn(c.as_mut(), v, z.rb());
            matmul_rows(z.rb_mut(), Accum::Add, v, c.as_ref(), -1.0);
            let again = (0..w).any(|j| {
                let after = z.rb().col(j).norm_l2();
                after < KEEP * before[j] && after > DROP * refs[j]
            });
            if !again {
                break;
            }
        }
    }
    // columns among themselves (and again against v when a column shrinks a lot)
    let mut replaced = 0;
    let mut coef = vec![0.0; v.ncols().max(w)];
    for (i, &ref_i) in refs[..w].iter().enumerate() {
        let (left, right) = z.rb_mut().split_at_col_mut(i);
        let prev = left.rb();
        let mut x = right.subcols_mut(0, 1);
        let mut refn = ref_i;
        let mut full = false;
        let mut randoms = 0;
        let mut passes = 0;
        loop {
            let before = x.rb().col(0).norm_l2();
            project(prev, x.rb_mut(), &mut coef);
            if full {
                project(v, x.rb_mut(), &mut coef);
            }
            let after = x.rb().col(0).norm_l2();
            passes += 1;
            // false for a NaN norm too: such a column is replaced like a lost one
            let kept = after > DROP * refn;
            if !kept {
                if randoms == 3 {
                    return Err(Error::numerical(
                        "block orthonormalisation",
                        "could not extend the basis with random vectors",
                    ));
                }
                for t in 0..n {
                    x[(t, 0)] = rng.random::<f64>() - 0.5;
                }
                refn = x.rb().col(0).norm_l2();
                randoms += 1;
                replaced += 1;
                full = true;
                continue;
            }
            if after >= KEEP * before || passes >= 6 {
                let s = 1.0 / after;
                for t in 0..n {
                    x[(t, 0)] *= s;
                }
                break;
            }
            full = true;
        }
    }
    Ok(replaced)
}

/// x ← x − B (Bᵀ x) for orthonormal columns B.
fn project(b: MatRef<'_, f64>, mut x: MatMut<'_, f64>, coef: &mut [f64]) {
    let m = b.ncols();
    if m == 0 {
        return;
    }
    let mut c = faer::MatMut::from_column_major_slice_mut(&mut coef[..m], m, 1);
    matmul(
        c.rb_mut(),
        Accum::Replace,
        b.transpose(),
        x.rb(),
        1.0,
        Par::Seq,
    );
    matmul(x.rb_mut(), Accum::Add, b, c.rb(), -1.0, Par::Seq);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn orth_err(q: MatRef<'_, f64>) -> f64 {
        let g = q.transpose() * q;
        (g - Mat::<f64>::identity(q.ncols(), q.ncols())).norm_max()
    }

    #[test]
    fn dependent_and_zero_columns_are_replaced() {
        let n = 40;
        let mut rng = mkc_core::seed::rng(1);
        let v = Mat::<f64>::from_fn(n, 3, |i, j| if i == j { 1.0 } else { 0.0 });
        // column 0 lies in span(v), column 2 = 2 * column 1, column 3 zero
        let mut z = Mat::from_fn(n, 4, |i, j| match j {
            0 => f64::from(i < 3),
            1 => (i as f64).sin(),
            2 => 2.0 * (i as f64).sin(),
            _ => 0.0,
        });
        let refs = [1.0; 4];
        let r = orthonormalize_against(v.as_ref(), z.as_mut(), &refs, &mut rng).unwrap();
        assert_eq!(r, 3);
        let mut all = Mat::<f64>::zeros(n, 7);
        all.as_mut().subcols_mut(0, 3).copy_from(&v);
        all.as_mut().subcols_mut(3, 4).copy_from(&z);
        assert!(orth_err(all.as_ref()) < 1e-13);
    }

    #[test]
    fn too_many_columns_is_an_error() {
        let mut rng = mkc_core::seed::rng(1);
        let v = Mat::<f64>::identity(3, 3);
        let mut z = Mat::<f64>::zeros(3, 1);
        assert!(orthonormalize_against(v.as_ref(), z.as_mut(), &[1.0], &mut rng).is_err());
    }
}
