//! LF-MVC: the Procrustes step against a search over rotations, the objective against a
//! direct evaluation, monotone ascent, the code's accumulation, the contract and errors.

mod common;

use common::{gaussian_views, refs};
use faer::{Mat, MatRef};
use mkc_core::Error;
use mkc_mkkm::params::rejected_param;
use mkc_mkkm::prelude::*;
use mkc_mkkm::procrustes;

fn tr_at_b(a: MatRef<'_, f64>, b: MatRef<'_, f64>) -> f64 {
    let mut s = 0.0;
    for i in 0..a.nrows() {
        for j in 0..a.ncols() {
            s += a[(i, j)] * b[(i, j)];
        }
    }
    s
}

#[test]
fn procrustes_beats_every_rotation_and_reflection_for_k_2() {
    let ms = [
        Mat::from_fn(2, 2, |i, j| [[1.0, 2.0], [-0.5, 0.3]][i][j]),
        Mat::from_fn(2, 2, |i, j| [[-3.0, 0.1], [0.2, -1.0]][i][j]),
    ];
    for m in &ms {
        let q = procrustes(m.as_ref()).unwrap();
        let value = tr_at_b(q.as_ref(), m.as_ref());
        // QᵀQ = I
        let qtq = q.transpose() * &q;
        assert!((&qtq - Mat::<f64>::identity(2, 2)).norm_max() < 1e-14);
        // every 2x2 orthogonal matrix is a rotation or a reflection by an angle
        let mut best = f64::MIN;
        for s in 0..20_000 {
            let t = s as f64 / 20_000.0 * std::f64::consts::TAU;
            let (c, si) = (t.cos(), t.sin());
            for q in [[[c, -si], [si, c]], [[c, si], [si, -c]]] {
                let cand = Mat::from_fn(2, 2, |i, j| q[i][j]);
                best = best.max(tr_at_b(cand.as_ref(), m.as_ref()));
            }
        }
        assert!(value >= best - 1e-12, "{value} < {best}");
        assert!(value - best < 1e-6, "{value} vs grid {best}");
    }
    // tall matrices: the value is the nuclear norm
    let m = Mat::from_fn(5, 2, |i, j| ((i * 3 + j * 7) % 5) as f64 - 2.0);
    let q = procrustes(m.as_ref()).unwrap();
    let nuclear: f64 = m.thin_svd().unwrap().S().column_vector().iter().sum();
    assert!((tr_at_b(q.as_ref(), m.as_ref()) - nuclear).abs() < 1e-12);
    assert!(matches!(
        procrustes(Mat::<f64>::zeros(1, 2).as_ref()),
        Err(Error::Shape { .. })
    ));
}

/// The objective `Σ_p β_p tr(Hᵀ H_p W_p) + λ tr(Hᵀ H_0)` from the fit's pieces.
fn direct(fit: &mkc_mkkm::LfMvcFit, lambda: f64) -> f64 {
    let fused: f64 = fit
        .extra
        .base
        .iter()
        .zip(&fit.extra.rotations)
        .zip(&fit.gamma)
        .map(|((hp, w), b)| b * tr_at_b(fit.h.as_ref(), (hp * w).as_ref()))
        .sum();
    fused + lambda * tr_at_b(fit.h.as_ref(), fit.extra.h0.as_ref())
}

#[test]
fn ascent_is_monotone_and_the_objective_is_the_alignment() {
    let (ks, truth) = gaussian_views(60, 3, &[0.5, 2.0, 6.0]);
    for lambda in [0.0, 0.25, 2.0, 64.0] {
        let fit = LfMvcParams::new()
            .lambda(lambda)
            .fit_kernels(&refs(&ks), 3)
            .unwrap();
        let tr = &fit.objective_trace;
        for w in tr.windows(2) {
            assert!(w[1] >= w[0] - 1e-12 * w[0].abs(), "λ = {lambda}: {tr:?}");
        }
        let d = direct(&fit, lambda);
        assert!((d - tr.last().unwrap()).abs() < 1e-10 * d, "{d} vs {tr:?}");
        // H, W_p orthonormal; β of unit norm
        let hth = fit.h.transpose() * &fit.h;
        assert!((&hth - Mat::<f64>::identity(3, 3)).norm_max() < 1e-12);
        for w in &fit.extra.rotations {
            assert!((w.transpose() * w - Mat::<f64>::identity(3, 3)).norm_max() < 1e-12);
        }
        assert!((fit.gamma.iter().map(|b| b * b).sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(fit.diagnostics.converged || lambda < 1.0, "λ = {lambda}");
        let labels = mkc_mkkm::labels_from_h(fit.h.as_ref(), 3, 0).unwrap();
        let acc = mkc_metrics::accuracy(&truth, &labels).unwrap();
        assert!(acc > 0.9, "λ = {lambda}: {acc}");
    }
}

#[test]
fn the_codes_accumulation_differs_and_a_large_lambda_gives_the_average_partition() {
    let (ks, _) = gaussian_views(60, 3, &[0.5, 2.0, 6.0]);
    let run = |p: LfMvcParams| p.fit_kernels(&refs(&ks), 3).unwrap();
    let paper = run(LfMvcParams::new().lambda(8.0));
    let code = run(LfMvcParams::new().lambda(8.0).accumulate(true));
    assert!(code.objective_trace != paper.objective_trace);
    // λ → ∞: H → H_0 (up to a rotation): HHᵀ = H_0H_0ᵀ
    let big = run(LfMvcParams::new().lambda(1e9));
    let p1 = &big.h * big.h.transpose();
    let p0 = &big.extra.h0 * big.extra.h0.transpose();
    assert!((&p1 - &p0).norm_max() < 1e-6);
}

common::contract_test!(
    0.9;
    "lf-mvc" => LfMvcParams::new(),
    "lf-mvc" => LfMvcParams::new().accumulate(true),
);

#[test]
fn every_bad_parameter_is_named() {
    for (r, name) in [
        (
            LfMvcParams::new().lambda(f64::INFINITY).validate_params(),
            "lambda",
        ),
        (LfMvcParams::new().lambda(-0.1).validate_params(), "lambda"),
        (LfMvcParams::new().tol(0.0).validate_params(), "tol"),
        (LfMvcParams::new().max_iter(0).validate_params(), "max_iter"),
    ] {
        assert_eq!(rejected_param(&r), Some(name), "{r:?}");
    }
}
