//! Results are identical for 1 and 2 rayon threads with the same seeds.

mod common;

use common::blobs::Blobs;
use mkc_experiments::config::{parse_config, resolve};
use mkc_experiments::runner::{run_plan, Report, RunOptions};
use mkc_experiments::table::{render, RenderOptions};
use mkc_experiments::Metric;

/// The recipe `r` of both configs: three Gaussian widths and the linear kernel per view.
macro_rules! recipe_r {
    () => {
        r#"
[recipes.r]
kernels = [{ kind = "gaussian", sigma_median_ratio = [0.5, 1.0, 2.0] }, { kind = "linear" }]
normalize = ["center", "unit-diagonal"]
"#
    };
}

const CONFIG: &str = concat!(
    r#"
title = "threads"
restarts = 6
seeds = [1, 2]
metrics = ["acc", "nmi", "purity", "ari"]"#,
    recipe_r!(),
    r#"[datasets.blobs]
recipe = "r"
[tables.t]
title = "T"
datasets = ["blobs"]
columns = [
  { id = "kkm", label = "KKM", method = "kkm", grid = { n_init = [1, 3] } },
  { id = "kkm-avg", label = "KKM avg", method = "kkm", summary = "average" },
  { id = "avg", label = "Avg-KKM", method = "avg-kkm" },
]
"#
);

fn run_with(threads: usize, records: &std::path::Path) -> Report {
    run_config(CONFIG, threads, records)
}

fn run_config(config: &str, threads: usize, records: &std::path::Path) -> Report {
    let cfg = parse_config("threads.toml", config).unwrap();
    let plan = resolve("threads.toml", &cfg, "full", &|n| n == "blobs").unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        run_plan(
            &plan,
            &RunOptions {
                source: &Blobs,
                records: Some(records.to_path_buf()),
                progress: false,
                config_hash: "h".into(),
                resume: None,
                recorded_only: false,
            },
        )
    })
    .unwrap()
}

/// Every run record without its wall time, in a fixed order (the runner appends each
/// job's records when the job ends, so the file's order follows the threads).
fn records_without_time(path: &std::path::Path) -> Vec<serde_json::Value> {
    let mut records: Vec<serde_json::Value> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["wall_time_s"] = serde_json::Value::Null;
            v["metrics"]["time"] = serde_json::Value::Null;
            v["phases"] = serde_json::Value::Null;
            // timing diagnostics (e.g. seconds per eigensolve) differ from run to run
            if let Some(d) = v["diagnostics"].as_array_mut() {
                d.retain(|e| !e[0].as_str().is_some_and(|n| n.contains("seconds")));
            }
            v
        })
        .collect();
    records.sort_by_cached_key(|v| v.to_string());
    records
}

#[test]
fn one_and_two_threads_give_identical_results() {
    let dir = common::temp_dir("threads");
    let (r1, r2) = (dir.join("one.jsonl"), dir.join("two.jsonl"));
    let a = run_with(1, &r1);
    let b = run_with(2, &r2);
    let (ra, rb) = (records_without_time(&r1), records_without_time(&r2));
    // 2 seeds x 6 restarts x (2 grid points x 8 kernels + 8 kernels + 1 combination).
    assert_eq!(ra.len(), 12 * 25);
    assert_eq!(ra, rb);
    let opts = RenderOptions { timings: false };
    assert_eq!(render(&a, opts), render(&b, opts));
    // The cells hold real numbers.
    let row = &a.tables[0].rows[0];
    let cols = row.result.as_ref().unwrap();
    for c in cols {
        let acc = c.cell.as_ref().unwrap().stats[&Metric::Acc];
        assert!(
            acc.mean > 33.0 && acc.mean <= 100.0 && acc.n >= 12,
            "{acc:?}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Every multiple kernel method (three clusters) and the two-class methods (classes x and y
/// only): records and tables identical for 1 and 2 threads, and every cell filled.
const METHODS: &str = concat!(
    r#"
title = "threads, all methods"
restarts = 2
seeds = [3]
metrics = ["acc", "nmi"]"#,
    recipe_r!(),
    common::blobs::blob_datasets!(),
    r#"[tables.multi]
title = "M"
datasets = ["blobs"]
columns = [
  { id = "gumkl", label = "GUMKL", method = "gumkl", params = { p = 2.0 } },
  { id = "mvkkm", label = "MVKKM", method = "mvkkm" },
  { id = "simplemkkm", label = "SimpleMKKM", method = "simplemkkm" },
  { id = "mkkm", label = "MKKM", method = "mkkm" },
  { id = "mkkm-mir", label = "MKKM-MiR", method = "mkkm-mir" },
  { id = "scmk", label = "SCMK", method = "scmk", grid = { alpha = [0.001, 1.0] } },
  { id = "scsk", label = "SCSK", method = "scsk", params = { alpha = 0.01 } },
  { id = "sc", label = "SC", method = "sc", params = { clip_negative = true } },
]
[tables.two]
title = "Two classes"
datasets = ["two"]
columns = [
  { id = "rmkc", label = "RMKC", method = "rmkc", grid = { C = [0.1, 10.0] } },
  { id = "itersvr", label = "iterSVR", method = "itersvr" },
  { id = "lgmmc", label = "LG-MMC", method = "lgmmc" },
]
"#
);

#[test]
fn every_method_gives_identical_results_for_one_and_two_threads() {
    let dir = common::temp_dir("threads-methods");
    let (r1, r2) = (dir.join("one.jsonl"), dir.join("two.jsonl"));
    let a = run_config(METHODS, 1, &r1);
    let b = run_config(METHODS, 2, &r2);
    let (ra, rb) = (records_without_time(&r1), records_without_time(&r2));
    assert!(!ra.is_empty());
    assert_eq!(ra, rb);
    let opts = RenderOptions { timings: false };
    assert_eq!(render(&a, opts), render(&b, opts));
    for t in &a.tables {
        for row in &t.rows {
            let cols = row.result.as_ref().unwrap();
            for c in cols {
                assert!(c.error.is_none(), "{}: {:?}", c.id, c.error);
                let acc = c.cell.as_ref().unwrap().stats[&Metric::Acc];
                assert!(acc.mean > 0.0 && acc.mean <= 100.0, "{}: {acc:?}", c.id);
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
