//! Readers for the data formats of the MKC/MMC field and a dataset registry.
//!
//! - [`csv`]: dense CSV/TSV (gzip allowed) with a stated missing-value policy;
//!   the bundle layout (`data.csv[.gz]` or `views/*.csv`, `labels.csv`, `split.csv`)
//!   is read through the registry's `bundle` format.
//! - [`libsvm`]: LIBSVM/SVMlight sparse text → faer `SparseRowMat`.
//! - [`npy`]: `.npy` read (f8/f4/ints/bool, either order) and write (f8).
//! - [`mat`]: MATLAB MAT v5, written here from the published format: every numeric
//!   class, logical, sparse, cell, struct and char arrays, compressed elements, both
//!   byte orders. `mat73` (= `mat::v73`, feature `mat73`): MAT v7.3 / HDF5, via the pure-Rust
//!   `hdf5-reader` crate. [`kmatrix`]: Xinwang Liu's `<name>_Kmatrix.mat` kernel files.
//! - [`Registry`] (`configs/datasets.toml`): every dataset by name, with checksums,
//!   selection (split, classes, views), preprocessing and expected sizes;
//!   [`DataDir`] resolves `--data-dir`, then `$MKC_DATA_DIR`, then `./data`.
//!
//! Every reader checks claimed sizes against the bytes present before allocating and
//! returns a typed [`mkc_core::Error`] on malformed input (never a panic).
//!
//! ```
//! use mkc_data::{DataDir, Features, Registry};
//!
//! // The small bundle sets are committed under `data/` in the repository.
//! let dir = DataDir::at(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data"));
//! let registry = Registry::load_default()?;
//! let ds = registry.load("ionosphere", &dir)?;
//! assert_eq!((ds.n_samples(), ds.n_features()), (351, 34));
//! assert_eq!(ds.class_counts(), vec![("bad".to_string(), 126), ("good".to_string(), 225)]);
//!
//! // A derived set: Multiple Features digits 1 vs 7, one dense matrix per view.
//! let pair = registry.load("mfeat-1v7", &dir)?;
//! let Features::Views(views) = &pair.features else { unreachable!() };
//! assert_eq!((pair.n_samples(), views.len()), (400, 6));
//!
//! // .npy round trip.
//! let k = faer::Mat::from_fn(2, 2, |i, j| (i + j) as f64);
//! let bytes = mkc_data::npy::to_bytes(k.as_ref());
//! assert_eq!(mkc_data::npy::from_bytes(&bytes, "k.npy".as_ref())?, k);
//! # Ok::<(), mkc_core::Error>(())
//! ```

#![forbid(unsafe_code)]

mod bytes;
pub mod csv;
pub mod datadir;
pub mod dataset;
pub mod fetch;
pub mod kmatrix;
pub mod libsvm;
pub mod mat;
#[cfg(feature = "mat73")]
pub use mat::v73 as mat73;
pub mod npy;
pub mod preprocess;
pub mod registry;

pub use bytes::Endian;
pub use datadir::{DataDir, DataDirSource};
pub use dataset::{Dataset, Features};
pub use kmatrix::read_kmatrix;
pub use mat::{read_mat, MatArray, MatClass, MatFile};
pub use registry::{DatasetEntry, DatasetSummary, Registry, Status};
