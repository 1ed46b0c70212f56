//! A small deterministic data source for runner tests: three noisy blobs in two views.

use faer::Mat;
use mkc_core::Result;
use mkc_experiments::config::{parse_config, resolve};
use mkc_experiments::dataset::{DataSource, RawData, RawFeatures};
use mkc_experiments::resume::RecordIndex;
use mkc_experiments::runner::{run_plan, Report, RunOptions};
use mkc_experiments::table::{render, RenderOptions};
use mkc_experiments::Plan;
use std::path::Path;

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

/// The datasets of a config over the blobs: `blobs` and its two-class subset `two`
/// (classes x and y), both with the config's recipe `r`.
macro_rules! blob_datasets {
    () => {
        r#"
[datasets.blobs]
recipe = "r"
[datasets.two]
source = "blobs"
recipe = "r"
classes = ["x", "y"]
"#
    };
}
#[allow(unused_imports)]
pub(crate) use blob_datasets;

/// A config over the blobs and their two-class subset `two`: kernel k-means on a grid and
/// on each of four kernels (two views x two widths), Avg-KKM, and RMKC on `two`
/// (3 restarts of seed 5 per job).
pub const CONFIG: &str = concat!(
    r#"
title = "resume"
restarts = 3
seeds = [5]
metrics = ["acc", "nmi"]
[recipes.r]
kernels = [{ kind = "gaussian", sigma_median_ratio = [0.5, 2.0] }]
normalize = ["center", "unit-diagonal"]"#,
    blob_datasets!(),
    r#"[tables.t]
title = "T"
datasets = ["blobs", "two"]
columns = [
  { id = "kkm", label = "KKM", method = "kkm", grid = { n_init = [1, 2] } },
  { id = "avg", label = "Avg-KKM", method = "avg-kkm" },
]
[tables.u]
title = "U"
datasets = ["two"]
columns = [{ id = "rmkc", label = "RMKC", method = "rmkc", grid = { C = [0.1, 10.0] } }]
"#
);

/// The full profile of `config` over the blobs.
pub fn plan(config: &str) -> Plan {
    let cfg = parse_config("resume.toml", config).unwrap();
    resolve("resume.toml", &cfg, "full", &|n| n == "blobs").unwrap()
}

/// Run `plan` on the blobs, appending its records to `records` (config hash `h`),
/// resuming from `index` (`recorded_only`: running nothing).
pub fn run(
    plan: &Plan,
    records: &Path,
    index: Option<&RecordIndex>,
    recorded_only: bool,
) -> Report {
    run_plan(
        plan,
        &RunOptions {
            source: &Blobs,
            records: Some(records.to_path_buf()),
            progress: false,
            config_hash: "h".into(),
            resume: index,
            recorded_only,
        },
    )
    .unwrap()
}

/// A report's tables as Markdown without timings (what two runs must agree on).
pub fn md(r: &Report) -> String {
    render(r, RenderOptions { timings: false })
}
