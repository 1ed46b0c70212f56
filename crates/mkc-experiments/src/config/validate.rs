//! Checking a parsed config and applying a profile: the result is a [`Plan`] in which
//! every value is known to be possible. Errors name the key (`tables.t2.columns[0].grid.C`).

use super::schema::*;
use crate::methods::{self, KernelUse};
use crate::metric::Metric;
use crate::paper::PaperValue;
use crate::params::{expand_grid, ParamSet};
use mkc_core::{Error, Result};
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
}

fn err(src: &str, key: impl Into<String>, reason: impl Into<String>) -> Error {
    Error::config(src, key, reason)
}

fn positive_restarts(src: &str, key: &str, r: Option<usize>) -> Result<()> {
    if r == Some(0) {
        return Err(err(src, key, "must be at least 1"));
    }
    Ok(())
}

fn check_widths(src: &str, key: &str, v: &Option<Vec<f64>>) -> Result<bool> {
    let Some(v) = v else { return Ok(false) };
    if v.is_empty() {
        return Err(err(src, key, "empty list"));
    }
    if let Some(x) = v.iter().find(|x| !(x.is_finite() && **x > 0.0)) {
        return Err(err(
            src,
            key,
            format!("{x} is not a finite positive number"),
        ));
    }
    Ok(true)
}

pub(crate) fn check_recipe(src: &str, name: &str, r: &Recipe) -> Result<()> {
    let base = format!("recipes.{name}");
    // An empty kernel list is a features-only recipe: the scaled features reach the
    // methods that work in feature space (k-means, LG-MMC's linear path) and no n x n
    // kernel is built (MNIST-sized data).
    for (i, e) in r.kernels.iter().enumerate() {
        let k = format!("{base}.kernels[{i}]");
        let widths = [
            ("sigma", check_widths(src, &format!("{k}.sigma"), &e.sigma)?),
            (
                "sigma_range_fraction",
                check_widths(
                    src,
                    &format!("{k}.sigma_range_fraction"),
                    &e.sigma_range_fraction,
                )?,
            ),
            (
                "sigma_mean_ratio",
                check_widths(src, &format!("{k}.sigma_mean_ratio"), &e.sigma_mean_ratio)?,
            ),
            (
                "sigma_median_ratio",
                check_widths(
                    src,
                    &format!("{k}.sigma_median_ratio"),
                    &e.sigma_median_ratio,
                )?,
            ),
        ];
        let n_width = widths.iter().filter(|w| w.1).count();
        let has_t = check_widths(src, &format!("{k}.t"), &e.t)?;
        let has_a = match &e.a {
            Some(a) if a.is_empty() => return Err(err(src, format!("{k}.a"), "empty list")),
            Some(a) => match a.iter().find(|x| !(x.is_finite() && **x >= 0.0)) {
                Some(x) => {
                    return Err(err(
                        src,
                        format!("{k}.a"),
                        format!("{x} is not a finite number >= 0"),
                    ))
                }
                None => true,
            },
            None => false,
        };
        let has_deg = match &e.degree {
            Some(d) if d.is_empty() => return Err(err(src, format!("{k}.degree"), "empty list")),
            Some(d) if d.contains(&0) => {
                return Err(err(
                    src,
                    format!("{k}.degree"),
                    "degrees must be at least 1",
                ))
            }
            Some(_) => true,
            None => false,
        };
        let stray = |field: &str, present: bool| -> Result<()> {
            if present {
                Err(err(
                    src,
                    format!("{k}.{field}"),
                    format!("does not apply to kind {:?}", e.kind),
                ))
            } else {
                Ok(())
            }
        };
        match e.kind {
            KernelKind::Gaussian => {
                if n_width != 1 {
                    return Err(err(
                        src,
                        k,
                        "a gaussian kernel needs exactly one of sigma, sigma_range_fraction, sigma_mean_ratio, sigma_median_ratio",
                    ));
                }
                stray("t", has_t)?;
                stray("a", has_a)?;
                stray("degree", has_deg)?;
            }
            KernelKind::GaussianScaled => {
                if !has_t {
                    return Err(err(
                        src,
                        format!("{k}.t"),
                        "gaussian-scaled needs the list t",
                    ));
                }
                for (f, p) in widths {
                    stray(f, p)?;
                }
                stray("a", has_a)?;
                stray("degree", has_deg)?;
            }
            KernelKind::Polynomial => {
                if !has_deg {
                    return Err(err(
                        src,
                        format!("{k}.degree"),
                        "a polynomial kernel needs degree",
                    ));
                }
                for (f, p) in widths {
                    stray(f, p)?;
                }
                stray("t", has_t)?;
            }
            KernelKind::Linear | KernelKind::Cosine => {
                for (f, p) in widths {
                    stray(f, p)?;
                }
                stray("t", has_t)?;
                stray("a", has_a)?;
                stray("degree", has_deg)?;
            }
        }
    }
    Ok(())
}

fn check_dataset(
    src: &str,
    key: &str,
    d: &DatasetCfg,
    cfg: &Config,
    library: &BTreeMap<String, Recipe>,
    known_source: &dyn Fn(&str) -> bool,
) -> Result<()> {
    let base = format!("datasets.{key}");
    if let Some(r) = &d.recipe {
        if !cfg.recipes.contains_key(r) && !library.contains_key(r) {
            let mut known: Vec<&String> = cfg.recipes.keys().chain(library.keys()).collect();
            known.sort();
            return Err(err(
                src,
                format!("{base}.recipe"),
                format!("no recipe `{r}` here or in configs/recipes.toml (known: {known:?})"),
            ));
        }
    }
    let source = d.source.as_deref().unwrap_or(key);
    if !known_source(source) {
        return Err(err(
            src,
            if d.source.is_some() {
                format!("{base}.source")
            } else {
                base.clone()
            },
            format!("`{source}` is not in the dataset registry (see `mkc datasets`)"),
        ));
    }
    if let Some(c) = &d.classes {
        if c.len() < 2 {
            return Err(err(
                src,
                format!("{base}.classes"),
                "list at least two classes",
            ));
        }
    }
    if let Some(v) = &d.views {
        if v.is_empty() {
            return Err(err(src, format!("{base}.views"), "empty list"));
        }
    }
    if let Some(k) = d.clusters {
        if k < 2 {
            return Err(err(
                src,
                format!("{base}.clusters"),
                format!("{k}: need at least 2 clusters"),
            ));
        }
    }
    Ok(())
}

/// Check `cfg` (from the file named `src`) and apply `profile` (`"full"` needs no
/// `[profiles.full]` table; any other name must exist). `known_source` says whether a
/// dataset name is in the registry.
pub fn resolve(
    src: &str,
    cfg: &Config,
    profile: &str,
    known_source: &dyn Fn(&str) -> bool,
) -> Result<Plan> {
    let empty = ProfileCfg::default();
    let prof = match cfg.profiles.get(profile) {
        Some(p) => p,
        None if profile == "full" => &empty,
        None => {
            let known: Vec<&String> = cfg.profiles.keys().collect();
            return Err(err(
                src,
                format!("profiles.{profile}"),
                format!("no such profile (defined: {known:?})"),
            ));
        }
    };
    positive_restarts(src, "restarts", Some(cfg.restarts))?;
    positive_restarts(src, &format!("profiles.{profile}.restarts"), prof.restarts)?;
    for (key, s) in [
        ("seeds", &cfg.seeds),
        (&*format!("profiles.{profile}.seeds"), &prof.seeds),
    ] {
        if s.as_ref().is_some_and(|s| s.is_empty()) {
            return Err(err(src, key, "empty list"));
        }
    }
    if cfg.metrics.as_ref().is_some_and(|m| m.is_empty()) {
        return Err(err(src, "metrics", "empty list"));
    }
    if cfg.tables.is_empty() {
        return Err(err(src, "tables", "no tables defined"));
    }
    for (name, r) in &cfg.recipes {
        check_recipe(src, name, r)?;
    }
    let library = super::recipe_library()?;
    for (key, d) in &cfg.datasets {
        check_dataset(src, key, d, cfg, &library, known_source)?;
    }
    // The plan carries the config's recipes plus the library recipes it uses.
    let mut recipes = cfg.recipes.clone();
    for d in cfg.datasets.values() {
        if let Some(r) = &d.recipe {
            if !recipes.contains_key(r) {
                if let Some(lib) = library.get(r) {
                    recipes.insert(r.clone(), lib.clone());
                }
            }
        }
    }
    for t in prof.tables.keys() {
        if !cfg.tables.contains_key(t) {
            return Err(err(
                src,
                format!("profiles.{profile}.tables.{t}"),
                "no such table",
            ));
        }
    }
    let seeds = prof
        .seeds
        .clone()
        .or_else(|| cfg.seeds.clone())
        .unwrap_or_else(|| vec![0]);
    let mut tables = Vec::new();
    let mut used = BTreeMap::new();
    for (tid, t) in &cfg.tables {
        let ov = prof.tables.get(tid).cloned().unwrap_or_default();
        let table = resolve_table(src, cfg, prof, profile, tid, t, &ov)?;
        for r in &table.rows {
            used.insert(r.clone(), cfg.datasets[r].clone());
        }
        tables.push(table);
    }
    Ok(Plan {
        name: cfg.name.clone().unwrap_or_default(),
        title: cfg.title.clone(),
        description: cfg.description.clone(),
        profile: profile.to_string(),
        seeds,
        recipes,
        datasets: used,
        tables,
    })
}

fn resolve_table(
    src: &str,
    cfg: &Config,
    prof: &ProfileCfg,
    profile: &str,
    tid: &str,
    t: &TableCfg,
    ov: &TableOverride,
) -> Result<PlanTable> {
    let base = format!("tables.{tid}");
    let obase = format!("profiles.{profile}.tables.{tid}");
    if t.datasets.is_empty() {
        return Err(err(src, format!("{base}.datasets"), "empty list"));
    }
    for d in &t.datasets {
        if !cfg.datasets.contains_key(d) {
            return Err(err(
                src,
                format!("{base}.datasets"),
                format!("dataset `{d}` is not defined in [datasets]"),
            ));
        }
    }
    if t.columns.is_empty() {
        return Err(err(src, format!("{base}.columns"), "no columns"));
    }
    positive_restarts(src, &format!("{base}.restarts"), t.restarts)?;
    positive_restarts(src, &format!("{obase}.restarts"), ov.restarts)?;
    let metrics = t
        .metrics
        .clone()
        .or_else(|| cfg.metrics.clone())
        .unwrap_or_else(|| vec![Metric::Acc]);
    if metrics.is_empty() {
        return Err(err(src, format!("{base}.metrics"), "empty list"));
    }
    let rows = match &ov.datasets {
        Some(list) => {
            for d in list {
                if !t.datasets.contains(d) {
                    return Err(err(
                        src,
                        format!("{obase}.datasets"),
                        format!("`{d}` is not a row of table {tid}"),
                    ));
                }
            }
            t.datasets
                .iter()
                .filter(|d| list.contains(d))
                .cloned()
                .collect()
        }
        None => t.datasets.clone(),
    };
    let ids: Vec<&str> = t.columns.iter().map(|c| c.id.as_str()).collect();
    for (i, id) in ids.iter().enumerate() {
        if ids[..i].contains(id) {
            return Err(err(
                src,
                format!("{base}.columns[{i}].id"),
                format!("duplicate column id `{id}`"),
            ));
        }
    }
    for (what, keys) in [
        ("grids", ov.grids.keys().collect::<Vec<_>>()),
        ("params", ov.params.keys().collect()),
    ] {
        for c in keys {
            if !ids.contains(&c.as_str()) {
                return Err(err(src, format!("{obase}.{what}.{c}"), "no such column"));
            }
        }
    }
    for c in &ov.skip_columns {
        if !ids.contains(&c.as_str()) {
            return Err(err(
                src,
                format!("{obase}.skip_columns"),
                format!("no column `{c}`"),
            ));
        }
    }
    let mut columns = Vec::new();
    for (i, c) in t.columns.iter().enumerate() {
        if ov.skip_columns.contains(&c.id) {
            continue;
        }
        let ck = format!("{base}.columns[{i}]");
        let restarts = prof
            .restarts
            .or(ov.restarts)
            .or(c.restarts)
            .or(t.restarts)
            .unwrap_or(cfg.restarts);
        positive_restarts(src, &format!("{ck}.restarts"), c.restarts)?;
        if let Some(sel) = c.select {
            if !metrics.contains(&sel) {
                return Err(err(
                    src,
                    format!("{ck}.select"),
                    format!("`{}` is not a metric of the table", sel.key()),
                ));
            }
        }
        let select = c.select.unwrap_or(metrics[0]);
        // Profile overrides win: a profile grid replaces a fixed value of the same name
        // and a profile parameter replaces a grid of the same name.
        let mut grid = c.grid.clone();
        let mut fixed = c.params.clone();
        if let Some(g) = ov.grids.get(&c.id) {
            for (k, v) in g {
                grid.insert(k.clone(), v.clone());
                fixed.remove(k);
            }
        }
        if let Some(p) = ov.params.get(&c.id) {
            for (k, v) in p {
                fixed.insert(k.clone(), v.clone());
                grid.remove(k);
            }
        }
        for (k, v) in &grid {
            if v.is_empty() {
                let key = if c.grid.get(k).is_some_and(|g| g.is_empty()) {
                    format!("{ck}.grid.{k}")
                } else {
                    format!("{obase}.grids.{}.{k}", c.id)
                };
                return Err(err(src, key, "empty grid: list at least one value"));
            }
            if fixed.contains_key(k) {
                return Err(err(
                    src,
                    format!("{ck}.grid.{k}"),
                    "also given in params; give it in one place",
                ));
            }
        }
        let Some(mname) = &c.method else {
            if !grid.is_empty() || !fixed.is_empty() {
                return Err(err(
                    src,
                    format!("{ck}.method"),
                    "params/grid given but no method",
                ));
            }
            columns.push(PlanColumn {
                id: c.id.clone(),
                label: c.label.clone(),
                method: None,
                points: Vec::new(),
                row_points: BTreeMap::new(),
                grid_keys: Vec::new(),
                summary: c.summary,
                select,
                per_metric: c.per_metric,
                restarts,
            });
            continue;
        };
        let Some(method) = methods::find(mname) else {
            return Err(err(
                src,
                format!("{ck}.method"),
                format!(
                    "unknown method `{mname}` (known: {})",
                    methods::names().join(", ")
                ),
            ));
        };
        if c.summary == SummaryRule::Average && method.kernels() != KernelUse::Single {
            return Err(err(
                src,
                format!("{ck}.summary"),
                format!("`average` (over kernels) needs a single-kernel method; `{mname}` combines kernels"),
            ));
        }
        let mut points = Vec::new();
        for p in expand_grid(&fixed, &grid) {
            let set = ParamSet::from_specs(&method.params(), &p)
                .map_err(|e| param_err(src, &ck, &grid, e))?;
            method
                .check(&set)
                .map_err(|e| param_err(src, &ck, &grid, e))?;
            points.push(set);
        }
        let specs = method.params();
        let mut row_points = BTreeMap::new();
        for (row, over) in &t.row_params {
            let own: Vec<(&String, &crate::params::ParamValue)> = over
                .iter()
                .filter(|(k, _)| specs.iter().any(|sp| sp.name == k.as_str()))
                .collect();
            if own.is_empty() {
                continue;
            }
            let mut pts = Vec::new();
            for p in expand_grid(&fixed, &grid) {
                let mut p = p;
                for (k, v) in &own {
                    if grid.contains_key(*k) {
                        return Err(err(
                            src,
                            format!("{base}.row_params.{row}.{k}"),
                            format!("`{k}` is a grid key of column `{}`", c.id),
                        ));
                    }
                    p.insert((*k).clone(), (*v).clone());
                }
                let rk = format!("{base}.row_params.{row}");
                let set =
                    ParamSet::from_specs(&specs, &p).map_err(|e| param_err(src, &rk, &grid, e))?;
                method
                    .check(&set)
                    .map_err(|e| param_err(src, &rk, &grid, e))?;
                pts.push(set);
            }
            row_points.insert(row.clone(), pts);
        }
        columns.push(PlanColumn {
            id: c.id.clone(),
            label: c.label.clone(),
            method: Some(mname.clone()),
            points,
            row_points,
            grid_keys: grid.keys().cloned().collect(),
            summary: c.summary,
            select,
            per_metric: c.per_metric,
            restarts,
        });
    }
    for row in t.row_params.keys() {
        if !t.datasets.contains(row) {
            return Err(err(
                src,
                format!("{base}.row_params.{row}"),
                "not a row of the table",
            ));
        }
    }
    for (m, by_ds) in &t.paper {
        let pk = format!("{base}.paper.{}", m.key());
        if !metrics.contains(m) {
            return Err(err(src, pk, "not a metric of the table"));
        }
        for (d, by_col) in by_ds {
            if !t.datasets.contains(d) {
                return Err(err(src, format!("{pk}.{d}"), "not a row of the table"));
            }
            for col in by_col.keys() {
                if !ids.contains(&col.as_str()) {
                    return Err(err(src, format!("{pk}.{d}.{col}"), "no such column"));
                }
            }
        }
    }
    for (i, f) in t.figures.iter().enumerate() {
        let fk = format!("{base}.figures[{i}]");
        match t.columns.iter().find(|c| c.id == f.column) {
            Some(c) if c.method.is_some() => {}
            _ => {
                return Err(err(
                    src,
                    format!("{fk}.column"),
                    format!("`{}` is not a column with a method", f.column),
                ))
            }
        }
        for d in f.datasets.iter().flatten() {
            if !t.datasets.contains(d) {
                return Err(err(
                    src,
                    format!("{fk}.datasets"),
                    format!("`{d}` is not a row of the table"),
                ));
            }
        }
    }
    Ok(PlanTable {
        id: tid.to_string(),
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

/// Turn a parameter error into a config error naming `column.grid.<name>` / `.params.<name>`.
fn param_err(
    src: &str,
    ck: &str,
    grid: &BTreeMap<String, Vec<crate::params::ParamValue>>,
    e: Error,
) -> Error {
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
