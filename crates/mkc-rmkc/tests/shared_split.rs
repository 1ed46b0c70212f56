//! The initial split computed once and shared (`Rmkc::initial_split`,
//! `Rmkc::fit_with_split`): fits from it are the fits that draw their own, bit for bit,
//! across the parameters that `Rmkc::start_params` leaves out (L, the iteration cap, the
//! 1-norm against no norm); a bad split is a typed error.

mod common;

use common::{blobs, gaussians};
use mkc_core::{Clusterer, Diagnostics, Error, KernelSet, ParamGuard};
use mkc_rmkc::{Balance, InitialSplit, Norm, RmkcParams};

#[test]
fn fits_from_a_shared_split_are_the_fits() {
    let ks = gaussians(&blobs(48, 0.8, 9), &[0.3, 1.0, 3.0]);
    let data = KernelSet::new(&ks).unwrap();
    for c in [0.1, 10.0] {
        let base = RmkcParams::new().c(c).check().unwrap();
        for seed in [5u64, 6] {
            let split = base.initial_split(&data, 2, seed).unwrap();
            assert_eq!(split.labels.len(), 48);
            assert!(split.solves >= 1);
            for (norm, l, max_iter) in
                [(Norm::L1, 30, 100), (Norm::None, 30, 100), (Norm::L1, 4, 3)]
            {
                let m = RmkcParams::new()
                    .c(c)
                    .norm(norm)
                    .l(l)
                    .max_iter(max_iter)
                    .check()
                    .unwrap();
                assert_eq!(m.start_params(), base.start_params());
                let own = m.fit(&data, 2, seed).unwrap();
                let shared = m.fit_with_split(&data, 2, &split).unwrap();
                let at = format!("C = {c}, seed {seed}, {norm:?}, L = {l}, cap {max_iter}");
                assert_eq!(own.labels, shared.labels, "{at}");
                assert_eq!(own.objective, shared.objective, "{at}");
                assert_eq!(own.kernel_weights, shared.kernel_weights, "{at}");
                assert_eq!(own.iterations, shared.iterations, "{at}");
                assert_eq!(own.converged, shared.converged, "{at}");
                assert_eq!(
                    own.diagnostics.entries(),
                    shared.diagnostics.entries(),
                    "{at}"
                );
                let phases: Vec<&str> = shared.timings.phases().iter().map(|p| p.0).collect();
                // The split is given: no "init" phase (K̃(θ⁽⁰⁾) is formed column by
                // column in the θ and label phases).
                assert_eq!(phases, ["theta", "labels"], "{at}");
            }
        }
    }
}

/// The 2-norm starts from another θ⁽⁰⁾, and C enters the split's J: neither shares.
#[test]
fn start_params_separate_what_the_split_depends_on() {
    let p = |norm: Norm, c: f64| {
        RmkcParams::new()
            .norm(norm)
            .c(c)
            .check()
            .unwrap()
            .start_params()
    };
    assert_eq!(p(Norm::L1, 1.0), p(Norm::None, 1.0));
    assert_ne!(p(Norm::L1, 1.0), p(Norm::L2, 1.0));
    assert_ne!(p(Norm::L1, 1.0), p(Norm::L1, 10.0));
    let pairs = |f: f64| {
        RmkcParams::new()
            .init_pairs(f)
            .check()
            .unwrap()
            .start_params()
    };
    assert_ne!(pairs(0.25), pairs(0.5));
}

#[test]
fn a_bad_split_is_a_typed_error() {
    let ks = gaussians(&blobs(20, 1.0, 3), &[0.5, 2.0]);
    let data = KernelSet::new(&ks).unwrap();
    let m = RmkcParams::new()
        .balance(Balance::Fraction(0.2))
        .check()
        .unwrap();
    let split = |labels: Vec<usize>| InitialSplit { labels, solves: 1 };
    let short = m.fit_with_split(&data, 2, &split(vec![0, 1]));
    assert!(matches!(short, Err(Error::Shape { .. })), "{short:?}");
    let mut two = vec![0; 20];
    two[..10].fill(1);
    two[3] = 2;
    let bad = m.fit_with_split(&data, 2, &split(two));
    assert!(matches!(bad, Err(Error::InvalidInput { .. })), "{bad:?}");
    let one = m.fit_with_split(&data, 2, &split(vec![1; 20]));
    assert!(matches!(one, Err(Error::InvalidInput { .. })), "{one:?}");
    // |Σy| = 8 > ℓ = 0.2 · 20.
    let lopsided: Vec<usize> = (0..20).map(|i| usize::from(i < 14)).collect();
    let unbalanced = m.fit_with_split(&data, 2, &split(lopsided));
    assert!(
        matches!(unbalanced, Err(Error::InvalidInput { .. })),
        "{unbalanced:?}"
    );
    assert!(matches!(
        m.initial_split(&data, 3, 0),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        m.fit_with_split(&data, 3, &split(vec![0; 20])),
        Err(Error::InvalidParam { .. })
    ));
}
