//! The Digit data of SimpleMKKM's Table 2 (UCI Multiple Features, views fac, fou and kar;
//! n = 2000, 10 digits) from the data directory, the kernel recipes tried on it, and the
//! scores printed for it; shared (through `#[path]`) by the quickstarts of mkc-simplemkkm,
//! mkc-mkkm and mkc-robust, the `digit` and `onkc_lkam_digit` examples and the Digit
//! benches.

#![allow(dead_code)]

use faer::Mat;
use mkc_core::{Clustering, KernelSet};
use mkc_data::preprocess::{z_score, StdDev};
use mkc_data::{DataDir, Features, Registry};
use mkc_kernels::{build, KernelSpec, Width};

/// The views of the table.
pub const VIEWS: [&str; 3] = ["fac", "fou", "kar"];

/// The table's recipe (`configs/simplemkkm.toml`, recipe digit-gauss-median).
pub const TABLE_RECIPE: &str = "gauss-median-z";

/// The number of classes (digits).
pub const K: usize = 10;

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

/// The table's kernels (one per view, [`TABLE_RECIPE`]: features z-scored, Gaussian with
/// σ = the median pairwise distance) and the labels; `None` as [`digit_views`].
pub fn table_kernels() -> Option<(Vec<Mat<f64>>, Vec<usize>)> {
    let (views, truth) = digit_views()?;
    let kernels = views.iter().map(|x| kernel(x, TABLE_RECIPE)).collect();
    Some((kernels, truth))
}

/// The kernel set of `kernels`, named by [`VIEWS`].
pub fn named_set(kernels: &[Mat<f64>]) -> mkc_core::Result<KernelSet<'_>> {
    KernelSet::new(kernels)?.with_names(VIEWS.map(String::from).to_vec())
}

/// `ACC a%  NMI b%  purity c%` of `labels` against `truth` (NMI normalised by the max
/// entropy, as the SimpleMKKM authors).
pub fn scores(truth: &[usize], labels: &[usize]) -> mkc_core::Result<String> {
    let s = mkc_metrics::score_all(truth, labels)?;
    Ok(format!(
        "ACC {:.1}%  NMI {:.1}%  purity {:.1}%",
        100.0 * s.acc,
        100.0 * s.nmi_max,
        100.0 * s.purity
    ))
}

/// The runs of a restarted fit (panicking with `name` on an error) and their scores.
pub fn scored_runs<D>(
    name: &str,
    runs: Vec<mkc_core::Result<Clustering<D>>>,
    truth: &[usize],
) -> (Vec<Clustering<D>>, Vec<mkc_metrics::Scores>) {
    let runs: Vec<_> = runs
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| panic!("{name}: {e}")))
        .collect();
    let scores = runs
        .iter()
        .map(|r| mkc_metrics::score_all(truth, &r.labels).unwrap())
        .collect();
    (runs, scores)
}

/// One line about a contract fit: iterations, wall time, the optimisation's (timings
/// `"weights"` and `"eigensolve"`) per iteration, ACC.
pub fn fit_line<D>(name: &str, fit: &Clustering<D>, truth: &[usize]) -> String {
    let opt = fit.timings.get("weights") + fit.timings.get("eigensolve");
    let acc = mkc_metrics::accuracy(truth, &fit.labels).unwrap_or(f64::NAN);
    format!(
        "{name:>9}: {} iterations, wall {:.2} s, optimisation {opt:.2} s ({:.3} s per iteration), ACC {:.1}",
        fit.iterations,
        fit.timings.wall(),
        opt / fit.iterations.max(1) as f64,
        100.0 * acc
    )
}
