//! The method registry for Python: what each registered method is called, what it
//! takes (parameter names, kinds, defaults, help), and one `fit` for all of them.
//!
//! The Python package builds one scikit-learn estimator class per entry of
//! [`describe`], so a method registered in `mkc_experiments::methods::all()` appears in
//! Python with no code here.

use crate::arrays::{self, Matrix};
use crate::errors::{to_py, type_error, IntoPyResult};
use mkc_core::{Clustering, DiagnosticList, Error, KernelSet, Result, WeightConstraint};
use mkc_experiments::methods::{self, KernelUse, Method};
use mkc_experiments::params::{ParamKind, ParamSet, ParamSpec, ParamValue};
use numpy::{PyArray1, PyReadonlyArrayDyn};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use std::collections::BTreeMap;

/// A parameter value as a Python object.
fn value_to_py<'py>(py: Python<'py>, v: &ParamValue) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        ParamValue::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        ParamValue::Int(i) => i.into_pyobject(py)?.into_any(),
        ParamValue::Float(x) => PyFloat::new(py, *x).into_any(),
        ParamValue::Str(s) => PyString::new(py, s).into_any(),
    })
}

/// A Python value (bool, int, float or str) as a parameter value; `TypeError` otherwise.
fn value_from_py(name: &str, v: &Bound<'_, PyAny>) -> PyResult<ParamValue> {
    if v.is_instance_of::<PyBool>() {
        return Ok(ParamValue::Bool(v.extract()?));
    }
    if v.is_instance_of::<PyInt>() {
        return Ok(ParamValue::Int(v.extract()?));
    }
    if v.is_instance_of::<PyFloat>() {
        return Ok(ParamValue::Float(v.extract()?));
    }
    if v.is_instance_of::<PyString>() {
        return Ok(ParamValue::Str(v.extract()?));
    }
    let ty = v
        .get_type()
        .name()
        .map_or_else(|_| "?".into(), |n| n.to_string());
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "invalid parameter `{name}`: expected a bool, int, float or str, got {ty}"
    )))
}

fn kind_name(kind: ParamKind) -> &'static str {
    match kind {
        ParamKind::Float => "float",
        ParamKind::Int => "int",
        ParamKind::Bool => "bool",
        ParamKind::Choice(_) => "choice",
    }
}

fn describe_param<'py>(py: Python<'py>, s: &ParamSpec) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("name", s.name)?;
    d.set_item("kind", kind_name(s.kind))?;
    let choices: Option<Vec<&str>> = match s.kind {
        ParamKind::Choice(words) => Some(words.to_vec()),
        _ => None,
    };
    d.set_item("choices", choices)?;
    let default = if s.default.is_empty() {
        None
    } else {
        Some(value_to_py(py, &s.kind.parse(s.name, s.default).py()?)?)
    };
    d.set_item("required", default.is_none())?;
    d.set_item("default", default)?;
    d.set_item("help", s.help)?;
    Ok(d)
}

/// Every registered method, in registry order: `name`, `about`, `kernels`
/// (`"combined"` or `"single"`) and `params` (each with `name`, `kind` — `"float"`,
/// `"int"`, `"bool"` or `"choice"` —, `choices`, `default` parsed to a Python value,
/// `required` and `help`).
#[pyfunction]
pub fn describe(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let out = PyList::empty(py);
    for m in methods::all() {
        let d = PyDict::new(py);
        d.set_item("name", m.name())?;
        d.set_item("about", m.about())?;
        let uses = match m.kernels() {
            KernelUse::Combined => "combined",
            KernelUse::Single => "single",
        };
        d.set_item("kernels", uses)?;
        let params = PyList::empty(py);
        for s in m.params() {
            params.append(describe_param(py, &s)?)?;
        }
        d.set_item("params", params)?;
        out.append(d)?;
    }
    Ok(out)
}

/// Whether `v` has the Python type parameters of `kind` take (its range aside).
fn right_type(kind: ParamKind, v: &ParamValue) -> bool {
    matches!(
        (kind, v),
        (ParamKind::Float, ParamValue::Float(_) | ParamValue::Int(_))
            | (ParamKind::Int, ParamValue::Int(_))
            | (ParamKind::Bool, ParamValue::Bool(_))
            | (ParamKind::Choice(_), ParamValue::Str(_))
    )
}

/// The method's parameter set from the given values (defaults filled). Unknown names
/// and values of the wrong type are `TypeError`, values out of range `ValueError`.
fn param_set(method: &dyn Method, given: &Bound<'_, PyDict>) -> PyResult<ParamSet> {
    let mut values = BTreeMap::new();
    for (k, v) in given.iter() {
        let name: String = k.extract()?;
        let value = value_from_py(&name, &v)?;
        values.insert(name, value);
    }
    let specs = method.params();
    ParamSet::from_specs(&specs, &values).map_err(|e| {
        let wrong_type = values.iter().any(|(n, v)| {
            specs
                .iter()
                .find(|s| s.name == n)
                .is_none_or(|s| !right_type(s.kind, v))
        });
        if wrong_type {
            type_error(e)
        } else {
            to_py(e)
        }
    })
}

/// Check the parameters of `method` alone (no data): the values a constructor got.
/// Returns the complete parameter set (defaults filled) as a dict.
#[pyfunction]
pub fn check_params<'py>(
    py: Python<'py>,
    method: &str,
    params: &Bound<'py, PyDict>,
) -> PyResult<Bound<'py, PyDict>> {
    let m = methods::require(method).py()?;
    let set = param_set(m, params)?;
    m.build(&set).and_then(|c| c.validate_params_dyn()).py()?;
    let out = PyDict::new(py);
    for (k, v) in &set.0 {
        out.set_item(k, value_to_py(py, v)?)?;
    }
    Ok(out)
}

/// The arrays of the `kernels` argument: one array (2-D or 3-D) or a list / tuple of
/// arrays; `None` for no kernels.
fn kernel_arrays<'py>(
    kernels: Option<&Bound<'py, PyAny>>,
) -> PyResult<Vec<PyReadonlyArrayDyn<'py, f64>>> {
    let Some(obj) = kernels else {
        return Ok(Vec::new());
    };
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let mut out = Vec::new();
        for (p, item) in obj.try_iter()?.enumerate() {
            out.push(arrays::borrow(&item?, &format!("kernels[{p}]"))?);
        }
        Ok(out)
    } else {
        Ok(vec![arrays::borrow(obj, "kernels")?])
    }
}

fn constraint_name(c: &WeightConstraint) -> String {
    match c {
        WeightConstraint::Simplex => "simplex".into(),
        WeightConstraint::PNorm(p) => format!("p-norm(p={p})"),
        WeightConstraint::SqrtSimplex => "sqrt-simplex".into(),
        WeightConstraint::NonNegative => "non-negative".into(),
        other => format!("{other:?}"),
    }
}

/// A fit as a dict of Python values.
fn fitted_to_py<'py>(
    py: Python<'py>,
    c: Clustering<DiagnosticList>,
    validate: f64,
    copies: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let labels: Vec<isize> = c.labels.iter().map(|&l| l as isize).collect();
    d.set_item("labels", PyArray1::from_vec(py, labels))?;
    d.set_item("n_clusters", c.n_clusters)?;
    match &c.kernel_weights {
        Some(w) => {
            d.set_item("kernel_weights", PyArray1::from_slice(py, &w.values))?;
            d.set_item("weight_constraint", constraint_name(&w.constraint))?;
        }
        None => {
            d.set_item("kernel_weights", py.None())?;
            d.set_item("weight_constraint", py.None())?;
        }
    }
    d.set_item("objective", PyArray1::from_slice(py, &c.objective))?;
    d.set_item("n_iter", c.iterations)?;
    d.set_item("converged", c.converged)?;
    let diag = PyDict::new(py);
    for (k, v) in &c.diagnostics {
        diag.set_item(k, v)?;
    }
    d.set_item("diagnostics", diag)?;
    let timings = PyDict::new(py);
    timings.set_item("wall", c.timings.wall())?;
    timings.set_item("validate", validate)?;
    for &(phase, s) in c.timings.phases() {
        timings.set_item(phase, s)?;
    }
    d.set_item("timings", timings)?;
    d.set_item("copied_arrays", copies)?;
    Ok(d)
}

/// The kernel set of the call: the kernels (maybe none) and the features (maybe none).
fn kernel_set<'a>(
    kernels: Vec<faer::MatRef<'a, f64>>,
    features: Option<faer::MatRef<'a, f64>>,
) -> Result<KernelSet<'a>> {
    match (kernels.is_empty(), features) {
        (true, Some(x)) => KernelSet::from_features(x),
        (true, None) => Err(Error::input(
            "fit",
            "no kernels and no features: pass a list of n × n kernels, an (m, n, n) array, or features",
        )),
        (false, Some(x)) => KernelSet::from_refs(kernels)?.with_features(x),
        (false, None) => KernelSet::from_refs(kernels),
    }
}

/// Fit the registered method `method` with the parameters `params` (registry names;
/// missing ones take their defaults) on `kernels` (a list of n × n float64 arrays or
/// an (m, n, n) array; `None` for none) and `features` (an n × d float64 array or
/// `None`), with `n_clusters` clusters and the seed `seed`.
///
/// Arrays are read in place (no copy) when C- or Fortran-contiguous (a C-ordered
/// kernel through its column-major view, see [`crate::arrays`]); the GIL is released
/// while the kernels are validated and the method runs. Returns a dict with
/// `labels`, `n_clusters`, `kernel_weights`, `weight_constraint`, `objective`,
/// `n_iter`, `converged`, `diagnostics`, `timings` (seconds: `wall` of the fit, each
/// phase, and `validate`, the kernel set's checks before it) and `copied_arrays` (how
/// many inputs had to be copied).
#[pyfunction]
#[pyo3(signature = (method, params, kernels, features, n_clusters, seed))]
pub fn fit<'py>(
    py: Python<'py>,
    method: &str,
    params: &Bound<'py, PyDict>,
    kernels: Option<&Bound<'py, PyAny>>,
    features: Option<&Bound<'py, PyAny>>,
    n_clusters: i64,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let m = methods::require(method).py()?;
    let set = param_set(m, params)?;
    let model = m.build(&set).py()?;
    let k = usize::try_from(n_clusters)
        .map_err(|_| Error::param("n_clusters", n_clusters, "must be a positive integer"))
        .py()?;
    let held = kernel_arrays(kernels)?;
    let ks = arrays::kernels(&held).py()?;
    let held_x = features
        .map(|x| arrays::borrow(x, "features"))
        .transpose()?;
    let x = held_x
        .as_ref()
        .map(|a| arrays::matrix_2d(a, "features"))
        .transpose()
        .py()?;
    let copies = ks.iter().chain(&x).filter(|m| !m.is_view()).count();
    let xref = x.as_ref().map(Matrix::as_mat);
    let fitted = py.detach(|| {
        let t0 = std::time::Instant::now();
        let set = match kernel_set(ks.iter().map(Matrix::as_mat).collect(), xref) {
            Ok(set) => set,
            // The same checks on the caller's orientation, so that the message names
            // the entries as the caller indexes them.
            Err(e) => {
                return Err(kernel_set(ks.iter().map(Matrix::exact).collect(), xref)
                    .err()
                    .unwrap_or(e))
            }
        };
        let validate = t0.elapsed().as_secs_f64();
        model.fit_dyn(&set, k, seed).map(|c| (c, validate))
    });
    let (c, validate) = fitted.py()?;
    fitted_to_py(py, c, validate, copies)
}
