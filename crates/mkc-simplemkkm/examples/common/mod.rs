//! The Digit data of SimpleMKKM's Table 2 (UCI Multiple Features, views fac, fou and kar;
//! n = 2000, 10 digits) from the data directory, and the kernel recipes tried on it; used
//! by the `digit` example and bench.

#![allow(dead_code)]

use faer::Mat;
use mkc_data::preprocess::{z_score, StdDev};
use mkc_data::{DataDir, Features, Registry};
use mkc_kernels::{build, KernelSpec, Width};

/// The views of the table.
pub const VIEWS: [&str; 3] = ["fac", "fou", "kar"];

/// The table's recipe (`configs/simplemkkm.toml`, recipe digit-gauss-median).
pub const TABLE_RECIPE: &str = "gauss-median-z";

/// The Digit views (in [`VIEWS`] order) and labels: the registry's dataset `mfeat` from
/// the data directory (`$MKC_DATA_DIR`, else `./data`, where the repository commits it).
/// `None`, with the reason printed, when its files are not there.
pub fn digit_views() -> Option<(Vec<Mat<f64>>, Vec<usize>)> {
    let dir = DataDir::resolve(None);
    let registry = Registry::load_default().expect("the registry compiled into mkc-data");
    let status = registry.status("mfeat", &dir).expect("mfeat is registered");
    if let Some(missing) = status.missing().first() {
        eprintln!(
            "Digit (registry dataset `mfeat`) is not in the data directory: skipped; {}",
            dir.hint(&missing.rel)
        );
        return None;
    }
    let ds = registry
        .load("mfeat", &dir)
        .unwrap_or_else(|e| panic!("mfeat: {e}"));
    let Features::Views(all) = ds.features else {
        panic!("mfeat: expected one matrix per view");
    };
    let views = VIEWS
        .iter()
        .map(|v| match all.iter().find(|(name, _)| name == v) {
            Some((_, x)) => x.clone(),
            None => panic!("mfeat has no view {v}"),
        })
        .collect();
    Some((views, ds.labels))
}

/// The kernel of one view (rows = samples) for `recipe`: `linear`, `gauss-median`,
/// `gauss-mean` or `gauss-rms` (Gaussian with σ = the median, mean or RMS pairwise
/// distance), each optionally suffixed `-z` (every feature z-scored first, population
/// standard deviation, as the experiments' `scale = "zscore"`).
pub fn kernel(x: &Mat<f64>, recipe: &str) -> Mat<f64> {
    let mut x = x.clone();
    let base = match recipe.strip_suffix("-z") {
        Some(base) => {
            z_score(&mut x, StdDev::Population);
            base
        }
        None => recipe,
    };
    let gaussian = |width| KernelSpec::Gaussian { width };
    let spec = match base {
        "linear" => KernelSpec::Linear,
        "gauss-median" => gaussian(Width::MedianRatio { ratio: 1.0 }),
        "gauss-mean" => gaussian(Width::MeanDistanceRatio { ratio: 1.0 }),
        "gauss-rms" => gaussian(Width::MeanRatio { ratio: 1.0 }),
        other => panic!("unknown kernel recipe {other}"),
    };
    let mut ks = build(x.as_ref(), &[spec], &[]).unwrap_or_else(|e| panic!("{recipe}: {e}"));
    ks.remove(0)
}
