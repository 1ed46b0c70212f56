//! The per-kernel feature maps of per-view linear kernels (`Prepared::kernel_features`).

use super::*;
use mkc_core::KernelSet;

struct TwoViews;

impl DataSource for TwoViews {
    fn contains(&self, name: &str) -> bool {
        name == "two-views"
    }
    fn load(&self, _name: &str) -> Result<RawData> {
        let n = 12;
        let view = |d: usize, salt: usize| {
            Mat::from_fn(n, d, |i, j| {
                ((i * 31 + j * 17 + salt) % 11) as f64 - 4.0 + (i % 2) as f64
            })
        };
        Ok(RawData {
            features: RawFeatures::Views(vec![("a".into(), view(3, 1)), ("b".into(), view(2, 5))]),
            labels: (0..n).map(|i| i % 2).collect(),
            class_names: vec!["x".into(), "y".into()],
        })
    }
}

fn prepared(recipe: &str) -> Prepared {
    let rc: Recipe = toml::from_str(recipe).unwrap();
    prepare(&TwoViews, "two-views", &DatasetCfg::default(), Some(&rc)).unwrap()
}

fn is_features_linear(p: &Prepared, k: usize) -> bool {
    let set = KernelSet::from_refs(vec![p.kernels[k].as_ref()])
        .unwrap()
        .with_names(vec![p.kernel_names[k].clone()])
        .unwrap()
        .with_features(p.features_of(Some(k)).unwrap())
        .unwrap();
    set.is_features_linear()
}

/// Per view, the multiplicatively normalised linear kernel is the Gram matrix of its
/// view scaled by √s; the Gaussian kernels have no map and get the views side by side.
#[test]
fn per_view_linear_kernels_get_their_scaled_view() {
    let p = prepared(
        r#"kernels = [{ kind = "linear" }, { kind = "gaussian", sigma_median_ratio = [1.0] }]
           normalize = ["multiplicative"]"#,
    );
    assert_eq!(p.kernel_names[0], "a/linear");
    assert_eq!(p.kernel_features.len(), p.kernels.len());
    let all = p.features.as_ref().unwrap();
    for (k, name) in p.kernel_names.iter().enumerate() {
        let own = p.features_of(Some(k)).unwrap();
        if name.ends_with("/linear") {
            let d = if name.starts_with("a/") { 3 } else { 2 };
            assert_eq!(own.ncols(), d);
            assert!(is_features_linear(&p, k), "{name}");
            let g = own * own.transpose();
            for i in 0..g.nrows() {
                for j in 0..g.ncols() {
                    let kij = p.kernels[k][(i, j)];
                    assert!((g[(i, j)] - kij).abs() <= 1e-12 * kij.abs().max(1.0));
                }
            }
        } else {
            assert_eq!(own.ncols(), all.ncols(), "{name}");
            assert!(!is_features_linear(&p, k));
        }
    }
    assert_eq!(p.features_of(None).unwrap().ncols(), 5);
}

/// A centred kernel has a map (the trace ratio is still defined) but is not its Gram
/// matrix: the check keeps it on the kernel path. Views side by side: no maps at all.
#[test]
fn maps_are_checked_before_use_and_absent_without_views() {
    let p = prepared(
        r#"kernels = [{ kind = "linear" }]
                        normalize = ["center"]"#,
    );
    assert!(p.kernel_features.iter().all(Option::is_some));
    assert!(!is_features_linear(&p, 0) && !is_features_linear(&p, 1));
    let p = prepared(
        r#"kernels = [{ kind = "linear" }]
                        per_view = false"#,
    );
    assert!(p.kernel_features.is_empty());
    assert_eq!(p.features_of(Some(0)).unwrap().ncols(), 5);
    assert!(is_features_linear(&p, 0));
}
