//! Bad configs: each gives a `Config` error naming the key.

use super::*;
use mkc_core::Error;

pub(super) const GOOD: &str = r#"
title = "t"
restarts = 2
[recipes.g]
kernels = [{ kind = "gaussian", sigma_range_fraction = [0.1, 0.5] }]
normalize = ["multiplicative"]
[datasets.toy]
recipe = "g"
[tables.t1]
title = "T1"
datasets = ["toy"]
metrics = ["acc", "nmi"]
columns = [
  { id = "kkm", label = "KKM", method = "kkm", grid = { n_init = [1, 2] } },
  { id = "avg", label = "KKM avg", method = "kkm", summary = "average" },
  { id = "other", label = "Other" },
]
[tables.t1.paper.acc]
toy = { kkm = "73.22 ± 2.90", other = 70 }
[profiles.quick]
restarts = 1
[profiles.quick.tables.t1.grids.avg]
n_init = [2]
"#;

pub(super) fn known(name: &str) -> bool {
    name == "toy" || name == "toy2"
}

/// The (key, reason) of the error for config text `text` under profile `quick`.
pub(super) fn error_of(text: &str) -> (String, String) {
    let r = parse_config("bad.toml", text).and_then(|c| resolve("bad.toml", &c, "quick", &known));
    match r {
        Err(Error::Config {
            key,
            reason,
            source_name,
        }) => {
            assert_eq!(source_name, "bad.toml");
            (key, reason)
        }
        Err(e) => panic!("expected a config error, got {e}"),
        Ok(_) => panic!("expected an error for:\n{text}"),
    }
}

#[test]
fn the_good_config_resolves_with_profiles() {
    let cfg = parse_config("good.toml", GOOD).unwrap();
    let full = resolve("good.toml", &cfg, "full", &known).unwrap();
    assert_eq!(full.tables[0].columns[0].points.len(), 2);
    assert_eq!(full.tables[0].columns[0].restarts, 2);
    assert_eq!(full.seeds, vec![0]);
    assert_eq!(
        full.tables[0].columns[1].points[0].usize("n_init").unwrap(),
        1
    );
    let quick = resolve("good.toml", &cfg, "quick", &known).unwrap();
    assert_eq!(quick.tables[0].columns[1].points.len(), 1);
    assert_eq!(
        quick.tables[0].columns[1].points[0]
            .usize("n_init")
            .unwrap(),
        2
    );
    assert_eq!(quick.tables[0].columns[0].restarts, 1);
    assert_eq!(
        quick.tables[0].columns[0].points[0]
            .usize("max_iter")
            .unwrap(),
        100
    );
    let p = &quick.tables[0].paper[&crate::Metric::Acc]["toy"];
    assert_eq!(p["kkm"].std, Some(2.9));
    assert_eq!(p["other"].mean, 70.0);
}

/// Each case: `GOOD` with `from` replaced by `to` fails at `key` (exactly), with a
/// reason that contains `why`.
fn assert_errors(cases: &[(&str, &str, &str, &str)]) {
    for &(from, to, key, why) in cases {
        assert!(GOOD.contains(from), "{from}");
        let (k, r) = error_of(&GOOD.replace(from, to));
        assert_eq!(k, key, "{from} -> {to}");
        assert!(r.contains(why), "{from} -> {to}: {r}");
    }
}

#[test]
fn unknown_keys_are_named() {
    assert_errors(&[
        (
            "restarts = 2",
            "restarts = 2\nrestart = 3",
            "restart",
            "unknown field",
        ),
        (
            "title = \"T1\"",
            "title = \"T1\"\ncolour = 1",
            "tables.t1.colour",
            "unknown field",
        ),
        (
            "summary = \"average\"",
            "summary = \"average\", bogus = 1",
            "tables.t1.bogus",
            "unknown field",
        ),
        (
            "normalize = [\"multiplicative\"]",
            "normalise = [\"multiplicative\"]",
            "recipes.g.normalise",
            "unknown field",
        ),
    ]);
}

#[test]
fn wrong_types_are_named() {
    assert_errors(&[
        ("restarts = 2", "restarts = \"many\"", "restarts", "line"),
        ("[0.1, 0.5]", "\"0.1\"", "recipes.g.kernels", "line"),
        (
            "grid = { n_init = [1, 2] }",
            "grid = { n_init = [1.5] }",
            "tables.t1.columns[0].grid.n_init",
            "",
        ),
        (
            "\"73.22 ± 2.90\"",
            "\"lots\"",
            "tables.t1.paper.acc.toy",
            "lots",
        ),
    ]);
}

#[test]
fn empty_grids_and_lists_are_errors() {
    assert_errors(&[
        (
            "grid = { n_init = [1, 2] }",
            "grid = { n_init = [] }",
            "tables.t1.columns[0].grid.n_init",
            "empty grid",
        ),
        (
            "n_init = [2]",
            "n_init = []",
            "profiles.quick.tables.t1.grids.avg.n_init",
            "empty grid",
        ),
        (
            "datasets = [\"toy\"]",
            "datasets = []",
            "tables.t1.datasets",
            "empty list",
        ),
        (
            "metrics = [\"acc\", \"nmi\"]",
            "metrics = []",
            "tables.t1.metrics",
            "empty list",
        ),
        (
            "[0.1, 0.5]",
            "[]",
            "recipes.g.kernels[0].sigma_range_fraction",
            "empty list",
        ),
    ]);
}

#[test]
fn missing_datasets_and_recipes_are_errors() {
    assert_errors(&[
        (
            "datasets = [\"toy\"]",
            "datasets = [\"toy\", \"nope\"]",
            "tables.t1.datasets",
            "`nope`",
        ),
        (
            "[datasets.toy]",
            "[datasets.toy3]\nrecipe = \"g\"\n[datasets.toy]",
            "datasets.toy3",
            "registry",
        ),
        (
            "recipe = \"g\"",
            "recipe = \"nothing\"",
            "datasets.toy.recipe",
            "no recipe",
        ),
        ("title = \"t\"", "", "title", "missing field"),
    ]);
}

#[test]
fn impossible_values_are_errors() {
    assert_errors(&[
        ("restarts = 2", "restarts = 0", "restarts", "at least 1"),
        (
            "restarts = 1",
            "restarts = 0",
            "profiles.quick.restarts",
            "at least 1",
        ),
        (
            "grid = { n_init = [1, 2] }",
            "params = { n_init = 0 }",
            "tables.t1.columns[0].params.n_init",
            "at least 1",
        ),
        (
            "[0.1, 0.5]",
            "[0.1, -0.5]",
            "recipes.g.kernels[0].sigma_range_fraction",
            "-0.5",
        ),
        (
            "sigma_range_fraction = [0.1, 0.5]",
            "sigma_range_fraction = [0.1], sigma = [1.0]",
            "recipes.g.kernels[0]",
            "exactly one",
        ),
        (
            "recipe = \"g\"",
            "recipe = \"g\"\nclusters = 1",
            "datasets.toy.clusters",
            "2",
        ),
        (
            "method = \"kkm\", grid",
            "method = \"nosuch\", grid",
            "tables.t1.columns[0].method",
            "unknown method",
        ),
        (
            "grid = { n_init = [1, 2] }",
            "grid = { C = [1.0] }",
            "tables.t1.columns[0].grid.C",
            "unknown parameter",
        ),
        (
            "{ id = \"avg\"",
            "{ id = \"kkm\"",
            "tables.t1.columns[1].id",
            "duplicate",
        ),
        (
            "toy = { kkm",
            "toy = { zzz = 1, kkm",
            "tables.t1.paper.acc.toy.zzz",
            "no such column",
        ),
        (
            "[tables.t1.paper.acc]",
            "[tables.t1.paper.purity]",
            "tables.t1.paper.purity",
            "not a metric",
        ),
    ]);
}

#[test]
fn unknown_profiles_and_average_over_combined_are_errors() {
    let cfg = parse_config("bad.toml", GOOD).unwrap();
    match resolve("bad.toml", &cfg, "fast", &known) {
        Err(Error::Config { key, .. }) => assert_eq!(key, "profiles.fast"),
        other => panic!("{other:?}"),
    }
    let (k, r) = error_of(&GOOD.replace(
        "method = \"kkm\", summary = \"average\"",
        "method = \"avg-kkm\", summary = \"average\"",
    ));
    assert_eq!(k, "tables.t1.columns[1].summary");
    assert!(r.contains("single-kernel"), "{r}");
}

#[test]
fn the_shipped_recipe_library_parses() {
    let lib = recipe_library().unwrap();
    assert!(lib.contains_key("gauss10-range") && lib.contains_key("scmk12-max"));
}

#[test]
fn row_params_apply_to_columns_whose_method_declares_them() {
    let text = format!("{GOOD}\n[tables.t1.row_params]\ntoy = {{ max_iter = 7 }}\n");
    let cfg = parse_config("rows.toml", &text).unwrap();
    let plan = resolve("rows.toml", &cfg, "full", &known).unwrap();
    let col = &plan.tables[0].columns[0];
    let rows = &col.row_points["toy"];
    assert_eq!(rows.len(), col.points.len());
    assert!(rows.iter().all(|p| p.usize("max_iter").unwrap() == 7));
    assert_eq!(rows[1].usize("n_init").unwrap(), 2);
    // The paper-only column has no method, hence no row points.
    assert!(plan.tables[0].columns[2].row_points.is_empty());
    // A row parameter may not be a grid key, the row must exist, the value must fit.
    for (row, key, why) in [
        (
            "toy = { n_init = 3 }",
            "tables.t1.row_params.toy.n_init",
            "grid key",
        ),
        (
            "nope = { max_iter = 3 }",
            "tables.t1.row_params.nope",
            "not a row",
        ),
        (
            "toy = { max_iter = -3 }",
            "tables.t1.row_params.toy.params.max_iter",
            "",
        ),
    ] {
        let (k, r) = error_of(&format!("{GOOD}\n[tables.t1.row_params]\n{row}\n"));
        assert_eq!(k, key, "{row}");
        assert!(r.contains(why), "{row}: {r}");
    }
}

#[test]
fn a_recipe_without_kernels_is_a_features_only_recipe() {
    let text = GOOD.replace(
        "kernels = [{ kind = \"gaussian\", sigma_range_fraction = [0.1, 0.5] }]",
        "kernels = []",
    );
    let cfg = parse_config("features.toml", &text).unwrap();
    assert!(resolve("features.toml", &cfg, "full", &known).is_ok());
}

#[test]
fn own_files_are_checked_and_skip_the_registry() {
    let own = |lines: &str| {
        GOOD.replace(
            "[datasets.toy]",
            &format!("[datasets.mine]\n{lines}\n[datasets.toy]"),
        )
    };
    // A row of own files needs no registry entry.
    let cfg = parse_config(
        "own.toml",
        &own("features = [\"a.csv\"]\nlabels = \"y.txt\""),
    )
    .unwrap();
    let plan = resolve("own.toml", &cfg, "full", &known).unwrap();
    assert!(plan.tables[0].rows == ["toy"]);
    let d = &cfg.datasets["mine"];
    assert!(d.is_own() && !cfg.datasets["toy"].is_own());
    let based = d.with_base(std::path::Path::new("cfgdir"));
    assert_eq!(
        based.features.unwrap()[0],
        std::path::Path::new("cfgdir/a.csv")
    );
    assert_eq!(based.labels.unwrap(), std::path::Path::new("cfgdir/y.txt"));
    let cases = [
        (
            "source = \"toy\"\nfeatures = [\"a.csv\"]\nlabels = \"y\"",
            "datasets.mine.source",
            "not both",
        ),
        (
            "features = [\"a.csv\"]\nkernels = [\"k.npy\"]\nlabels = \"y\"",
            "datasets.mine.kernels",
            "not both",
        ),
        (
            "labels = \"y\"",
            "datasets.mine",
            "without `features` or `kernels`",
        ),
        (
            "features = []\nlabels = \"y\"",
            "datasets.mine.features",
            "empty list",
        ),
        (
            "kernels = []\nlabels = \"y\"",
            "datasets.mine.kernels",
            "empty list",
        ),
        (
            "kernels = [\"k.npy\"]",
            "datasets.mine.labels",
            "label file",
        ),
    ];
    for (lines, key, why) in cases {
        let (k, r) = error_of(&own(lines));
        assert_eq!(k, key, "{lines}");
        assert!(r.contains(why), "{lines}: {r}");
    }
}

/// GOOD's head with `columns` and the row parameters `rows` (no paper values, a quick
/// profile without overrides).
fn with_rows(columns: &str, rows: &str) -> String {
    let start = GOOD.find("columns = [").unwrap();
    format!(
        "{}columns = [\n{columns}\n]\n[tables.t1.row_params]\n{rows}\n[profiles.quick]\nrestarts = 1\n",
        &GOOD[..start]
    )
}

#[test]
fn a_row_parameter_the_method_does_not_declare_is_an_error_naming_row_key_and_method() {
    let (k, r) = error_of(&with_rows(
        r#"{ id = "kkm", label = "KKM", method = "kkm" }, { id = "other", label = "Other" },"#,
        "toy = { balance = 0.3 }",
    ));
    assert_eq!(k, "tables.t1.row_params.toy.balance");
    for word in ["toy", "balance", "`kkm`", "row_params"] {
        assert!(r.contains(word), "{word}: {r}");
    }
}

#[test]
fn a_column_row_params_map_selects_and_renames_row_parameters() {
    // itersvr takes the rows' `balance` as its `ell`; kkm takes none; lgmmc takes it as is.
    let text = with_rows(
        r#"{ id = "it", label = "IterSVR", method = "itersvr", row_params = { balance = "ell" } },
  { id = "kkm", label = "KKM", method = "kkm", row_params = {} },
  { id = "lg", label = "LG-MMC", method = "lgmmc" },
  { id = "other", label = "Other" },"#,
        "toy = { balance = 0.3 }",
    );
    let cfg = parse_config("rows.toml", &text).unwrap();
    let plan = resolve("rows.toml", &cfg, "full", &known).unwrap();
    let cols = &plan.tables[0].columns;
    assert_eq!(cols[0].row_points["toy"][0].f64("ell").unwrap(), 0.3);
    assert!(cols[1].row_points.is_empty());
    assert_eq!(cols[2].row_points["toy"][0].f64("balance").unwrap(), 0.3);
    // Without the row, the defaults hold.
    assert_eq!(cols[0].points[0].f64("ell").unwrap(), 0.03);
}

#[test]
fn bad_column_row_params_maps_are_errors() {
    for (columns, rows, key, why) in [
        (
            r#"{ id = "it", label = "I", method = "itersvr", row_params = { balance = "beta" } },"#,
            "toy = { balance = 0.3 }",
            "tables.t1.columns[0].row_params.balance",
            "`beta` is not a parameter of method `itersvr`",
        ),
        (
            r#"{ id = "it", label = "I", method = "itersvr", row_params = { balanse = "ell" } },"#,
            "toy = { balance = 0.3 }",
            "tables.t1.columns[0].row_params.balanse",
            "no row",
        ),
        (
            r#"{ id = "kkm", label = "K", method = "kkm", row_params = {} },"#,
            "toy = { balance = 0.3 }",
            "tables.t1.row_params.toy.balance",
            "no column of the table takes `balance`",
        ),
        (
            r#"{ id = "kkm", label = "K", method = "kkm", row_params = {} }, { id = "other", label = "O", row_params = {} },"#,
            "toy = { max_iter = 3 }",
            "tables.t1.columns[1].method",
            "given but no method",
        ),
    ] {
        let (k, r) = error_of(&with_rows(columns, rows));
        assert_eq!(k, key, "{columns}");
        assert!(r.contains(why), "{columns}: {r}");
    }
}

#[test]
fn every_shipped_config_resolves_under_each_of_its_profiles() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.extension().is_none_or(|e| e != "toml")
            || ["datasets.toml", "recipes.toml"].contains(&name.as_str())
        {
            continue;
        }
        let (cfg, _) = read_config(&path).unwrap();
        for profile in std::iter::once("full").chain(cfg.profiles.keys().map(String::as_str)) {
            if let Err(e) = resolve(&name, &cfg, profile, &|_| true) {
                panic!("{name} ({profile}): {e}");
            }
        }
        seen += 1;
    }
    assert!(seen >= 6, "{seen} configs");
}

#[test]
fn a_column_may_run_on_some_rows_only() {
    let text = GOOD
        .replace(
            "datasets = [\"toy\"]\nmetrics",
            "datasets = [\"toy\", \"toy2\"]\nmetrics",
        )
        .replace(
            "[datasets.toy]\n",
            "[datasets.toy2]\nrecipe = \"g\"\n[datasets.toy]\n",
        )
        .replace(
            "method = \"kkm\", grid",
            "method = \"kkm\", rows = [\"toy2\"], grid",
        );
    let cfg = parse_config("rows.toml", &text).unwrap();
    let plan = resolve("rows.toml", &cfg, "full", &known).unwrap();
    let cols = &plan.tables[0].columns;
    assert!(cols[0].runs_on("toy2") && !cols[0].runs_on("toy"));
    assert!(cols[1].runs_on("toy") && !cols[2].runs_on("toy"));
    let (k, r) = error_of(&text.replace("rows = [\"toy2\"]", "rows = [\"toy3\"]"));
    assert_eq!(k, "tables.t1.columns[0].rows");
    assert!(r.contains("`toy3` is not a row"), "{r}");
}
