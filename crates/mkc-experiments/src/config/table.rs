//! Checking one table of a config and applying the profile's overrides to it: rows,
//! metrics, and every column's grid points (each a complete, checked parameter set).

use super::plan::{PlanColumn, PlanTable};
use super::schema::{ColumnCfg, Config, ProfileCfg, Recipe, SummaryRule, TableCfg, TableOverride};
use super::validate::{err, positive_restarts};
use crate::methods::{self, KernelUse, Method};
use crate::metric::Metric;
use crate::params::{expand_grid, ParamSet, ParamValue};
use mkc_core::{Error, Result};
use std::collections::BTreeMap;

type Grid = BTreeMap<String, Vec<ParamValue>>;
type Fixed = BTreeMap<String, ParamValue>;

/// One table being resolved: where it sits in the config and the profile applied.
pub(super) struct TableCtx<'a> {
    /// The config file's name (for errors).
    pub src: &'a str,
    /// The whole config.
    pub cfg: &'a Config,
    /// The built-in recipes (`configs/recipes.toml`).
    pub library: &'a BTreeMap<String, Recipe>,
    /// The profile applied.
    pub prof: &'a ProfileCfg,
    /// The profile's overrides of this table.
    pub ov: &'a TableOverride,
    /// The table.
    pub t: &'a TableCfg,
    /// `[tables]` key.
    pub tid: &'a str,
    /// `tables.<tid>`.
    pub(super) base: String,
    /// `profiles.<profile>.tables.<tid>`.
    obase: String,
}

impl<'a> TableCtx<'a> {
    /// The context of table `tid` under `profile`.
    pub fn new(
        (src, cfg, library): (&'a str, &'a Config, &'a BTreeMap<String, Recipe>),
        (profile, prof): (&str, &'a ProfileCfg),
        (tid, t): (&'a str, &'a TableCfg),
        ov: &'a TableOverride,
    ) -> Self {
        TableCtx {
            src,
            cfg,
            library,
            prof,
            ov,
            t,
            tid,
            base: format!("tables.{tid}"),
            obase: format!("profiles.{profile}.tables.{tid}"),
        }
    }

    pub(super) fn err(&self, key: impl Into<String>, reason: impl Into<String>) -> Error {
        err(self.src, key, reason)
    }

    /// Check the table and apply the overrides.
    pub fn resolve(&self) -> Result<PlanTable> {
        let (t, base) = (self.t, &self.base);
        self.check_shape()?;
        let metrics = self.metrics()?;
        let rows = self.rows()?;
        let ids = self.column_ids()?;
        let mut columns = Vec::new();
        for (i, c) in t.columns.iter().enumerate() {
            if !self.ov.skip_columns.contains(&c.id) {
                columns.push(self.column(i, c, &metrics)?);
            }
        }
        for row in t.row_params.keys() {
            if !t.datasets.contains(row) {
                return Err(self.err(format!("{base}.row_params.{row}"), "not a row of the table"));
            }
        }
        self.check_row_keys_taken()?;
        self.check_paper(&metrics, &ids)?;
        self.check_figures()?;
        self.check_weight_figures_recipes()?;
        Ok(PlanTable {
            id: self.tid.to_string(),
            title: t.title.clone(),
            notes: t.notes.clone(),
            paper_source: t.paper_source.clone(),
            rows,
            metrics,
            columns,
            paper: t.paper.clone(),
            figures: t.figures.clone(),
        })
    }

    /// Rows defined and non-empty, columns present, restarts positive.
    fn check_shape(&self) -> Result<()> {
        let (t, base) = (self.t, &self.base);
        if t.datasets.is_empty() {
            return Err(self.err(format!("{base}.datasets"), "empty list"));
        }
        if let Some(d) = t
            .datasets
            .iter()
            .find(|d| !self.cfg.datasets.contains_key(*d))
        {
            return Err(self.err(
                format!("{base}.datasets"),
                format!("dataset `{d}` is not defined in [datasets]"),
            ));
        }
        if t.columns.is_empty() {
            return Err(self.err(format!("{base}.columns"), "no columns"));
        }
        positive_restarts(self.src, &format!("{base}.restarts"), t.restarts)?;
        positive_restarts(
            self.src,
            &format!("{}.restarts", self.obase),
            self.ov.restarts,
        )
    }

    /// The table's metrics, else the file's, else accuracy.
    fn metrics(&self) -> Result<Vec<Metric>> {
        let metrics = self
            .t
            .metrics
            .clone()
            .or_else(|| self.cfg.metrics.clone())
            .unwrap_or_else(|| vec![Metric::Acc]);
        if metrics.is_empty() {
            return Err(self.err(format!("{}.metrics", self.base), "empty list"));
        }
        Ok(metrics)
    }

    /// The rows the profile keeps, in the table's order.
    fn rows(&self) -> Result<Vec<String>> {
        let t = self.t;
        let Some(list) = &self.ov.datasets else {
            return Ok(t.datasets.clone());
        };
        if let Some(d) = list.iter().find(|d| !t.datasets.contains(*d)) {
            return Err(self.err(
                format!("{}.datasets", self.obase),
                format!("`{d}` is not a row of table {}", self.tid),
            ));
        }
        Ok(t.datasets
            .iter()
            .filter(|d| list.contains(d))
            .cloned()
            .collect())
    }

    /// Column ids, unique, and every column the profile names among them.
    fn column_ids(&self) -> Result<Vec<&'a str>> {
        let (ov, obase) = (self.ov, &self.obase);
        let ids: Vec<&str> = self.t.columns.iter().map(|c| c.id.as_str()).collect();
        for (i, id) in ids.iter().enumerate() {
            if ids[..i].contains(id) {
                return Err(self.err(
                    format!("{}.columns[{i}].id", self.base),
                    format!("duplicate column id `{id}`"),
                ));
            }
        }
        for (what, keys) in [
            ("grids", ov.grids.keys().collect::<Vec<_>>()),
            ("params", ov.params.keys().collect()),
        ] {
            if let Some(c) = keys.into_iter().find(|c| !ids.contains(&c.as_str())) {
                return Err(self.err(format!("{obase}.{what}.{c}"), "no such column"));
            }
        }
        if let Some(c) = ov.skip_columns.iter().find(|c| !ids.contains(&c.as_str())) {
            return Err(self.err(format!("{obase}.skip_columns"), format!("no column `{c}`")));
        }
        Ok(ids)
    }

    /// The column's grid and fixed parameters with the profile's overrides: a profile
    /// grid replaces a fixed value of the same name and a profile parameter replaces a
    /// grid of the same name.
    fn merged_params(&self, ck: &str, c: &ColumnCfg) -> Result<(Grid, Fixed)> {
        let mut grid = c.grid.clone();
        let mut fixed = c.params.clone();
        for (k, v) in self.ov.grids.get(&c.id).into_iter().flatten() {
            grid.insert(k.clone(), v.clone());
            fixed.remove(k);
        }
        for (k, v) in self.ov.params.get(&c.id).into_iter().flatten() {
            fixed.insert(k.clone(), v.clone());
            grid.remove(k);
        }
        for (k, v) in &grid {
            if v.is_empty() {
                let key = if c.grid.get(k).is_some_and(|g| g.is_empty()) {
                    format!("{ck}.grid.{k}")
                } else {
                    format!("{}.grids.{}.{k}", self.obase, c.id)
                };
                return Err(self.err(key, "empty grid: list at least one value"));
            }
            if fixed.contains_key(k) {
                return Err(self.err(
                    format!("{ck}.grid.{k}"),
                    "also given in params; give it in one place",
                ));
            }
        }
        Ok((grid, fixed))
    }

    /// Column `i`, checked, with its grid points.
    fn column(&self, i: usize, c: &ColumnCfg, metrics: &[Metric]) -> Result<PlanColumn> {
        let ck = format!("{}.columns[{i}]", self.base);
        let restarts = self
            .prof
            .restarts
            .or(self.ov.restarts)
            .or(c.restarts)
            .or(self.t.restarts)
            .unwrap_or(self.cfg.restarts);
        positive_restarts(self.src, &format!("{ck}.restarts"), c.restarts)?;
        if let Some(sel) = c.select.filter(|s| !metrics.contains(s)) {
            return Err(self.err(
                format!("{ck}.select"),
                format!("`{}` is not a metric of the table", sel.key()),
            ));
        }
        let (grid, fixed) = self.merged_params(&ck, c)?;
        let mut col = PlanColumn {
            id: c.id.clone(),
            label: c.label.clone(),
            method: None,
            points: Vec::new(),
            row_points: BTreeMap::new(),
            grid_keys: Vec::new(),
            summary: c.summary,
            select: c.select.unwrap_or(metrics[0]),
            per_metric: c.per_metric,
            restarts,
            rows: c.rows.clone(),
            row_recipes: BTreeMap::new(),
        };
        if let Some(d) = c
            .rows
            .iter()
            .flatten()
            .find(|d| !self.t.datasets.contains(*d))
        {
            return Err(self.err(
                format!("{ck}.rows"),
                format!("`{d}` is not a row of the table"),
            ));
        }
        let Some(mname) = &c.method else {
            let runs = c.row_params.is_some() || c.rows.is_some() || !c.row_recipes.is_empty();
            if !grid.is_empty() || !fixed.is_empty() || runs {
                return Err(self.err(
                    format!("{ck}.method"),
                    "params/grid/row_params/rows/row_recipes given but no method",
                ));
            }
            return Ok(col);
        };
        let method = self.method(&ck, c, mname)?;
        col.points = self.points(method, &ck, &grid, &fixed, &[])?;
        col.row_points = self.row_points(method, (&ck, c), &grid, &fixed)?;
        col.grid_keys = grid.keys().cloned().collect();
        col.row_recipes = self.column_row_recipes(&ck, c)?;
        col.method = Some(mname.clone());
        Ok(col)
    }

    /// The registered method of a column, able to follow the column's summary rule.
    fn method(&self, ck: &str, c: &ColumnCfg, mname: &str) -> Result<&'static dyn Method> {
        let Some(method) = methods::find(mname) else {
            return Err(self.err(
                format!("{ck}.method"),
                format!(
                    "unknown method `{mname}` (known: {})",
                    methods::names().join(", ")
                ),
            ));
        };
        if c.summary == SummaryRule::Average && method.kernels() != KernelUse::Single {
            return Err(self.err(
                format!("{ck}.summary"),
                format!("`average` (over kernels) needs a single-kernel method; `{mname}` combines kernels"),
            ));
        }
        Ok(method)
    }

    /// Every grid point with `extra` values set, as checked parameter sets; errors name
    /// `key.grid.<name>` / `key.params.<name>`.
    fn points(
        &self,
        method: &dyn Method,
        key: &str,
        grid: &Grid,
        fixed: &Fixed,
        extra: &[(String, ParamValue)],
    ) -> Result<Vec<ParamSet>> {
        let specs = method.params();
        expand_grid(fixed, grid)
            .into_iter()
            .map(|mut p| {
                for (k, v) in extra {
                    p.insert(k.clone(), v.clone());
                }
                let set = ParamSet::from_specs(&specs, &p)
                    .map_err(|e| param_err(self.src, key, grid, e))?;
                method
                    .check(&set)
                    .map_err(|e| param_err(self.src, key, grid, e))?;
                Ok(set)
            })
            .collect()
    }

    /// The grid points of every row with row parameters for this column (the
    /// `row_params` module decides which parameters, under which names).
    fn row_points(
        &self,
        method: &dyn Method,
        (ck, c): (&str, &ColumnCfg),
        grid: &Grid,
        fixed: &Fixed,
    ) -> Result<BTreeMap<String, Vec<ParamSet>>> {
        let mut row_points = BTreeMap::new();
        for (row, own) in self.column_row_params(method, ck, c)? {
            let rk = format!("{}.row_params.{row}", self.base);
            if let Some((k, _)) = own.iter().find(|(k, _)| grid.contains_key(k)) {
                return Err(self.err(
                    format!("{rk}.{k}"),
                    format!("`{k}` is a grid key of column `{}`", c.id),
                ));
            }
            row_points.insert(row, self.points(method, &rk, grid, fixed, &own)?);
        }
        Ok(row_points)
    }

    /// Paper values name metrics, rows and columns of the table.
    fn check_paper(&self, metrics: &[Metric], ids: &[&str]) -> Result<()> {
        for (m, by_ds) in &self.t.paper {
            let pk = format!("{}.paper.{}", self.base, m.key());
            if !metrics.contains(m) {
                return Err(self.err(pk, "not a metric of the table"));
            }
            for (d, by_col) in by_ds {
                if !self.t.datasets.contains(d) {
                    return Err(self.err(format!("{pk}.{d}"), "not a row of the table"));
                }
                if let Some(col) = by_col.keys().find(|c| !ids.contains(&c.as_str())) {
                    return Err(self.err(format!("{pk}.{d}.{col}"), "no such column"));
                }
            }
        }
        Ok(())
    }

    /// Figures plot a column with a method, on rows of the table.
    fn check_figures(&self) -> Result<()> {
        let t = self.t;
        for (i, f) in t.figures.iter().enumerate() {
            let fk = format!("{}.figures[{i}]", self.base);
            if !t
                .columns
                .iter()
                .any(|c| c.id == f.column && c.method.is_some())
            {
                return Err(self.err(
                    format!("{fk}.column"),
                    format!("`{}` is not a column with a method", f.column),
                ));
            }
            if let Some(d) = f
                .datasets
                .iter()
                .flatten()
                .find(|d| !t.datasets.contains(*d))
            {
                return Err(self.err(
                    format!("{fk}.datasets"),
                    format!("`{d}` is not a row of the table"),
                ));
            }
        }
        Ok(())
    }
}

/// Turn a parameter error into a config error naming `column.grid.<name>` / `.params.<name>`.
fn param_err(src: &str, ck: &str, grid: &Grid, e: Error) -> Error {
    match e {
        Error::InvalidParam {
            name,
            value,
            reason,
        } => {
            let place = if grid.contains_key(&name) {
                "grid"
            } else {
                "params"
            };
            err(
                src,
                format!("{ck}.{place}.{name}"),
                format!("{value}: {reason}"),
            )
        }
        other => err(src, ck, other.to_string()),
    }
}
