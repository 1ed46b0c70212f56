use super::*;
use crate::Error;
use faer::Mat;

fn kernels() -> Vec<Mat<f64>> {
    vec![
        Mat::from_fn(4, 4, |i, j| if i == j { 2.0 } else { 0.5 }),
        Mat::<f64>::identity(4, 4),
    ]
}

#[test]
fn kernel_set_validates_once_and_names_the_defect() {
    let ks = kernels();
    let set = KernelSet::new(&ks).unwrap();
    assert_eq!((set.n(), set.len(), set.names()[1].as_str()), (4, 2, "K1"));
    let mut bad = kernels();
    bad[1][(2, 3)] = f64::NAN;
    let e = KernelSet::new(&bad).unwrap_err();
    assert!(matches!(e, Error::NonFinite { row: 2, col: 3, .. }), "{e}");
    assert!(e.to_string().contains("kernels[1]"), "{e}");
    let small = vec![Mat::<f64>::identity(3, 3), Mat::<f64>::identity(4, 4)];
    assert!(matches!(KernelSet::new(&small), Err(Error::Shape { .. })));
    assert!(matches!(
        KernelSet::new(&[]),
        Err(Error::InvalidInput { .. })
    ));
}

#[test]
fn features_must_match_and_be_finite() {
    let ks = kernels();
    let x = Mat::from_fn(4, 2, |i, j| (i + j) as f64);
    let set = KernelSet::new(&ks)
        .unwrap()
        .with_features(x.as_ref())
        .unwrap();
    assert_eq!(set.require_features("m").unwrap().ncols(), 2);
    let short = Mat::<f64>::zeros(3, 2);
    let e = KernelSet::new(&ks)
        .unwrap()
        .with_features(short.as_ref())
        .unwrap_err();
    assert!(matches!(e, Error::Shape { .. }));
    let mut inf = x.clone();
    inf[(1, 1)] = f64::INFINITY;
    assert!(KernelSet::from_features(inf.as_ref()).is_err());
    let only = KernelSet::from_features(x.as_ref()).unwrap();
    assert_eq!((only.n(), only.len()), (4, 0));
    assert!(only
        .require_kernels("kkm")
        .unwrap_err()
        .to_string()
        .contains("kkm"));
    assert!(KernelSet::new(&ks)
        .unwrap()
        .require_features("kmeans")
        .is_err());
}

#[test]
fn one_kernel_is_the_kernel_or_the_mean() {
    let ks = kernels();
    let set = KernelSet::new(&ks).unwrap();
    let mean = set.one_kernel("kkm").unwrap();
    assert_eq!(mean.as_mat()[(0, 0)], 1.5);
    assert_eq!(mean.as_mat()[(0, 1)], 0.25);
    let one = set.select(&[1]).unwrap();
    assert!(matches!(
        one.one_kernel("kkm").unwrap(),
        OneKernel::Given(_)
    ));
    assert_eq!(one.names(), ["K1".to_string()]);
    assert!(set.select(&[2]).is_err());
    assert!(set.select(&[]).is_err());
}

#[test]
fn weight_constraints_measure_their_violation() {
    assert!(WeightConstraint::Simplex.violation(&[0.25, 0.75]) < 1e-15);
    assert!((WeightConstraint::Simplex.violation(&[0.5, 0.75]) - 0.25).abs() < 1e-15);
    assert!(WeightConstraint::PNorm(2.0).violation(&[0.6, 0.8]) < 1e-15);
    assert!(WeightConstraint::SqrtSimplex.violation(&[0.25, 0.25]) < 1e-15);
    assert_eq!(WeightConstraint::NonNegative.violation(&[0.1, -0.5]), 0.5);
    assert_eq!(
        WeightConstraint::Simplex.violation(&[f64::NAN, 1.0]),
        f64::INFINITY
    );
}

#[test]
fn timings_add_up_by_phase() {
    let mut t = Timings::default();
    t.add("svm", 1.0);
    t.add("eigen", 0.5);
    t.add("svm", 2.0);
    assert_eq!(t.phases(), &[("svm", 3.0), ("eigen", 0.5)]);
    assert_eq!(t.total(), 3.5);
    assert_eq!(t.time("kmeans", || 7), 7);
    assert!(t.get("kmeans") >= 0.0 && t.get("absent") == 0.0);
}

#[derive(Debug, Clone)]
struct Counts {
    steps: usize,
}
impl Diagnostics for Counts {
    fn entries(&self) -> Vec<(String, f64)> {
        vec![("steps".into(), self.steps as f64)]
    }
}

struct Parity;
impl Clusterer for Parity {
    type Diagnostics = Counts;
    fn name(&self) -> &'static str {
        "parity"
    }
    fn validate_params(&self) -> crate::Result<()> {
        Ok(())
    }
    fn fit(&self, data: &KernelSet<'_>, k: usize, seed: u64) -> crate::Result<Clustering<Counts>> {
        check_binary("parity", data, k)?;
        let labels = (0..data.n()).map(|i| (i + seed as usize) % 2).collect();
        Ok(Clustering::new(labels, k, Counts { steps: 3 })
            .with_objective(vec![2.0, 1.0])
            .with_iterations(2, true)
            .with_weights(KernelWeights::new(
                vec![0.5, 0.5],
                WeightConstraint::Simplex,
            )))
    }
}

#[test]
fn contract_erases_diagnostics_and_runs_restarts_in_seed_order() {
    let ks = kernels();
    let set = KernelSet::new(&ks).unwrap();
    let fit = Parity.fit(&set, 2, 1).unwrap();
    assert_eq!(fit.diagnostics.steps, 3);
    assert_eq!(fit.weights(), Some(&[0.5, 0.5][..]));
    assert_eq!(fit.final_objective(), Some(1.0));
    assert_eq!(fit.n_nonempty(), 2);
    let dynm: &dyn DynClusterer = &Parity;
    let erased = dynm.fit_dyn(&set, 2, 1).unwrap();
    assert_eq!(erased.diagnostics, vec![("steps".to_string(), 3.0)]);
    let runs = dynm.fit_restarts_dyn(&set, 2, &[0, 1, 2]);
    let first: Vec<usize> = runs.iter().map(|r| r.as_ref().unwrap().labels[0]).collect();
    assert_eq!(first, vec![0, 1, 0]);
    assert!(runs
        .iter()
        .all(|r| r.as_ref().unwrap().timings.wall() > 0.0));
    let e = Parity.fit(&set, 3, 0).unwrap_err();
    assert!(e.to_string().contains("two-cluster"), "{e}");
}

/// `is_features_linear`: true for the features' `XXᵀ` named `…linear` (any summation
/// order), false for the same kernel rescaled, centred, built from one view of the
/// features, named otherwise, next to a second kernel, or without features.
#[test]
fn features_linear_kernel_is_recognised() {
    let (n, d) = (6, 3);
    let x = Mat::from_fn(n, d, |i, j| {
        ((i * 7 + j * 3) % 5) as f64 - 1.5 + 0.1 * j as f64
    });
    let gram = |cols: &[usize]| {
        Mat::from_fn(n, n, |i, j| {
            cols.iter()
                .rev()
                .map(|&c| x[(i, c)] * x[(j, c)])
                .sum::<f64>()
        })
    };
    let set = |k: Mat<f64>, name: &str| {
        let ks = vec![k];
        let s = KernelSet::new(&ks)
            .unwrap()
            .with_names(vec![name.into()])
            .unwrap()
            .with_features(x.as_ref())
            .unwrap();
        s.is_features_linear()
    };
    let k = gram(&[0, 1, 2]);
    assert!(set(k.clone(), "linear"));
    assert!(set(k.clone(), "view2/linear"));
    assert!(!set(k.clone(), "gaussian"));
    assert!(!set(Mat::from_fn(n, n, |i, j| 1.001 * k[(i, j)]), "linear"));
    let mean = |i: usize| (0..n).map(|j| k[(i, j)]).sum::<f64>() / n as f64;
    let total = (0..n).map(mean).sum::<f64>() / n as f64;
    let centred = Mat::from_fn(n, n, |i, j| k[(i, j)] - mean(i) - mean(j) + total);
    assert!(!set(centred, "linear"));
    assert!(!set(gram(&[0, 2]), "linear"));
    let two = vec![k.clone(), k.clone()];
    let s = KernelSet::new(&two)
        .unwrap()
        .with_names(vec!["linear".into(), "linear".into()])
        .unwrap()
        .with_features(x.as_ref())
        .unwrap();
    assert!(!s.is_features_linear());
    let one = vec![k];
    let s = KernelSet::new(&one)
        .unwrap()
        .with_names(vec!["linear".into()])
        .unwrap();
    assert!(!s.is_features_linear());
    // The automatic path rule: features and no kernel, or the features' own kernel.
    assert!(!s.feature_path_fits());
    assert!(KernelSet::from_features(x.as_ref())
        .unwrap()
        .feature_path_fits());
    let own = vec![gram(&[0, 1, 2])];
    let with = KernelSet::new(&own)
        .unwrap()
        .with_names(vec!["linear".into()])
        .unwrap();
    assert!(with.with_features(x.as_ref()).unwrap().feature_path_fits());
}
