//! Columns that run on another recipe than the row's own on some rows (`row_recipes =
//! { mnist-1v7 = "lgmmc-gauss5" }`): each entry names a row of the table that the column
//! runs on and a recipe of the config or of `configs/recipes.toml`. Errors name the
//! table, the column and the row key.

use super::schema::ColumnCfg;
use super::table::TableCtx;
use mkc_core::Result;
use std::collections::BTreeMap;

impl TableCtx<'_> {
    /// The checked `row_recipes` of column `c` (at config key `ck`), without the entries
    /// that name the row's own recipe (those runs are the row's own).
    pub(super) fn column_row_recipes(
        &self,
        ck: &str,
        c: &ColumnCfg,
    ) -> Result<BTreeMap<String, String>> {
        let mut out = BTreeMap::new();
        for (row, recipe) in &c.row_recipes {
            let key = format!("{ck}.row_recipes.{row}");
            let col = format!("table `{}`, column `{}`", self.tid, c.id);
            if !self.t.datasets.contains(row) {
                return Err(self.err(key, format!("{col}: `{row}` is not a row of the table")));
            }
            if c.rows.as_ref().is_some_and(|rows| !rows.contains(row)) {
                return Err(self.err(
                    key,
                    format!("{col}: the column does not run on row `{row}` (not in its `rows`)"),
                ));
            }
            if !self.cfg.recipes.contains_key(recipe) && !self.library.contains_key(recipe) {
                let mut known: Vec<&String> =
                    self.cfg.recipes.keys().chain(self.library.keys()).collect();
                known.sort();
                return Err(self.err(
                    key,
                    format!(
                        "{col}: no recipe `{recipe}` here or in configs/recipes.toml (known: {known:?})"
                    ),
                ));
            }
            if self.cfg.datasets[row].recipe.as_ref() != Some(recipe) {
                out.insert(row.clone(), recipe.clone());
            }
        }
        Ok(out)
    }

    /// A `weights` figure (and the weights table under it) names the weights by the
    /// row's kernels, so its column may not run on another recipe on any row.
    pub(super) fn check_weight_figures_recipes(&self) -> Result<()> {
        use super::schema::FigureKind;
        for (i, f) in self.t.figures.iter().enumerate() {
            let uses_other = self
                .t
                .columns
                .iter()
                .any(|c| c.id == f.column && !c.row_recipes.is_empty());
            if f.kind == FigureKind::Weights && uses_other {
                return Err(self.err(
                    format!("{}.figures[{i}].column", self.base),
                    format!(
                        "table `{}`: column `{}` has `row_recipes`; its weights on those rows \
                         belong to other kernels than the row's, which a weights figure names",
                        self.tid, f.column
                    ),
                ));
            }
        }
        Ok(())
    }
}
