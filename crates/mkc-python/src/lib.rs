//! The native part of the Python package `mkc` (the extension module `mkc._mkc`;
//! the package itself is `python/mkc/`, built by maturin from `pyproject.toml`).
//!
//! Thin glue over the workspace, in five groups: the method registry and one `fit`
//! for every method ([`methods`]), clustering scores ([`metrics`]), kernel recipes
//! ([`kernels`]), registered datasets ([`datasets`], fetched by [`fetch`]) and the
//! experiment runner, locally or job by job for a Dask cluster ([`sweep`]). The scikit-learn estimator
//! classes are generated in Python from [`methods::describe`], so a method registered in
//! `mkc_experiments::methods::all()` needs no code here.
//!
//! At the boundary: numpy arrays are read in place when C- or Fortran-contiguous
//! float64 ([`arrays`]), the GIL is released while kernels are validated, built or
//! clustered, and every workspace error becomes a Python exception with the same
//! message ([`errors`]). No function here panics on bad input; PyO3 would turn a panic
//! into a `PanicException` rather than abort, but every input is validated first.

pub mod arrays;
pub mod datasets;
pub mod errors;
pub mod fetch;
pub mod kernels;
pub mod methods;
pub mod metrics;
pub mod sweep;

use pyo3::prelude::*;

/// Register `f` in the submodule `name` of `parent` (importable as `mkc._mkc.<name>`).
fn submodule<'py>(
    parent: &Bound<'py, PyModule>,
    name: &str,
    fill: impl FnOnce(&Bound<'py, PyModule>) -> PyResult<()>,
) -> PyResult<()> {
    let m = PyModule::new(parent.py(), name)?;
    fill(&m)?;
    parent.add_submodule(&m)
}

/// The extension module `mkc._mkc`.
#[pymodule]
fn _mkc(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(methods::describe, m)?)?;
    m.add_function(wrap_pyfunction!(methods::check_params, m)?)?;
    m.add_function(wrap_pyfunction!(methods::fit, m)?)?;
    submodule(m, "metrics", |s| {
        s.add_function(wrap_pyfunction!(metrics::accuracy, s)?)?;
        s.add_function(wrap_pyfunction!(metrics::nmi, s)?)?;
        s.add_function(wrap_pyfunction!(metrics::purity, s)?)?;
        s.add_function(wrap_pyfunction!(metrics::ari, s)?)?;
        s.add_function(wrap_pyfunction!(metrics::scores, s)?)
    })?;
    submodule(m, "kernels", |s| {
        s.add_function(wrap_pyfunction!(kernels::recipes_json, s)?)?;
        s.add_function(wrap_pyfunction!(kernels::check_recipe, s)?)?;
        s.add_function(wrap_pyfunction!(kernels::build, s)?)
    })?;
    submodule(m, "datasets", |s| {
        s.add_function(wrap_pyfunction!(datasets::names, s)?)?;
        s.add_function(wrap_pyfunction!(datasets::summaries, s)?)?;
        s.add_function(wrap_pyfunction!(datasets::load, s)?)?;
        s.add_function(wrap_pyfunction!(fetch::fetch, s)?)
    })?;
    submodule(m, "sweep", |s| {
        s.add_function(wrap_pyfunction!(sweep::plan, s)?)?;
        s.add_function(wrap_pyfunction!(sweep::prepare, s)?)?;
        s.add_function(wrap_pyfunction!(sweep::jobs, s)?)?;
        s.add_function(wrap_pyfunction!(sweep::run_job, s)?)?;
        s.add_function(wrap_pyfunction!(sweep::run_local, s)?)
    })?;
    Ok(())
}
