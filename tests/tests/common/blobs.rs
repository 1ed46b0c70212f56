//! A small deterministic data source for runner tests: three noisy blobs in two views.

use faer::Mat;
use mkc_core::Result;
use mkc_experiments::dataset::{DataSource, RawData, RawFeatures};

/// Three noisy blobs in two views (deterministic, no RNG needed).
pub struct Blobs;

impl DataSource for Blobs {
    fn contains(&self, name: &str) -> bool {
        name == "blobs"
    }
    fn load(&self, _name: &str) -> Result<RawData> {
        let n = 90;
        let noise =
            |i: usize, j: usize| (((i * 7919 + j * 104729) % 1000) as f64 / 1000.0 - 0.5) * 2.5;
        let view = |d: usize, shift: f64| {
            Mat::from_fn(n, d, |i, j| (i / 30) as f64 * shift + noise(i, j + d))
        };
        Ok(RawData {
            features: RawFeatures::Views(vec![
                ("a".into(), view(3, 2.0)),
                ("b".into(), view(2, 1.0)),
            ]),
            labels: (0..n).map(|i| i / 30).collect(),
            class_names: vec!["x".into(), "y".into(), "z".into()],
        })
    }
}
