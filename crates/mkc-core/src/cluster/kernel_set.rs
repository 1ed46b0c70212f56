//! [`KernelSet`]: kernels (and optional features) validated once, reused by every fit.

use crate::{validate, Error, Result};
use faer::{Mat, MatRef};

/// Relative tolerance of [`KernelSet::is_features_linear`]: a kernel computed as `XXᵀ`
/// in any summation order agrees to about `d·ε` relative; 1e-10 leaves room for d up
/// to ~10⁵ and rejects any rescaling.
pub const LINEAR_RTOL: f64 = 1e-10;

/// A set of `m ≥ 1` kernel matrices of one size `n × n`, each checked once when the set is
/// built (non-empty, square, finite, symmetric within [`validate::SYMMETRY_RTOL`]), plus an
/// optional `n × d` feature matrix (rows = samples) for the methods that work in feature
/// space.
///
/// The set borrows its matrices (from faer `Mat`s, or from numpy buffers in the Python
/// package), so building it copies nothing; every fit that takes `&KernelSet` trusts the
/// checks and never re-reads the n² entries to validate them.
///
/// Feature-only data (for k-means) is a set with no kernels: [`KernelSet::from_features`].
/// Methods that need kernels reject such a set with [`Error::InvalidInput`], and methods
/// that need features (k-means, LG-MMC's and CPMMC's linear feature-space paths) reject a
/// set without them.
///
/// ```
/// use faer::Mat;
/// use mkc_core::KernelSet;
///
/// let k1 = Mat::from_fn(4, 4, |i, j| if i == j { 1.0 } else { 0.2 });
/// let k2 = Mat::<f64>::identity(4, 4);
/// let kernels = vec![k1, k2];
/// let set = KernelSet::new(&kernels).unwrap();
/// assert_eq!((set.n(), set.len()), (4, 2));
///
/// let bad = Mat::from_fn(4, 4, |i, j| (i + 2 * j) as f64); // not symmetric
/// assert!(KernelSet::from_refs(vec![bad.as_ref()]).is_err());
/// ```
#[derive(Clone, Debug)]
pub struct KernelSet<'a> {
    kernels: Vec<MatRef<'a, f64>>,
    names: Vec<String>,
    features: Option<MatRef<'a, f64>>,
    n: usize,
}

impl<'a> KernelSet<'a> {
    /// A set of owned kernels, validated. Names default to `K0`, `K1`, ….
    pub fn new(kernels: &'a [Mat<f64>]) -> Result<Self> {
        Self::from_refs(kernels.iter().map(|k| k.as_ref()).collect())
    }

    /// A set of borrowed kernels, validated.
    pub fn from_refs(kernels: Vec<MatRef<'a, f64>>) -> Result<Self> {
        let n = validate::kernels("kernels", &kernels)?;
        let names = (0..kernels.len()).map(|p| format!("K{p}")).collect();
        Ok(Self {
            kernels,
            names,
            features: None,
            n,
        })
    }

    /// A set with features only (no kernel), for feature-space methods such as k-means.
    pub fn from_features(features: MatRef<'a, f64>) -> Result<Self> {
        validate::non_empty("features", features)?;
        validate::finite("features", features)?;
        Ok(Self {
            kernels: Vec::new(),
            names: Vec::new(),
            features: Some(features),
            n: features.nrows(),
        })
    }

    /// Attach an `n × d` feature matrix (rows = samples), validated (finite, `n` rows).
    pub fn with_features(mut self, features: MatRef<'a, f64>) -> Result<Self> {
        validate::non_empty("features", features)?;
        if !self.kernels.is_empty() && features.nrows() != self.n {
            return Err(Error::shape(
                "features",
                format!("{} rows (one per sample, like the kernels)", self.n),
                format!("{} rows", features.nrows()),
            ));
        }
        validate::finite("features", features)?;
        self.n = features.nrows();
        self.features = Some(features);
        Ok(self)
    }

    /// Name the kernels (e.g. `gaussian(σ=0.1·range)`); one name per kernel.
    pub fn with_names(mut self, names: Vec<String>) -> Result<Self> {
        validate::len("kernel names", names.len(), self.kernels.len())?;
        self.names = names;
        Ok(self)
    }

    /// Number of samples.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Number of kernels (0 for a feature-only set).
    pub fn len(&self) -> usize {
        self.kernels.len()
    }

    /// No kernels (a feature-only set).
    pub fn is_empty(&self) -> bool {
        self.kernels.is_empty()
    }

    /// The kernels, in order.
    pub fn kernels(&self) -> &[MatRef<'a, f64>] {
        &self.kernels
    }

    /// Kernel `p`.
    pub fn kernel(&self, p: usize) -> MatRef<'a, f64> {
        self.kernels[p]
    }

    /// Kernel names, in order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The feature matrix, if attached.
    pub fn features(&self) -> Option<MatRef<'a, f64>> {
        self.features
    }

    /// The kernels, or an [`Error::InvalidInput`] naming `method` when the set has none.
    pub fn require_kernels(&self, method: &str) -> Result<&[MatRef<'a, f64>]> {
        if self.kernels.is_empty() {
            return Err(Error::input(
                method,
                "needs at least one kernel; the kernel set holds features only",
            ));
        }
        Ok(&self.kernels)
    }

    /// Whether the set is one kernel that is the linear kernel `XXᵀ` of its features, so
    /// that a method may work in feature space instead (LG-MMC's, GMMC's, CPMMC's and
    /// iterSVR's automatic paths): exactly one kernel, named `…linear` (the workspace's
    /// name of `XXᵀ`), and features whose row inner products `x_i·x_j` match `K_ij` on the
    /// diagonal and the first off-diagonal to within [`LINEAR_RTOL`]`·‖x_i‖‖x_j‖`.
    ///
    /// The name alone is not enough: a linear kernel that was normalised (scaled,
    /// centred), built from one view of features stored side by side, or from features
    /// scaled differently is named `linear` too. The O(nd) probe of 2n − 1 entries
    /// catches all of these; it is not a proof that every entry agrees.
    pub fn is_features_linear(&self) -> bool {
        let (Some(x), [k]) = (self.features, self.kernels.as_slice()) else {
            return false;
        };
        if !self.names[0].ends_with("linear") || x.nrows() != k.nrows() {
            return false;
        }
        let n = x.nrows();
        let dot = |i: usize, j: usize| (0..x.ncols()).map(|c| x[(i, c)] * x[(j, c)]).sum::<f64>();
        let norms: Vec<f64> = (0..n).map(|i| dot(i, i).sqrt()).collect();
        let agrees =
            |i: usize, j: usize| (k[(i, j)] - dot(i, j)).abs() <= LINEAR_RTOL * norms[i] * norms[j];
        (0..n).all(|i| agrees(i, i)) && (1..n).all(|i| agrees(i, i - 1))
    }

    /// Whether a method with a linear feature-space path may take it on this set instead
    /// of reading a kernel: the set has features and either no kernel or one kernel that
    /// is their `XXᵀ` ([`KernelSet::is_features_linear`]). The automatic rule of LG-MMC,
    /// GMMC, CPMMC and iterSVR.
    pub fn feature_path_fits(&self) -> bool {
        self.features.is_some() && (self.kernels.is_empty() || self.is_features_linear())
    }

    /// The features, or an [`Error::InvalidInput`] naming `method` when none are attached.
    pub fn require_features(&self, method: &str) -> Result<MatRef<'a, f64>> {
        self.features.ok_or_else(|| {
            Error::input(
                method,
                "needs a feature matrix; attach one with KernelSet::with_features",
            )
        })
    }

    /// The one kernel a single-kernel method works on: the kernel itself when the set has
    /// one, else the equal-weight mean `(1/m) Σ_p K_p` (so a single-kernel method given
    /// several kernels is the "average kernel" baseline: kernel k-means becomes Avg-KKM).
    /// Borrowed when `m = 1`, computed once otherwise.
    pub fn one_kernel(&self, method: &str) -> Result<OneKernel<'a>> {
        let ks = self.require_kernels(method)?;
        if ks.len() == 1 {
            Ok(OneKernel::Given(ks[0]))
        } else {
            self.mean_kernel(method).map(OneKernel::Mean)
        }
    }

    /// This set's features with `kernel` in place of its kernels: a kernel derived from
    /// the validated ones (their mean, a combination with non-negative weights) needs no
    /// new check.
    pub(crate) fn with_single_kernel<'b>(&self, kernel: MatRef<'b, f64>) -> KernelSet<'b>
    where
        'a: 'b,
    {
        KernelSet {
            kernels: vec![kernel],
            names: vec!["mean".to_string()],
            features: self.features,
            n: self.n,
        }
    }

    /// The equal-weight mean `(1/m) Σ_p K_p` of the kernels, as an owned matrix.
    pub fn mean_kernel(&self, method: &str) -> Result<Mat<f64>> {
        let ks = self.require_kernels(method)?;
        let w = 1.0 / ks.len() as f64;
        Ok(Mat::from_fn(self.n, self.n, |i, j| {
            ks.iter().map(|k| k[(i, j)]).sum::<f64>() * w
        }))
    }

    /// The subset of kernels `idx` (names kept), without re-validation.
    pub fn select(&self, idx: &[usize]) -> Result<KernelSet<'a>> {
        if let Some(&p) = idx.iter().find(|&&p| p >= self.kernels.len()) {
            return Err(Error::param(
                "kernel index",
                p,
                format!("the set has {} kernels", self.kernels.len()),
            ));
        }
        if idx.is_empty() {
            return Err(Error::input("kernel selection", "no kernel selected"));
        }
        Ok(KernelSet {
            kernels: idx.iter().map(|&p| self.kernels[p]).collect(),
            names: idx.iter().map(|&p| self.names[p].clone()).collect(),
            features: self.features,
            n: self.n,
        })
    }
}

/// The kernel of a single-kernel method: see [`KernelSet::one_kernel`].
#[derive(Debug)]
pub enum OneKernel<'a> {
    /// The set's only kernel, borrowed.
    Given(MatRef<'a, f64>),
    /// The equal-weight mean of the set's kernels.
    Mean(Mat<f64>),
}

impl OneKernel<'_> {
    /// The kernel as a view.
    pub fn as_mat(&self) -> MatRef<'_, f64> {
        match self {
            OneKernel::Given(k) => *k,
            OneKernel::Mean(k) => k.as_ref(),
        }
    }
}
