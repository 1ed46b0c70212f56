//! RMKC (Tzortzis & Likas, `mkc-rmkc`): ratio-based multiple kernel clustering, two
//! clusters. Parameters as in the paper's Section 3: C (grid {1e-2, …, 1e2}), L = 30,
//! ℓ = 0.5N (`balance`, a fraction of N), and the norm on θ (`p`: none, 1, 2). Each run
//! draws its own initial pairs from the run's seed (the paper's 30 runs). The run records
//! the solve counts (`init_solves`, `theta_solves`, `label_solves`) and the final J and E
//! as diagnostics, and the seconds of the phases `init`, `theta` and `labels`.

use crate::params::{FromParam, ParamKind, ParamSet, ParamSpec};
use mkc_core::Result;
use mkc_rmkc::{Balance, Norm, RmkcParams};

words!(Norm { "none" => Norm::None, "2" => Norm::L2, _ => Norm::L1 });

/// `balance` is ℓ as a fraction of N.
impl FromParam for Balance {
    fn from_param(set: &ParamSet, name: &str) -> Result<Self> {
        Ok(Balance::Fraction(set.f64(name)?))
    }
}

#[rustfmt::skip]
const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("C", ParamKind::Float, "1", "SVM regulariser C > 0 (paper: best of 1e-2, 1e-1, 1, 10, 100 per dataset)"),
    ParamSpec::new("L", ParamKind::Int, "30", "candidate label vectors per phase of Algorithm 2 (paper: 30)"),
    ParamSpec::new("balance", ParamKind::Float, "0.5", "balance bound ℓ as a fraction of N, |Σy| ≤ ℓ (paper: 0.5; Corel 0.2)"),
    ParamSpec::new("p", ParamKind::Choice(&["none", "1", "2"]), "1", "norm constraint on θ: ‖θ‖_p^p = 1, or none (paper: 1-norm in Tables 2–4)"),
    ParamSpec::new("init_pairs", ParamKind::Float, "0.25", "initial pairs as a fraction of N (paper: 'usually 0.25N')"),
    ParamSpec::new("svm_tol", ParamKind::Float, "1e-3", "KKT tolerance of every SVM solve (LIBSVM's default)"),
    ParamSpec::new("max_iter", ParamKind::Int, "100", "cap on the outer iterations of Algorithm 1"),
];

adapter! {
    /// RMKC.
    Rmkc, "rmkc", "RMKC: ratio-based multiple kernel clustering, two clusters (Tzortzis & Likas)", PARAMS,
    RmkcParams::new() => [c = "C", l = "L", balance, norm = "p", init_pairs, svm_tol, max_iter]
}
