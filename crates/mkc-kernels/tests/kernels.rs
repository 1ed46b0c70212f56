//! Kernel functions, widths, the sparse path and `build` against naive double loops.

use faer::sparse::{SparseRowMat, Triplet};
use faer::Mat;
use mkc_core::Error;
use mkc_kernels::check::{ensure_psd, is_psd};
use mkc_kernels::width::dist_stats;
use mkc_kernels::*;
use rand::Rng;

fn random(n: usize, d: usize, seed: u64) -> Mat<f64> {
    let mut r = mkc_core::seed::rng(seed);
    Mat::from_fn(n, d, |_, _| r.random::<f64>() * 2.0 - 1.0)
}

/// A sparse matrix (about 30% non-zeros) and its dense twin.
fn random_sparse(n: usize, d: usize, seed: u64) -> (SparseRowMat<usize, f64>, Mat<f64>) {
    let mut r = mkc_core::seed::rng(seed);
    let mut trip = Vec::new();
    let mut dense = Mat::<f64>::zeros(n, d);
    for i in 0..n {
        for j in 0..d {
            if r.random::<f64>() < 0.3 {
                let v = r.random::<f64>();
                trip.push(Triplet::new(i, j, v));
                dense[(i, j)] = v;
            }
        }
        // every row non-zero (cosine needs it)
        trip.push(Triplet::new(i, i % d, 0.5));
        dense[(i, i % d)] += 0.5;
    }
    (
        SparseRowMat::try_new_from_triplets(n, d, &trip).unwrap(),
        dense,
    )
}

fn dot(x: &Mat<f64>, i: usize, j: usize) -> f64 {
    (0..x.ncols()).map(|c| x[(i, c)] * x[(j, c)]).sum()
}
fn d2(x: &Mat<f64>, i: usize, j: usize) -> f64 {
    (0..x.ncols())
        .map(|c| (x[(i, c)] - x[(j, c)]).powi(2))
        .sum()
}

fn naive(x: &Mat<f64>, f: impl Fn(usize, usize) -> f64) -> Mat<f64> {
    Mat::from_fn(x.nrows(), x.nrows(), f)
}

fn max_diff(a: &Mat<f64>, b: &Mat<f64>) -> f64 {
    assert_eq!((a.nrows(), a.ncols()), (b.nrows(), b.ncols()));
    let mut m = 0.0f64;
    for j in 0..a.ncols() {
        for i in 0..a.nrows() {
            m = m.max((a[(i, j)] - b[(i, j)]).abs());
        }
    }
    m
}

fn assert_exactly_symmetric(k: &Mat<f64>) {
    for j in 0..k.ncols() {
        for i in 0..k.nrows() {
            assert_eq!(
                k[(i, j)].to_bits(),
                k[(j, i)].to_bits(),
                "asymmetric at ({i},{j})"
            );
        }
    }
}

#[test]
fn each_kernel_matches_a_naive_double_loop() {
    // n = 150 spans several 64-wide tiles, including a partial one.
    let x = random(150, 7, 1);
    let n = x.nrows();
    let dmax2 = (0..n)
        .flat_map(|i| (0..n).map(move |j| (i, j)))
        .map(|(i, j)| d2(&x, i, j))
        .fold(0.0, f64::max);
    let cases: Vec<(KernelFn, Mat<f64>)> = vec![
        (KernelFn::Linear, naive(&x, |i, j| dot(&x, i, j))),
        (
            KernelFn::Polynomial { a: 1.0, degree: 3 },
            naive(&x, |i, j| (1.0 + dot(&x, i, j)).powi(3)),
        ),
        (
            KernelFn::Polynomial { a: 0.0, degree: 2 },
            naive(&x, |i, j| dot(&x, i, j).powi(2)),
        ),
        (
            KernelFn::Gaussian { sigma: 0.7 },
            naive(&x, |i, j| (-d2(&x, i, j) / (2.0 * 0.49)).exp()),
        ),
        (
            KernelFn::GaussianScaled { t: 0.1 },
            naive(&x, |i, j| (-d2(&x, i, j) / (0.1 * dmax2)).exp()),
        ),
        (
            KernelFn::Cosine,
            naive(&x, |i, j| {
                dot(&x, i, j) / (dot(&x, i, i) * dot(&x, j, j)).sqrt()
            }),
        ),
    ];
    for (f, want) in cases {
        let got = gram(x.as_ref(), &f).unwrap();
        assert!(
            max_diff(&got, &want) < 1e-10,
            "{f:?}: {}",
            max_diff(&got, &want)
        );
        assert_exactly_symmetric(&got);
    }
}

#[test]
fn sq_dists_match_naive_and_clamp() {
    let x = random(70, 5, 2);
    let want = naive(&x, |i, j| d2(&x, i, j));
    let got = sq_dists(x.as_ref()).unwrap();
    assert!(max_diff(&got, &want) < 1e-12);
    // duplicated samples: distance exactly 0 (never a tiny negative number)
    let mut y = random(6, 3, 3);
    for c in 0..3 {
        y[(4, c)] = y[(1, c)] * 1e8;
        y[(5, c)] = y[(1, c)] * 1e8;
    }
    let dd = sq_dists(y.as_ref()).unwrap();
    for j in 0..6 {
        assert_eq!(dd[(j, j)], 0.0);
        for i in 0..6 {
            assert!(dd[(i, j)] >= 0.0);
        }
    }
}

#[test]
fn sparse_path_equals_dense_path() {
    let (xs, xd) = random_sparse(90, 40, 4);
    for f in [
        KernelFn::Linear,
        KernelFn::Polynomial { a: 1.0, degree: 2 },
        KernelFn::Gaussian { sigma: 1.3 },
        KernelFn::GaussianScaled { t: 1.0 },
        KernelFn::Cosine,
    ] {
        let a = gram_sparse(xs.as_ref(), &f).unwrap();
        let b = gram(xd.as_ref(), &f).unwrap();
        assert!(max_diff(&a, &b) < 1e-12, "{f:?}");
        assert_exactly_symmetric(&a);
    }
    let a = sq_dists_sparse(xs.as_ref()).unwrap();
    let b = sq_dists(xd.as_ref()).unwrap();
    assert!(max_diff(&a, &b) < 1e-12);
    let specs = KernelSpec::scmk_twelve();
    let a = build_sparse(xs.as_ref(), &specs, &[Normalization::UnitDiagonal]).unwrap();
    let b = build(xd.as_ref(), &specs, &[Normalization::UnitDiagonal]).unwrap();
    for (ka, kb) in a.iter().zip(&b) {
        assert!(max_diff(ka, kb) < 1e-10);
    }
}

#[test]
fn width_rules_follow_the_papers() {
    let x = random(40, 3, 5);
    let n = x.nrows();
    let pairs: Vec<f64> = (0..n)
        .flat_map(|j| ((j + 1)..n).map(move |i| (i, j)))
        .map(|(i, j)| d2(&x, i, j))
        .collect();
    let dmax = pairs.iter().cloned().fold(0.0, f64::max).sqrt();
    let dmin = pairs.iter().cloned().fold(f64::INFINITY, f64::min).sqrt();
    let mean = pairs.iter().sum::<f64>() / pairs.len() as f64;
    let dd = sq_dists(x.as_ref()).unwrap();
    let close = |a: f64, b: f64| (a - b).abs() < 1e-10 * b.abs().max(1.0);
    assert!(close(
        sigma_range_fraction(dd.as_ref(), 0.3).unwrap(),
        0.3 * (dmax - dmin)
    ));
    assert!(close(
        sigma_mean_ratio(dd.as_ref(), 2.0).unwrap(),
        2.0 * mean.sqrt()
    ));
    assert!(close(d_max_sq(dd.as_ref()).unwrap(), dmax * dmax));
    let s = dist_stats(dd.as_ref()).unwrap();
    assert!(close(
        Width::MaxFraction { t: 0.5 }.sigma(Some(&s)).unwrap(),
        0.5 * dmax
    ));

    // Each Gaussian spec equals the Gaussian with the σ its rule prescribes.
    let rules = [
        (Width::RangeFraction { fraction: 0.4 }, 0.4 * (dmax - dmin)),
        (Width::MeanRatio { ratio: 0.5 }, 0.5 * mean.sqrt()),
        (Width::DmaxScaled { t: 10.0 }, dmax * 5.0f64.sqrt()),
        (Width::MaxFraction { t: 2.0 }, 2.0 * dmax),
        (Width::Sigma { sigma: 0.9 }, 0.9),
    ];
    for (w, sigma) in rules {
        let k = build(x.as_ref(), &[KernelSpec::Gaussian { width: w }], &[]).unwrap();
        let want = naive(&x, |i, j| (-d2(&x, i, j) / (2.0 * sigma * sigma)).exp());
        assert!(max_diff(&k[0], &want) < 1e-10, "{w:?}");
    }
    // SCMK's DmaxScaled is the same as KernelFn::GaussianScaled.
    let a = build(
        x.as_ref(),
        &[KernelSpec::Gaussian {
            width: Width::DmaxScaled { t: 0.05 },
        }],
        &[],
    )
    .unwrap();
    let b = gram(x.as_ref(), &KernelFn::GaussianScaled { t: 0.05 }).unwrap();
    assert!(max_diff(&a[0], &b) < 1e-12);
}

/// Mean and median distance rules against a sort of every pair distance: the median
/// is the element of rank ⌊m/2⌋ (m = n(n−1)/2 pairs; odd and even m), the same from a
/// distance matrix and from `build`'s inner products.
#[test]
fn mean_and_median_distance_rules() {
    for n in [7, 8, 40] {
        let x = random(n, 3, 11 + n as u64);
        let mut dists: Vec<f64> = (0..n)
            .flat_map(|j| ((j + 1)..n).map(move |i| (i, j)))
            .map(|(i, j)| d2(&x, i, j).sqrt())
            .collect();
        let m = dists.len();
        assert_eq!(m % 2, usize::from(n % 4 == 2 || n % 4 == 3));
        let mean = dists.iter().sum::<f64>() / m as f64;
        dists.sort_by(f64::total_cmp);
        let median = dists[m / 2];
        let dd = sq_dists(x.as_ref()).unwrap();
        let close = |a: f64, b: f64| (a - b).abs() < 1e-10 * b.abs().max(1.0);
        assert!(close(
            sigma_median_ratio(dd.as_ref(), 1.5).unwrap(),
            1.5 * median
        ));
        let w = [
            Width::MedianRatio { ratio: 2.0 },
            Width::MeanDistanceRatio { ratio: 0.5 },
        ];
        let s = width::dist_stats_for(dd.as_ref(), &w).unwrap();
        assert!(close(s.median_d.unwrap(), median) && close(s.mean_d, mean));
        for (w, sigma) in [(w[0], 2.0 * median), (w[1], 0.5 * mean)] {
            let k = build(x.as_ref(), &[KernelSpec::Gaussian { width: w }], &[]).unwrap();
            let want = naive(&x, |i, j| (-d2(&x, i, j) / (2.0 * sigma * sigma)).exp());
            assert!(max_diff(&k[0], &want) < 1e-10, "{w:?}");
        }
    }
    // statistics computed without the median cannot serve the median rule
    let dd = sq_dists(random(5, 2, 3).as_ref()).unwrap();
    let s = dist_stats(dd.as_ref()).unwrap();
    assert_eq!(s.median_d, None);
    assert!(matches!(
        Width::MedianRatio { ratio: 1.0 }.sigma(Some(&s)),
        Err(Error::InvalidInput { .. })
    ));
    assert!(Width::MedianRatio { ratio: 0.0 }.check().is_err());
}

#[test]
fn build_equals_gram_per_spec_and_families_have_the_paper_sizes() {
    let x = random(30, 4, 6);
    assert_eq!(KernelSpec::rmkc_gaussians().len(), 10);
    assert_eq!(KernelSpec::lgmmc_gaussians().len(), 5);
    let specs = KernelSpec::scmk_twelve();
    assert_eq!(specs.len(), 12);
    let ks = build(x.as_ref(), &specs, &[]).unwrap();
    let t = [0.01, 0.05, 0.1, 1.0, 10.0, 50.0, 100.0];
    for (p, k) in ks.iter().enumerate() {
        let f = match p {
            0..=6 => KernelFn::GaussianScaled { t: t[p] },
            7 => KernelFn::Linear,
            8 => KernelFn::Polynomial { a: 0.0, degree: 2 },
            9 => KernelFn::Polynomial { a: 0.0, degree: 4 },
            10 => KernelFn::Polynomial { a: 1.0, degree: 2 },
            _ => KernelFn::Polynomial { a: 1.0, degree: 4 },
        };
        assert!(
            max_diff(k, &gram(x.as_ref(), &f).unwrap()) < 1e-12,
            "spec {p}"
        );
    }
    let normed = build(x.as_ref(), &specs, &[Normalization::DivideByMax]).unwrap();
    for k in &normed {
        let m = (0..30)
            .flat_map(|j| (0..30).map(move |i| (i, j)))
            .map(|(i, j)| k[(i, j)])
            .fold(f64::MIN, f64::max);
        assert!((m - 1.0).abs() < 1e-15);
    }
}

#[test]
fn specs_and_normalizations_round_trip_through_serde() {
    let mut specs = KernelSpec::scmk_twelve();
    specs.extend(KernelSpec::rmkc_gaussians());
    specs.push(KernelSpec::Cosine);
    let s = serde_json::to_string(&specs).unwrap();
    let back: Vec<KernelSpec> = serde_json::from_str(&s).unwrap();
    assert_eq!(back, specs);
    let one: KernelSpec = serde_json::from_str(
        r#"{"kernel":"gaussian","width":{"rule":"range_fraction","fraction":0.1}}"#,
    )
    .unwrap();
    assert_eq!(
        one,
        KernelSpec::Gaussian {
            width: Width::RangeFraction { fraction: 0.1 }
        }
    );
    let n: Vec<Normalization> =
        serde_json::from_str(r#"["center","unit_diagonal","multiplicative"]"#).unwrap();
    assert_eq!(
        n,
        vec![
            Normalization::Center,
            Normalization::UnitDiagonal,
            Normalization::Multiplicative
        ]
    );
    assert!(serde_json::from_str::<KernelSpec>(r#"{"kernel":"gaussian","sigma":1}"#).is_err());
}

#[test]
fn psd_check() {
    let x = random(25, 3, 7);
    let k = gram(x.as_ref(), &KernelFn::Gaussian { sigma: 0.5 }).unwrap();
    assert!(is_psd(k.as_ref(), 1e-10).unwrap());
    // rank-deficient linear kernel (d = 3 < n) is still PSD under the relative test
    let l = gram(x.as_ref(), &KernelFn::Linear).unwrap();
    assert!(is_psd(l.as_ref(), 1e-10).unwrap());
    let bad = Mat::from_fn(3, 3, |i, j| if i == j { 1.0 } else { 2.0 });
    assert!(!is_psd(bad.as_ref(), 1e-10).unwrap());
    match ensure_psd("K", bad.as_ref(), 1e-10) {
        Err(Error::NotPsd { min_eigenvalue, .. }) => assert!((min_eigenvalue + 1.0).abs() < 1e-12),
        other => panic!("{other:?}"),
    }
}

#[test]
fn bad_inputs_are_typed_errors() {
    let x = random(10, 3, 8);
    let mut nan = x.clone();
    nan[(4, 2)] = f64::NAN;
    assert!(matches!(
        gram(nan.as_ref(), &KernelFn::Linear),
        Err(Error::NonFinite { row: 4, col: 2, .. })
    ));
    assert!(matches!(
        sq_dists(nan.as_ref()),
        Err(Error::NonFinite { .. })
    ));
    let empty = Mat::<f64>::zeros(0, 3);
    assert!(matches!(
        gram(empty.as_ref(), &KernelFn::Linear),
        Err(Error::InvalidInput { .. })
    ));
    let no_cols = Mat::<f64>::zeros(4, 0);
    assert!(matches!(
        gram(no_cols.as_ref(), &KernelFn::Linear),
        Err(Error::InvalidInput { .. })
    ));
    for sigma in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(matches!(
            gram(x.as_ref(), &KernelFn::Gaussian { sigma }),
            Err(Error::InvalidParam { .. })
        ));
    }
    assert!(matches!(
        gram(x.as_ref(), &KernelFn::GaussianScaled { t: 0.0 }),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        gram(x.as_ref(), &KernelFn::Polynomial { a: -1.0, degree: 2 }),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        gram(x.as_ref(), &KernelFn::Polynomial { a: 1.0, degree: 0 }),
        Err(Error::InvalidParam { .. })
    ));
    // overflow of a polynomial kernel is reported, not returned as inf
    let big = Mat::from_fn(3, 2, |_, _| 1e100);
    assert!(matches!(
        gram(big.as_ref(), &KernelFn::Polynomial { a: 1.0, degree: 4 }),
        Err(Error::NonFinite { .. })
    ));
    // cosine of a zero sample
    let mut z = x.clone();
    for c in 0..3 {
        z[(6, c)] = 0.0;
    }
    match gram(z.as_ref(), &KernelFn::Cosine) {
        Err(Error::InvalidInput { reason, .. }) => assert!(reason.contains("sample 6")),
        other => panic!("{other:?}"),
    }
    // data-dependent widths on degenerate data
    let same = Mat::from_fn(5, 2, |_, _| 1.0);
    assert!(gram(same.as_ref(), &KernelFn::GaussianScaled { t: 1.0 }).is_err());
    let one = Mat::from_fn(1, 2, |_, _| 1.0);
    assert!(build(one.as_ref(), &KernelSpec::rmkc_gaussians(), &[]).is_err());
    assert!(build(
        one.as_ref(),
        &[KernelSpec::Gaussian {
            width: Width::Sigma { sigma: 1.0 }
        }],
        &[]
    )
    .is_ok());
    assert!(build(same.as_ref(), &KernelSpec::rmkc_gaussians(), &[]).is_err());
    // bad specs
    assert!(matches!(
        build(x.as_ref(), &[], &[]),
        Err(Error::InvalidInput { .. })
    ));
    let bad = KernelSpec::Gaussian {
        width: Width::MeanRatio { ratio: -2.0 },
    };
    match build(x.as_ref(), &[KernelSpec::Linear, bad], &[]) {
        Err(Error::InvalidInput { what, .. }) => assert!(what.contains("kernel spec 1")),
        other => panic!("{other:?}"),
    }
    // width helpers on a non-square or negative distance matrix
    let rect = Mat::<f64>::zeros(3, 4);
    assert!(matches!(
        sigma_range_fraction(rect.as_ref(), 0.1),
        Err(Error::Shape { .. })
    ));
    let neg = Mat::from_fn(3, 3, |i, j| if i == j { 0.0 } else { -1.0 });
    assert!(matches!(
        sigma_mean_ratio(neg.as_ref(), 1.0),
        Err(Error::InvalidInput { .. })
    ));
    // sparse: NaN value
    let trip = [
        Triplet::new(0usize, 1usize, 1.0),
        Triplet::new(2, 0, f64::NAN),
    ];
    let s = SparseRowMat::<usize, f64>::try_new_from_triplets(3, 2, &trip).unwrap();
    assert!(matches!(
        gram_sparse(s.as_ref(), &KernelFn::Linear),
        Err(Error::NonFinite { row: 2, col: 0, .. })
    ));
    let s0 = SparseRowMat::<usize, f64>::try_new_from_triplets(0, 2, &[]).unwrap();
    assert!(matches!(
        gram_sparse(s0.as_ref(), &KernelFn::Linear),
        Err(Error::InvalidInput { .. })
    ));
}
