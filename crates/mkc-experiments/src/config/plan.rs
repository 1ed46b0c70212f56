//! The checked form of a config: a [`Plan`] with one profile applied, in which every
//! value is known to be possible (built by [`super::resolve`]).

use super::schema::{DatasetCfg, FigureCfg, Recipe, SummaryRule};
use crate::metric::Metric;
use crate::paper::PaperValue;
use crate::params::ParamSet;
use std::collections::BTreeMap;

/// A checked config with one profile applied.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Config name (file stem unless `name` is given).
    pub name: String,
    /// Title.
    pub title: String,
    /// Description.
    pub description: String,
    /// Profile applied (`quick` / `full`).
    pub profile: String,
    /// Base seeds.
    pub seeds: Vec<u64>,
    /// Recipes.
    pub recipes: BTreeMap<String, Recipe>,
    /// Datasets used by at least one table.
    pub datasets: BTreeMap<String, DatasetCfg>,
    /// Tables in order.
    pub tables: Vec<PlanTable>,
}

/// A checked table.
#[derive(Debug, Clone)]
pub struct PlanTable {
    /// Key in `[tables]`.
    pub id: String,
    /// Heading.
    pub title: String,
    /// Notes.
    pub notes: String,
    /// Where the paper values come from.
    pub paper_source: Option<String>,
    /// Dataset keys (rows).
    pub rows: Vec<String>,
    /// Metrics.
    pub metrics: Vec<Metric>,
    /// Columns.
    pub columns: Vec<PlanColumn>,
    /// metric → dataset → column → value.
    pub paper: BTreeMap<Metric, BTreeMap<String, BTreeMap<String, PaperValue>>>,
    /// Figures.
    pub figures: Vec<FigureCfg>,
}

/// A checked column: every grid point is a complete, valid parameter set.
#[derive(Debug, Clone)]
pub struct PlanColumn {
    /// Id.
    pub id: String,
    /// Header.
    pub label: String,
    /// Method name (`None`: paper values only).
    pub method: Option<String>,
    /// Grid points.
    pub points: Vec<ParamSet>,
    /// Rows with row parameters (`row_params` of the table): their grid points, in the
    /// order of `points`.
    pub row_points: BTreeMap<String, Vec<ParamSet>>,
    /// Names of the parameters that vary over the grid.
    pub grid_keys: Vec<String>,
    /// Summary rule.
    pub summary: SummaryRule,
    /// Selection metric.
    pub select: Metric,
    /// Best per metric instead of by `select`.
    pub per_metric: bool,
    /// Runs per grid point and seed.
    pub restarts: usize,
    /// The rows the method runs on (`None`: all rows of the table).
    pub rows: Option<Vec<String>>,
    /// Rows on which the column runs on another recipe than the row's own (`row_recipes`
    /// of the config; entries naming the row's own recipe are dropped).
    pub row_recipes: BTreeMap<String, String>,
}

impl PlanColumn {
    /// Whether the column's method runs on dataset row `key`.
    pub fn runs_on(&self, key: &str) -> bool {
        self.method.is_some()
            && self
                .rows
                .as_ref()
                .is_none_or(|r| r.iter().any(|k| k == key))
    }

    /// The recipe the column runs on at dataset row `key` when it is not the row's own.
    pub fn recipe_on(&self, key: &str) -> Option<&str> {
        self.row_recipes.get(key).map(String::as_str)
    }
}
