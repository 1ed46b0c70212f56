//! Kernel preprocessing, applied before anything else (a documented, switchable step).
//!
//! The paper does not mention preprocessing. The authors' code centres every base
//! kernel, `K − 1K/n − K1/n + 1K1/n²` (then symmetrised), and then normalises it to unit
//! diagonal, `K_ij / sqrt(K_ii K_jj)`; that is [`Preprocessing::CenterUnitDiagonal`],
//! the default of every method in this crate. Both steps are `mkc_kernels::normalize`.

use std::time::{Duration, Instant};

use faer::{Mat, MatRef};
use mkc_core::{validate, Error, Result};
use mkc_kernels::Normalization;

/// What to do to each base kernel before clustering.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Preprocessing {
    /// Use the kernels as given (they are still validated).
    None,
    /// Centre, then unit diagonal (the authors' code). Fails with a typed error when a
    /// centred kernel has a zero diagonal entry (e.g. a constant kernel).
    #[default]
    CenterUnitDiagonal,
    /// Any sequence of `mkc_kernels` normalisations, applied in order.
    Custom(Vec<Normalization>),
}

impl Preprocessing {
    /// The normalisations applied, in order.
    pub fn steps(&self) -> Vec<Normalization> {
        match self {
            Preprocessing::None => Vec::new(),
            Preprocessing::CenterUnitDiagonal => {
                vec![Normalization::Center, Normalization::UnitDiagonal]
            }
            Preprocessing::Custom(v) => v
                .iter()
                .copied()
                .filter(|s| *s != Normalization::None)
                .collect(),
        }
    }

    /// Whether the kernels are used unchanged.
    pub fn is_identity(&self) -> bool {
        self.steps().is_empty()
    }

    /// Validate the kernels (at least one; square, finite, symmetric, all the same size)
    /// and return preprocessed copies. Errors name the kernel (`kernels[p]`).
    pub fn apply(&self, kernels: &[MatRef<'_, f64>]) -> Result<Vec<Mat<f64>>> {
        validate::kernels("kernels", kernels)?;
        self.apply_valid(kernels)
    }

    /// [`Preprocessing::apply`] on kernels already validated (a `KernelSet`'s).
    fn apply_valid(&self, kernels: &[MatRef<'_, f64>]) -> Result<Vec<Mat<f64>>> {
        let steps = self.steps();
        let mut out = Vec::with_capacity(kernels.len());
        for (p, k) in kernels.iter().enumerate() {
            let mut m = k.to_owned();
            for s in &steps {
                mkc_kernels::apply(m.as_mut(), s).map_err(|e| rename(e, p))?;
            }
            out.push(m);
        }
        Ok(out)
    }
}

/// Preprocessed kernels (or the caller's kernels when there is nothing to do: no copy),
/// with the time preprocessing took.
pub struct Prepared<'a> {
    kernels: Kernels<'a>,
    /// Wall time of validation and preprocessing.
    pub time: Duration,
}

enum Kernels<'a> {
    Borrowed(Vec<MatRef<'a, f64>>),
    Owned(Vec<Mat<f64>>),
}

impl<'a> Prepared<'a> {
    /// Validate, preprocess and check that no kernel is zero (the engines' way in).
    pub fn new(kernels: &[MatRef<'a, f64>], prep: &Preprocessing) -> Result<Self> {
        let t0 = Instant::now();
        validate::kernels("kernels", kernels)?;
        Self::finish(kernels, prep, t0)
    }

    /// As [`Prepared::new`] for the kernels of a `KernelSet`, validated when the set was
    /// built: they are not read again to be checked.
    pub fn trusted(kernels: &[MatRef<'a, f64>], prep: &Preprocessing) -> Result<Self> {
        Self::finish(kernels, prep, Instant::now())
    }

    fn finish(kernels: &[MatRef<'a, f64>], prep: &Preprocessing, t0: Instant) -> Result<Self> {
        let kernels = if prep.is_identity() {
            Kernels::Borrowed(kernels.to_vec())
        } else {
            Kernels::Owned(prep.apply_valid(kernels)?)
        };
        let mut this = Prepared {
            kernels,
            time: Duration::ZERO,
        };
        for (p, k) in this.views().iter().enumerate() {
            reject_zero(*k, p)?;
        }
        this.time = t0.elapsed();
        Ok(this)
    }

    /// The preprocessed kernels, when they are copies (`None` when the preprocessing is
    /// the identity and the given kernels are used).
    pub(crate) fn into_owned(self) -> Option<Vec<Mat<f64>>> {
        match self.kernels {
            Kernels::Borrowed(_) => None,
            Kernels::Owned(v) => Some(v),
        }
    }

    pub fn views(&self) -> Vec<MatRef<'_, f64>> {
        match &self.kernels {
            Kernels::Borrowed(v) => v.clone(),
            Kernels::Owned(v) => v.iter().map(|m| m.as_ref()).collect(),
        }
    }
}

/// A zero kernel makes J(γ) = 0 at its vertex (every method would put all weight on
/// it), so it is rejected.
fn reject_zero(k: MatRef<'_, f64>, p: usize) -> Result<()> {
    let n = k.nrows();
    for j in 0..n {
        for i in 0..n {
            if k[(i, j)] != 0.0 {
                return Ok(());
            }
        }
    }
    Err(Error::input(
        format!("kernels[{p}]"),
        "all entries are zero (after preprocessing)",
    ))
}

/// Name the kernel in errors that the normalisations report as "kernel".
fn rename(e: Error, p: usize) -> Error {
    let name = |what: &str| {
        if what == "kernel" {
            format!("kernels[{p}]")
        } else {
            format!("kernels[{p}]: {what}")
        }
    };
    with_what(&e, name).unwrap_or(e)
}

/// The same error with its subject `what` replaced by `what(old)`, for the variants
/// that have one (`InvalidInput`, `NonFinite`, `NotSymmetric`, `Shape`); `None` for the
/// others.
pub fn with_what(e: &Error, what: impl Fn(&str) -> String) -> Option<Error> {
    Some(match e {
        Error::InvalidInput { what: w, reason } => Error::input(what(w), reason.clone()),
        Error::NonFinite {
            what: w,
            row,
            col,
            value,
        } => Error::NonFinite {
            what: what(w),
            row: *row,
            col: *col,
            value: *value,
        },
        Error::NotSymmetric {
            what: w,
            i,
            j,
            a,
            b,
        } => Error::NotSymmetric {
            what: what(w),
            i: *i,
            j: *j,
            a: *a,
            b: *b,
        },
        Error::Shape {
            what: w,
            expected,
            got,
        } => Error::shape(what(w), expected.clone(), got.clone()),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: MatRef<'_, f64>, b: &[[f64; 4]; 4], tol: f64) {
        for i in 0..4 {
            for j in 0..4 {
                assert!(
                    (a[(i, j)] - b[i][j]).abs() < tol,
                    "({i},{j}): {} vs {}",
                    a[(i, j)],
                    b[i][j]
                );
            }
        }
    }

    #[test]
    fn hand_computed_4x4_tridiagonal() {
        // K = tridiag(1, 2, 1); row means r = (0.75, 1, 1, 0.75), grand mean 0.875.
        // Centred: Kc_ij = K_ij − r_i − r_j + 0.875.
        let k = Mat::from_fn(4, 4, |i, j| match i.abs_diff(j) {
            0 => 2.0,
            1 => 1.0,
            _ => 0.0,
        });
        let centred = Preprocessing::Custom(vec![Normalization::Center])
            .apply(&[k.as_ref()])
            .unwrap();
        let kc = [
            [1.375, 0.125, -0.875, -0.625],
            [0.125, 0.875, -0.125, -0.875],
            [-0.875, -0.125, 0.875, 0.125],
            [-0.625, -0.875, 0.125, 1.375],
        ];
        close(centred[0].as_ref(), &kc, 1e-14);
        // Unit diagonal: Kc_ij / sqrt(Kc_ii Kc_jj); sqrt(1.375 · 0.875) = 1.0968705...
        let s = (1.375f64 * 0.875).sqrt();
        let kn = [
            [1.0, 0.125 / s, -0.875 / s, -0.625 / 1.375],
            [0.125 / s, 1.0, -0.125 / 0.875, -0.875 / s],
            [-0.875 / s, -0.125 / 0.875, 1.0, 0.125 / s],
            [-0.625 / 1.375, -0.875 / s, 0.125 / s, 1.0],
        ];
        let out = Preprocessing::default().apply(&[k.as_ref()]).unwrap();
        close(out[0].as_ref(), &kn, 1e-14);
        assert!((out[0][(0, 1)] - 0.113_960_576).abs() < 1e-8);
        assert!((out[0][(0, 3)] + 0.454_545_454_5).abs() < 1e-9);
    }

    #[test]
    fn hand_computed_4x4_linear() {
        // K_ij = i·j (1-D points 0, 1, 2, 3). Centred points (−1.5, −0.5, 0.5, 1.5);
        // unit diagonal gives sign(c_i c_j).
        let k = Mat::from_fn(4, 4, |i, j| (i * j) as f64);
        let out = Preprocessing::CenterUnitDiagonal
            .apply(&[k.as_ref()])
            .unwrap();
        let e = [
            [1.0, 1.0, -1.0, -1.0],
            [1.0, 1.0, -1.0, -1.0],
            [-1.0, -1.0, 1.0, 1.0],
            [-1.0, -1.0, 1.0, 1.0],
        ];
        close(out[0].as_ref(), &e, 1e-14);
        let none = Preprocessing::None.apply(&[k.as_ref()]).unwrap();
        assert_eq!(none[0], k);
    }

    #[test]
    fn bad_kernels_are_typed_errors() {
        let a = Mat::<f64>::identity(3, 3);
        let b = Mat::<f64>::identity(4, 4);
        assert!(matches!(
            Preprocessing::default().apply(&[a.as_ref(), b.as_ref()]),
            Err(Error::Shape { .. })
        ));
        let mut nan = Mat::<f64>::identity(3, 3);
        nan[(1, 1)] = f64::NAN;
        assert!(matches!(
            Preprocessing::None.apply(&[nan.as_ref()]),
            Err(Error::NonFinite { .. })
        ));
        // A constant kernel centres to zero: unit diagonal fails and names the kernel.
        let c = Mat::from_fn(3, 3, |_, _| 2.0);
        match Preprocessing::default().apply(&[a.as_ref(), c.as_ref()]) {
            Err(Error::InvalidInput { what, .. }) => assert_eq!(what, "kernels[1]"),
            other => panic!("{other:?}"),
        }
        // Zero kernel without preprocessing is rejected by Prepared.
        let z = Mat::<f64>::zeros(3, 3);
        match Prepared::new(&[a.as_ref(), z.as_ref()], &Preprocessing::None) {
            Err(Error::InvalidInput { what, .. }) => assert_eq!(what, "kernels[1]"),
            Err(e) => panic!("{e}"),
            Ok(_) => panic!("zero kernel accepted"),
        }
        assert!(Prepared::new(&[], &Preprocessing::None).is_err());
    }
}
