//! Resuming a reproduction from its run records (`mkc_experiments::resume`): the tables
//! come out the same, recorded jobs are not run again, and only matching runs are reused.

mod common;

use common::blobs::{self, md, CONFIG};
use mkc_experiments::dataset::Unavailable;
use mkc_experiments::resume::RecordIndex;
use mkc_experiments::runner::Report;
use std::path::{Path, PathBuf};

fn run(config: &str, records: &Path, index: Option<&RecordIndex>, recorded_only: bool) -> Report {
    blobs::run(&blobs::plan(config), records, index, recorded_only)
}

fn lines(p: &Path) -> Vec<String> {
    std::fs::read_to_string(p)
        .map(|t| t.lines().map(str::to_string).collect())
        .unwrap_or_default()
}

/// A fresh full run into `<dir>/full.jsonl`: the directory (`temp_dir(tag)`), the path
/// `<dir>/part.jsonl` for a partial record, the report and the full record's lines.
fn fresh(tag: &str) -> (PathBuf, PathBuf, Report, Vec<String>) {
    let dir = common::temp_dir(tag);
    let (full, part) = (dir.join("full.jsonl"), dir.join("part.jsonl"));
    let report = run(CONFIG, &full, None, false);
    (dir, part, report, lines(&full))
}

#[test]
fn a_complete_record_reproduces_the_tables_without_running_anything() {
    let dir = common::temp_dir("resume-complete");
    let rec = dir.join("r.jsonl");
    let fresh = run(CONFIG, &rec, None, false);
    let n = lines(&rec).len();
    // Four kernels (two views x two widths). blobs: 3 restarts x (2 grid points x 4
    // kernels + 1 combination); two: the same + RMKC 2 grid points x 3 restarts.
    assert_eq!(n, 27 + 27 + 6);
    let index = RecordIndex::read(&rec).unwrap();
    assert_eq!(index.jobs(), 9 + 9 + 2);
    for only in [true, false] {
        let again = run(CONFIG, &rec, Some(&index), only);
        assert_eq!(md(&again), md(&fresh));
        // Nothing was run, so nothing was appended.
        assert_eq!(lines(&rec).len(), n);
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_interrupted_run_is_completed_by_running_only_the_missing_dataset() {
    let (dir, part, fresh, all) = fresh("resume-partial");
    // Keep the first dataset's records and half a line of the next one (a killed writer).
    let kept: Vec<&String> = all
        .iter()
        .filter(|l| l.contains(r#""dataset":"blobs""#))
        .collect();
    assert_eq!(kept.len(), 27);
    let mut text: String = kept.iter().map(|l| format!("{l}\n")).collect();
    text.push_str(
        &all.iter()
            .find(|l| l.contains(r#""dataset":"two""#))
            .unwrap()[..40],
    );
    text.push('\n');
    std::fs::write(&part, &text).unwrap();
    let index = RecordIndex::read(&part).unwrap();
    assert_eq!(index.jobs(), 9);

    // Records only: the missing dataset is reported as not run, in both tables.
    let shown = run(CONFIG, &part, Some(&index), true);
    for t in &shown.tables {
        let row = t.rows.iter().find(|r| r.key == "two").unwrap();
        match &row.result {
            Err(Unavailable::Failed(why)) => assert!(why.contains("no records yet"), "{why}"),
            other => panic!("expected a not-run row, got {other:?}"),
        }
    }
    assert!(shown.tables[0].rows[0].result.is_ok());

    // Resume: only the 33 runs of `two` are run and appended; the tables equal the fresh run.
    let before = lines(&part).len();
    let resumed = run(CONFIG, &part, Some(&index), false);
    assert_eq!(lines(&part).len(), before + 33);
    assert_eq!(md(&resumed), md(&fresh));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_dataset_with_some_jobs_on_record_runs_only_the_others() {
    // Records are appended job by job as the jobs end: a run killed inside a dataset
    // leaves that dataset's finished jobs on record, and a resume runs only the others.
    let (dir, part, fresh, all) = fresh("resume-inside");
    // Drop RMKC's two jobs (3 runs each) of the second dataset: the other jobs stay.
    let kept: String = all
        .iter()
        .filter(|l| !(l.contains(r#""dataset":"two""#) && l.contains(r#""method":"rmkc""#)))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&part, &kept).unwrap();
    let index = RecordIndex::read(&part).unwrap();
    assert_eq!(index.jobs(), 9 + 9);
    let before = lines(&part).len();
    assert_eq!(before, all.len() - 6);
    let resumed = run(CONFIG, &part, Some(&index), false);
    assert_eq!(lines(&part).len(), before + 6);
    assert!(lines(&part)[before..]
        .iter()
        .all(|l| l.contains(r#""method":"rmkc""#)));
    assert_eq!(md(&resumed), md(&fresh));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn records_of_other_seeds_or_parameters_are_not_reused() {
    let dir = common::temp_dir("resume-mismatch");
    let rec = dir.join("r.jsonl");
    run(CONFIG, &rec, None, false);
    let n = lines(&rec).len();
    let index = RecordIndex::read(&rec).unwrap();
    // Other seeds: every job runs again.
    let seeds = CONFIG.replace("seeds = [5]", "seeds = [6]");
    run(&seeds, &rec, Some(&index), false);
    assert_eq!(lines(&rec).len(), 2 * n);
    // One more restart: the recorded jobs lack restart 3, so they run again too.
    let index = RecordIndex::read(&rec).unwrap();
    let restarts = CONFIG.replace("restarts = 3", "restarts = 4");
    run(&restarts, &rec, Some(&index), false);
    assert_eq!(lines(&rec).len(), 2 * n + n / 3 * 4);
    // Another C for RMKC: only that grid point runs (3 restarts).
    let index = RecordIndex::read(&rec).unwrap();
    let grid = CONFIG.replace("C = [0.1, 10.0]", "C = [0.1, 1.0]");
    run(&grid, &rec, Some(&index), false);
    assert_eq!(lines(&rec).len(), 2 * n + n / 3 * 4 + 3);
    std::fs::remove_dir_all(&dir).ok();
}

/// The config without the RMKC table (kernel k-means only).
fn kkm_only() -> String {
    CONFIG[..CONFIG.find("[tables.u]").unwrap()].to_string()
}

#[test]
fn records_written_before_converged_and_phases_existed_still_resume() {
    let dir = common::temp_dir("resume-old-format");
    let (new, old) = (dir.join("new.jsonl"), dir.join("old.jsonl"));
    let config = kkm_only();
    let fresh = run(&config, &new, None, false);
    let written = lines(&new);
    let first: serde_json::Value = serde_json::from_str(&written[0]).unwrap();
    assert!(
        first["converged"].is_boolean() && first["phases"].is_array(),
        "{first}"
    );
    // The same records as an older mkc wrote them: without the two fields.
    let text: String = written
        .iter()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            let o = v.as_object_mut().unwrap();
            assert!(o.remove("converged").is_some() && o.remove("phases").is_some());
            format!("{v}\n")
        })
        .collect();
    std::fs::write(&old, text).unwrap();
    let index = RecordIndex::read(&old).unwrap();
    assert_eq!(index.jobs(), 9 + 9);
    // Everything is taken from the old records: nothing runs, nothing is appended.
    let again = run(&config, &old, Some(&index), false);
    assert_eq!(lines(&old).len(), written.len());
    assert_eq!(md(&again), md(&fresh));
    std::fs::remove_dir_all(&dir).ok();
}
