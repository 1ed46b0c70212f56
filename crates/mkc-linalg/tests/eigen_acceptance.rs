//! Acceptance tests of the symmetric eigensolvers against the dense solver and closed
//! forms: residual ‖Av − λv‖ ≤ 1e-8·|λ_1|, matching eigenvalues, orthonormal vectors,
//! for n from 1 to 3000, k = n, repeated eigenvalues, rank-deficient and zero matrices.

use faer::Mat;
use mkc_core::Error;
use mkc_linalg::eigen::{
    self, bottom_k, bottom_k_warm, dense_sym, top_k, top_k_op, top_k_warm, EigenMethod,
    EigenOptions,
};
use mkc_linalg::{laplacian, weighted_sum, WeightedKernelSum};
use rand::Rng;

fn rand_mat(n: usize, d: usize, seed: u64) -> Mat<f64> {
    let mut r = mkc_core::seed::rng(seed);
    Mat::from_fn(n, d, |_, _| r.random::<f64>() - 0.5)
}

fn sym_rand(n: usize, seed: u64) -> Mat<f64> {
    let x = rand_mat(n, n, seed);
    Mat::from_fn(n, n, |i, j| x[(i, j)] + x[(j, i)])
}

/// Gaussian kernel of n random points in R^d (full rank, fast-decaying spectrum).
fn rbf(n: usize, d: usize, seed: u64) -> Mat<f64> {
    let x = rand_mat(n, d, seed);
    Mat::from_fn(n, n, |i, j| {
        let s: f64 = (0..d).map(|t| (x[(i, t)] - x[(j, t)]).powi(2)).sum();
        (-s / (0.1 * d as f64)).exp()
    })
}

/// H D H with the Householder reflection H = I − 2uuᵀ/‖u‖²: known spectrum `diag`.
fn known_spectrum(diag: &[f64], seed: u64) -> Mat<f64> {
    let n = diag.len();
    let u = rand_mat(n, 1, seed);
    let nu2: f64 = u.col(0).squared_norm_l2();
    let du: Vec<f64> = (0..n).map(|i| diag[i] * u[(i, 0)]).collect();
    let udu: f64 = (0..n).map(|i| u[(i, 0)] * du[i]).sum();
    let c = 2.0 / nu2;
    Mat::from_fn(n, n, |i, j| {
        let d = if i == j { diag[i] } else { 0.0 };
        d - c * u[(i, 0)] * du[j] - c * du[i] * u[(j, 0)] + c * c * udu * u[(i, 0)] * u[(j, 0)]
    })
}

/// Residuals, orthonormality and ordering of `p` for `a`; eigenvalues against `want`.
fn check(a: &Mat<f64>, p: &eigen::EigenPairs, want: &[f64], descending: bool) {
    let k = want.len();
    assert_eq!(p.values.len(), k);
    assert_eq!((p.vectors.nrows(), p.vectors.ncols()), (a.nrows(), k));
    let scale = want.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(
        // |λ_1| of the whole spectrum is at least the largest wanted magnitude
        a.norm_max(),
    );
    let av = a * &p.vectors;
    for j in 0..k {
        let r: f64 = (0..a.nrows())
            .map(|i| (av[(i, j)] - p.values[j] * p.vectors[(i, j)]).powi(2))
            .sum::<f64>()
            .sqrt();
        assert!(
            r <= 1e-8 * scale.max(f64::MIN_POSITIVE) || r == 0.0,
            "residual {r:e} of pair {j} (scale {scale:e})"
        );
        assert!(
            (p.values[j] - want[j]).abs() <= 1e-8 * scale.max(1e-300),
            "value {j}: {} vs {}",
            p.values[j],
            want[j]
        );
    }
    let g = p.vectors.transpose() * &p.vectors;
    assert!(
        (g - Mat::<f64>::identity(k, k)).norm_max() < 1e-10,
        "vectors not orthonormal"
    );
    for j in 1..k {
        if descending {
            assert!(p.values[j - 1] >= p.values[j]);
        } else {
            assert!(p.values[j - 1] <= p.values[j]);
        }
    }
}

fn dense_values(a: &Mat<f64>) -> Vec<f64> {
    dense_sym(a.as_ref()).unwrap().values
}

fn top_ref(all: &[f64], k: usize) -> Vec<f64> {
    all.iter().rev().take(k).copied().collect()
}

/// Options that force block Lanczos (small blocks, small basis, many restarts, no switch
/// to the dense solver however many products it takes) even on small matrices.
fn iterative() -> EigenOptions {
    EigenOptions::default()
        .dense_below(0)
        .dense_fraction(1.0)
        .block_size(Some(4))
        .max_basis(Some(20))
        .max_iter(5000)
        .dense_switch(f64::INFINITY)
}

#[test]
fn small_sizes_including_n_1_2_and_k_n() {
    let o = EigenOptions::default();
    for n in [1usize, 2, 3, 7, 40, 63, 64, 65, 130] {
        let a = sym_rand(n, n as u64);
        let all = dense_values(&a);
        for k in [1, n.saturating_sub(1).max(1), n, 5.min(n)] {
            check(
                &a,
                &top_k(a.as_ref(), k, &o).unwrap(),
                &top_ref(&all, k),
                true,
            );
            check(&a, &bottom_k(a.as_ref(), k, &o).unwrap(), &all[..k], false);
        }
    }
}

#[test]
fn block_lanczos_on_small_indefinite_matrices() {
    for (n, k) in [(30usize, 1usize), (40, 3), (64, 5), (90, 10), (200, 20)] {
        let a = sym_rand(n, 100 + n as u64);
        let all = dense_values(&a);
        let o = iterative();
        let t = top_k(a.as_ref(), k, &o).unwrap();
        assert_eq!(t.info.method, EigenMethod::BlockLanczos, "n={n} k={k}");
        check(&a, &t, &top_ref(&all, k), true);
        let b = bottom_k(a.as_ref(), k, &o).unwrap();
        check(&a, &b, &all[..k], false);
    }
}

#[test]
fn repeated_eigenvalues() {
    let n = 600;
    let mut d: Vec<f64> = (0..n).map(|i| 1.0 / (2.0 + i as f64)).collect();
    d[..4].fill(5.0);
    d[4..6].fill(3.0);
    d[n - 3..].fill(-2.0);
    let a = known_spectrum(&d, 1);
    let mut sorted = d.clone();
    sorted.sort_by(f64::total_cmp);
    let o = EigenOptions::default();
    let t = top_k(a.as_ref(), 6, &o).unwrap();
    assert_eq!(t.info.method, EigenMethod::BlockLanczos);
    check(&a, &t, &[5.0, 5.0, 5.0, 5.0, 3.0, 3.0], true);
    let b = bottom_k(a.as_ref(), 3, &o).unwrap();
    assert!(!b.info.fell_back);
    check(&a, &b, &sorted[..3], false);
}

#[test]
fn rank_deficient_gram_of_3d_points() {
    let n = 500;
    let x = rand_mat(n, 3, 7);
    let a = &x * x.transpose();
    let all = dense_values(&a);
    let o = EigenOptions::default();
    let t = top_k(a.as_ref(), 10, &o).unwrap();
    assert_eq!(t.info.method, EigenMethod::BlockLanczos);
    let mut want = top_ref(&all, 10);
    want[3..].fill(0.0); // rank 3: the dense solver's tiny values are rounding
    check(&a, &t, &want, true);
    assert!(t.values[3..].iter().all(|v| v.abs() < 1e-10 * t.values[0]));
    let b = bottom_k(a.as_ref(), 5, &o).unwrap();
    check(&a, &b, &[0.0; 5], false);
}

#[test]
fn zero_and_identity_matrices() {
    let o = EigenOptions::default();
    let z = Mat::<f64>::zeros(300, 300);
    let p = top_k(z.as_ref(), 4, &o).unwrap();
    check(&z, &p, &[0.0; 4], true);
    let p = bottom_k(z.as_ref(), 4, &o).unwrap();
    check(&z, &p, &[0.0; 4], false);
    let i = Mat::<f64>::identity(400, 400);
    check(&i, &top_k(i.as_ref(), 5, &o).unwrap(), &[1.0; 5], true);
    let z1 = Mat::<f64>::zeros(1, 1);
    check(&z1, &top_k(z1.as_ref(), 1, &o).unwrap(), &[0.0], true);
}

#[test]
fn laplacian_bottom_k_counts_components() {
    // three disconnected cliques with noisy weights
    let n = 450;
    let mut r = mkc_core::seed::rng(3);
    let mut w = Mat::<f64>::zeros(n, n);
    for i in 0..n {
        for j in 0..i {
            if i / 150 == j / 150 {
                let v = 0.5 + r.random::<f64>();
                w[(i, j)] = v;
                w[(j, i)] = v;
            }
        }
    }
    let l = laplacian(w.as_ref()).unwrap();
    let all = dense_values(&l);
    let p = bottom_k(l.as_ref(), 4, &EigenOptions::default()).unwrap();
    check(&l, &p, &all[..4], false);
    assert!(p.values[..3].iter().all(|v| v.abs() < 1e-8 * all[n - 1]));
    assert!(p.values[3] > 1.0);
}

#[test]
fn medium_rbf_kernels_k_10_and_100() {
    let a = rbf(1000, 5, 11);
    let all = dense_values(&a);
    let o = EigenOptions::default();
    for k in [10, 100] {
        let t = top_k(a.as_ref(), k, &o).unwrap();
        check(&a, &t, &top_ref(&all, k), true);
    }
    // bottom end of a graph Laplacian (the spectral-clustering use): block Lanczos needs
    // more than n/2 = 300 products with A here; with `dense_switch = 0.5` it hands over to
    // the dense solver after 300, with a budget it meets (or the default, none) it does not
    let l = laplacian(rbf(600, 5, 12).as_ref()).unwrap();
    let all = dense_values(&l);
    let t = bottom_k(l.as_ref(), 10, &o).unwrap();
    assert_eq!(t.info.method, EigenMethod::BlockLanczos);
    assert!(t.info.matvecs > 300, "{} products", t.info.matvecs);
    check(&l, &t, &all[..10], false);
    let budget = t.info.matvecs as f64 / 600.0 + 1.0;
    let t = bottom_k(l.as_ref(), 10, &o.clone().dense_switch(0.5)).unwrap();
    assert!(t.info.fell_back);
    check(&l, &t, &all[..10], false);
    let t = bottom_k(l.as_ref(), 10, &o.dense_switch(budget)).unwrap();
    assert_eq!(t.info.method, EigenMethod::BlockLanczos);
    check(&l, &t, &all[..10], false);
}

#[test]
fn large_n_2000_against_dense() {
    let a = rbf(2000, 8, 5);
    let all = dense_values(&a);
    let t = top_k(a.as_ref(), 10, &EigenOptions::default()).unwrap();
    assert_eq!(t.info.method, EigenMethod::BlockLanczos);
    check(&a, &t, &top_ref(&all, 10), true);
}

#[test]
fn large_n_3000_known_spectrum() {
    let n = 3000;
    let d: Vec<f64> = (0..n)
        .map(|i| 10.0 / (1.0 + i as f64).powf(1.5) - 0.01 * (i % 3) as f64)
        .collect();
    let a = known_spectrum(&d, 9);
    let mut sorted = d.clone();
    sorted.sort_by(|x, y| y.total_cmp(x));
    let t = top_k(a.as_ref(), 20, &EigenOptions::default()).unwrap();
    check(&a, &t, &sorted[..20], true);
}

/// The k wanted pairs of `a2`, cold and warm-started from those of `a` (a nearby
/// matrix); the warm solve must need fewer products. Returns (warm, cold).
fn warm_and_cold(
    a: &Mat<f64>,
    a2: &Mat<f64>,
    k: usize,
    bottom: bool,
    o: &EigenOptions,
) -> (eigen::EigenPairs, eigen::EigenPairs) {
    let (cold_fn, warm_fn): (SolveFn, WarmFn) = if bottom {
        (bottom_k, bottom_k_warm)
    } else {
        (top_k, top_k_warm)
    };
    let first = cold_fn(a.as_ref(), k, o).unwrap();
    let cold = cold_fn(a2.as_ref(), k, o).unwrap();
    let warm = warm_fn(a2.as_ref(), first.vectors.as_ref(), o).unwrap();
    assert!(
        warm.info.matvecs < cold.info.matvecs,
        "k={k}, bottom {bottom}: warm {:?} vs cold {:?}",
        warm.info,
        cold.info
    );
    (warm, cold)
}

type SolveFn =
    fn(faer::MatRef<'_, f64>, usize, &EigenOptions) -> mkc_core::Result<eigen::EigenPairs>;
type WarmFn = fn(
    faer::MatRef<'_, f64>,
    faer::MatRef<'_, f64>,
    &EigenOptions,
) -> mkc_core::Result<eigen::EigenPairs>;

#[test]
fn warm_start_needs_fewer_products_and_agrees() {
    let a = rbf(800, 5, 21);
    let e = sym_rand(800, 22);
    let a2 = Mat::from_fn(800, 800, |i, j| a[(i, j)] + 1e-4 * e[(i, j)]);
    let o = EigenOptions::default();
    for k in [5usize, 10] {
        let (warm, cold) = warm_and_cold(&a, &a2, k, false, &o);
        let all = dense_values(&a2);
        check(&a2, &warm, &top_ref(&all, k), true);
        check(&a2, &cold, &top_ref(&all, k), true);
    }
    // bottom end of a Laplacian
    let l = laplacian(a.as_ref()).unwrap();
    let l2 =
        laplacian(Mat::from_fn(800, 800, |i, j| a[(i, j)] * (1.0 + 1e-4 * (e[(i, j)]))).as_ref())
            .unwrap();
    let (warm, _) = warm_and_cold(&l, &l2, 4, true, &o.max_iter(5000));
    let all = dense_values(&l2);
    check(&l2, &warm, &all[..4], false);
}

#[test]
fn deterministic_for_a_seed() {
    let a = rbf(600, 4, 2);
    let o = EigenOptions::default().seed(42);
    let p = top_k(a.as_ref(), 7, &o).unwrap();
    let q = top_k(a.as_ref(), 7, &o).unwrap();
    assert_eq!(p.values, q.values);
    assert_eq!(p.vectors, q.vectors);
}

/// The basis storage a thread keeps between solves (`krylov::SPARE`) must not leak into
/// results: a solve on a fresh thread and the same solve after larger ones (whose basis
/// columns stay in the storage) agree bit for bit, with the same number of products.
#[test]
fn reused_basis_storage_leaves_results_unchanged() {
    let a = rbf(600, 4, 2);
    let o = EigenOptions::default().seed(42);
    let fresh = {
        let a = a.clone();
        let o = o.clone();
        std::thread::spawn(move || top_k(a.as_ref(), 7, &o).unwrap())
            .join()
            .unwrap()
    };
    let big = rbf(900, 3, 9);
    let _ = top_k(big.as_ref(), 20, &o).unwrap();
    let _ = bottom_k(big.as_ref(), 5, &iterative()).unwrap();
    let again = top_k(a.as_ref(), 7, &o).unwrap();
    assert_eq!(fresh.values, again.values);
    assert_eq!(fresh.vectors, again.vectors);
    assert_eq!(fresh.info.matvecs, again.info.matvecs);
}

#[test]
fn same_result_whatever_the_thread_count() {
    let a = rbf(700, 4, 3);
    let o = EigenOptions::default().seed(5);
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| top_k(a.as_ref(), 12, &o).unwrap())
    };
    let (p1, p3) = (run(1), run(3));
    assert_eq!(p1.values, p3.values);
    assert_eq!(p1.vectors, p3.vectors);
}

#[test]
fn weighted_kernel_operator_matches_formed_sum() {
    let (k1, k2) = (rbf(500, 3, 1), rbf(500, 6, 2));
    let c = [0.3, 0.7];
    let sum = weighted_sum(&c, &[k1.as_ref(), k2.as_ref()]).unwrap();
    let op = WeightedKernelSum::new(&c, &[k1.as_ref(), k2.as_ref()]).unwrap();
    let o = EigenOptions::default();
    let p = top_k_op(&op, 6, None, &o).unwrap();
    let all = dense_values(&sum);
    check(&sum, &p, &top_ref(&all, 6), true);
    // the small-n dense path of the operator form
    let (s1, s2) = (rbf(50, 3, 1), rbf(50, 2, 2));
    let op = WeightedKernelSum::new(&c, &[s1.as_ref(), s2.as_ref()]).unwrap();
    let sum = weighted_sum(&c, &[s1.as_ref(), s2.as_ref()]).unwrap();
    let all = dense_values(&sum);
    check(
        &sum,
        &eigen::bottom_k_op(&op, 3, None, &o).unwrap(),
        &all[..3],
        false,
    );
    assert!(matches!(
        WeightedKernelSum::new(&[1.0], &[s1.as_ref(), s2.as_ref()]),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        WeightedKernelSum::new(&[1.0, 1.0], &[s1.as_ref(), k1.as_ref()]),
        Err(Error::Shape { .. })
    ));
}

#[test]
fn iteration_cap_gives_fallback_or_typed_error() {
    // 1-D Laplacian: tiny gaps at the bottom, hopeless in one restart
    let n = 600;
    let a = Mat::from_fn(n, n, |i, j| {
        if i == j {
            2.0
        } else if i.abs_diff(j) == 1 {
            -1.0
        } else {
            0.0
        }
    });
    let o = EigenOptions::default().max_iter(1);
    let p = bottom_k(a.as_ref(), 3, &o).unwrap();
    assert!(p.info.fell_back);
    let want: Vec<f64> = (1..=3)
        .map(|j| 2.0 - 2.0 * (std::f64::consts::PI * j as f64 / (n as f64 + 1.0)).cos())
        .collect();
    check(&a, &p, &want, false);
    let o = o.dense_fallback_max_n(100);
    assert!(matches!(
        bottom_k(a.as_ref(), 3, &o),
        Err(Error::NotConverged { .. })
    ));
}

#[test]
fn bad_inputs_are_typed_errors() {
    let o = EigenOptions::default();
    let a = sym_rand(10, 1);
    let mut nan = a.clone();
    nan[(2, 3)] = f64::NAN;
    assert!(matches!(
        top_k(nan.as_ref(), 2, &o),
        Err(Error::NonFinite { .. })
    ));
    let mut inf = a.clone();
    inf[(4, 4)] = f64::NEG_INFINITY;
    assert!(matches!(
        bottom_k(inf.as_ref(), 2, &o),
        Err(Error::NonFinite { .. })
    ));
    assert!(matches!(
        top_k(Mat::<f64>::zeros(3, 4).as_ref(), 1, &o),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        top_k(Mat::<f64>::zeros(0, 0).as_ref(), 1, &o),
        Err(Error::InvalidInput { .. })
    ));
    let mut asym = a.clone();
    asym[(0, 5)] += 1.0;
    assert!(matches!(
        top_k(asym.as_ref(), 2, &o),
        Err(Error::NotSymmetric { .. })
    ));
    assert!(matches!(
        dense_sym(asym.as_ref()),
        Err(Error::NotSymmetric { .. })
    ));
    assert!(matches!(
        top_k(a.as_ref(), 0, &o),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        bottom_k(a.as_ref(), 11, &o),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        top_k(a.as_ref(), 2, &o.clone().tol(-1.0)),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        top_k_warm(a.as_ref(), Mat::<f64>::zeros(9, 2).as_ref(), &o),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        top_k_warm(a.as_ref(), Mat::<f64>::zeros(10, 0).as_ref(), &o),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        top_k_warm(a.as_ref(), Mat::<f64>::zeros(10, 11).as_ref(), &o),
        Err(Error::InvalidParam { .. })
    ));
    let mut s = Mat::<f64>::zeros(10, 2);
    s[(1, 1)] = f64::NAN;
    assert!(matches!(
        bottom_k_warm(a.as_ref(), s.as_ref(), &o),
        Err(Error::NonFinite { .. })
    ));
    // a zero start block is completed with random vectors, not an error
    let p = top_k_warm(a.as_ref(), Mat::<f64>::zeros(10, 2).as_ref(), &o).unwrap();
    check(&a, &p, &top_ref(&dense_values(&a), 2), true);
}

/// `sym_evd` (sequential, unnormalised) on a matrix of known spectrum: values ascending,
/// U orthonormal and U diag(λ) Uᵀ = A; `symmetrize` averages A and Aᵀ; bad shapes and
/// non-finite entries are typed errors.
#[test]
fn sym_evd_and_symmetrize_closed_forms_and_errors() {
    let want = [-2.0, 0.5, 1.0, 3.0, 7.0];
    let a = known_spectrum(&want, 11);
    let (vals, u) = eigen::sym_evd(a.as_ref()).unwrap();
    for (v, w) in vals.iter().zip(&want) {
        assert!((v - w).abs() < 1e-12, "{vals:?}");
    }
    let n = want.len();
    for i in 0..n {
        for j in 0..n {
            let rec: f64 = (0..n).map(|t| u[(i, t)] * vals[t] * u[(j, t)]).sum();
            let gram: f64 = (0..n).map(|t| u[(t, i)] * u[(t, j)]).sum();
            assert!((rec - a[(i, j)]).abs() < 1e-12);
            assert!((gram - f64::from(u8::from(i == j))).abs() < 1e-12);
        }
    }
    assert!(matches!(
        eigen::sym_evd(Mat::<f64>::zeros(2, 3).as_ref()),
        Err(Error::Shape { .. })
    ));
    let mut bad = Mat::<f64>::identity(3, 3);
    bad[(1, 0)] = f64::NAN;
    assert!(matches!(
        eigen::sym_evd(bad.as_ref()),
        Err(Error::NonFinite { .. })
    ));

    let mut m = Mat::from_fn(3, 3, |i, j| (3 * i + j) as f64);
    mkc_linalg::symmetrize(m.as_mut()).unwrap();
    for i in 0..3 {
        for j in 0..3 {
            assert_eq!(m[(i, j)], 0.5 * ((3 * i + j) as f64 + (3 * j + i) as f64));
        }
    }
    let mut rect = Mat::<f64>::zeros(2, 3);
    assert!(matches!(
        mkc_linalg::symmetrize(rect.as_mut()),
        Err(Error::Shape { .. })
    ));
}
