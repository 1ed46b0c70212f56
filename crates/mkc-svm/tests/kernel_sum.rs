//! `KernelSum`: solves on a sum whose columns are formed on first read are the solves on
//! the formed matrix, bit for bit; only the columns read are formed; bad input and
//! overflow are typed errors.
mod common;
use common::*;
use faer::{Mat, MatRef};
use mkc_core::{Error, ParamGuard};
use mkc_svm::{CSvcParams, CheckedKernel, KernelStack, SvcModel};

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn same(a: &SvcModel, b: &SvcModel, at: &str) {
    assert_eq!(bits(&a.alpha), bits(&b.alpha), "{at}: alpha");
    assert_eq!(a.b.to_bits(), b.b.to_bits(), "{at}: bias");
    assert_eq!(
        a.objective.to_bits(),
        b.objective.to_bits(),
        "{at}: objective"
    );
    assert_eq!(bits(&a.decision), bits(&b.decision), "{at}: decision");
    assert_eq!(a.status.iterations, b.status.iterations, "{at}: iterations");
}

/// Three RBF kernels of one point set and a linear one (negative entries), one of them
/// a transposed (row-major) view.
fn kernels(n: usize) -> (Vec<Mat<f64>>, Vec<f64>) {
    let mut r = rng(21);
    let (k0, y) = random_rbf(&mut r, n, 3, 0.3);
    let (k1, _) = random_rbf(&mut r, n, 3, 1.5);
    let k2 = random_gram(&mut r, n, 5, 0.0);
    let k3 = Mat::from_fn(n, n, |i, j| 0.5 * k0[(i, j)] + 0.25 * k1[(i, j)]);
    (vec![k0, k1, k2, k3], y)
}

#[test]
fn solves_on_the_sum_equal_solves_on_the_formed_matrix() {
    let n = 160;
    let (ks, y) = kernels(n);
    let mut refs: Vec<MatRef<'_, f64>> = ks.iter().map(|k| k.as_ref()).collect();
    refs[3] = ks[3].as_ref().transpose(); // symmetric: the same matrix, strided columns
    let stack = KernelStack::new(&refs).unwrap();
    for (c, w) in [
        (1.0, [0.7, 0.0, 0.2, 0.1]),
        (10.0, [0.0, 0.3, 0.0, 1.7]),
        (0.1, [0.25, 0.25, 0.25, 0.25]),
    ] {
        let at = format!("C = {c}, w = {w:?}");
        let svc = CSvcParams::new(c).tol(1e-6).check().unwrap();
        // The formed K̃ as RMKC formed it: the weighted sum of the non-zero terms.
        let (wn, kn): (Vec<f64>, Vec<MatRef<'_, f64>>) = w
            .iter()
            .zip(&refs)
            .filter(|(t, _)| **t != 0.0)
            .map(|(t, k)| (*t, *k))
            .unzip();
        let formed = mkc_linalg::weighted_sum(&wn, &kn).unwrap();
        let ck = CheckedKernel::new(formed.as_ref()).unwrap();
        let sum = stack.sum(&w).unwrap();
        assert_eq!(sum.formed_columns(), 0, "{at}");
        let scale = 0.8;
        let dense = svc.solve(&ck, scale, &y, None).unwrap();
        let lazy = svc.solve(&sum, scale, &y, None).unwrap();
        same(&dense, &lazy, &format!("{at}, cold"));
        // Warm after one flip and a new scale (RMKC's label step), then warm from α
        // on another sum (its θ step).
        let i = (0..n)
            .min_by(|&a, &b| (y[a] * dense.decision[a]).total_cmp(&(y[b] * dense.decision[b])))
            .unwrap();
        let mut y2 = y.clone();
        y2[i] = -y2[i];
        let d2 = svc.solve_from(&ck, 1.1, &y2, &dense, &y, scale).unwrap();
        let l2 = svc.solve_from(&sum, 1.1, &y2, &lazy, &y, scale).unwrap();
        same(&d2, &l2, &format!("{at}, flip"));
        let d3 = svc.solve(&ck, 0.9, &y2, Some(&d2.alpha)).unwrap();
        let l3 = svc.solve(&sum, 0.9, &y2, Some(&l2.alpha)).unwrap();
        same(&d3, &l3, &format!("{at}, warm"));
        // Every formed column is the formed matrix's, bit for bit.
        for j in 0..n {
            if sum.formed_columns() > 0 {
                let col: Vec<f64> = (0..n).map(|r| formed[(r, j)]).collect();
                assert_eq!(bits(sum.column(j)), bits(&col), "{at}: column {j}");
            }
        }
        let diag: Vec<f64> = (0..n).map(|r| formed[(r, r)]).collect();
        assert_eq!(bits(sum.diagonal()), bits(&diag), "{at}: diagonal");
    }
}

#[test]
fn only_the_columns_read_are_formed() {
    let n = 400;
    let (ks, y) = kernels(n);
    let refs: Vec<MatRef<'_, f64>> = ks.iter().map(|k| k.as_ref()).collect();
    let stack = KernelStack::new(&refs).unwrap();
    let svc = CSvcParams::new(10.0).check().unwrap();
    let w = [0.6, 0.0, 0.0, 0.4];
    let base = svc.solve(&stack.sum(&w).unwrap(), 1.0, &y, None).unwrap();
    // A warm start on a nearby combination reads the support vectors' columns and those
    // of the pairs it updates, not all n.
    let near = stack.sum(&[0.58, 0.0, 0.0, 0.42]).unwrap();
    let warm = svc.solve(&near, 1.0, &y, Some(&base.alpha)).unwrap();
    assert!(warm.status.converged);
    let formed = near.formed_columns();
    assert!(
        formed >= base.support.len().min(n) / 2 && formed < n,
        "{formed} of {n} columns formed ({} support vectors)",
        base.support.len()
    );
}

#[test]
fn bad_stacks_weights_and_overflow_are_typed_errors() {
    let a = Mat::from_fn(3, 3, |i, j| if i == j { 2.0 } else { 0.5 });
    let asym = Mat::from_fn(3, 3, |i, j| (i + 2 * j) as f64);
    let small = Mat::from_fn(2, 2, |i, j| if i == j { 1.0 } else { 0.0 });
    assert!(matches!(
        KernelStack::new(&[]),
        Err(Error::InvalidInput { .. })
    ));
    assert!(matches!(
        KernelStack::new(&[a.as_ref(), asym.as_ref()]),
        Err(Error::NotSymmetric { .. })
    ));
    assert!(matches!(
        KernelStack::new(&[a.as_ref(), small.as_ref()]),
        Err(Error::Shape { .. })
    ));
    let stack = KernelStack::new(&[a.as_ref(), a.as_ref()]).unwrap();
    assert!(matches!(stack.sum(&[1.0]), Err(Error::Shape { .. })));
    assert!(matches!(
        stack.sum(&[1.0, f64::NAN]),
        Err(Error::NonFinite { .. })
    ));
    // Finite weights whose sum overflows: at the diagonal already, ...
    assert!(matches!(
        stack.sum(&[f64::MAX, f64::MAX]),
        Err(Error::Numerical { .. })
    ));
    // ... or only off it, found when the solver reads a column.
    let b = Mat::from_fn(3, 3, |i, j| if i == j { 1.0 } else { 1e300 });
    let stack = KernelStack::new(&[b.as_ref(), b.as_ref()]).unwrap();
    let sum = stack.sum(&[1e8, 1e8]).unwrap();
    let svc = CSvcParams::new(1.0).check().unwrap();
    let r = svc.solve(&sum, 1.0, &[1.0, -1.0, 1.0], None);
    assert!(sum.overflowed());
    assert!(matches!(r, Err(Error::Numerical { .. })), "{r:?}");
}

/// `KernelStack::from_set` takes a set's kernels as checked (the same sums as
/// `KernelStack::new`); a set without kernels is a typed error.
#[test]
fn stacks_from_sets() {
    let (ks, _) = kernels(24);
    let set = mkc_core::KernelSet::new(&ks).unwrap();
    let refs: Vec<MatRef<'_, f64>> = ks.iter().map(|k| k.as_ref()).collect();
    let (a, b) = (
        KernelStack::from_set(&set).unwrap(),
        KernelStack::new(&refs).unwrap(),
    );
    assert_eq!((a.size(), a.len()), (24, 4));
    let w = [0.5, 0.0, 2.0, 0.25];
    let (sa, sb) = (a.sum(&w).unwrap(), b.sum(&w).unwrap());
    assert_eq!(bits(sa.diagonal()), bits(sb.diagonal()));
    for j in [0, 7, 23] {
        assert_eq!(bits(sa.column(j)), bits(sb.column(j)), "column {j}");
    }
    let x = Mat::from_fn(5, 2, |i, j| (i * 3 + j) as f64);
    let features = mkc_core::KernelSet::from_features(x.as_ref()).unwrap();
    assert!(matches!(
        KernelStack::from_set(&features),
        Err(Error::InvalidInput { .. })
    ));
}
