//! Learned kernel weights and the constraint set they live on.

/// The set a method's kernel weights are constrained to, so generic code (and the
/// workspace's contract test) can check them without knowing the method.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum WeightConstraint {
    /// `w ≥ 0, Σ w = 1` (SimpleMKKM's γ, MKKM, GUMKL, MVKKM).
    Simplex,
    /// `w ≥ 0, Σ w^p = 1`, i.e. on the non-negative part of the unit ℓp sphere (RMKC's θ
    /// with p = 1 or 2; MKKM-MM's ℓ2 weights).
    PNorm(f64),
    /// `w ≥ 0, Σ √w = 1` (SCMK, eq. 22).
    SqrtSimplex,
    /// `w ≥ 0` only (unnormalised weights).
    NonNegative,
}

impl WeightConstraint {
    /// How far `w` is from the set: the largest of the negative parts and of the
    /// normalisation residual (0 for a point of the set).
    pub fn violation(&self, w: &[f64]) -> f64 {
        let neg = w.iter().fold(0.0f64, |m, &x| m.max(-x));
        let norm = match *self {
            WeightConstraint::Simplex => (w.iter().sum::<f64>() - 1.0).abs(),
            WeightConstraint::PNorm(p) => {
                (w.iter().map(|x| x.max(0.0).powf(p)).sum::<f64>() - 1.0).abs()
            }
            WeightConstraint::SqrtSimplex => {
                (w.iter().map(|x| x.max(0.0).sqrt()).sum::<f64>() - 1.0).abs()
            }
            WeightConstraint::NonNegative => 0.0,
        };
        if w.iter().any(|x| !x.is_finite()) {
            return f64::INFINITY;
        }
        neg.max(norm)
    }
}

/// Kernel weights learned by a method, one per kernel, with their constraint set.
#[derive(Debug, Clone, PartialEq)]
pub struct KernelWeights {
    /// One weight per kernel, in the kernel set's order.
    pub values: Vec<f64>,
    /// The set they live on.
    pub constraint: WeightConstraint,
}

impl KernelWeights {
    /// Weights `values` on `constraint`.
    pub fn new(values: Vec<f64>, constraint: WeightConstraint) -> Self {
        Self { values, constraint }
    }

    /// See [`WeightConstraint::violation`].
    pub fn violation(&self) -> f64 {
        self.constraint.violation(&self.values)
    }
}
