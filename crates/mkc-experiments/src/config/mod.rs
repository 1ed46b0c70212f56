//! The experiment config schema (TOML, one file per paper under `configs/`).
//!
//! A config holds kernel **recipes** (named, reusable: feature scaling, a kernel list,
//! normalisations), **datasets** (a registry name or the user's own `features` /
//! `kernels` and `labels` files, optional class / view subsets, the recipe to use), and
//! **tables** (rows = datasets, columns = methods with fixed parameters, hyperparameter
//! grids and a summary rule, metrics, the paper's reported values). `[profiles.quick]` / `[profiles.full]` override restarts, seeds, the dataset
//! rows and the grids of a table. Every struct denies unknown keys; parse and
//! validation errors are [`mkc_core::Error::Config`] naming the offending key.
//!
//! ```toml
//! title = "Kernel k-means baselines"
//! restarts = 30                      # runs per grid point (seeds derived per restart)
//! seeds = [0]                        # base seeds; run r of seed s uses derive(s, r)
//!
//! [recipes.gauss10]
//! scale = "none"                     # none | minmax | symmetric | zscore
//! kernels = [{ kind = "gaussian", sigma_range_fraction = [0.1, 0.55, 1.0] }]
//! normalize = ["multiplicative"]
//!
//! [datasets.ionosphere]
//! recipe = "gauss10"                 # `source` defaults to the key (a registry name)
//!
//! [tables.table2]
//! title = "Clustering accuracy (%)"
//! datasets = ["ionosphere"]
//! metrics = ["acc"]
//! columns = [
//!   { id = "kkm", label = "Kernel k-means (best)", method = "kkm", summary = "best" },
//!   { id = "mvspec", label = "MVSpec" },   # no method: the paper's numbers only
//! ]
//! [tables.table2.paper.acc]
//! ionosphere = { kkm = "73.22 ± 2.90", mvspec = 70.66 }
//!
//! [profiles.quick]
//! restarts = 3
//! ```

mod parse;
mod plan;
mod recipe_check;
mod row_params;
mod row_recipes;
mod schema;
mod table;
mod validate;

pub use parse::{parse_config, parse_recipes, read_config, recipe_library};
pub use plan::{Plan, PlanColumn, PlanTable};
pub use schema::*;
pub use validate::resolve;

#[cfg(test)]
mod row_recipes_tests;
#[cfg(test)]
mod tests;
