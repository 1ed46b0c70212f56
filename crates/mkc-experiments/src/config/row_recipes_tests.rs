//! Columns on another recipe on some rows (`row_recipes`): resolved, and bad entries
//! are errors naming the table, the column and the row.

use super::tests::{error_of, known, GOOD};
use super::*;

/// GOOD with a second row `toy2` (recipe `g`) and column 0 given `row_recipes`.
fn with_row_recipes(map: &str) -> String {
    GOOD.replace(
        "datasets = [\"toy\"]\nmetrics",
        "datasets = [\"toy\", \"toy2\"]\nmetrics",
    )
    .replace(
        "[datasets.toy]\n",
        "[recipes.h]\nkernels = [{ kind = \"linear\" }]\n[datasets.toy2]\nrecipe = \"g\"\n[datasets.toy]\n",
    )
    .replace(
        "method = \"kkm\", grid",
        &format!("method = \"kkm\", row_recipes = {map}, grid"),
    )
}

/// The full profile's plan of config text `text`.
fn full_plan(text: &str) -> Plan {
    resolve(
        "r.toml",
        &parse_config("r.toml", text).unwrap(),
        "full",
        &known,
    )
    .unwrap()
}

#[test]
fn a_column_may_use_another_recipe_on_some_rows() {
    // toy2 on the config's `h`, toy on the library's `lgmmc-gauss5`; `g` is toy2's own
    let text = with_row_recipes(r#"{ toy2 = "h", toy = "lgmmc-gauss5" }"#);
    let plan = full_plan(&text);
    let cols = &plan.tables[0].columns;
    assert_eq!(cols[0].recipe_on("toy2"), Some("h"));
    assert_eq!(cols[0].recipe_on("toy"), Some("lgmmc-gauss5"));
    assert!(plan.recipes.contains_key("lgmmc-gauss5") && plan.recipes.contains_key("h"));
    assert_eq!(cols[1].recipe_on("toy2"), None);
    // naming the row's own recipe is the row's own: no other recipe
    let own = with_row_recipes(r#"{ toy2 = "g" }"#);
    let plan = full_plan(&own);
    assert!(plan.tables[0].columns[0].row_recipes.is_empty());
    // configs/lgmmc.toml: NC and kernel k-means on the five Gaussians on MNIST only
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/lgmmc.toml");
    let (cfg, _) = read_config(&path).unwrap();
    let plan = resolve("lgmmc.toml", &cfg, "full", &|_| true).unwrap();
    for c in &plan.tables[0].columns {
        let on = |row| c.recipe_on(row);
        let gauss = ["nc", "kkm"]
            .contains(&c.id.as_str())
            .then_some("lgmmc-gauss5");
        assert_eq!(
            (on("mnist-3v8"), on("mnist-1v7"), on("spambase")),
            (gauss, gauss, None)
        );
    }
    assert_eq!(
        plan.recipes["lgmmc-gauss5"].kernels[0]
            .sigma_mean_ratio
            .as_ref()
            .unwrap()
            .len(),
        5
    );
}

#[test]
fn bad_row_recipes_are_errors_naming_table_column_and_row() {
    let key = "tables.t1.columns[0].row_recipes.";
    for (map, row, why) in [
        (
            r#"{ toy3 = "h" }"#,
            "toy3",
            "`toy3` is not a row of the table",
        ),
        (r#"{ toy2 = "nope" }"#, "toy2", "no recipe `nope`"),
    ] {
        let (k, r) = error_of(&with_row_recipes(map));
        assert_eq!(k, format!("{key}{row}"));
        assert!(
            r.contains(why) && r.contains("table `t1`, column `kkm`"),
            "{r}"
        );
    }
    let text = with_row_recipes(r#"{ toy2 = "h" }"#);
    let (k, r) = error_of(&text.replace("row_recipes", "rows = [\"toy\"], row_recipes"));
    assert_eq!(
        (k.as_str(), r.contains("does not run on row `toy2`")),
        ("tables.t1.columns[0].row_recipes.toy2", true),
        "{r}"
    );
    let bare = r#"{ id = "other", label = "Other", row_recipes = { toy2 = "h" } }"#;
    let (k, r) = error_of(&text.replace(r#"{ id = "other", label = "Other" }"#, bare));
    assert_eq!(k, "tables.t1.columns[2].method", "{r}");
    let fig =
        "figures = [{ id = \"w\", kind = \"weights\", column = \"kkm\" }]\n[tables.t1.paper.acc]";
    let (k, r) = error_of(&text.replace("[tables.t1.paper.acc]", fig));
    assert_eq!(k, "tables.t1.figures[0].column");
    assert!(r.contains("row_recipes"), "{r}");
}
