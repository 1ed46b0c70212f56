//! A precomputed kernel checked once (square, non-empty, finite, symmetric), so that
//! callers who re-solve many times on one kernel (RMKC's label flips, LG-MMC's
//! cutting-plane rounds) pay the O(n²) check once.

use crate::kernel_sum::KernelSum;
use faer::{Mat, MatRef};
use mkc_core::Result;

/// A kernel matrix that passed [`CheckedKernel::new`]. Cheap to copy.
#[derive(Clone, Copy, Debug)]
pub struct CheckedKernel<'a> {
    k: MatRef<'a, f64>,
}

impl<'a> CheckedKernel<'a> {
    /// Check `k`: non-empty, square, every entry finite, and symmetric within
    /// [`mkc_core::validate::SYMMETRY_RTOL`]` · max|K|`: `mkc_core::validate::kernel`,
    /// on the calling thread (`kernel_sequential`: the solver is sequential and runs
    /// inside parallel grids), in one pass that reads every entry once. Positive
    /// semidefiniteness is not checked: SMO only needs it for global optimality, and
    /// non-positive curvature is handled.
    pub fn new(k: MatRef<'a, f64>) -> Result<Self> {
        mkc_core::validate::kernel_sequential("kernel", k)?;
        Ok(Self { k })
    }

    /// The kernel.
    pub fn as_ref(&self) -> MatRef<'a, f64> {
        self.k
    }

    /// n.
    pub fn size(&self) -> usize {
        self.k.nrows()
    }
}

/// An owned kernel matrix that passed [`CheckedKernel::new`], for callers that build a
/// kernel, check it once and hand it on: RMKC's θ step checks each trial K̃(θ) it
/// builds, and the accepted one goes on to the label step without a second check.
///
/// ```
/// use faer::Mat;
/// use mkc_svm::CheckedKernelMat;
///
/// let k = CheckedKernelMat::new(Mat::from_fn(3, 3, |i, j| if i == j { 2.0 } else { 0.5 }))?;
/// assert_eq!(k.view().size(), 3);
/// let asymmetric = Mat::from_fn(2, 2, |i, j| (i + 2 * j) as f64);
/// assert!(CheckedKernelMat::new(asymmetric).is_err());
/// # Ok::<(), mkc_core::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct CheckedKernelMat {
    k: Mat<f64>,
}

impl CheckedKernelMat {
    /// Check `k` as [`CheckedKernel::new`] does and keep it.
    ///
    /// # Errors
    /// Those of [`CheckedKernel::new`] (the matrix is dropped).
    pub fn new(k: Mat<f64>) -> Result<Self> {
        CheckedKernel::new(k.as_ref())?;
        Ok(Self { k })
    }

    /// The checked kernel, borrowed.
    pub fn view(&self) -> CheckedKernel<'_> {
        CheckedKernel { k: self.k.as_ref() }
    }

    /// The matrix back (to be refilled and checked again).
    pub fn into_inner(self) -> Mat<f64> {
        self.k
    }
}

/// The kernel a [`crate::CSvc`] solves on: a [`CheckedKernel`], or a [`KernelSum`]
/// whose columns are formed as the solver reads them (checked by construction,
/// [`crate::KernelStack`]). The solve methods take a reference to either, or to this
/// ([`AsSvcKernel`]).
#[derive(Clone, Copy, Debug)]
pub enum SvcKernel<'a> {
    /// A formed, checked matrix.
    Checked(CheckedKernel<'a>),
    /// A weighted sum of checked kernels, columns formed on first read.
    Sum(&'a KernelSum<'a>),
}

impl<'a> SvcKernel<'a> {
    /// n.
    pub fn size(&self) -> usize {
        match self {
            SvcKernel::Checked(k) => k.size(),
            SvcKernel::Sum(s) => s.size(),
        }
    }

    /// `scale · (σσᵀ) ∘ K` on this kernel.
    pub(crate) fn signed(
        &self,
        scale: f64,
        signs: Option<&'a [f64]>,
    ) -> Result<crate::qmatrix::DenseSigned<'a>> {
        match *self {
            SvcKernel::Checked(k) => crate::qmatrix::DenseSigned::new(k.as_ref(), scale, signs),
            SvcKernel::Sum(s) => crate::qmatrix::DenseSigned::on_sum(s, scale, signs),
        }
    }
}

/// What the [`crate::CSvc`] solve methods take by reference: a [`CheckedKernel`], a
/// [`KernelSum`] or an [`SvcKernel`].
pub trait AsSvcKernel {
    /// The kernel to solve on.
    fn as_svc_kernel(&self) -> SvcKernel<'_>;
}

impl AsSvcKernel for CheckedKernel<'_> {
    fn as_svc_kernel(&self) -> SvcKernel<'_> {
        SvcKernel::Checked(*self)
    }
}

impl AsSvcKernel for KernelSum<'_> {
    fn as_svc_kernel(&self) -> SvcKernel<'_> {
        SvcKernel::Sum(self)
    }
}

impl AsSvcKernel for SvcKernel<'_> {
    fn as_svc_kernel(&self) -> SvcKernel<'_> {
        *self
    }
}
