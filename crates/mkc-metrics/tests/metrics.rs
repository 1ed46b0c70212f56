use faer::Mat;
use mkc_core::Error;
use mkc_metrics::*;
use proptest::prelude::*;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

/// The worked example (also scikit-learn's user guide example, where ARI ≈ 0.24 and
/// NMI(arithmetic) ≈ 0.52):
///
/// truth = [0,0,0,1,1,1], pred = [0,0,1,1,2,2]; contingency (classes x clusters)
///
/// ```text
///            c0  c1  c2 | a_i
///   class 0   2   1   0 |  3
///   class 1   0   1   2 |  3
///   ---------------------
///   b_j       2   2   2    n = 6
/// ```
///
/// H(U) = ln 2, H(V) = ln 3 (three clusters of 2).
/// MI = Σ n_ij/n ln(n n_ij / (a_i b_j)):
///   (0,0): 2/6 ln(12/6) = ln2/3; (0,1): 1/6 ln(6/6) = 0; (1,1): 0; (1,2): ln2/3
///   → MI = 2/3 ln 2 ≈ 0.462098.
/// NMI max = (2/3 ln2)/ln3 ≈ 0.420620, arithmetic = (2/3 ln2)/((ln2+ln3)/2) ≈ 0.515803,
/// geometric = (2/3 ln2)/sqrt(ln2 ln3) ≈ 0.529540, min = (2/3 ln2)/ln2 = 2/3.
/// ARI: Σ C(n_ij,2) = 1+0+0+1 = 2, Σ C(a_i,2) = 6, Σ C(b_j,2) = 3, C(6,2) = 15;
///   expected = 6·3/15 = 1.2, max = (6+3)/2 = 4.5 → ARI = (2−1.2)/(4.5−1.2) = 8/33.
/// Purity = (2+1+2)/6 = 5/6; ACC: class0→c0, class1→c2 → 4/6.
#[test]
fn hand_computed_2x3_example() {
    let t = [0, 0, 0, 1, 1, 1];
    let p = [0, 0, 1, 1, 2, 2];
    let (l2, l3) = (2f64.ln(), 3f64.ln());
    let mi = 2.0 / 3.0 * l2;
    assert!(close(nmi(&t, &p, NmiNorm::Max).unwrap(), mi / l3));
    assert!(close(
        nmi(&t, &p, NmiNorm::Arithmetic).unwrap(),
        mi / (0.5 * (l2 + l3))
    ));
    assert!(close(
        nmi(&t, &p, NmiNorm::Geometric).unwrap(),
        mi / (l2 * l3).sqrt()
    ));
    assert!(close(nmi(&t, &p, NmiNorm::Min).unwrap(), 2.0 / 3.0));
    assert!((nmi(&t, &p, NmiNorm::Max).unwrap() - 0.420620).abs() < 1e-6);
    assert!((nmi(&t, &p, NmiNorm::Arithmetic).unwrap() - 0.515803).abs() < 1e-6);
    assert!(close(mutual_info(&Contingency::new(&t, &p).unwrap()), mi));
    assert!(close(ari(&t, &p).unwrap(), 8.0 / 33.0));
    assert!(close(purity(&t, &p).unwrap(), 5.0 / 6.0));
    assert!(close(accuracy(&t, &p).unwrap(), 4.0 / 6.0));
    // Swapping the roles: purity and accuracy change, NMI (symmetric norms) and ARI do not.
    assert!(close(ari(&p, &t).unwrap(), 8.0 / 33.0));
    assert!(close(nmi(&p, &t, NmiNorm::Max).unwrap(), mi / l3));
    assert!(close(purity(&p, &t).unwrap(), 4.0 / 6.0));
    let c = Contingency::new(&t, &p).unwrap();
    assert_eq!(c.row(0), &[2, 1, 0]);
    assert_eq!(c.row(1), &[0, 1, 2]);
    assert_eq!(c.class_sizes(), vec![3, 3]);
    assert_eq!(c.cluster_sizes(), vec![2, 2, 2]);
}

/// Values from scikit-learn's docstrings of adjusted_rand_score and
/// normalized_mutual_info_score.
#[test]
fn scikit_learn_docstring_values() {
    assert!(close(ari(&[0, 0, 1, 1], &[0, 0, 1, 1]).unwrap(), 1.0));
    assert!(close(ari(&[0, 0, 1, 1], &[1, 1, 0, 0]).unwrap(), 1.0));
    assert!(close(ari(&[0, 0, 1, 2], &[0, 0, 1, 1]).unwrap(), 4.0 / 7.0)); // 0.57...
    assert!(close(ari(&[0, 0, 1, 1], &[0, 0, 1, 2]).unwrap(), 4.0 / 7.0));
    assert!(close(ari(&[0, 0, 0, 0], &[0, 1, 2, 3]).unwrap(), 0.0));
    assert!(close(ari(&[0, 0, 1, 1], &[0, 1, 0, 1]).unwrap(), -0.5));
    for norm in [
        NmiNorm::Max,
        NmiNorm::Arithmetic,
        NmiNorm::Geometric,
        NmiNorm::Min,
    ] {
        assert!(close(nmi(&[0, 0, 1, 1], &[0, 0, 1, 1], norm).unwrap(), 1.0));
        assert!(close(nmi(&[0, 0, 1, 1], &[1, 1, 0, 0], norm).unwrap(), 1.0));
        assert_eq!(nmi(&[0, 0, 0, 0], &[0, 1, 2, 3], norm).unwrap(), 0.0);
        // Independent labelings: MI is exactly 0.
        assert_eq!(nmi(&[0, 0, 1, 1], &[0, 1, 0, 1], norm).unwrap(), 0.0);
    }
}

#[test]
fn trivial_partitions() {
    // Single class and single cluster: identical partitions.
    let s = score_all(&[4, 4, 4], &[9, 9, 9]).unwrap();
    assert_eq!(
        (s.acc, s.nmi_max, s.nmi_arith, s.purity, s.ari),
        (1.0, 1.0, 1.0, 1.0, 1.0)
    );
    // Single sample.
    let s = score_all(&[0], &[3]).unwrap();
    assert_eq!((s.acc, s.nmi_max, s.purity, s.ari), (1.0, 1.0, 1.0, 1.0));
    // One cluster against two classes: NMI 0, ARI 0, purity = majority.
    let s = score_all(&[0, 0, 0, 1], &[0, 0, 0, 0]).unwrap();
    assert_eq!(s.nmi_max, 0.0);
    assert_eq!(s.ari, 0.0);
    assert!(close(s.purity, 0.75));
    assert!(close(s.acc, 0.75));
    // All singletons on both sides.
    assert_eq!(ari(&[0, 1, 2], &[5, 6, 7]).unwrap(), 1.0);
}

#[test]
fn more_clusters_than_classes_and_vice_versa() {
    let t = [0, 0, 1, 1, 2, 2];
    let p = [0, 1, 2, 3, 4, 5];
    assert!(close(accuracy(&t, &p).unwrap(), 3.0 / 6.0));
    assert!(close(purity(&t, &p).unwrap(), 1.0));
    assert!(close(accuracy(&p, &t).unwrap(), 3.0 / 6.0));
    assert!(close(purity(&p, &t).unwrap(), 3.0 / 6.0));
}

#[test]
fn bad_inputs_are_typed_errors() {
    assert!(matches!(
        accuracy(&[], &[]),
        Err(Error::InvalidInput { .. })
    ));
    assert!(matches!(
        nmi(&[], &[], NmiNorm::Max),
        Err(Error::InvalidInput { .. })
    ));
    assert!(matches!(ari(&[0, 1], &[0]), Err(Error::Shape { .. })));
    assert!(matches!(purity(&[0], &[0, 1]), Err(Error::Shape { .. })));
    assert!(matches!(score_all(&[0, 1], &[0]), Err(Error::Shape { .. })));
    assert!(matches!(
        Contingency::new(&[], &[]),
        Err(Error::InvalidInput { .. })
    ));
    let empty = Mat::<f64>::zeros(0, 3);
    assert!(matches!(
        hungarian(empty.as_ref()),
        Err(Error::InvalidInput { .. })
    ));
    let mut nan = Mat::<f64>::zeros(2, 2);
    nan[(1, 0)] = f64::NAN;
    assert!(matches!(
        hungarian(nan.as_ref()),
        Err(Error::NonFinite { row: 1, col: 0, .. })
    ));
    assert!(matches!(
        hungarian_max(nan.as_ref()),
        Err(Error::NonFinite { .. })
    ));
}

/// Minimum over all injective maps from the shorter side into the longer one.
fn brute_force(cost: &Mat<f64>) -> f64 {
    let (r, c) = (cost.nrows(), cost.ncols());
    let transpose = r > c;
    let (small, large) = if transpose { (c, r) } else { (r, c) };
    let at = |i: usize, j: usize| {
        if transpose {
            cost[(j, i)]
        } else {
            cost[(i, j)]
        }
    };
    let mut best = f64::INFINITY;
    let mut used = vec![false; large];
    fn rec(
        i: usize,
        small: usize,
        acc: f64,
        used: &mut [bool],
        at: &dyn Fn(usize, usize) -> f64,
        best: &mut f64,
    ) {
        if i == small {
            *best = best.min(acc);
            return;
        }
        for j in 0..used.len() {
            if !used[j] {
                used[j] = true;
                rec(i + 1, small, acc + at(i, j), used, at, best);
                used[j] = false;
            }
        }
    }
    rec(0, small, 0.0, &mut used, &at, &mut best);
    best
}

fn check_valid(a: &Assignment, r: usize, c: usize) {
    assert_eq!(a.row_to_col.len(), r);
    let cols: Vec<usize> = a.row_to_col.iter().flatten().copied().collect();
    assert_eq!(cols.len(), r.min(c));
    let mut s = cols.clone();
    s.sort_unstable();
    s.dedup();
    assert_eq!(s.len(), cols.len(), "columns used twice");
    assert!(cols.iter().all(|&j| j < c));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn hungarian_matches_all_permutations(r in 1usize..=7, c in 1usize..=7, seed in any::<u64>(), ints in any::<bool>()) {
        let mut s = seed;
        let mut next = move || { s = mkc_core::seed::derive(s, 1); s };
        let cost = Mat::from_fn(r, c, |_, _| {
            let u = next();
            // Small integers produce many ties, reals the generic case; include negatives.
            if ints { (u % 5) as f64 - 1.0 } else { (u >> 11) as f64 / (1u64 << 53) as f64 * 10.0 - 3.0 }
        });
        let a = hungarian(cost.as_ref()).unwrap();
        check_valid(&a, r, c);
        let bf = brute_force(&cost);
        prop_assert!((a.cost - bf).abs() < 1e-9, "hungarian {} vs brute force {}", a.cost, bf);
        let direct: f64 = a.pairs().iter().map(|&(i, j)| cost[(i, j)]).sum();
        prop_assert!((a.cost - direct).abs() < 1e-12);
        // Maximisation is minimisation of the negation.
        let neg = Mat::from_fn(r, c, |i, j| -cost[(i, j)]);
        let m = hungarian_max(neg.as_ref()).unwrap();
        check_valid(&m, r, c);
        prop_assert!((m.cost + bf).abs() < 1e-9);
    }

    #[test]
    fn scores_invariant_under_relabelling(
        labels in proptest::collection::vec((0usize..4, 0usize..5), 1..40),
        shift_t in 0usize..1000, shift_p in 0usize..1000,
    ) {
        let t: Vec<usize> = labels.iter().map(|x| x.0).collect();
        let p: Vec<usize> = labels.iter().map(|x| x.1).collect();
        // An injective relabelling of each side (reversal + offset, arbitrary values).
        let t2: Vec<usize> = t.iter().map(|&x| (10 - x) * 7 + shift_t).collect();
        let p2: Vec<usize> = p.iter().map(|&x| (20 - x) * 3 + shift_p).collect();
        let a = score_all(&t, &p).unwrap();
        let b = score_all(&t2, &p2).unwrap();
        prop_assert!((a.acc - b.acc).abs() < 1e-12);
        prop_assert!((a.nmi_max - b.nmi_max).abs() < 1e-12);
        prop_assert!((a.nmi_arith - b.nmi_arith).abs() < 1e-12);
        prop_assert!((a.purity - b.purity).abs() < 1e-12);
        prop_assert!((a.ari - b.ari).abs() < 1e-12);
        // Ranges and the identity.
        prop_assert!((0.0..=1.0).contains(&a.acc) && (0.0..=1.0).contains(&a.nmi_max));
        prop_assert!(a.nmi_max <= a.nmi_arith + 1e-12);
        prop_assert!(a.acc <= a.purity + 1e-12);
        let same = score_all(&t, &t2).unwrap();
        prop_assert_eq!((same.acc, same.purity, same.ari), (1.0, 1.0, 1.0));
        prop_assert!((same.nmi_max - 1.0).abs() < 1e-12 && (same.nmi_arith - 1.0).abs() < 1e-12);
    }

    #[test]
    fn accuracy_equals_best_permutation(labels in proptest::collection::vec((0usize..4, 0usize..4), 1..30)) {
        let t: Vec<usize> = labels.iter().map(|x| x.0).collect();
        let p: Vec<usize> = labels.iter().map(|x| x.1).collect();
        // Brute force: every bijection of {0..4} applied to pred.
        let mut best = 0usize;
        let mut perm = [0usize, 1, 2, 3];
        heap_permutations(&mut perm, 4, &mut |q| {
            let hits = t.iter().zip(&p).filter(|(a, b)| q[**b] == **a).count();
            best = best.max(hits);
        });
        prop_assert!((accuracy(&t, &p).unwrap() - best as f64 / t.len() as f64).abs() < 1e-12);
    }
}

fn heap_permutations(a: &mut [usize; 4], k: usize, f: &mut dyn FnMut(&[usize; 4])) {
    if k == 1 {
        f(a);
        return;
    }
    for i in 0..k {
        heap_permutations(a, k - 1, f);
        if k % 2 == 0 {
            a.swap(i, k - 1);
        } else {
            a.swap(0, k - 1);
        }
    }
}
