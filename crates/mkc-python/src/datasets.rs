//! Datasets of the registry (`configs/datasets.toml`, compiled in) read from the data
//! directory (`data_dir`, else `$MKC_DATA_DIR`, else `./data`), raw or through a kernel
//! recipe exactly as `mkc cluster --dataset NAME --recipe R` prepares them.

use crate::arrays::to_numpy;
use crate::errors::IntoPyResult;
use crate::kernels;
use faer::sparse::SparseRowMat;
use mkc_core::{Error, Result};
use mkc_data::{DataDir, Features, Registry};
use mkc_experiments::config::DatasetCfg;
use mkc_experiments::dataset::{prepare, DataSource, RawData};
use mkc_experiments::registry::RegistrySource;
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::path::PathBuf;
use std::sync::Mutex;

/// Names of the registered datasets.
#[pyfunction]
pub fn names() -> PyResult<Vec<String>> {
    let reg = Registry::load_default().py()?;
    Ok(reg.names().into_iter().map(String::from).collect())
}

/// One dict per registered dataset: `name`, `description`, `n`, `d`, `n_classes`,
/// `base` (the dataset it is derived from, or None) and `present` (all its files are in
/// the data directory).
#[pyfunction]
#[pyo3(signature = (data_dir=None))]
pub fn summaries(py: Python<'_>, data_dir: Option<PathBuf>) -> PyResult<Bound<'_, PyList>> {
    let reg = Registry::load_default().py()?;
    let dir = DataDir::resolve(data_dir.as_deref());
    let out = PyList::empty(py);
    for s in reg.summaries(&dir).py()? {
        let d = PyDict::new(py);
        d.set_item("name", s.name)?;
        d.set_item("description", s.description)?;
        d.set_item("n", s.n)?;
        d.set_item("d", s.d)?;
        d.set_item("n_classes", s.n_classes)?;
        d.set_item("base", s.base)?;
        d.set_item("present", s.present)?;
        out.append(d)?;
    }
    Ok(out)
}

fn labels_array<'py>(py: Python<'py>, labels: &[usize]) -> Bound<'py, PyArray1<isize>> {
    PyArray1::from_vec(py, labels.iter().map(|&l| l as isize).collect())
}

/// A sparse matrix as the arrays of scipy's CSR form: `(data, indices, indptr, shape)`.
fn csr<'py>(py: Python<'py>, m: &SparseRowMat<usize, f64>) -> PyResult<Bound<'py, PyAny>> {
    let r = m.as_ref();
    let (mut data, mut indices, mut indptr) = (Vec::new(), Vec::new(), vec![0usize]);
    for i in 0..r.nrows() {
        indices.extend_from_slice(r.col_idx_of_row_raw(i));
        data.extend_from_slice(r.val_of_row(i));
        indptr.push(indices.len());
    }
    let t = (
        PyArray1::from_vec(py, data),
        PyArray1::from_vec(py, indices),
        PyArray1::from_vec(py, indptr),
        (r.nrows(), r.ncols()),
    );
    Ok(t.into_pyobject(py)?.into_any())
}

/// The raw features of a dataset into `d`: `features` (dense n × d), `views` (list of
/// `(name, n × d_v)`), `sparse` (CSR arrays) or `kernels` (list of n × n); the other
/// keys are None.
fn raw_features(py: Python<'_>, d: &Bound<'_, PyDict>, f: &Features) -> PyResult<()> {
    for key in ["features", "views", "sparse", "kernels"] {
        d.set_item(key, py.None())?;
    }
    match f {
        Features::Dense(x) => d.set_item("features", to_numpy(py, x.as_ref()))?,
        Features::Views(vs) => {
            let l = PyList::empty(py);
            for (name, x) in vs {
                l.append((name, to_numpy(py, x.as_ref())))?;
            }
            d.set_item("views", l)?;
        }
        Features::Sparse(x) => d.set_item("sparse", csr(py, x)?)?,
        Features::Kernels(ks) => {
            let l = PyList::empty(py);
            for k in ks {
                l.append(to_numpy(py, k.as_ref()))?;
            }
            d.set_item("kernels", l)?;
        }
    }
    Ok(())
}

/// The registry as a data source that remembers the class names of what it loaded
/// (the prepared form keeps only label indices).
struct Remembering {
    inner: RegistrySource,
    class_names: Mutex<Vec<String>>,
}

impl DataSource for Remembering {
    fn contains(&self, name: &str) -> bool {
        self.inner.contains(name)
    }
    fn load(&self, name: &str) -> Result<RawData> {
        let raw = self.inner.load(name)?;
        if let Ok(mut names) = self.class_names.lock() {
            names.clone_from(&raw.class_names);
        }
        Ok(raw)
    }
}

/// The dataset through a recipe, as the CLI prepares `--dataset NAME --recipe R`.
fn prepared<'py>(
    py: Python<'py>,
    source: RegistrySource,
    name: &str,
    recipe: &mkc_experiments::config::Recipe,
) -> PyResult<Bound<'py, PyDict>> {
    let src = Remembering {
        inner: source,
        class_names: Mutex::new(Vec::new()),
    };
    let cfg = DatasetCfg::default();
    let p = py.detach(|| prepare(&src, name, &cfg, Some(recipe))).py()?;
    let d = PyDict::new(py);
    d.set_item("name", name)?;
    d.set_item("labels", labels_array(py, &p.truth))?;
    let class_names = src
        .class_names
        .lock()
        .map(|n| n.clone())
        .unwrap_or_default();
    d.set_item("class_names", class_names)?;
    d.set_item("n_clusters", p.n_clusters)?;
    let ks = PyList::empty(py);
    for k in &p.kernels {
        ks.append(to_numpy(py, k.as_ref()))?;
    }
    d.set_item("kernels", ks)?;
    d.set_item("kernel_names", p.kernel_names)?;
    d.set_item("features", p.features.map(|x| to_numpy(py, x.as_ref())))?;
    Ok(d)
}

/// Load the registered dataset `name` from the data directory. Without a recipe: its
/// raw form (`features`, `views`, `sparse` or `kernels`, `labels`, `class_names`).
/// With a recipe (a built-in name, or `recipe_json`): features scaled and kernels
/// built as `mkc cluster --dataset NAME --recipe R` does (`kernels`, `kernel_names`,
/// scaled `features`, `labels`, `class_names`, `n_clusters`).
#[pyfunction]
#[pyo3(signature = (name, data_dir=None, recipe=None, recipe_json=None))]
pub fn load<'py>(
    py: Python<'py>,
    name: &str,
    data_dir: Option<PathBuf>,
    recipe: Option<&str>,
    recipe_json: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let source = RegistrySource::new(data_dir.as_deref()).py()?;
    if !source.registry.names().contains(&name) {
        return Err(Error::param(
            "dataset",
            name,
            "not in the registry (mkc.datasets.names() lists them)",
        ))
        .py();
    }
    if recipe.is_some() || recipe_json.is_some() {
        let rc = kernels::resolve(recipe, recipe_json).py()?;
        return prepared(py, source, name, &rc);
    }
    let ds = py.detach(|| source.registry.load(name, &source.dir)).py()?;
    let d = PyDict::new(py);
    d.set_item("name", &ds.name)?;
    d.set_item("labels", labels_array(py, &ds.labels))?;
    d.set_item("class_names", &ds.class_names)?;
    raw_features(py, &d, &ds.features)?;
    Ok(d)
}
