//! AASC (Huang, Chuang & Chen, CVPR 2012).

mod common;

use common::{dense_eigvecs, rejects_each, same_partition, views};
use faer::Mat;
use mkc_core::prelude::*;
use mkc_spectral::{AascParams, Brent, LambdaRule, WeightProblem};

fn fit(
    params: AascParams,
    ks: &[Mat<f64>],
    k: usize,
    seed: u64,
) -> Result<Clustering<mkc_spectral::AascDiagnostics>> {
    params.fit(&KernelSet::new(ks)?, k, seed)
}

/// The weight problem of `f` computed from scratch: α_k = fᵀD_k f, β_k = fᵀ(D_k − W_k)f.
fn problem_from_scratch(ks: &[Mat<f64>], f: &[f64]) -> WeightProblem {
    let n = f.len();
    let mut alpha = Vec::new();
    let mut beta = Vec::new();
    for k in ks {
        let d: Vec<f64> = (0..n).map(|i| (0..n).map(|j| k[(i, j)]).sum()).collect();
        let a: f64 = (0..n).map(|i| d[i] * f[i] * f[i]).sum();
        let mut b = 0.0;
        for i in 0..n {
            for j in 0..n {
                let l = if i == j { d[i] - k[(i, j)] } else { -k[(i, j)] };
                b += f[i] * l * f[j];
            }
        }
        alpha.push(a);
        beta.push(b);
    }
    WeightProblem::new(alpha, beta).unwrap()
}

#[test]
fn every_weight_step_is_the_closed_form_of_the_fiedler_vector() {
    for (seed, gaussian) in [(1, true), (2, true), (3, false)] {
        let (ks, _) = views(3, 8, 3, &[1.5, 0.6, 0.2], gaussian, seed);
        let f = fit(AascParams::new().tol(0.0).max_iter(6), &ks, 3, 0).unwrap();
        let d = &f.diagnostics;
        assert_eq!(
            d.lambdas.len() + 1,
            d.weights_trace.len() + usize::from(!d.converged)
        );
        for (t, v) in d.weights_trace.windows(2).enumerate() {
            // L of Σ v_k² W_k by a dense decomposition; its second eigenvector.
            let n = ks[0].nrows();
            let w = Mat::from_fn(n, n, |i, j| {
                ks.iter().zip(&v[0]).map(|(k, x)| x * x * k[(i, j)]).sum()
            });
            let lap = mkc_linalg::laplacian(w.as_ref()).unwrap();
            let vecs = dense_eigvecs(&lap);
            let f2: Vec<f64> = (0..n).map(|i| vecs[(i, 1)]).collect();
            let problem = problem_from_scratch(&ks, &f2);
            let step = problem
                .solve(LambdaRule::RootOrLeastSquares, -1.0, &Brent::new())
                .unwrap();
            let same = step.lambda == d.lambdas[t]
                || (step.lambda - d.lambdas[t]).abs() <= 1e-6 * (1.0 + step.lambda.abs());
            assert!(same, "step {t}: λ {} vs {}", step.lambda, d.lambdas[t]);
            for (a, b) in step.weights.iter().zip(&v[1]) {
                assert!(
                    (a - b).abs() <= 1e-6 * (1.0 + a.abs()),
                    "step {t}: {:?} vs {:?}",
                    step.weights,
                    v[1]
                );
            }
            // The objective trace is the Rayleigh ratio of the weights that produced f.
            assert!(
                (problem.ratio(&v[0]) - f.objective[t]).abs()
                    <= 1e-8 * f.objective[t].abs().max(1.0)
            );
        }
    }
}

/// `{Σ v = 1, Σ α v² = 1}` for three affinities is an ellipse; parametrised by its angle.
fn ellipse_point(alpha: &[f64; 3], theta: f64) -> [f64; 3] {
    // Centre c ∝ 1/α (the minimiser of Σ α v² on the plane), so Σ α_k c_k d_k = 0 for
    // every direction d of the plane.
    let s: f64 = alpha.iter().map(|a| 1.0 / a).sum();
    let c: Vec<f64> = alpha.iter().map(|a| 1.0 / (a * s)).collect();
    let e1 = [1.0 / 2f64.sqrt(), -1.0 / 2f64.sqrt(), 0.0];
    let e2 = [1.0 / 6f64.sqrt(), 1.0 / 6f64.sqrt(), -2.0 / 6f64.sqrt()];
    let dir: Vec<f64> = (0..3)
        .map(|k| theta.cos() * e1[k] + theta.sin() * e2[k])
        .collect();
    let cc: f64 = (0..3).map(|k| alpha[k] * c[k] * c[k]).sum();
    let dd: f64 = (0..3).map(|k| alpha[k] * dir[k] * dir[k]).sum();
    let r = ((1.0 - cc) / dd).sqrt();
    [c[0] + r * dir[0], c[1] + r * dir[1], c[2] + r * dir[2]]
}

#[test]
fn roots_of_the_secular_equation_are_the_stationary_points_found_by_brute_force() {
    // min Σ v²β on {Σ v = 1, Σ α v² = 1}: every stationary point has v_k ∝ 1/(β_k − λα_k)
    // with λ a root. Brute force: the local extrema of Σ v²β along the ellipse.
    for (alpha, beta) in [
        ([0.5, 0.8, 1.5], [0.3, 0.1, 0.8]),
        ([0.9, 0.6, 2.0], [0.05, 0.4, 0.2]),
        ([0.3, 0.4, 0.5], [0.2, 0.2, 0.7]),
    ] {
        let p = WeightProblem::new(alpha.to_vec(), beta.to_vec()).unwrap();
        let m = 200_000;
        let obj = |t: usize| {
            let v = ellipse_point(&alpha, 2.0 * std::f64::consts::PI * t as f64 / m as f64);
            (0..3).map(|k| v[k] * v[k] * beta[k]).sum::<f64>()
        };
        let mut extrema = Vec::new();
        for t in 0..m {
            let (a, b, c) = (obj((t + m - 1) % m), obj(t), obj((t + 1) % m));
            if (b < a && b < c) || (b > a && b > c) {
                extrema.push(ellipse_point(
                    &alpha,
                    2.0 * std::f64::consts::PI * t as f64 / m as f64,
                ));
            }
        }
        let roots =
            mkc_spectral::root::roots_between_poles(|x| p.secular(x), &p.poles(), &Brent::new())
                .unwrap();
        assert_eq!(roots.len(), extrema.len(), "{roots:?} vs {extrema:?}");
        for r in roots {
            let v = p.weights_at(r).unwrap();
            assert!((v.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            let norm: f64 = v.iter().zip(&alpha).map(|(v, a)| a * v * v).sum();
            assert!((norm - 1.0).abs() < 1e-9, "Σ α v² = {norm}");
            let near = extrema
                .iter()
                .any(|e| (0..3).all(|k| (e[k] - v[k]).abs() < 1e-3));
            assert!(near, "root {r}: {v:?} is not among {extrema:?}");
        }
    }
}

#[test]
fn without_a_root_lambda_is_the_least_squares_point_or_the_start() {
    // Σ 1/α < 1: by Cauchy–Schwarz the secular function is negative everywhere, rising
    // towards Σ 1/α − 1 as λ → −∞, where the weights tend to v_k ∝ 1/α_k.
    let p = WeightProblem::new(vec![4.0, 5.0, 3.0], vec![0.5, 1.0, 0.2]).unwrap();
    let brent = Brent::new();
    let ls = p
        .solve(LambdaRule::RootOrLeastSquares, -1.0, &brent)
        .unwrap();
    assert!(!ls.root_found);
    assert_eq!(ls.lambda, f64::NEG_INFINITY);
    let s: f64 = p.alpha.iter().map(|a| 1.0 / a).sum();
    for (v, a) in ls.weights.iter().zip(&p.alpha) {
        assert!((v - 1.0 / (a * s)).abs() < 1e-15, "{:?}", ls.weights);
    }
    let step = p.solve(LambdaRule::RootOrStart, -1.0, &brent).unwrap();
    assert!(!step.root_found);
    assert_eq!(step.lambda, -1.0);
    assert_eq!(step, p.solve(LambdaRule::Start, -1.0, &brent).unwrap());
    // v_k ∝ 1/(β_k + α_k), summing to 1.
    let inv: Vec<f64> = (0..3).map(|k| 1.0 / (p.beta[k] + p.alpha[k])).collect();
    let s: f64 = inv.iter().sum();
    for (v, i) in step.weights.iter().zip(&inv) {
        assert!((v - i / s).abs() < 1e-15);
    }
    // Between two poles without a root, g dips to −1 where Σ 1/(β − λα) = 0 and rises
    // towards 1/α_k − 1 at the poles: the ascent ends next to a pole, where the weights
    // tend to the pole's kernel alone.
    let p = WeightProblem::new(vec![3.0, 4.0], vec![0.3, 2.0]).unwrap(); // poles 0.1, 0.5
    let ls = p
        .solve(LambdaRule::RootOrLeastSquares, 0.3, &brent)
        .unwrap();
    assert!(!ls.root_found);
    assert!(p.secular(ls.lambda) > p.secular(0.3));
    let near = |pole: f64| (ls.lambda - pole).abs() < 1e-4;
    assert!(near(0.1) || near(0.5), "{}", ls.lambda);
    let big = ls.weights.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    assert!((big - 1.0).abs() < 1e-3, "{:?}", ls.weights);
    // An interior maximum (two roots of S1, none of g): golden section finds g' = 0.
    let p = WeightProblem::new(vec![1.5, 1.5, 1.5], vec![0.15, 0.6, 1.2]).unwrap();
    if let Ok(step) = p.solve(LambdaRule::RootOrLeastSquares, 0.3, &brent) {
        if !step.root_found && step.lambda > 0.1 + 1e-3 && step.lambda < 0.4 - 1e-3 {
            let h = 1e-6;
            let g = |x: f64| p.secular(x);
            assert!(g(step.lambda) >= g(step.lambda - h) && g(step.lambda) >= g(step.lambda + h));
        }
    }
}

#[test]
fn recovers_clusters_and_reports_weights_on_the_simplex() {
    for seed in [4, 5, 6] {
        let (ks, truth) = views(3, 15, 4, &[6.0, 4.0, 3.0], true, seed);
        let f = fit(AascParams::new(), &ks, 3, seed).unwrap();
        assert!(same_partition(&f.labels, &truth), "seed {seed}");
        let w = f.kernel_weights.as_ref().unwrap();
        assert!(w.violation() < 1e-12);
        let v = &f.diagnostics.affinity_weights;
        assert!((v.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        let sq: f64 = v.iter().map(|x| x * x).sum();
        for (a, b) in w.values.iter().zip(v) {
            assert!((a - b * b / sq).abs() < 1e-12);
        }
        assert_eq!(f.iterations, f.objective.len());
        assert!(f.objective.iter().all(|x| x.is_finite()));
        assert!(f.diagnostics.inertia.is_finite());
    }
}

#[test]
fn restarts_share_the_embedding_and_equal_single_fits() {
    let (ks, _) = views(2, 12, 3, &[1.0, 0.4], true, 7);
    let data = KernelSet::new(&ks).unwrap();
    let m = AascParams::new().n_init(1).check().unwrap();
    let seeds = [0, 1, 2, 3];
    let runs = m.fit_restarts(&data, 2, &seeds);
    for (run, &s) in runs.iter().zip(&seeds) {
        let run = run.as_ref().unwrap();
        let single = m.fit(&data, 2, s).unwrap();
        assert_eq!(run.labels, single.labels);
        assert_eq!(run.objective, single.objective);
        assert_eq!(run.diagnostics, single.diagnostics);
        assert!(run.timings.wall() > 0.0);
    }
}

#[test]
fn bad_data_and_parameters_are_typed_errors() {
    let (ks, _) = views(2, 6, 2, &[1.0, 0.5], true, 8);
    let data = KernelSet::new(&ks).unwrap();
    for k in [0, 1, 13] {
        assert!(
            matches!(
                AascParams::new().fit(&data, k, 0),
                Err(Error::InvalidParam { .. })
            ),
            "k = {k}"
        );
    }
    let x = Mat::from_fn(12, 2, |i, j| (i * 3 + j) as f64);
    let features = KernelSet::from_features(x.as_ref()).unwrap();
    assert!(matches!(
        AascParams::new().fit(&features, 2, 0),
        Err(Error::InvalidInput { .. })
    ));
    let mut nan = ks.clone();
    nan[1][(0, 1)] = f64::NAN;
    assert!(KernelSet::new(&nan).is_err());
    let cases: Vec<(AascParams, &str)> = vec![
        (AascParams::new().max_iter(0), "max_iter"),
        (AascParams::new().tol(-1.0), "tol"),
        (AascParams::new().tol(f64::NAN), "tol"),
        (
            AascParams::new().lambda_start(f64::INFINITY),
            "lambda_start",
        ),
        (
            AascParams::new().brent(Brent {
                xtol: 0.0,
                max_iter: 10,
            }),
            "brent.xtol",
        ),
        (
            AascParams::new().brent(Brent {
                xtol: 1e-12,
                max_iter: 0,
            }),
            "brent.max_iter",
        ),
        (AascParams::new().n_init(0), "n_init"),
        (AascParams::new().kmeans_max_iter(0), "kmeans_max_iter"),
    ];
    rejects_each(cases, &data);
    assert!(WeightProblem::new(vec![], vec![]).is_err());
    assert!(WeightProblem::new(vec![1.0], vec![1.0, 2.0]).is_err());
    assert!(WeightProblem::new(vec![f64::NAN], vec![1.0]).is_err());
    // λ₁ at a pole: infinite weights are an error, not a NaN result.
    let p = WeightProblem::new(vec![1.0, 2.0], vec![0.5, 0.4]).unwrap();
    assert!(matches!(p.weights_at(0.5), Err(Error::Numerical { .. })));
}
