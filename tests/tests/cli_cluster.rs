//! End to end: `mkc cluster` on the committed Ionosphere data, and the labels' accuracy
//! checked against an accuracy computed here, independently of mkc-metrics.

mod common;

use std::collections::HashMap;

/// Accuracy of a 2-cluster labelling by brute force over both matchings.
fn accuracy_two(truth: &[String], pred: &[String]) -> f64 {
    let mut classes: Vec<&String> = truth.iter().collect();
    classes.sort();
    classes.dedup();
    let mut clusters: Vec<&String> = pred.iter().collect();
    clusters.sort();
    clusters.dedup();
    assert!(classes.len() == 2 && clusters.len() <= 2);
    let mut best = 0usize;
    for flip in [false, true] {
        let hits = truth
            .iter()
            .zip(pred)
            .filter(|(t, p)| {
                let ci = clusters.iter().position(|c| c == p).unwrap_or(0);
                let ti = classes.iter().position(|c| c == t).unwrap_or(0);
                (ci == ti) != flip
            })
            .count();
        best = best.max(hits);
    }
    best as f64 / truth.len() as f64
}

fn lines(path: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// `mkc WORDS… FLAG PATH…`: the words split at white space, then each flag (none when
/// empty) with its path (paths are not split: they may hold spaces); returns the exit
/// code.
fn mkc(words: &str, paths: &[(&str, &std::path::Path)]) -> i32 {
    let mut args: Vec<String> = std::iter::once("mkc")
        .chain(words.split_whitespace())
        .map(String::from)
        .collect();
    for (flag, path) in paths {
        args.extend((!flag.is_empty()).then(|| flag.to_string()));
        args.push(path.display().to_string());
    }
    mkc_cli::run_cli(args)
}

/// `mkc cluster --method M --dataset D --recipe R --out OUT [--report REPORT] EXTRA…` on the
/// committed data; returns the exit code.
fn cluster(
    method: &str,
    dataset: &str,
    recipe: &str,
    out: &std::path::Path,
    report: Option<&std::path::Path>,
    extra: &[&str],
) -> i32 {
    let data = common::committed_data();
    let mut paths = vec![("--out", out), ("--data-dir", data.as_path())];
    paths.extend(report.map(|r| ("--report", r)));
    let words = format!(
        "cluster --method {method} --dataset {dataset} --recipe {recipe} {}",
        extra.join(" ")
    );
    mkc(&words, &paths)
}

/// `mkc cluster --method kkm` on Ionosphere (one Gaussian kernel), 2 clusters, seed 3.
fn kkm_ionosphere(out: &std::path::Path, report: Option<&std::path::Path>) -> i32 {
    cluster(
        "kkm",
        "ionosphere",
        "gauss-median",
        out,
        report,
        &["--clusters", "2", "--seed", "3"],
    )
}

#[test]
fn cluster_ionosphere_and_check_accuracy_independently() {
    let dir = common::temp_dir("cluster");
    let out = dir.join("labels.csv");
    let report = dir.join("run.json");
    let data = common::committed_data();
    assert_eq!(kkm_ionosphere(&out, Some(&report)), 0);
    let pred = lines(&out);
    let truth = lines(&data.join("bundle/ionosphere/labels.csv"));
    assert_eq!(pred.len(), 351);
    assert_eq!(truth.len(), 351);
    let acc = accuracy_two(&truth, &pred);
    // Both clusters used, and better than putting everything in one cluster (225/351).
    let counts = pred.iter().fold(HashMap::new(), |mut m, l| {
        *m.entry(l.clone()).or_insert(0usize) += 1;
        m
    });
    assert_eq!(counts.len(), 2);
    assert!(acc > 0.5, "accuracy {acc}");
    // The report's ACC (computed by mkc-metrics) equals ours.
    let rec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let reported = rec["metrics"]["acc"].as_f64().unwrap();
    assert!(
        (reported - 100.0 * acc).abs() < 1e-9,
        "report {reported} vs independent {}",
        100.0 * acc
    );
    assert_eq!(rec["method"], "kkm");
    assert_eq!(rec["seed"], 3);
    assert_eq!(rec["params"]["n_init"], 1);

    // The same seed gives the same labels.
    let out2 = dir.join("labels2.csv");
    assert_eq!(kkm_ionosphere(&out2, None), 0);
    assert_eq!(lines(&out2), pred);

    // mkc score agrees.
    let truth = data.join("bundle/ionosphere/labels.csv");
    let code = mkc("score", &[("--truth", &truth), ("--pred", &out)]);
    assert_eq!(code, 0);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn user_errors_give_nonzero_exit_codes() {
    let dir = common::temp_dir("errors");
    let out = dir.join("l.csv");
    let data = common::committed_data();
    let o = out.to_str().unwrap();
    let d = data.to_str().unwrap();
    // `mkc cluster` with these options (plus --out and --data-dir) fails with exit code 1.
    let cases: [(&[&str], &str); 5] = [
        (
            &["--method", "nope", "--dataset", "ionosphere"],
            "unknown method",
        ),
        (&["--method", "kkm", "--dataset", "nope"], "unknown dataset"),
        (
            &[
                "--method",
                "kkm",
                "--dataset",
                "ionosphere",
                "--recipe",
                "gauss-median",
                "--n_init",
                "0",
            ],
            "bad value",
        ),
        (
            &[
                "--method",
                "kkm",
                "--dataset",
                "ionosphere",
                "--recipe",
                "gauss10-range",
            ],
            "several kernels for a single-kernel method need --kernel-index",
        ),
        (
            &["--method", "kkm", "--dataset", "ionosphere"],
            "no recipe for a feature dataset",
        ),
    ];
    for (opts, why) in cases {
        let mut args = vec!["mkc", "cluster"];
        args.extend_from_slice(opts);
        args.extend_from_slice(&["--out", o, "--data-dir", d]);
        assert_eq!(mkc_cli::run_cli(args), 1, "{why}");
    }
    assert_eq!(
        mkc_cli::run_cli(["mkc", "cluster", "--method", "kkm", "--out", o]),
        2
    );
    assert_eq!(
        mkc_cli::run_cli(["mkc", "score", "--truth", "/nonexistent/t.csv", "--pred", o]),
        1
    );
    // A bad config is reported, not run.
    let bad = dir.join("bad.toml");
    std::fs::write(
        &bad,
        "title = \"x\"\nrestarts = 1\ntables = {}\nbogus = 2\n",
    )
    .unwrap();
    assert_eq!(
        mkc_cli::run_cli(["mkc", "run", bad.to_str().unwrap(), "--data-dir", d]),
        1
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn kernels_command_writes_npy_files() {
    let dir = common::temp_dir("kernels");
    let data = common::committed_data();
    let code = mkc(
        "kernels --dataset ionosphere --recipe gauss10-range",
        &[("--out", &dir), ("--data-dir", &data)],
    );
    assert_eq!(code, 0);
    let k = mkc_data::npy::read(dir.join("K10.npy")).unwrap();
    assert_eq!((k.nrows(), k.ncols()), (351, 351));
    // Clustering from the written kernel files gives the same labels as from the dataset.
    let a = dir.join("a.csv");
    let b = dir.join("b.csv");
    let k3 = dir.join("K3.npy");
    let from_file = mkc(
        "cluster -m kkm -k 2 --seed 5",
        &[("--kernel", &k3), ("-o", &a)],
    );
    assert_eq!(from_file, 0);
    let from_dataset = mkc(
        "cluster -m kkm --dataset ionosphere --recipe gauss10-range --kernel-index 3 -k 2 --seed 5",
        &[("-o", &b), ("--data-dir", &data)],
    );
    assert_eq!(from_dataset, 0);
    assert_eq!(lines(&a), lines(&b));
    std::fs::remove_dir_all(&dir).ok();
}

/// The robust and spectral baselines (RKKM, RMKKM, AASC, MVSpec) run from kernel files as
/// from a dataset: the same labels both ways, one per sample.
#[test]
fn robust_and_spectral_baselines_from_kernel_files_and_datasets() {
    let dir = common::temp_dir("baselines-files");
    let data = common::committed_data();
    let recipe = "gauss10-range";
    let code = mkc(
        &format!("kernels --dataset ionosphere --recipe {recipe}"),
        &[("--out", &dir), ("--data-dir", &data)],
    );
    assert_eq!(code, 0);
    let files: Vec<_> = (1..=10).map(|i| dir.join(format!("K{i}.npy"))).collect();
    for method in ["rkkm", "rmkkm", "aasc", "mvspec"] {
        // RKKM is a single-kernel method: kernel 4 of the ten, both ways.
        let pick = if method == "rkkm" {
            "--kernel-index 4"
        } else {
            ""
        };
        let (a, b) = (
            dir.join(format!("{method}-a.csv")),
            dir.join(format!("{method}-b.csv")),
        );
        let mut paths: Vec<(&str, &std::path::Path)> = vec![("-o", &a), ("--kernel", &files[0])];
        paths.extend(files[1..].iter().map(|f| ("", f.as_path())));
        let from_files = mkc(&format!("cluster -m {method} -k 2 --seed 5 {pick}"), &paths);
        assert_eq!(from_files, 0, "{method} from kernel files");
        let from_dataset = mkc(
            &format!(
                "cluster -m {method} --dataset ionosphere --recipe {recipe} -k 2 --seed 5 {pick}"
            ),
            &[("-o", &b), ("--data-dir", &data)],
        );
        assert_eq!(from_dataset, 0, "{method} from the dataset");
        assert_eq!(lines(&a).len(), 351, "{method}");
        assert_eq!(lines(&a), lines(&b), "{method}: files and dataset disagree");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn datasets_and_run_commands_work_on_the_committed_data() {
    let data = common::committed_data();
    let d = data.to_str().unwrap();
    assert_eq!(mkc_cli::run_cli(["mkc", "datasets", "--data-dir", d]), 0);
    let dir = common::temp_dir("run");
    let cfg = common::write(
        &dir,
        "tiny.toml",
        r#"
title = "tiny"
restarts = 2
[datasets.ionosphere]
label = "Ionosphere"
recipe = "gauss-median"
[datasets.coil20]
recipe = "gauss-median"
[tables.t]
title = "Kernel k-means"
datasets = ["ionosphere", "coil20"]
metrics = ["acc", "nmi"]
columns = [{ id = "kkm", label = "KKM", method = "kkm" }, { id = "x", label = "X" }]
[tables.t.paper.acc]
ionosphere = { x = "70.1 ± 0.5" }
"#,
    );
    let md = dir.join("tiny.md");
    let rec = dir.join("tiny.jsonl");
    let code = mkc(
        "run",
        &[
            ("", &cfg),
            ("--out", &md),
            ("--records", &rec),
            ("--data-dir", &data),
        ],
    );
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(text.contains("| Ionosphere | 351 |"), "{text}");
    assert!(text.contains("— (paper 70.1 ± 0.5)"), "{text}");
    // COIL-20 is not committed: its row says so, naming the file, and the run went on.
    assert!(
        text.contains("data missing: `") && text.contains("COIL20"),
        "{text}"
    );
    assert_eq!(std::fs::read_to_string(&rec).unwrap().lines().count(), 2);
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs `mkc cluster --method M --dataset mfeat --recipe linear-per-view` with extra
/// options and returns the report (JSON).
fn cluster_mfeat(
    dir: &std::path::Path,
    tag: &str,
    method: &str,
    extra: &[&str],
) -> serde_json::Value {
    let out = dir.join(format!("{tag}.csv"));
    let report = dir.join(format!("{tag}.json"));
    let mut opts = vec!["--seed", "1"];
    opts.extend_from_slice(extra);
    assert_eq!(
        cluster(
            method,
            "mfeat",
            "linear-per-view",
            &out,
            Some(&report),
            &opts
        ),
        0,
        "{method} {extra:?}"
    );
    assert_eq!(lines(&out).len(), 2000);
    serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap()
}

fn weights(rec: &serde_json::Value) -> Vec<f64> {
    rec["weights"]
        .as_array()
        .expect("weights in the report")
        .iter()
        .map(|w| w.as_f64().unwrap())
        .collect()
}

#[test]
fn gumkl_and_mvkkm_from_the_command_line_on_multiple_features() {
    let dir = common::temp_dir("gumkl");
    // p = 1 selects one view (eq. 8); p = ∞ is the uniform sum; p = 2 lies on the simplex
    // with every view used; six views, one linear kernel each.
    let one = weights(&cluster_mfeat(&dir, "p1", "gumkl", &["--p", "1"]));
    assert_eq!(one.len(), 6);
    assert_eq!(one.iter().filter(|&&w| w == 1.0).count(), 1, "{one:?}");
    assert_eq!(one.iter().filter(|&&w| w == 0.0).count(), 5, "{one:?}");
    let uni_rec = cluster_mfeat(&dir, "pinf", "gumkl", &["--p", "inf"]);
    let uni = weights(&uni_rec);
    assert!(uni.iter().all(|w| (w - 1.0 / 6.0).abs() < 1e-12), "{uni:?}");
    let rec = cluster_mfeat(&dir, "p2", "gumkl", &["--p", "2"]);
    let two = weights(&rec);
    assert!((two.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{two:?}");
    assert!(two.iter().all(|&w| w > 0.0 && w < 1.0), "{two:?}");
    assert_eq!(rec["params"]["p"], 2.0);
    // The uniform sum of the six views separates the ten digits well (paper-independent
    // sanity bound: a random labelling scores about 10%).
    let acc = uni_rec["metrics"]["acc"].as_f64().unwrap();
    assert!(acc > 60.0, "uniform-sum ACC {acc}");
    // MVKKM: weights on the simplex; the same seed gives the same labels.
    let m = weights(&cluster_mfeat(
        &dir,
        "mv",
        "mvkkm",
        &["--p", "3", "--init", "fast-global"],
    ));
    assert!(
        (m.iter().sum::<f64>() - 1.0).abs() < 1e-9 && m.iter().all(|&w| w >= 0.0),
        "{m:?}"
    );
    // Bad p is a user error, not a panic.
    let bad = dir.join("bad.csv");
    assert_eq!(
        cluster(
            "gumkl",
            "mfeat",
            "linear-per-view",
            &bad,
            None,
            &["--p", "0.5"]
        ),
        1
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn scsk_and_scmk_from_the_command_line() {
    let dir = common::temp_dir("scmk");
    let run =
        |tag: &str, method: &str, recipe: &str, extra: &[&str]| -> (i32, std::path::PathBuf) {
            let out = dir.join(format!("{tag}.csv"));
            let report = dir.join(format!("{tag}.json"));
            let mut opts = vec!["--seed", "2"];
            opts.extend_from_slice(extra);
            (
                cluster(method, "ionosphere", recipe, &out, Some(&report), &opts),
                report,
            )
        };
    let alpha_beta = ["--alpha", "0.1", "--beta", "1e-6"];
    // SCSK on one kernel.
    let (code, _) = run("scsk", "scsk", "gauss-median", &alpha_beta);
    assert_eq!(code, 0);
    assert_eq!(lines(&dir.join("scsk.csv")).len(), 351);
    // SCMK on the ten Gaussians: weights (eqs. 20-22) are non-negative and the square
    // roots sum to one (the constraint Σ√w = 1 of eq. 19).
    let (code, report) = run("scmk", "scmk", "gauss10-range", &alpha_beta);
    assert_eq!(code, 0);
    let rec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(report).unwrap()).unwrap();
    let w: Vec<f64> = rec["weights"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(w.len(), 10);
    assert!(w.iter().all(|&x| x >= 0.0), "{w:?}");
    let s: f64 = w.iter().map(|x| x.sqrt()).sum();
    assert!((s - 1.0).abs() < 1e-6, "Σ√w = {s}, w = {w:?}");
    assert_eq!(rec["params"]["alpha"], 0.1);
    // A negative α is a user error, not a panic.
    let (code, _) = run("bad", "scmk", "gauss10-range", &["--alpha=-1"]);
    assert_eq!(code, 1);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn cluster_takes_a_dataset_row_and_its_recipe_from_the_config() {
    let dir = common::temp_dir("cluster-config");
    let data = common::committed_data();
    let d = data.to_str().unwrap();
    let cfg = common::write(
        &dir,
        "rows.toml",
        r#"
title = "rows"
restarts = 1
[datasets.iono]
source = "ionosphere"
recipe = "gauss-median"
[datasets.ionosphere]
recipe = "gauss-median"
[tables.t]
title = "T"
datasets = ["iono"]
columns = [{ id = "kkm", label = "KKM", method = "kkm" }]
"#,
    );
    let c = cfg.to_str().unwrap();
    let labels = |tag: &str, method: &str, opts: &[&str]| -> (i32, Vec<String>) {
        let out = dir.join(format!("{tag}.csv"));
        let mut args = vec![
            "mkc",
            "cluster",
            "-m",
            method,
            "--seed",
            "4",
            "--data-dir",
            d,
        ];
        args.extend_from_slice(opts);
        args.extend_from_slice(&["--out", out.to_str().unwrap()]);
        let code = mkc_cli::run_cli(args);
        (code, if code == 0 { lines(&out) } else { vec![] })
    };
    let (code, direct) = labels(
        "direct",
        "kkm",
        &["--dataset", "ionosphere", "--recipe", "gauss-median"],
    );
    assert_eq!(code, 0);
    // A row of the config under its own key (source = "ionosphere") and a row named like
    // the registered dataset: both bring their recipe, and give the same labels.
    for (tag, row) in [("row", "iono"), ("same-name", "ionosphere")] {
        let (code, got) = labels(tag, "kkm", &["--dataset", row, "--config", c]);
        assert_eq!(code, 0, "{row}");
        assert_eq!(got, direct, "{row}");
    }
    // Without the config, `iono` is no dataset and `ionosphere` has no recipe.
    assert_eq!(labels("no-row", "kkm", &["--dataset", "iono"]).0, 1);
    assert_eq!(
        labels("no-recipe", "kkm", &["--dataset", "ionosphere"]).0,
        1
    );
    // The example config's own files: three classes that the two views separate together.
    let example = common::root().join("configs/example-own-data.toml");
    let report = dir.join("shapes.json");
    let (code, got) = labels(
        "shapes",
        "avg-kkm",
        &[
            "--dataset",
            "shapes",
            "--config",
            example.to_str().unwrap(),
            "--report",
            report.to_str().unwrap(),
        ],
    );
    assert_eq!((code, got.len()), (0, 90));
    let rec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(rec["n_clusters"].as_u64(), Some(3));
    assert!(rec["metrics"]["acc"].as_f64().unwrap() > 95.0, "{rec}");
    std::fs::remove_dir_all(&dir).ok();
}

/// GMMC and CPMMC from the command line on the committed Haberman data (n = 306): a kernel
/// file written by `mkc kernels` gives the labels of the dataset route with the same
/// recipe, and a feature file (`--data`, the bundle's CSV) with the linear recipe gives the
/// labels of the dataset with that recipe (#22's command-line acceptance).
#[test]
fn mmc_methods_from_kernel_files_feature_files_and_datasets() {
    let dir = common::temp_dir("mmc-cli");
    let data = common::committed_data();
    let code = mkc(
        "kernels --dataset haberman --recipe gauss-median",
        &[("--out", &dir), ("--data-dir", &data)],
    );
    assert_eq!(code, 0);
    let kernel = dir.join("K1.npy");
    let features = data.join("bundle").join("haberman").join("data.csv");
    for method in ["gmmc", "cpmmc"] {
        let words = format!("cluster -m {method} -k 2");
        // The labels of `words EXTRA` with the input (flag, path), written to a file `tag`.
        let run = |tag: &str, extra: &str, input: (&str, &std::path::Path)| {
            let out = dir.join(format!("{method}-{tag}.csv"));
            let code = mkc(&format!("{words} {extra}"), &[("-o", &out), input]);
            assert_eq!(code, 0, "{method} {tag}");
            let labels = lines(&out);
            assert_eq!(labels.len(), 306, "{method} {tag}");
            labels
        };
        let by_dataset = |recipe: &str| {
            let extra = format!("--dataset haberman --recipe {recipe}");
            run(recipe, &extra, ("--data-dir", &data))
        };
        let file = run("kernel-file", "", ("--kernel", &kernel));
        assert_eq!(file, by_dataset("gauss-median"), "{method}: kernel file");
        let feat = run("features", "--recipe linear", ("--data", &features));
        assert_eq!(feat, by_dataset("linear"), "{method}: feature file");
    }
    std::fs::remove_dir_all(&dir).ok();
}
