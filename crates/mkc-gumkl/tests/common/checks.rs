//! Contract checks that hold for GUMKL and MVKKM alike (both alternate a clustering of the
//! composite kernel Σ_v w_v^p K_v with the closed-form weights of eqs. 7/8): each test file
//! runs them on its method.

use super::views;
use faer::Mat;
use mkc_core::prelude::*;
use mkc_core::testing::{spoiled_kernels, variant};
use mkc_core::DiagnosticList;
use mkc_metrics::{nmi, NmiNorm};

/// `make(p)` builds the method with exponent p.
pub type Make = fn(f64) -> Box<dyn DynClusterer>;

fn fit(method: &dyn DynClusterer, ks: &[Mat<f64>], k: usize) -> Clustering<DiagnosticList> {
    method.fit_dyn(&KernelSet::new(ks).unwrap(), k, 0).unwrap()
}

/// The test `shared_checks` of a test file: [`all`] on the builder `$params` with exponent
/// p (`$params::new().p(p)`), the data of the first check drawn with `$seed`.
macro_rules! shared_checks {
    ($params:ident, $seed:expr) => {
        #[test]
        fn shared_checks() {
            common::checks::all(|p| Box::new($params::new().p(p)), $seed);
        }
    };
}
pub(crate) use shared_checks;

/// Every check below, on the method `make` builds; `seed` draws the data of the first.
pub fn all(make: Make, seed: u64) {
    recovers_clusters_and_ranks_views(make, seed);
    weights_on_the_simplex_for_every_p(make);
    deterministic_whatever_the_seed_and_threads(make);
    bad_inputs_are_typed_errors(make);
}

/// A strong, a weaker and a pure-noise view: the clusters are found and eq. (7) ranks the
/// views by quality; the weights lie on the simplex.
pub fn recovers_clusters_and_ranks_views(make: Make, seed: u64) {
    let (_, ks, truth) = views(3, 20, 4, &[4.0, 1.5, 0.0], seed);
    let fit = fit(&*make(2.0), &ks, 3);
    assert!(nmi(&truth, &fit.labels, NmiNorm::Arithmetic).unwrap() > 0.95);
    let w = fit.kernel_weights.as_ref().unwrap();
    assert_eq!(w.constraint, WeightConstraint::Simplex);
    assert!(w.violation() < 1e-9, "{w:?}");
    assert!(
        w.values[0] > w.values[1] && w.values[1] > w.values[2],
        "{w:?}"
    );
    assert!(fit.converged);
    assert_eq!(fit.objective.len(), fit.iterations);
    assert!(fit.objective.iter().all(|v| v.is_finite() && *v >= 0.0));
    assert_eq!(fit.diagnostics[0], ("converged".to_string(), 1.0));
}

/// Weights on the simplex for every p, including the vertices of p = 1 and the uniform
/// weights of p = ∞.
pub fn weights_on_the_simplex_for_every_p(make: Make) {
    for (seed, p) in [(2, 1.0), (3, 1.5), (4, 3.5), (5, 10.0), (6, f64::INFINITY)] {
        let (_, ks, _) = views(4, 12, 3, &[2.0, 1.0, 0.5, 3.0], seed);
        let fit = fit(&*make(p), &ks, 4);
        let w = fit.kernel_weights.unwrap();
        assert!(w.violation() < 1e-12, "p = {p}: {w:?}");
        if p == 1.0 {
            assert_eq!(w.values.iter().filter(|&&x| x == 1.0).count(), 1, "{w:?}");
        }
        if p == f64::INFINITY {
            assert_eq!(w.values, vec![0.25; 4]);
            assert_eq!(fit.iterations, 1);
        }
    }
}

/// Deterministic: the seed is ignored, restarts are copies of one fit, and the number of
/// threads does not matter.
pub fn deterministic_whatever_the_seed_and_threads(make: Make) {
    let (_, ks, _) = views(3, 15, 3, &[1.0, 0.8], 15);
    let set = KernelSet::new(&ks).unwrap();
    let m = make(3.0);
    let fit_in = |threads: usize, seed: u64| {
        mkc_core::testing::with_threads(threads, || m.fit_dyn(&set, 3, seed).unwrap())
    };
    let a = fit_in(1, 0);
    for b in [fit_in(2, 0), fit_in(3, 12345)] {
        assert_eq!(
            (&b.labels, &b.kernel_weights, &b.objective, &b.diagnostics),
            (&a.labels, &a.kernel_weights, &a.objective, &a.diagnostics)
        );
    }
    let runs = m.fit_restarts_dyn(&set, 3, &[1, 2, 3]);
    assert_eq!(runs.len(), 3);
    for r in runs {
        let r = r.unwrap();
        assert_eq!((&r.labels, &r.objective), (&a.labels, &a.objective));
        assert!(r.timings.wall() > 0.0);
    }
}

/// Bad cluster counts, a set without kernels, and bad kernels are typed errors.
pub fn bad_inputs_are_typed_errors(make: Make) {
    let (x, ks, _) = views(2, 5, 2, &[1.0, 1.0], 16);
    let m = make(3.0);
    let set = KernelSet::new(&ks).unwrap();
    for k in [0, 11] {
        let e = m.fit_dyn(&set, k, 0).unwrap_err();
        assert!(
            matches!(&e, Error::InvalidParam { name, .. } if name == "n_clusters"),
            "k = {k}: {e}"
        );
    }
    let features = KernelSet::from_features(x[0].as_ref()).unwrap();
    assert!(matches!(
        m.fit_dyn(&features, 2, 0),
        Err(Error::InvalidInput { .. })
    ));
    // The kernel set rejects bad kernels (NaN, asymmetric, 9 x 9 beside 10 x 10) before
    // any method sees them.
    let small = (Mat::<f64>::identity(9, 9), "Shape");
    for (bad, want) in spoiled_kernels(&ks[1]).into_iter().chain([small]) {
        let e = KernelSet::new(&[ks[0].clone(), bad]).unwrap_err();
        assert_eq!(variant(&e), want, "{e}");
    }
    // A bad exponent is rejected before the data is looked at.
    assert!(matches!(
        make(0.5).validate_params_dyn(),
        Err(Error::InvalidParam { .. })
    ));
}
