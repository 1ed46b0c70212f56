//! The mkc-data registry as a [`DataSource`]: datasets by name from
//! `configs/datasets.toml`, files from the data directory (`--data-dir`,
//! `$MKC_DATA_DIR`, `./data`).

use crate::dataset::{DataSource, RawData, RawFeatures};
use mkc_core::Result;
use mkc_data::{DataDir, Features, Registry};
use std::path::Path;

/// Datasets from the mkc-data registry.
pub struct RegistrySource {
    /// The registry.
    pub registry: Registry,
    /// The data directory.
    pub dir: DataDir,
}

impl RegistrySource {
    /// The built-in registry and the data directory resolved from `cli`, `$MKC_DATA_DIR`
    /// or `./data`.
    pub fn new(cli_data_dir: Option<&Path>) -> Result<Self> {
        Ok(RegistrySource {
            registry: Registry::load_default()?,
            dir: DataDir::resolve(cli_data_dir),
        })
    }
}

/// Convert an mkc-data dataset.
pub fn from_dataset(ds: mkc_data::Dataset) -> RawData {
    let features = match ds.features {
        Features::Dense(x) => RawFeatures::Dense(x),
        Features::Sparse(x) => RawFeatures::Sparse(x),
        Features::Views(v) => RawFeatures::Views(v),
        Features::Kernels(k) => RawFeatures::Kernels(k),
    };
    RawData {
        features,
        labels: ds.labels,
        class_names: ds.class_names,
    }
}

impl DataSource for RegistrySource {
    fn contains(&self, name: &str) -> bool {
        self.registry.entry(name).is_ok()
    }
    fn load(&self, name: &str) -> Result<RawData> {
        self.registry.load(name, &self.dir).map(from_dataset)
    }
}
