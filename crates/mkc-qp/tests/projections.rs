//! Projections: KKT conditions, brute force (random feasible points are never closer),
//! exhaustive active-set enumeration for tiny n, and typed errors.

mod common;

use common::{dist2, exhaustive};
use faer::Mat;
use mkc_core::Error;
use mkc_qp::*;
use proptest::prelude::*;
use rand::Rng;

fn vecs(max_n: usize) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(-5.0f64..5.0, 1..=max_n)
}

/// `count` random points of {z ≥ 0, 1ᵀz = r, z ≤ u} (normalised exponentials, then
/// mass above u moved to coordinates with room: stays feasible).
fn random_capped(n: usize, r: f64, u: f64, seed: u64, count: usize) -> Vec<Vec<f64>> {
    let mut rng = mkc_core::seed::rng(seed);
    (0..count)
        .map(|k| {
            let mut z: Vec<f64> = (0..n)
                .map(|_| -(rng.random::<f64>() + 1e-12).ln().powi(1 + (k % 3) as i32))
                .collect();
            let s: f64 = z.iter().sum();
            z.iter_mut().for_each(|x| *x *= r / s);
            // push excess above u to the others
            for _ in 0..n {
                let excess: f64 = z.iter().map(|&x| (x - u).max(0.0)).sum();
                if excess <= 0.0 {
                    break;
                }
                z.iter_mut().for_each(|x| *x = x.min(u));
                let room: f64 = z.iter().map(|&x| u - x).sum();
                z.iter_mut().for_each(|x| *x += excess * (u - *x) / room);
            }
            z
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn simplex_projection(v in vecs(12), r in 0.1f64..4.0) {
        let mut z = v.clone();
        project_simplex(&mut z, r).unwrap();
        let n = v.len();
        prop_assert!(z.iter().all(|&x| x >= 0.0));
        prop_assert!((z.iter().sum::<f64>() - r).abs() < 1e-12 * (1.0 + r));
        // KKT: z = max(v − θ, 0): v_i − z_i = θ on the support, v_i ≤ θ off it.
        let i0 = (0..n).find(|&i| z[i] > 0.0).unwrap();
        let theta = v[i0] - z[i0];
        for i in 0..n {
            if z[i] > 0.0 { prop_assert!((v[i] - z[i] - theta).abs() < 1e-12 * (1.0 + theta.abs())); }
            else { prop_assert!(v[i] <= theta + 1e-12); }
        }
        for p in random_capped(n, r, f64::INFINITY, n as u64, 30) {
            prop_assert!(dist2(&z, &v) <= dist2(&p, &v) + 1e-12);
        }
        if n <= 6 {
            let c: Vec<f64> = v.iter().map(|x| -x).collect();
            let e = exhaustive(&Mat::identity(n, n), &c, f64::INFINITY, r);
            prop_assert!(dist2(&e, &z) < 1e-20 + 1e-22 * dist2(&v, &v));
        }
    }

    #[test]
    fn l1_ball_projection(v in vecs(12), r in 0.1f64..6.0) {
        let mut z = v.clone();
        project_l1_ball(&mut z, r).unwrap();
        let l1: f64 = v.iter().map(|x| x.abs()).sum();
        if l1 <= r {
            prop_assert_eq!(&z, &v);
        } else {
            prop_assert!((z.iter().map(|x| x.abs()).sum::<f64>() - r).abs() < 1e-12 * (1.0 + r));
            for (a, b) in z.iter().zip(&v) { prop_assert!(a * b >= 0.0 && a.abs() <= b.abs()); }
        }
        // random points of the ball (signed simplex points scaled inside) are never closer
        let n = v.len();
        let mut rng = mkc_core::seed::rng(n as u64 + 99);
        for (k, p) in random_capped(n, r, f64::INFINITY, 7, 30).into_iter().enumerate() {
            let s = if k % 2 == 0 { 1.0 } else { rng.random::<f64>() };
            let p: Vec<f64> = p.iter().zip(&v).map(|(x, vi)| x * s * vi.signum()).collect();
            prop_assert!(dist2(&z, &v) <= dist2(&p, &v) + 1e-12);
        }
    }

    #[test]
    fn nonneg_sphere_projection(v in vecs(10)) {
        let mut z = v.clone();
        project_nonneg_unit_sphere(&mut z).unwrap();
        prop_assert!(z.iter().all(|&x| x >= 0.0));
        prop_assert!((z.iter().map(|x| x * x).sum::<f64>() - 1.0).abs() < 1e-12);
        let n = v.len();
        let mut rng = mkc_core::seed::rng(n as u64);
        for k in 0..40 {
            // random nonnegative unit vectors, some sparse
            let mut p: Vec<f64> = (0..n).map(|i| if (i + k) % 3 == 0 && k % 2 == 0 { 0.0 } else { rng.random::<f64>() }).collect();
            if p.iter().all(|&x| x == 0.0) { p[k % n] = 1.0; }
            let s = p.iter().map(|x| x * x).sum::<f64>().sqrt();
            p.iter_mut().for_each(|x| *x /= s);
            prop_assert!(dist2(&z, &v) <= dist2(&p, &v) + 1e-12);
        }
        for i in 0..n {
            let mut e = vec![0.0; n];
            e[i] = 1.0;
            prop_assert!(dist2(&z, &v) <= dist2(&e, &v) + 1e-12);
        }
    }

    #[test]
    fn capped_simplex_projection(v in vecs(7), frac in 0.0f64..1.0) {
        let n = v.len();
        let u = 1.0 / n as f64 + frac * (1.0 - 1.0 / n as f64) + 0.05 * frac;
        let mut z = v.clone();
        project_capped_simplex(&mut z, u).unwrap();
        prop_assert!(z.iter().all(|&x| (0.0..=u).contains(&x)));
        prop_assert!((z.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        // KKT: z = clamp(v − τ, 0, u) for one τ
        if let Some(i0) = (0..n).find(|&i| z[i] > 0.0 && z[i] < u) {
            let tau = v[i0] - z[i0];
            for i in 0..n {
                if z[i] == 0.0 { prop_assert!(v[i] <= tau + 1e-10); }
                else if z[i] == u { prop_assert!(v[i] >= tau + u - 1e-10); }
                else { prop_assert!((v[i] - z[i] - tau).abs() < 1e-10); }
            }
        }
        for p in random_capped(n, 1.0, u, n as u64 + 3, 30) {
            prop_assert!(dist2(&z, &v) <= dist2(&p, &v) + 1e-12);
        }
        let c: Vec<f64> = v.iter().map(|x| -x).collect();
        let e = exhaustive(&Mat::identity(n, n), &c, u, 1.0);
        prop_assert!(dist2(&e, &z) < 1e-20, "{:?} vs {:?}", e, z);
    }
}

#[test]
fn special_cases() {
    // all entries ≤ 0: the unit vector at the largest (lowest index on ties)
    let mut v = vec![-3.0, -0.5, -2.0, -0.5];
    project_nonneg_unit_sphere(&mut v).unwrap();
    assert_eq!(v, vec![0.0, 1.0, 0.0, 0.0]);
    let mut v = vec![0.0, 0.0];
    project_nonneg_unit_sphere(&mut v).unwrap();
    assert_eq!(v, vec![1.0, 0.0]);
    // huge and tiny entries do not overflow/underflow
    let mut v = vec![1e300, 1e300, -1.0];
    project_nonneg_unit_sphere(&mut v).unwrap();
    assert!((v[0] - 0.5f64.sqrt()).abs() < 1e-15);
    let mut v = vec![1e-300, 0.0];
    project_nonneg_unit_sphere(&mut v).unwrap();
    assert_eq!(v, vec![1.0, 0.0]);
    // n·u = 1: the single point u·1
    let mut v = vec![5.0, -1.0, 0.0, 2.0];
    project_capped_simplex(&mut v, 0.25).unwrap();
    assert_eq!(v, vec![0.25; 4]);
    // u ≥ 1 is the plain simplex
    let mut a = vec![0.3, 2.0, -1.0, 0.9];
    let mut b = a.clone();
    project_capped_simplex(&mut a, 1.0).unwrap();
    project_simplex(&mut b, 1.0).unwrap();
    assert!(dist2(&a, &b) < 1e-28);
    // a point inside stays
    let mut v = vec![0.2, 0.3, 0.5];
    project_simplex(&mut v, 1.0).unwrap();
    assert!(dist2(&v, &[0.2, 0.3, 0.5]) < 1e-30);
}

#[test]
fn projection_errors() {
    type Projection = fn(&mut [f64]) -> mkc_core::Result<()>;
    // each projection with a valid radius (the sphere has none)
    let projections: [(&str, Projection); 4] = [
        ("simplex", |v| project_simplex(v, 1.0)),
        ("l1 ball", |v| project_l1_ball(v, 1.0)),
        ("unit sphere", |v| project_nonneg_unit_sphere(v)),
        ("capped simplex", |v| project_capped_simplex(v, 1.0)),
    ];
    for (name, project) in projections {
        let mut empty: Vec<f64> = vec![];
        let e = project(&mut empty).unwrap_err();
        assert!(matches!(e, Error::InvalidInput { .. }), "{name}: {e:?}");
        for bad in [f64::NAN, f64::INFINITY] {
            let mut v = vec![1.0, bad];
            let e = project(&mut v).unwrap_err();
            assert!(
                matches!(e, Error::NonFinite { row: 1, .. }),
                "{name}, {bad}: {e:?}"
            );
        }
    }
    // invalid radii
    type WithRadius = fn(&mut [f64], f64) -> mkc_core::Result<()>;
    let with_radius: [(&str, WithRadius); 3] = [
        ("simplex", |v, r| project_simplex(v, r)),
        ("l1 ball", |v, r| project_l1_ball(v, r)),
        ("capped simplex", |v, r| project_capped_simplex(v, r)),
    ];
    let mut v = vec![1.0, 2.0, 3.0];
    for r in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        for (name, project) in with_radius {
            let e = project(&mut v, r).unwrap_err();
            assert!(
                matches!(e, Error::InvalidParam { .. }),
                "{name}, r = {r}: {e:?}"
            );
        }
    }
    // infeasible cap: 3 · 0.3 < 1
    match project_capped_simplex(&mut v, 0.3) {
        Err(Error::InvalidParam { name, .. }) => assert_eq!(name, "upper"),
        other => panic!("{other:?}"),
    }
    assert_eq!(v, vec![1.0, 2.0, 3.0], "input untouched on error");
}
