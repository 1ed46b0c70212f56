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

/// Add the `#[pyfunction]`s listed to the module `m`.
macro_rules! add_functions {
    ($m:expr, [$($f:path),+ $(,)?]) => {{
        $($m.add_function(wrap_pyfunction!($f, $m)?)?;)+
        PyResult::Ok(())
    }};
}

/// The extension module `mkc._mkc`.
#[pymodule]
fn _mkc(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    add_functions!(m, [methods::describe, methods::check_params, methods::fit])?;
    submodule(m, "metrics", |s| {
        use metrics::*;
        add_functions!(s, [accuracy, nmi, purity, ari, scores])
    })?;
    submodule(m, "kernels", |s| {
        use kernels::*;
        add_functions!(s, [recipes_json, check_recipe, build])
    })?;
    submodule(m, "datasets", |s| {
        use datasets::*;
        add_functions!(s, [names, summaries, load, fetch::fetch])
    })?;
    submodule(m, "sweep", |s| {
        use sweep::*;
        add_functions!(s, [plan, prepare, jobs, run_job, run_local])
    })?;
    Ok(())
}
