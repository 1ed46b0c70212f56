//! MATLAB v7.3 MAT-files (HDF5 with a 512-byte MATLAB user block), read with the
//! pure-Rust `hdf5-reader` crate. Feature `mat73`.
//!
//! Orientation: MATLAB stores arrays column-major and HDF5 row-major, so MATLAB writes
//! an array of MATLAB shape `(d1, …, dk)` as an HDF5 dataset of shape `(dk, …, d1)`
//! whose row-major element order *is* MATLAB's column-major order. We therefore
//! reverse the HDF5 shape and keep the flat data as it is: the result is the same
//! [`MatArray`] a v5 file of the same variable gives (e.g. `KH` of
//! `heart_Kmatrix.mat` has HDF5 shape (9, 270, 270) and MATLAB dims 270 x 270 x 9).
//!
//! Variables read: numeric and logical datasets at the root (class from the
//! `MATLAB_class` attribute), char arrays, and sparse matrices (groups with
//! `data`/`ir`/`jc`). Cells and structs (HDF5 object references / groups) come back as
//! [`MatArray::Unsupported`].

use super::array::{
    check_csc, element_count, header_text, sparse_from_csc, utf16_chars, MatArray, MatClass,
    MatFile,
};
use crate::bytes::parse_err;
use hdf5_reader::group::Group;
use hdf5_reader::{Dataset, Hdf5File};
use mkc_core::Result;
use std::path::Path;

/// Read a MAT v7.3 file.
pub fn read(path: impl AsRef<Path>) -> Result<MatFile> {
    let path = path.as_ref();
    let data = crate::bytes::read_file(path)?;
    parse(data, path)
}

fn h5err(path: &Path, what: &str, e: impl std::fmt::Display) -> mkc_core::Error {
    parse_err(path, what.to_string(), format!("HDF5: {e}"))
}

/// Parse a MAT v7.3 file held in memory.
pub fn parse(data: Vec<u8>, path: &Path) -> Result<MatFile> {
    let header = header_text(&data);
    let file = std::panic::catch_unwind(|| Hdf5File::from_vec(data))
        .map_err(|_| parse_err(path, "file", "HDF5 reader panicked on this file"))?
        .map_err(|e| h5err(path, "file", e))?;
    let root = file
        .root_group()
        .map_err(|e| h5err(path, "root group", e))?;
    let (groups, datasets) = root.members().map_err(|e| h5err(path, "root group", e))?;
    let mut vars = Vec::new();
    for ds in &datasets {
        let name = ds.name().trim_start_matches('/').to_string();
        if name.starts_with('#') {
            continue; // MATLAB's hidden `#refs#` / `#subsystem#`
        }
        let value = read_dataset(ds, path, &name)?;
        vars.push((name, value));
    }
    for g in &groups {
        let name = g.name().trim_start_matches('/').to_string();
        if name.starts_with('#') {
            continue;
        }
        let value = read_group(g, path, &name)?;
        vars.push((name, value));
    }
    Ok(MatFile { header, vars })
}

fn string_attr(attrs: &[hdf5_reader::Attribute], key: &str) -> Option<String> {
    attrs
        .iter()
        .find(|a| a.name == key)
        .and_then(|a| a.read_string().ok())
}

fn has_attr(attrs: &[hdf5_reader::Attribute], key: &str) -> bool {
    attrs.iter().any(|a| a.name == key)
}

/// All values of a dataset as f64, in HDF5 (row-major) order.
fn read_f64(ds: &Dataset, path: &Path, name: &str) -> Result<Vec<f64>> {
    macro_rules! try_as {
        ($($t:ty),*) => {
            $(
                if let Ok(a) = ds.read_array::<$t>() {
                    return Ok(a.iter().map(|&v| v as f64).collect());
                }
            )*
        };
    }
    match ds.read_array::<f64>() {
        Ok(a) => Ok(a.iter().copied().collect()),
        Err(first) => {
            try_as!(f32, u8, i8, u16, i16, u32, i32, u64, i64);
            Err(h5err(path, &format!("variable `{name}`"), first))
        }
    }
}

fn matlab_dims(ds: &Dataset) -> Vec<usize> {
    let mut dims: Vec<usize> = ds.shape().iter().rev().map(|&d| d as usize).collect();
    while dims.len() < 2 {
        dims.push(1);
    }
    dims
}

fn read_dataset(ds: &Dataset, path: &Path, name: &str) -> Result<MatArray> {
    let attrs = ds.attributes();
    let class = string_attr(&attrs, "MATLAB_class").unwrap_or_else(|| "double".into());
    if has_attr(&attrs, "MATLAB_empty") {
        return Ok(MatArray::empty());
    }
    let dims = matlab_dims(ds);
    match class.as_str() {
        "char" => {
            let units = read_f64(ds, path, name)?.into_iter().map(|v| v as u16);
            Ok(MatArray::char_array(dims, &utf16_chars(units)))
        }
        other => match MatClass::from_name(other) {
            Some(c) => {
                let real = read_f64(ds, path, name)?;
                let count = element_count(&dims).unwrap_or(usize::MAX);
                if real.len() != count {
                    return Err(parse_err(
                        path,
                        format!("variable `{name}`"),
                        format!("{} values for MATLAB dims {dims:?}", real.len()),
                    ));
                }
                Ok(MatArray::Numeric {
                    class: c,
                    logical: other == "logical",
                    dims,
                    real,
                    imag: None,
                })
            }
            None => Ok(MatArray::Unsupported {
                class_id: if other == "cell" { 1 } else { 0 },
            }),
        },
    }
}

fn read_group(g: &Group, path: &Path, name: &str) -> Result<MatArray> {
    let attrs = g.attributes().map_err(|e| h5err(path, name, e))?;
    if !has_attr(&attrs, "MATLAB_sparse") {
        return Ok(MatArray::Unsupported { class_id: 2 });
    }
    let nrows = attrs
        .iter()
        .find(|a| a.name == "MATLAB_sparse")
        .and_then(|a| a.read_as_f64().ok())
        .unwrap_or(0.0) as usize;
    let logical = string_attr(&attrs, "MATLAB_class").as_deref() == Some("logical");
    let get = |n: &str| -> Result<Vec<f64>> {
        match g.dataset(n) {
            Ok(ds) => read_f64(&ds, path, &format!("{name}/{n}")),
            Err(_) => Ok(Vec::new()),
        }
    };
    let jc: Vec<usize> = get("jc")?.into_iter().map(|v| v as usize).collect();
    let ir: Vec<usize> = get("ir")?.into_iter().map(|v| v as usize).collect();
    let mut values = get("data")?;
    let bad = |r: String| parse_err(path, format!("sparse variable `{name}`"), r);
    if jc.is_empty() {
        return Err(bad("no column pointers jc".into()));
    }
    let ncols = jc.len() - 1;
    let nnz = check_csc(nrows, ncols, &ir, &jc).map_err(bad)?;
    if values.is_empty() && logical {
        values = vec![1.0; nnz];
    }
    sparse_from_csc((nrows, ncols, logical), (ir, jc, nnz), values, None).map_err(bad)
}
