//! The runner's jobs one at a time (`mkc_experiments::runner::{list_jobs, job_records}`,
//! what `mkc.sweep` runs on a Dask cluster): their records are the local runner's, in
//! any order of completion; rendered from them the tables are the local run's; a
//! partial set of records marks exactly its jobs as recorded.

mod common;

use common::blobs::{self, Blobs, CONFIG};
use mkc_core::Error;
use mkc_experiments::record::{append, RunRecord};
use mkc_experiments::resume::RecordIndex;
use mkc_experiments::runner::{dataset_keys, job_records, list_jobs, prepare_dataset, Report};
use mkc_experiments::table::{render, RenderOptions};
use mkc_experiments::Plan;
use std::path::Path;

/// The resume tests' config and a table whose figures show MKKM's learned weights
/// and objective trace on `two`, beside MVKKM on a grid over p, LG-MMC and IterSVR on
/// grids over C, RMKC without a norm on the C grid of the config's RMKC (1-norm), LKAM
/// and ONKC on grids over λ and SCSK and SCMK on grids over α and β, whose jobs the local
/// runner gives work computed once (MVKKM's global kernel k-means start, LG-MMC's features
/// and IterSVR's k-means starts per kernel, RMKC's initial splits per C for both norms,
/// LKAM's localised kernels, ONKC's start, the APG step sizes of SCSK per kernel and of
/// SCMK) and one at a time compute their own.
fn plan() -> Plan {
    blobs::plan(&format!(
        r#"{CONFIG}
[tables.w]
title = "W"
datasets = ["two"]
columns = [
  {{ id = "mkkm", label = "MKKM", method = "mkkm" }},
  {{ id = "mvkkm", label = "MVKKM", method = "mvkkm", grid = {{ p = [1.5, 3.0] }} }},
  {{ id = "lgmmc", label = "LG-MMC", method = "lgmmc", grid = {{ C = [1.0, 10.0] }} }},
  {{ id = "itersvr", label = "IterSVR", method = "itersvr", grid = {{ C = [0.1, 10.0] }} }},
  {{ id = "rmkc-none", label = "RMKC (no norm)", method = "rmkc", params = {{ p = "none" }}, grid = {{ C = [0.1, 10.0] }} }},
  {{ id = "lkam", label = "LKAM", method = "lkam", params = {{ tau = 0.3 }}, grid = {{ lambda = [0.5, 2.0] }} }},
  {{ id = "onkc", label = "ONKC", method = "onkc", params = {{ rho = 0.5 }}, grid = {{ lambda = [0.5, 2.0] }} }},
  {{ id = "scsk", label = "SCSK", method = "scsk", params = {{ n_init = 3 }}, grid = {{ alpha = [0.01, 1.0], beta = [1e-5] }} }},
  {{ id = "scmk", label = "SCMK", method = "scmk", params = {{ n_init = 3 }}, grid = {{ alpha = [0.01], beta = [1e-6, 1e-5] }} }},
]
figures = [
  {{ id = "w", kind = "weights", column = "mkkm" }},
  {{ id = "obj", kind = "objective", column = "mkkm" }},
]
"#
    ))
}

fn run(plan: &Plan, records: &Path, index: Option<&RecordIndex>) -> Report {
    blobs::run(plan, records, index, index.is_some())
}

/// The records of a file with their clock readings zeroed (or dropped), sorted by what
/// they ran.
fn records(p: &Path) -> Vec<RunRecord> {
    let text = std::fs::read_to_string(p).unwrap();
    let mut out: Vec<RunRecord> = text
        .lines()
        .map(|l| {
            let mut r: RunRecord = serde_json::from_str(l).unwrap();
            r.wall_time_s = 0.0;
            r.phases.clear();
            // a clock reading among the diagnostics (ONKC's seconds per iteration)
            r.diagnostics
                .retain(|(name, _)| !name.starts_with("seconds"));
            if let Some(m) = r.metrics.as_mut() {
                m.time = 0.0;
            }
            r
        })
        .collect();
    let key = |r: &RunRecord| {
        format!(
            "{} {} {} {:?} {} {}",
            r.dataset,
            r.method,
            serde_json::to_string(&r.params).unwrap(),
            r.kernel,
            r.base_seed,
            r.restart
        )
    };
    out.sort_by_key(key);
    out
}

#[test]
fn jobs_run_one_by_one_give_the_local_runners_records_and_tables() {
    let dir = common::temp_dir("runner-jobs");
    let plan = plan();
    let local = dir.join("local.jsonl");
    let fresh = run(&plan, &local, None);

    // every job of every dataset, run on its own, last job first
    let apart = dir.join("apart.jsonl");
    let mut jobs = 0;
    assert_eq!(dataset_keys(&plan), ["blobs", "two"]);
    for key in dataset_keys(&plan) {
        let data = prepare_dataset(&plan, &Blobs, &key).unwrap();
        let list = list_jobs(&plan, &key, data.kernels.len(), None);
        assert!(list.iter().all(|j| j.dataset == key && !j.recorded));
        assert!(list.iter().enumerate().all(|(i, j)| j.index == i));
        for j in list.iter().rev() {
            let recs = job_records(&plan, &data, j.index, "h").unwrap();
            assert_eq!(recs.len(), j.runs, "{j:?}");
            assert!(recs
                .iter()
                .all(|r| r.method == j.method && r.params == j.params));
            append(&apart, &recs).unwrap();
        }
        jobs += list.len();
    }
    // blobs: kkm 2 points x 4 kernels + avg; two: the same + rmkc 2 points + mkkm +
    // mvkkm 2 points + lgmmc and itersvr 2 points x 4 kernels each + rmkc-none, lkam and
    // onkc 2 points each + scsk 2 points x 4 kernels + scmk 2 points
    assert_eq!(jobs, 9 + 46);
    assert_eq!(records(&apart), records(&local));

    // rendered from those records alone: the local run's tables (with the learned
    // weights of the run the figures show), nothing run again
    let index = RecordIndex::read(&apart).unwrap();
    let again = run(&plan, &dir.join("unused.jsonl"), Some(&index));
    let md = |r: &Report| render(r, RenderOptions { timings: false });
    assert!(
        md(&fresh).contains("Learned kernel weights"),
        "{}",
        md(&fresh)
    );
    assert_eq!(md(&again), md(&fresh));
    assert_eq!(again.recorded_runs, 3 * (9 + 46));
    // the run shown: the same weights and trace (JSON text gives floats back to within
    // an ulp: serde_json's parser without its `float_roundtrip` feature)
    let shown = |r: &Report| {
        let cols = r.tables[2].rows[0].result.as_ref().unwrap();
        let ex = cols[0].example.clone().unwrap();
        let mut v = ex.weights.clone().unwrap();
        v.extend(&ex.objective);
        (v, ex.iterations)
    };
    let ((a, ia), (b, ib)) = (shown(&again), shown(&fresh));
    assert_eq!((a.len(), ia), (b.len(), ib));
    for (x, y) in a.iter().zip(&b) {
        assert!((x - y).abs() <= 1e-15 * y.abs(), "{x} vs {y}");
    }
    assert!(!dir.join("unused.jsonl").exists());
    for key in dataset_keys(&plan) {
        let data = prepare_dataset(&plan, &Blobs, &key).unwrap();
        let list = list_jobs(&plan, &key, data.kernels.len(), Some(&index));
        assert!(list.iter().all(|j| j.recorded), "{key}");
    }
}

#[test]
fn a_partial_record_marks_exactly_its_jobs_and_bad_requests_are_typed_errors() {
    let dir = common::temp_dir("runner-jobs-partial");
    let plan = plan();
    let data = prepare_dataset(&plan, &Blobs, "two").unwrap();
    let m = data.kernels.len();
    let list = list_jobs(&plan, "two", m, None);
    let part = dir.join("part.jsonl");
    let done = [0, 3, list.len() - 1];
    for &i in &done {
        append(&part, &job_records(&plan, &data, i, "h").unwrap()).unwrap();
    }
    let index = RecordIndex::read(&part).unwrap();
    let marked: Vec<usize> = list_jobs(&plan, "two", m, Some(&index))
        .iter()
        .filter(|j| j.recorded)
        .map(|j| j.index)
        .collect();
    assert_eq!(marked, done);
    // rendering what is on record: the row says the records are incomplete
    let md = render(
        &run(&plan, &dir.join("x.jsonl"), Some(&index)),
        RenderOptions { timings: false },
    );
    assert!(md.contains("no records yet"), "{md}");

    match job_records(&plan, &data, list.len(), "h") {
        Err(Error::InvalidParam { name, .. }) => assert_eq!(name, "job"),
        other => panic!("{other:?}"),
    }
    match prepare_dataset(&plan, &Blobs, "nope") {
        Err(Error::InvalidInput { reason, .. }) => assert!(reason.contains("`nope`"), "{reason}"),
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("a dataset the plan does not have was prepared"),
    }
    assert!(list_jobs(&plan, "nope", m, None).is_empty());
}
