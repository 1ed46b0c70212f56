//! Config-driven experiments that reproduce the tables of the five MKC/MMC papers.
//!
//! A TOML config (`configs/<paper>.toml`, schema in [`config`] and, for users, in the
//! repository's `docs/config.md`) describes datasets (registered ones, or the user's own
//! feature or kernel files: [`own_data`]), kernel recipes, tables whose columns are
//! methods with hyperparameter grids, the summary rule of each column, and the values the
//! paper reports. [`run_plan`] runs it
//! (kernels built once per dataset, jobs in parallel, results independent of the
//! number of threads), appends one JSON record per run ([`record`]), and
//! [`table::render`] writes Markdown with the paper's value beside ours. Methods plug
//! in through [`methods::Method`] (one adapter file each; see [`methods`]).
//!
//! ```
//! use mkc_experiments::config::{parse_config, resolve};
//!
//! let text = r#"
//! title = "demo"
//! restarts = 2
//! [recipes.lin]
//! kernels = [{ kind = "linear" }]
//! [datasets.toy]
//! recipe = "lin"
//! [tables.t1]
//! title = "Kernel k-means"
//! datasets = ["toy"]
//! columns = [{ id = "kkm", label = "KKM", method = "kkm" }]
//! [profiles.quick]
//! restarts = 1
//! "#;
//! let cfg = parse_config("demo.toml", text).unwrap();
//! let plan = resolve("demo.toml", &cfg, "quick", &|name| name == "toy").unwrap();
//! assert_eq!(plan.tables[0].columns[0].restarts, 1);
//!
//! // Unknown keys are errors that name the key.
//! let bad = text.replace("restarts = 2", "restarts = 2\nrestart = 3");
//! let err = parse_config("demo.toml", &bad).unwrap_err().to_string();
//! assert!(err.contains("`restart`"), "{err}");
//! ```

#![forbid(unsafe_code)]

pub mod config;
pub mod dataset;
pub mod figure;
pub mod methods;
pub mod metric;
pub mod own_data;
pub mod paper;
pub mod params;
pub mod progress;
pub mod recipe;
pub mod record;
pub mod registry;
pub mod reproduce;
pub mod resume;
pub mod runner;
pub mod summary;
pub mod table;
pub mod timings;

pub use config::{parse_config, read_config, resolve, Plan};
pub use dataset::{DataSource, RawData, RawFeatures};
pub use methods::{Input, KernelUse, Method, Outcome};
pub use metric::{Metric, Scores};
pub use params::{ParamKind, ParamSet, ParamSpec, ParamValue};
pub use runner::{run_plan, Report, RunOptions};
