use super::markdown::phase_group;
use super::*;
use crate::params::{ParamSet, ParamValue};

/// A run record of `table` with its identity, wall time and phases.
fn rec(
    table: &str,
    dataset: &str,
    method: &str,
    c: f64,
    restart: usize,
    wall: f64,
    phases: &[(&str, f64)],
) -> RunRecord {
    let mut params = ParamSet::default();
    params.0.insert("C".into(), ParamValue::Float(c));
    RunRecord {
        profile: "full".into(),
        config_hash: "h1".into(),
        table: table.into(),
        dataset: dataset.into(),
        method: method.into(),
        params,
        restart,
        wall_time_s: wall,
        phases: phases.iter().map(|(n, s)| (n.to_string(), *s)).collect(),
        ..Default::default()
    }
}

/// A record's identity, wall time and phases, as `rec` takes them.
type Row = (
    &'static str,
    &'static str,
    &'static str,
    f64,
    usize,
    f64,
    &'static [(&'static str, f64)],
);

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

/// Hand-summed: a rerun replaces its first record, a run shared by two tables counts
/// half towards each, `other` is wall minus the phases, jobs are sorted slowest first.
#[test]
fn sums_by_table_method_phase_and_job() {
    // (table, dataset, method, C, restart, wall, phases)
    #[rustfmt::skip]
    let rows: &[Row] = &[
        ("t1", "a", "rmkc", 1.0, 0, 9.0, &[("labels", 5.0)]), // replaced below
        ("t1", "a", "rmkc", 1.0, 1, 4.0, &[("labels", 3.0), ("init", 0.5)]),
        ("t1,t2", "b", "kkm", 1.0, 0, 2.0, &[("kmeans", 2.0)]),
        ("t2,t2", "b", "itersvr", 10.0, 0, 6.0, &[("svm", 5.0), ("kmeans", 1.0)]),
        ("t1", "a", "rmkc", 1.0, 0, 3.0, &[("labels", 2.0)]),
        // shared work: phases 4 + 4 in a run of wall time 2 count as 1 + 1
        ("t3", "c", "mkkm", 1.0, 0, 2.0, &[("weights", 4.0), ("kmeans", 4.0)]),
    ];
    let records: Vec<RunRecord> = rows
        .iter()
        .map(|&(t, d, m, c, r, w, p)| rec(t, d, m, c, r, w, p))
        .collect();
    let kernels = vec![
        KernelRecord {
            profile: "full".into(),
            dataset: "a".into(),
            n: 10,
            kernels: 2,
            seconds: 7.0,
        },
        KernelRecord {
            profile: "full".into(),
            dataset: "a".into(),
            n: 10,
            kernels: 2,
            seconds: 1.5,
        },
        KernelRecord {
            profile: "quick".into(),
            dataset: "a".into(),
            n: 10,
            kernels: 2,
            seconds: 9.0,
        },
    ];
    let c = ConfigTimings::from_records("demo", &records, 6, &kernels);
    assert_eq!((c.lines, c.runs), (6, 5));
    assert_eq!(c.profiles["full"].hashes.get("h1"), Some(&5));
    assert_eq!(
        c.profiles.len(),
        1,
        "no quick runs: its kernel record is dropped"
    );
    let p = &c.profiles["full"];
    assert!(close(p.total.seconds, 3.0 + 4.0 + 2.0 + 6.0 + 2.0));
    let mkkm = &p.tables["t3"].methods["mkkm"];
    assert!(close(mkkm.phases["weights"], 1.0) && close(mkkm.phases["kmeans"], 1.0));
    assert!(close(mkkm.phases["other"], 0.0));
    assert_eq!(
        p.kernels.get("a"),
        Some(&1.5),
        "the last kernel record counts"
    );
    let (t1, t2) = (&p.tables["t1"], &p.tables["t2"]);
    assert!(close(t1.total.seconds, 3.0 + 4.0 + 1.0));
    assert!(close(t2.total.seconds, 1.0 + 6.0));
    assert!(close(t1.total.runs, 2.5) && close(t2.total.runs, 1.5));
    assert!(close(
        t1.total.seconds + t2.total.seconds + 2.0,
        p.total.seconds
    ));
    let rmkc = &t1.methods["rmkc"];
    assert!(close(rmkc.phases["labels"], 5.0));
    assert!(close(rmkc.phases["init"], 0.5));
    assert!(close(rmkc.phases["other"], 1.0 + 0.5));
    assert!(close(t1.datasets["b"], 1.0) && close(t1.datasets["a"], 7.0));
    let order: Vec<(&str, f64)> = p
        .jobs
        .iter()
        .map(|j| (j.method.as_str(), j.sums.seconds))
        .collect();
    assert_eq!(
        order,
        [("rmkc", 7.0), ("itersvr", 6.0), ("kkm", 2.0), ("mkkm", 2.0)]
    );
    assert_eq!(p.jobs[0].sums.runs, 2.0);
}

/// The report names every table and method, the phase groups add up to 100% of a
/// table, and the job list stops at `top`.
#[test]
fn markdown_lists_tables_methods_and_top_jobs() {
    let records = vec![
        rec("t1", "a", "rmkc", 1.0, 0, 4.0, &[("labels", 3.0)]),
        rec(
            "t1",
            "a",
            "aasc",
            1.0,
            0,
            4.0,
            &[("eigensolve", 2.0), ("affinity", 1.0)],
        ),
        rec("t1", "a", "aasc", 2.0, 0, 1.0, &[]),
    ];
    let c = ConfigTimings::from_records("demo", &records, 3, &[]);
    let md = markdown(&[c], "results/runs", 2);
    for needle in [
        "| demo | full | 3 | 9.0 | – | 3 | h1 (3) |",
        "### demo, full profile: 9.0 run-seconds in 3 runs",
        "Kernel construction: not on record.",
        // solves 3 of 9, eigen 2, k-means 0, kernels 1, rest 3
        "| t1 | 3 | 9.0 | 100% | 33% | 22% | 0% | 11% | 33% | a 9.0 |",
        "| aasc | 2 | 0 | 5.0 | 56% | 2.500 | eigensolve 2.0 (40%), other 2.0 (40%), affinity 1.0 (20%) |",
        "#### demo (full): the 2 slowest jobs",
    ] {
        assert!(md.contains(needle), "missing {needle:?} in\n{md}");
    }
    assert_eq!(md.matches("| t1 | a |").count(), 2, "{md}");
}

#[test]
fn phase_groups() {
    assert_eq!(phase_group("rmkc", "labels"), "solves");
    assert_eq!(phase_group("gmmc", "labels"), "rest");
    assert_eq!(phase_group("lgmmc", "mkl"), "solves");
    assert_eq!(phase_group("scmk", "eigensolve"), "eigen");
    assert_eq!(phase_group("rkkm", "l21"), "k-means");
    assert_eq!(phase_group("mvkkm", "composite"), "kernels");
    assert_eq!(phase_group("mvkkm", "other"), "rest");
}

/// Kernel records go beside the run records and read back; a missing file is empty.
#[test]
fn kernel_records_round_trip() {
    let dir = std::env::temp_dir().join(format!("mkc-timings-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let runs = dir.join("runs").join("demo.jsonl");
    assert_eq!(
        kernels_path(&runs),
        dir.join("runs").join("demo.kernels.jsonl")
    );
    let data = Prepared {
        key: "toy".into(),
        n: 3,
        n_clusters: 2,
        truth: vec![0, 1, 1],
        kernels: vec![faer::Mat::<f64>::zeros(3, 3)],
        kernel_names: vec!["lin".into()],
        features: None,
        kernel_features: vec![],
        recipe: None,
    };
    append_kernels(None, "full", &data, 1.0).unwrap();
    assert!(!kernels_path(&runs).exists());
    append_kernels(Some(&runs), "full", &data, 0.25).unwrap();
    let (k, lines) = read_lines::<KernelRecord>(&kernels_path(&runs)).unwrap();
    assert_eq!(lines, 1);
    assert_eq!(k[0].dataset, "toy");
    assert_eq!((k[0].n, k[0].kernels, k[0].seconds), (3, 1, 0.25));
    let c = ConfigTimings::read(&dir.join("runs"), "demo").unwrap();
    assert_eq!((c.lines, c.runs), (0, 0));
    let _ = std::fs::remove_dir_all(&dir);
}
