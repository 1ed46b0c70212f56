//! Property tests of the basic helpers against independent formulas.

use faer::Mat;
use mkc_linalg::{center_in_place, frobenius_inner, trace_quadratic, weighted_sum};
use proptest::prelude::*;

fn mat(r: usize, c: usize, vals: &[f64]) -> Mat<f64> {
    Mat::from_fn(r, c, |i, j| {
        vals[(i * 31 + j * 7) % vals.len()] * (1.0 + (i + 2 * j) as f64 / 10.0)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn trace_quadratic_is_frobenius_with_hht(n in 1usize..40, c in 1usize..6, vals in prop::collection::vec(-3.0f64..3.0, 1..50)) {
        let x = mat(n, n, &vals);
        let k = &x + x.transpose();
        let h = mat(n, c, &vals[vals.len() / 2..]);
        let hht = &h * h.transpose();
        let a = trace_quadratic(k.as_ref(), h.as_ref()).unwrap();
        let b = frobenius_inner(k.as_ref(), hht.as_ref()).unwrap();
        prop_assert!((a - b).abs() <= 1e-9 * (1.0 + a.abs()));
    }

    #[test]
    fn weighted_sum_is_linear(n in 1usize..30, c1 in -2.0f64..2.0, c2 in -2.0f64..2.0, vals in prop::collection::vec(-3.0f64..3.0, 1..50)) {
        let a = mat(n, n, &vals);
        let b = mat(n, n, &vals[vals.len() / 3..]);
        let s = weighted_sum(&[c1, c2], &[a.as_ref(), b.as_ref()]).unwrap();
        // ⟨S, A⟩ = c1⟨A, A⟩ + c2⟨B, A⟩
        let lhs = frobenius_inner(s.as_ref(), a.as_ref()).unwrap();
        let rhs = c1 * frobenius_inner(a.as_ref(), a.as_ref()).unwrap() + c2 * frobenius_inner(b.as_ref(), a.as_ref()).unwrap();
        prop_assert!((lhs - rhs).abs() <= 1e-9 * (1.0 + lhs.abs()));
    }

    #[test]
    fn centring_is_idempotent_and_zeroes_row_sums(n in 1usize..30, vals in prop::collection::vec(-3.0f64..3.0, 1..50)) {
        let x = mat(n, 3, &vals);
        let mut k = &x * x.transpose();
        center_in_place(k.as_mut()).unwrap();
        let once = k.clone();
        center_in_place(k.as_mut()).unwrap();
        let scale = 1.0 + once.norm_max();
        prop_assert!((&k - &once).norm_max() <= 1e-10 * scale);
        for i in 0..n {
            let s: f64 = (0..n).map(|j| once[(i, j)]).sum();
            prop_assert!(s.abs() <= 1e-9 * scale * n as f64);
        }
    }
}
