//! Bad configs: each gives a `Config` error naming the key.

use super::*;
use mkc_core::Error;

const GOOD: &str = r#"
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

fn known(name: &str) -> bool {
    name == "toy" || name == "toy2"
}

/// The (key, reason) of the error for config text `text` under profile `quick`.
fn error_of(text: &str) -> (String, String) {
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

#[test]
fn unknown_keys_are_named() {
    let (k, r) = error_of(&GOOD.replace("restarts = 2", "restarts = 2\nrestart = 3"));
    assert_eq!(k, "restart");
    assert!(r.contains("unknown field"), "{r}");
    let (k, _) = error_of(&GOOD.replace("title = \"T1\"", "title = \"T1\"\ncolour = 1"));
    assert_eq!(k, "tables.t1.colour");
    let (k, _) =
        error_of(&GOOD.replace("summary = \"average\"", "summary = \"average\", bogus = 1"));
    assert!(k.ends_with("bogus"), "{k}");
    let (k, _) = error_of(&GOOD.replace(
        "normalize = [\"multiplicative\"]",
        "normalise = [\"multiplicative\"]",
    ));
    assert_eq!(k, "recipes.g.normalise");
}

#[test]
fn wrong_types_are_named() {
    let (k, r) = error_of(&GOOD.replace("restarts = 2", "restarts = \"many\""));
    assert_eq!(k, "restarts");
    assert!(r.contains("line"), "{r}");
    let (k, _) = error_of(&GOOD.replace("[0.1, 0.5]", "\"0.1\""));
    assert!(k.starts_with("recipes.g.kernels"), "{k}");
    let (k, _) = error_of(&GOOD.replace("grid = { n_init = [1, 2] }", "grid = { n_init = [1.5] }"));
    assert_eq!(k, "tables.t1.columns[0].grid.n_init");
    let (k, r) = error_of(&GOOD.replace("\"73.22 ± 2.90\"", "\"lots\""));
    assert!(k.contains("paper"), "{k}");
    assert!(r.contains("lots"), "{r}");
}

#[test]
fn empty_grids_and_lists_are_errors() {
    let (k, r) = error_of(&GOOD.replace("grid = { n_init = [1, 2] }", "grid = { n_init = [] }"));
    assert_eq!(k, "tables.t1.columns[0].grid.n_init");
    assert!(r.contains("empty grid"), "{r}");
    let (k, _) = error_of(&GOOD.replace("n_init = [2]", "n_init = []"));
    assert_eq!(k, "profiles.quick.tables.t1.grids.avg.n_init");
    let (k, _) = error_of(&GOOD.replace("datasets = [\"toy\"]", "datasets = []"));
    assert_eq!(k, "tables.t1.datasets");
    let (k, _) = error_of(&GOOD.replace("metrics = [\"acc\", \"nmi\"]", "metrics = []"));
    assert_eq!(k, "tables.t1.metrics");
    let (k, _) = error_of(&GOOD.replace("[0.1, 0.5]", "[]"));
    assert_eq!(k, "recipes.g.kernels[0].sigma_range_fraction");
}

#[test]
fn missing_datasets_and_recipes_are_errors() {
    let (k, r) = error_of(&GOOD.replace("datasets = [\"toy\"]", "datasets = [\"toy\", \"nope\"]"));
    assert_eq!(k, "tables.t1.datasets");
    assert!(r.contains("`nope`"), "{r}");
    let (k, r) = error_of(&GOOD.replace(
        "[datasets.toy]",
        "[datasets.toy3]\nrecipe = \"g\"\n[datasets.toy]",
    ));
    assert_eq!(k, "datasets.toy3");
    assert!(r.contains("registry"), "{r}");
    let (k, _) = error_of(&GOOD.replace("recipe = \"g\"", "recipe = \"nothing\""));
    assert_eq!(k, "datasets.toy.recipe");
    let (k, _) = error_of(&GOOD.replace("title = \"t\"", ""));
    assert_eq!(k, "title");
}

#[test]
fn impossible_values_are_errors() {
    let (k, _) = error_of(&GOOD.replace("restarts = 2", "restarts = 0"));
    assert_eq!(k, "restarts");
    let (k, _) = error_of(&GOOD.replace("restarts = 1", "restarts = 0"));
    assert_eq!(k, "profiles.quick.restarts");
    let (k, r) = error_of(&GOOD.replace("grid = { n_init = [1, 2] }", "params = { n_init = 0 }"));
    assert_eq!(k, "tables.t1.columns[0].params.n_init");
    assert!(r.contains("at least 1"), "{r}");
    let (k, _) = error_of(&GOOD.replace("[0.1, 0.5]", "[0.1, -0.5]"));
    assert_eq!(k, "recipes.g.kernels[0].sigma_range_fraction");
    let (k, _) = error_of(&GOOD.replace(
        "sigma_range_fraction = [0.1, 0.5]",
        "sigma_range_fraction = [0.1], sigma = [1.0]",
    ));
    assert_eq!(k, "recipes.g.kernels[0]");
    let (k, _) = error_of(&GOOD.replace("recipe = \"g\"", "recipe = \"g\"\nclusters = 1"));
    assert_eq!(k, "datasets.toy.clusters");
    let (k, _) = error_of(&GOOD.replace("method = \"kkm\", grid", "method = \"nosuch\", grid"));
    assert_eq!(k, "tables.t1.columns[0].method");
    let (k, r) = error_of(&GOOD.replace("grid = { n_init = [1, 2] }", "grid = { C = [1.0] }"));
    assert_eq!(k, "tables.t1.columns[0].grid.C");
    assert!(r.contains("unknown parameter"), "{r}");
    let (k, _) = error_of(&GOOD.replace("{ id = \"avg\"", "{ id = \"kkm\""));
    assert_eq!(k, "tables.t1.columns[1].id");
    let (k, _) = error_of(&GOOD.replace("toy = { kkm", "toy = { zzz = 1, kkm"));
    assert_eq!(k, "tables.t1.paper.acc.toy.zzz");
    let (k, _) = error_of(&GOOD.replace("[tables.t1.paper.acc]", "[tables.t1.paper.purity]"));
    assert_eq!(k, "tables.t1.paper.purity");
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
    let (key, reason) = error_of(&format!(
        "{GOOD}\n[tables.t1.row_params]\ntoy = {{ n_init = 3 }}\n"
    ));
    assert!(
        key.contains("row_params.toy.n_init") && reason.contains("grid"),
        "{key}: {reason}"
    );
    let (key, _) = error_of(&format!(
        "{GOOD}\n[tables.t1.row_params]\nnope = {{ max_iter = 3 }}\n"
    ));
    assert!(key.contains("row_params.nope"), "{key}");
    let (key, _) = error_of(&format!(
        "{GOOD}\n[tables.t1.row_params]\ntoy = {{ max_iter = -3 }}\n"
    ));
    assert!(key.contains("row_params.toy"), "{key}");
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
