//! Checking a parsed config and applying a profile: the result is a [`Plan`] in which
//! every value is known to be possible. Errors name the key (`tables.t2.columns[0].grid.C`).
//! Tables are checked in [`super::table`], recipes in [`super::recipe_check`].

use super::plan::Plan;
use super::schema::*;
use super::table::TableCtx;
use mkc_core::{Error, Result};
use std::collections::BTreeMap;

/// A config error of the file `src` at `key`.
pub(super) fn err(src: &str, key: impl Into<String>, reason: impl Into<String>) -> Error {
    Error::config(src, key, reason)
}

/// `restarts = 0` is an error at `key`.
pub(super) fn positive_restarts(src: &str, key: &str, r: Option<usize>) -> Result<()> {
    if r == Some(0) {
        return Err(err(src, key, "must be at least 1"));
    }
    Ok(())
}

/// A row of own files: features or kernels (non-empty lists), labels, no `source`.
fn check_own_files(src: &str, base: &str, d: &DatasetCfg) -> Result<()> {
    if d.source.is_some() {
        return Err(err(
            src,
            format!("{base}.source"),
            "give either a registered dataset (`source`) or your own files, not both",
        ));
    }
    match (&d.features, &d.kernels) {
        (Some(_), Some(_)) => {
            return Err(err(
                src,
                format!("{base}.kernels"),
                "give either `features` or `kernels`, not both",
            ))
        }
        (None, None) => {
            return Err(err(
                src,
                base,
                "`labels` given without `features` or `kernels`",
            ))
        }
        (Some(f), None) if f.is_empty() => {
            return Err(err(src, format!("{base}.features"), "empty list"))
        }
        (None, Some(k)) if k.is_empty() => {
            return Err(err(src, format!("{base}.kernels"), "empty list"))
        }
        _ => {}
    }
    if d.labels.is_none() {
        return Err(err(
            src,
            format!("{base}.labels"),
            "own data needs a label file (one label per line) to score against",
        ));
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
    if d.is_own() {
        check_own_files(src, &base, d)?;
    } else if !known_source(d.source.as_deref().unwrap_or(key)) {
        let source = d.source.as_deref().unwrap_or(key);
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
    if d.classes.as_ref().is_some_and(|c| c.len() < 2) {
        return Err(err(
            src,
            format!("{base}.classes"),
            "list at least two classes",
        ));
    }
    if d.views.as_ref().is_some_and(|v| v.is_empty()) {
        return Err(err(src, format!("{base}.views"), "empty list"));
    }
    match d.clusters {
        Some(k) if k < 2 => Err(err(
            src,
            format!("{base}.clusters"),
            format!("{k}: need at least 2 clusters"),
        )),
        _ => Ok(()),
    }
}

/// The profile `profile` of `cfg` (`"full"` needs no `[profiles.full]` table).
fn profile_of<'c>(src: &str, cfg: &'c Config, profile: &str) -> Result<&'c ProfileCfg> {
    static EMPTY: ProfileCfg = ProfileCfg {
        restarts: None,
        seeds: None,
        tables: BTreeMap::new(),
    };
    match cfg.profiles.get(profile) {
        Some(p) => Ok(p),
        None if profile == "full" => Ok(&EMPTY),
        None => {
            let known: Vec<&String> = cfg.profiles.keys().collect();
            Err(err(
                src,
                format!("profiles.{profile}"),
                format!("no such profile (defined: {known:?})"),
            ))
        }
    }
}

/// The file-level values: restarts, seeds, metrics, at least one table.
fn check_top_level(src: &str, cfg: &Config, profile: &str, prof: &ProfileCfg) -> Result<()> {
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
    Ok(())
}

/// The config's recipes plus the library recipes its datasets and its columns'
/// `row_recipes` use.
fn used_recipes(cfg: &Config, library: &BTreeMap<String, Recipe>) -> BTreeMap<String, Recipe> {
    let mut recipes = cfg.recipes.clone();
    let columns = cfg.tables.values().flat_map(|t| &t.columns);
    let by_rows = columns.flat_map(|c| c.row_recipes.values());
    for r in cfg
        .datasets
        .values()
        .filter_map(|d| d.recipe.as_ref())
        .chain(by_rows)
    {
        if !recipes.contains_key(r) {
            if let Some(lib) = library.get(r) {
                recipes.insert(r.clone(), lib.clone());
            }
        }
    }
    recipes
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
    let prof = profile_of(src, cfg, profile)?;
    check_top_level(src, cfg, profile, prof)?;
    for (name, r) in &cfg.recipes {
        super::recipe_check::check_recipe(src, name, r)?;
    }
    let library = super::recipe_library()?;
    for (key, d) in &cfg.datasets {
        check_dataset(src, key, d, cfg, &library, known_source)?;
    }
    let recipes = used_recipes(cfg, &library);
    if let Some(t) = prof.tables.keys().find(|t| !cfg.tables.contains_key(*t)) {
        return Err(err(
            src,
            format!("profiles.{profile}.tables.{t}"),
            "no such table",
        ));
    }
    let seeds = prof
        .seeds
        .clone()
        .or_else(|| cfg.seeds.clone())
        .unwrap_or_else(|| vec![0]);
    let mut tables = Vec::new();
    let mut used = BTreeMap::new();
    let no_override = TableOverride::default();
    for (tid, t) in &cfg.tables {
        let ov = prof.tables.get(tid).unwrap_or(&no_override);
        let table = TableCtx::new((src, cfg, &library), (profile, prof), (tid, t), ov).resolve()?;
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
