//! Kernel recipes of the experiments (`configs/recipes.toml`, schema
//! `mkc_experiments::config::Recipe`): list them, and build a recipe's kernels on a
//! feature matrix exactly as `mkc cluster --data FILE --recipe NAME` does.

use crate::arrays::{self, to_numpy};
use crate::errors::IntoPyResult;
use mkc_core::{Error, Result};
use mkc_experiments::config::{parse_recipes, recipe_library, KernelEntry, Recipe};
use mkc_experiments::recipe::{build_kernels, scale_features};
use numpy::PyArray2;
use pyo3::prelude::*;
use pyo3::types::PyList;
use serde_json::{json, Value};

fn to_json<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

fn entry_json(e: &KernelEntry) -> Value {
    let mut v = json!({ "kind": to_json(&e.kind) });
    let lists = [
        ("sigma", &e.sigma),
        ("sigma_range_fraction", &e.sigma_range_fraction),
        ("sigma_mean_ratio", &e.sigma_mean_ratio),
        ("sigma_median_ratio", &e.sigma_median_ratio),
        ("t", &e.t),
        ("a", &e.a),
    ];
    for (key, list) in lists {
        if let Some(l) = list {
            v[key] = to_json(l);
        }
    }
    if let Some(d) = &e.degree {
        v["degree"] = to_json(d);
    }
    v
}

/// A recipe as the JSON object its TOML table spells.
fn recipe_json(r: &Recipe) -> Value {
    json!({
        "scale": to_json(&r.scale),
        "kernels": r.kernels.iter().map(entry_json).collect::<Vec<_>>(),
        "normalize": to_json(&r.normalize),
        "per_view": r.per_view,
    })
}

/// The built-in recipes as a JSON object `{name: recipe}` (text; `mkc.kernels`
/// parses it).
#[pyfunction]
pub fn recipes_json() -> PyResult<String> {
    let lib = recipe_library().py()?;
    let all: serde_json::Map<String, Value> = lib
        .iter()
        .map(|(k, r)| (k.clone(), recipe_json(r)))
        .collect();
    Ok(Value::Object(all).to_string())
}

/// A recipe given as JSON text (the keys of a `[recipes.NAME]` table), checked as a
/// config's recipe is.
fn recipe_from_json(text: &str) -> Result<Recipe> {
    let bad = |reason: String| Error::config("recipe", "(recipe)", reason);
    let v: Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
    let spec = toml::Value::try_from(&v).map_err(|e| bad(e.to_string()))?;
    let mut recipes = toml::Table::new();
    recipes.insert("custom".into(), spec);
    let mut file = toml::Table::new();
    file.insert("recipes".into(), toml::Value::Table(recipes));
    let text = toml::to_string(&file).map_err(|e| bad(e.to_string()))?;
    parse_recipes("recipe", &text)?
        .remove("custom")
        .ok_or_else(|| bad("no recipe".into()))
}

/// The recipe named `name` among the built-in ones, or the one spelled by `spec_json`.
pub(crate) fn resolve(name: Option<&str>, spec_json: Option<&str>) -> Result<Recipe> {
    match (name, spec_json) {
        (_, Some(text)) => recipe_from_json(text),
        (Some(n), None) => {
            let lib = recipe_library()?;
            lib.get(n).cloned().ok_or_else(|| {
                let known: Vec<&str> = lib.keys().map(String::as_str).collect();
                Error::param(
                    "recipe",
                    n,
                    format!("unknown recipe (built-in: {})", known.join(", ")),
                )
            })
        }
        (None, None) => Err(Error::param(
            "recipe",
            "(missing)",
            "give a recipe name or spec",
        )),
    }
}

/// Check a recipe (by name or JSON spec) without building anything.
#[pyfunction]
#[pyo3(signature = (name=None, spec_json=None))]
pub fn check_recipe(name: Option<&str>, spec_json: Option<&str>) -> PyResult<()> {
    resolve(name, spec_json).map(|_| ()).py()
}

/// Type of the result of [`build`]: kernels, their names, the scaled features.
type Built<'py> = (Bound<'py, PyList>, Vec<String>, Bound<'py, PyArray2<f64>>);

/// Build the kernels of a recipe (built-in `name`, or `spec_json`) on the n × d
/// feature matrix `features`: features scaled per the recipe, every kernel of the list,
/// the normalisations in order. Returns `(kernels, names, scaled_features)`. The GIL
/// is released while the kernels are built.
#[pyfunction]
#[pyo3(signature = (features, name=None, spec_json=None))]
pub fn build<'py>(
    py: Python<'py>,
    features: &Bound<'py, PyAny>,
    name: Option<&str>,
    spec_json: Option<&str>,
) -> PyResult<Built<'py>> {
    let recipe = resolve(name, spec_json).py()?;
    let held = arrays::borrow(features, "features")?;
    let view = arrays::matrix_2d(&held, "features").py()?;
    let x = view.as_mat();
    let built = py.detach(|| -> Result<_> {
        mkc_core::validate::non_empty("features", x)?;
        mkc_core::validate::finite("features", x)?;
        let mut scaled = x.to_owned();
        scale_features(&mut scaled, recipe.scale);
        let views = vec![(String::new(), scaled)];
        let (kernels, names) = build_kernels(&views, &recipe)?;
        Ok((kernels, names, views.into_iter().next().map(|v| v.1)))
    });
    let (kernels, names, scaled) = built.py()?;
    let list = PyList::empty(py);
    for k in &kernels {
        list.append(to_numpy(py, k.as_ref()))?;
    }
    let scaled = scaled.unwrap_or_else(|| x.to_owned());
    Ok((list, names, to_numpy(py, scaled.as_ref())))
}
