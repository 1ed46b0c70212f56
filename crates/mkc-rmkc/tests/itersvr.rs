//! iterSVR: the relabelling rule (threshold structure, balance), fixed points, blob
//! recovery, determinism, and typed errors.

mod common;

use common::{blobs, gaussians, noisy_labels};
use mkc_core::{Error, ParamGuard};
use mkc_rmkc::itersvr::relabel;
use mkc_rmkc::IterSvrParams;
use rand::Rng as _;

#[test]
fn relabel_is_a_balanced_threshold_of_f() {
    let mut rng = mkc_core::seed::rng(3);
    for trial in 0..200 {
        let n = 5 + trial % 20;
        let shift: f64 = rng.random_range(-1.5..1.5);
        let f: Vec<f64> = (0..n)
            .map(|_| rng.random::<f64>() * 2.0 - 1.0 + shift)
            .collect();
        for (lo, hi) in [
            (1, n - 1),
            (n / 2, n / 2 + n % 2),
            (2.min(n - 1), 3.min(n - 1)),
        ] {
            let y = relabel(&f, lo, hi).unwrap();
            let n_plus = y.iter().filter(|&&t| t > 0.0).count();
            assert!(
                (lo..=hi).contains(&n_plus),
                "n₊ = {n_plus} not in [{lo}, {hi}]"
            );
            // Threshold structure: every +1 has f at least every −1's f.
            let min_pos = (0..n)
                .filter(|&i| y[i] > 0.0)
                .map(|i| f[i])
                .fold(f64::INFINITY, f64::min);
            let max_neg = (0..n)
                .filter(|&i| y[i] < 0.0)
                .map(|i| f[i])
                .fold(f64::NEG_INFINITY, f64::max);
            assert!(min_pos >= max_neg);
            // sign(f) is kept whenever it is admissible; otherwise n₊ is the nearest bound.
            let sign_plus = f.iter().filter(|&&v| v >= 0.0).count();
            if (lo..=hi).contains(&sign_plus) {
                assert!(y.iter().zip(&f).all(|(t, v)| (*t > 0.0) == (*v >= 0.0)));
            } else {
                assert_eq!(n_plus, sign_plus.clamp(lo, hi));
            }
        }
    }
}

#[test]
fn recovers_blobs_and_stops_at_a_fixed_point() {
    let n = 40;
    let x = blobs(n, 2.5, 21);
    let k = gaussians(&x, &[1.5]).remove(0);
    let it = IterSvrParams::new(1.0).balance(0.1).check().unwrap();
    // From a corrupted truth: the flips are undone.
    let start = noisy_labels(n, &[0, 1, 25, 30]);
    let fit = it.fit_from(k.as_ref(), &start).unwrap();
    let truth = noisy_labels(n, &[]);
    assert_eq!(fit.y, truth, "changes per iteration {:?}", fit.changes);
    assert!(fit.converged);
    // A fixed point: one more SVR on the final labels relabels nothing.
    let again = it.fit_from(k.as_ref(), &fit.y).unwrap();
    assert_eq!(again.y, fit.y);
    assert_eq!(again.changes, vec![0]);
    // From kernel k-means, deterministic for a seed.
    let a = it.fit(k.as_ref(), 5).unwrap();
    let b = it.fit(k.as_ref(), 5).unwrap();
    assert_eq!(a.y, b.y);
    let agree = a.y.iter().zip(&truth).filter(|(p, q)| p == q).count();
    assert!(agree == n || agree == 0, "agreement {agree}/{n}");
}

#[test]
fn balance_bound_holds_after_every_run() {
    let n = 31;
    let x = blobs(n, 0.3, 4);
    for sigma in [0.3, 1.0, 5.0] {
        let k = gaussians(&x, &[sigma]).remove(0);
        for frac in [0.03, 0.1, 0.3] {
            let it = IterSvrParams::new(10.0).balance(frac).check().unwrap();
            // A very unbalanced start: 25 vs 6.
            let mut y0 = vec![1.0; n];
            y0[..6].iter_mut().for_each(|t| *t = -1.0);
            let fit = it.fit_from(k.as_ref(), &y0).unwrap();
            let s: f64 = fit.y.iter().sum();
            // n odd: ℓ = frac·N, rounded up to the nearest admissible |Σy| (an odd number).
            let ell = (frac * n as f64).max(1.0);
            assert!(s.abs() <= ell + 1e-9, "σ = {sigma}, ℓ = {ell}: Σy = {s}");
        }
    }
}

#[test]
fn bad_inputs_are_typed_errors() {
    let param = |r: mkc_core::Result<mkc_rmkc::IterSvr>, name: &str| match r {
        Err(Error::InvalidParam { name: got, .. }) => assert_eq!(got, name),
        other => panic!("expected InvalidParam {name}, got {other:?}"),
    };
    param(IterSvrParams::new(0.0).check(), "C");
    param(IterSvrParams::new(f64::NAN).check(), "C");
    param(IterSvrParams::new(1.0).epsilon(-0.1).check(), "epsilon");
    param(IterSvrParams::new(1.0).balance(-1.0).check(), "balance");
    param(
        IterSvrParams::new(1.0).balance(f64::INFINITY).check(),
        "balance",
    );
    param(IterSvrParams::new(1.0).max_iter(0).check(), "max_iter");
    assert!(matches!(
        relabel(&[0.5, -0.5], 2, 1),
        Err(Error::InvalidInput { .. })
    ));
    assert!(matches!(
        relabel(&[0.5, -0.5], 1, 3),
        Err(Error::InvalidInput { .. })
    ));
    assert!(matches!(
        relabel(&[0.5, f64::NAN], 1, 1),
        Err(Error::NonFinite { .. })
    ));

    let it = IterSvrParams::new(1.0).check().unwrap();
    let x = blobs(10, 1.0, 1);
    let k = gaussians(&x, &[1.0]).remove(0);
    let y = noisy_labels(10, &[]);
    assert!(it.fit_from(k.as_ref(), &y).is_ok());
    assert!(matches!(
        it.fit_from(k.as_ref(), &y[..9]),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        it.fit_from(k.as_ref(), &[1.0; 10]),
        Err(Error::InvalidInput { .. })
    ));
    let mut bad = y.clone();
    bad[3] = 0.0;
    assert!(matches!(
        it.fit_from(k.as_ref(), &bad),
        Err(Error::InvalidInput { .. })
    ));
    let mut nan = k.clone();
    nan[(1, 2)] = f64::NAN;
    assert!(matches!(
        it.fit(nan.as_ref(), 0),
        Err(Error::NonFinite { .. })
    ));
    let mut asym = k.clone();
    asym[(1, 2)] += 1.0;
    assert!(matches!(
        it.fit(asym.as_ref(), 0),
        Err(Error::NotSymmetric { .. })
    ));
    let one = faer::Mat::from_fn(1, 1, |_, _| 1.0);
    assert!(it.fit(one.as_ref(), 0).is_err());
    let rect = faer::Mat::<f64>::zeros(3, 4);
    assert!(it.fit(rect.as_ref(), 0).is_err());
    // ℓ = 0 with N odd is raised to 1: the clusters differ by one point.
    let odd = gaussians(&blobs(9, 1.0, 2), &[1.0]).remove(0);
    let tight = IterSvrParams::new(1.0).balance(0.0).check().unwrap();
    let fit = tight.fit(odd.as_ref(), 0).unwrap();
    assert_eq!(fit.y.iter().sum::<f64>().abs(), 1.0);
    // Two points: ℓ = 0 leaves one point per cluster.
    let two = gaussians(&blobs(2, 1.0, 2), &[1.0]).remove(0);
    assert_eq!(
        tight
            .fit_from(two.as_ref(), &[1.0, -1.0])
            .unwrap()
            .y
            .iter()
            .sum::<f64>(),
        0.0
    );
}
