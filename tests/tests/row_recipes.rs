//! Columns on another recipe than the row's own (`row_recipes`): the runner builds each
//! (row, recipe) kernel set once and runs the columns that use it there; their records
//! carry the recipe, so resuming never mixes them with the row's own runs, and the
//! records written before the field existed keep their identity.

mod common;

use common::blobs::{self, md, CONFIG};
use mkc_experiments::record::RunRecord;
use mkc_experiments::resume::RecordIndex;
use mkc_experiments::runner::{dataset_recipes, job_records, list_jobs_with, prepare_dataset_with};
use std::path::Path;

/// `CONFIG` with a linear recipe `lin` and a KKM column that runs on it on row `two`
/// (and on the row's own four Gaussians on `blobs`).
fn config() -> String {
    CONFIG
        .replace(
            "normalize = [\"center\", \"unit-diagonal\"]",
            "normalize = [\"center\", \"unit-diagonal\"]\n[recipes.lin]\nkernels = [{ kind = \"linear\" }]\nper_view = false",
        )
        .replace(
            "  { id = \"avg\"",
            "  { id = \"kkm-lin\", label = \"KKM (lin)\", method = \"kkm\", grid = { n_init = [1, 2] }, row_recipes = { two = \"lin\" } },\n  { id = \"avg\"",
        )
}

fn records(p: &Path) -> Vec<RunRecord> {
    let text = std::fs::read_to_string(p).unwrap_or_default();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_column_on_another_recipe_runs_on_its_kernels_and_resumes_apart_from_the_rows_own() {
    let dir = common::temp_dir("row-recipes");
    // The base config first: every record on the rows' own recipe, none names a recipe.
    let base = dir.join("base.jsonl");
    blobs::run(&blobs::plan(CONFIG), &base, None, false);
    let text = std::fs::read_to_string(&base).unwrap();
    assert!(!text.contains("\"recipe\""));
    let n_base = records(&base).len();

    // The same records resumed by the config with `row_recipes`: on `blobs` the new
    // column shares KKM's runs; on `two` its runs are on `lin`'s one kernel, whose index
    // 0 is also KKM's first Gaussian: they must run, not come from those records.
    let plan = blobs::plan(&config());
    let index = RecordIndex::read(&base).unwrap();
    let resumed = blobs::run(&plan, &base, Some(&index), false);
    let all = records(&base);
    let added = &all[n_base..];
    // 2 grid points x 3 restarts on the one linear kernel of `two`
    assert_eq!(added.len(), 6);
    for r in added {
        assert_eq!((r.dataset.as_str(), r.column.as_str()), ("two", "kkm-lin"));
        assert_eq!(r.recipe.as_deref(), Some("lin"));
        assert_eq!(r.kernel, Some((0, "linear".to_string())));
    }
    // on `blobs` the two KKM columns are one spec: the records name both
    assert!(all[..n_base]
        .iter()
        .all(|r| r.dataset != "blobs" || r.method != "kkm" || r.column == "kkm"));
    let tables = md(&resumed);
    assert!(
        tables.contains("kernel 1 `linear` of recipe `lin`"),
        "{tables}"
    );

    // A fresh run gives the same tables; resumed again nothing runs.
    let fresh_path = dir.join("fresh.jsonl");
    let fresh = blobs::run(&plan, &fresh_path, None, false);
    assert_eq!(md(&fresh), tables);
    let index = RecordIndex::read(&base).unwrap();
    for only in [true, false] {
        let again = blobs::run(&plan, &base, Some(&index), only);
        assert_eq!(md(&again), tables);
        assert_eq!(records(&base).len(), all.len());
    }

    // The one-job API: the row's own recipe, then `lin`; a job of `lin` run alone gives
    // the local runner's record (same seed and scores).
    assert_eq!(
        dataset_recipes(&plan, "two"),
        [None, Some("lin".to_string())]
    );
    assert_eq!(dataset_recipes(&plan, "blobs"), [None]);
    let data = prepare_dataset_with(&plan, &blobs::Blobs, "two", Some("lin")).unwrap();
    assert_eq!(
        (data.kernels.len(), data.kernels_key().as_str()),
        (1, "two@lin")
    );
    let jobs = list_jobs_with(&plan, ("two", Some("lin")), 1, Some(&index));
    assert_eq!(jobs.len(), 2);
    assert!(jobs
        .iter()
        .all(|j| j.recorded && j.recipe.as_deref() == Some("lin")));
    let one = job_records(&plan, &data, 1, "h").unwrap();
    let local: Vec<&RunRecord> = added.iter().filter(|r| r.params == one[0].params).collect();
    assert_eq!(one.len(), local.len());
    for (a, b) in one.iter().zip(local) {
        assert_eq!((a.seed, a.recipe.as_deref()), (b.seed, Some("lin")));
        assert_eq!(a.metrics.map(|m| m.acc), b.metrics.map(|m| m.acc));
    }
    assert!(prepare_dataset_with(&plan, &blobs::Blobs, "two", Some("nope")).is_err());
    std::fs::remove_dir_all(&dir).ok();
}

/// A line of `results/runs/lgmmc.jsonl` written before records could name a recipe.
const OLD_LINE: &str = r#"{"config_hash":"7222680f1be6a9d9","config":"lgmmc","profile":"full","table":"table2","column":"kkm","dataset":"echocardiogram","method":"kkm","params":{"max_iter":100,"n_init":1},"kernel":[0,"linear"],"base_seed":0,"restart":0,"seed":16294208416658607535,"n":132,"n_clusters":2,"metrics":{"acc":75.75757575757575,"nmi":3.2049227015146506,"nmi_arith":3.2049227015146506,"purity":81.81818181818183,"ari":11.842797538205533,"time":0.000024407},"weights":null,"objective":[103.97039285896861],"iterations":1,"converged":true,"diagnostics":[["objective",103.97039285896861],["best_restart",0.0]],"wall_time_s":0.000024407,"phases":[],"error":null,"mkc_version":"0.1.0"}"#;

#[test]
fn records_written_before_row_recipes_keep_their_text_and_identity() {
    let rec: RunRecord = serde_json::from_str(OLD_LINE).unwrap();
    assert_eq!(rec.recipe, None);
    // written back, the line has the same fields and values (a run on the row's own
    // recipe has no `recipe`; floats compared as parsed, serde_json's last digit aside)
    let value = |l: &str| serde_json::from_str::<serde_json::Value>(l).unwrap();
    let back = serde_json::to_string(&rec).unwrap();
    assert_eq!(value(&back), value(OLD_LINE));
    let dir = common::temp_dir("row-recipes-old");
    let path = dir.join("old.jsonl");
    let mut other = rec.clone();
    other.recipe = Some("lgmmc-gauss5".into());
    other.metrics.as_mut().unwrap().acc = 50.0;
    let other_line = serde_json::to_string(&other).unwrap();
    assert!(other_line.contains(r#""recipe":"lgmmc-gauss5""#));
    std::fs::write(&path, format!("{OLD_LINE}\n{other_line}\n")).unwrap();
    let index = RecordIndex::read(&path).unwrap();
    assert_eq!(index.jobs(), 2);
    let seeds = [(0, 0, rec.seed)];
    let find = |recipe| {
        let found = index.lookup(
            "full",
            "echocardiogram",
            "kkm",
            &rec.params,
            (Some(0), recipe),
            &seeds,
        );
        found.map(|o| o[0].as_ref().unwrap().0.acc)
    };
    let mkc_current = rec.mkc_version == mkc_experiments::record::MKC_VERSION;
    let (own, gauss) = (find(None), find(Some("lgmmc-gauss5")));
    if mkc_current {
        assert_eq!(own, Some(rec.metrics.unwrap().acc));
        assert_eq!(gauss, Some(50.0));
    } else {
        // another mkc version's records are never reused
        assert_eq!((own, gauss), (None, None));
    }
    assert_eq!(find(Some("other")), None);
    std::fs::remove_dir_all(&dir).ok();
}
