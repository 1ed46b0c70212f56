//! LKAM's local quantities against per-sample brute force on small problems.

use super::neighbours::*;
use super::*;
use faer::Mat;
use mkc_core::Error;

fn noise(i: usize, j: usize, salt: usize) -> f64 {
    let z = (i * 7919 + j * 104_729 + salt * 1_299_709) % 10_007;
    z as f64 / 10_007.0 - 0.5
}

/// Gaussian kernels of three noisy views of points in two groups.
fn kernels(n: usize) -> Vec<Mat<f64>> {
    (0..3)
        .map(|v| {
            let x: Vec<f64> = (0..n)
                .map(|i| (i % 2) as f64 * 2.0 + (v as f64 + 0.5) * noise(i, v, 3))
                .collect();
            Mat::from_fn(n, n, |i, j| (-(x[i] - x[j]).powi(2)).exp())
        })
        .collect()
}

fn refs(ks: &[Mat<f64>]) -> Vec<MatRef<'_, f64>> {
    ks.iter().map(|m| m.as_ref()).collect()
}

#[test]
fn neighbourhoods_are_the_most_similar_others_with_ties_to_the_lower_index() {
    // similarity by |i − j| on a line, so i ± d tie: the lower index comes first
    let k = Mat::from_fn(7, 7, |i, j| 1.0 / (1.0 + (i as f64 - j as f64).abs()));
    let hoods = neighbourhoods(&[k.as_ref()], 3);
    assert_eq!(hoods[3], vec![2, 4, 1]);
    assert_eq!(hoods[0], vec![1, 2, 3]);
    assert_eq!(hoods[6], vec![5, 4, 3]);
    // brute force: no sample outside N_i is more similar than one inside; i ∉ N_i
    let ks = kernels(15);
    let views = refs(&ks);
    let hoods = neighbourhoods(&views, 5);
    let sim = |j: usize, i: usize| views.iter().map(|k| k[(j, i)]).sum::<f64>() / 3.0;
    for (i, h) in hoods.iter().enumerate() {
        assert_eq!(h.len(), 5);
        assert!(!h.contains(&i));
        let worst_in = h.iter().map(|&j| sim(j, i)).fold(f64::INFINITY, f64::min);
        for j in (0..15).filter(|j| *j != i && !h.contains(j)) {
            assert!(sim(j, i) <= worst_in);
        }
    }
}

#[test]
fn count_matrix_counts_shared_neighbourhoods() {
    let ks = kernels(12);
    let hoods = neighbourhoods(&refs(&ks), 4);
    let a = count_matrix(&hoods);
    for j in 0..12 {
        for l in 0..12 {
            let count = hoods
                .iter()
                .filter(|h| h.contains(&j) && h.contains(&l))
                .count();
            assert_eq!(a[(j, l)], count as f64);
        }
    }
}

#[test]
fn local_objective_and_regulariser_equal_their_per_sample_definitions() {
    let n = 14;
    let ks = kernels(n);
    let views = refs(&ks);
    let hoods = neighbourhoods(&views, 6);
    let a = count_matrix(&hoods);
    let local: Vec<Mat<f64>> = views.iter().map(|k| localised(a.as_ref(), *k)).collect();
    let he = local_regulariser(&refs(&local), &views).unwrap();
    // HE_pq = (1/n) Σ_i tr(K_p[N_i, N_i] K_q[N_i, N_i])
    for p in 0..3 {
        for q in 0..3 {
            let direct: f64 = hoods
                .iter()
                .map(|h| {
                    h.iter()
                        .flat_map(|&r| h.iter().map(move |&c| (r, c)))
                        .map(|(r, c)| ks[p][(r, c)] * ks[q][(c, r)])
                        .sum::<f64>()
                })
                .sum::<f64>()
                / n as f64;
            assert!((he[(p, q)] - direct).abs() < 1e-12 * direct.abs());
        }
    }
    // (1/n) Σ_i tr(K_γ[N_i,N_i] (I − H_i H_iᵀ)) = Σ_p γ_p² (tr L_p − tr(Hᵀ L_p H))
    let gamma = [0.5, 0.2, 0.3];
    let h = Mat::from_fn(n, 2, |i, j| noise(i, j, 11));
    let kg = Mat::from_fn(n, n, |r, c| {
        (0..3)
            .map(|p| gamma[p] * gamma[p] * ks[p][(r, c)])
            .sum::<f64>()
    });
    let direct: f64 = hoods
        .iter()
        .map(|hd| {
            let mut t = 0.0;
            for &r in hd {
                for &c in hd {
                    let eye = if r == c { 1.0 } else { 0.0 };
                    let hh: f64 = (0..2).map(|j| h[(r, j)] * h[(c, j)]).sum();
                    t += kg[(r, c)] * (eye - hh);
                }
            }
            t
        })
        .sum::<f64>()
        / n as f64;
    let b: Vec<f64> = local
        .iter()
        .map(|l| {
            let tr: f64 = (0..n).map(|i| l[(i, i)]).sum();
            tr - mkc_linalg::trace_quadratic(l.as_ref(), h.as_ref()).unwrap()
        })
        .collect();
    let formula: f64 = (0..3).map(|p| gamma[p] * gamma[p] * b[p]).sum();
    assert!(
        (formula - direct).abs() < 1e-12 * direct.abs().max(1.0),
        "{formula} vs {direct}"
    );
}

#[test]
fn neighbourhood_size_is_checked_against_n() {
    assert_eq!(neighbourhood_size(0.5, 10).unwrap(), 5);
    assert_eq!(neighbourhood_size(0.95, 20).unwrap(), 19);
    for (tau, n) in [(0.01, 10), (0.99, 10)] {
        match neighbourhood_size(tau, n) {
            Err(Error::InvalidParam { name, .. }) => assert_eq!(name, "tau"),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn trace_never_increases_and_h_is_the_local_top_k() {
    let ks = kernels(40);
    let views = refs(&ks);
    for (lambda, tau) in [(2f64.powi(-15), 0.05), (1.0, 0.5), (2f64.powi(15), 0.95)] {
        let fit = LkamParams::new()
            .lambda(lambda)
            .tau(tau)
            .tol(1e-12)
            .max_iter(30)
            .fit_kernels(&views, 2)
            .unwrap();
        fit.assert_descends_on_simplex(&format!("λ = {lambda}, τ = {tau}"));
        assert_eq!(
            fit.diagnostics.method.neighbourhood_size,
            (tau * 40.0_f64).round() as usize
        );
        assert!(fit.extra[(0, 1)] == fit.extra[(1, 0)]);
    }
}
