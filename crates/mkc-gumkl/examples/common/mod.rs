//! Multiple Features subsets as the examples use them: one linear kernel per view.
// Each example uses only part of this module.
#![allow(dead_code)]

use faer::Mat;
use mkc_data::{DataDir, Features, Registry};
use mkc_kernels::{KernelSpec, Normalization};

/// The kernels of a Multiple Features subset, their view names and the true classes.
pub struct Subset {
    pub kernels: Vec<Mat<f64>>,
    pub views: Vec<String>,
    pub truth: Vec<usize>,
}

/// How each view is turned into a kernel.
pub struct KernelOptions {
    /// Standardise every feature (population standard deviation) before the kernel.
    pub zscore: bool,
    /// Normalisations of each linear kernel, in order.
    pub norms: Vec<Normalization>,
    /// Views left out.
    pub drop: Vec<String>,
}

impl Default for KernelOptions {
    /// Centred and scaled to trace n, as `configs/gumkl.toml` does (the paper states no
    /// normalisation; without one eq. (7) would rank the views by the units of their features).
    fn default() -> Self {
        Self {
            zscore: false,
            norms: vec![Normalization::Center, Normalization::Trace],
            drop: Vec::new(),
        }
    }
}

/// Multiple Features from the data directory (committed under `data/`), or `None` with a
/// message when its files are missing.
pub fn load_mfeat(dir: &DataDir) -> mkc_core::Result<Option<mkc_data::Dataset>> {
    let registry = Registry::load_default()?;
    let status = registry.status("mfeat", dir)?;
    if !status.is_present() {
        eprintln!(
            "Multiple Features is not in {} (missing: {}); run from the repository root, or \
             give --data-dir / set MKC_DATA_DIR to a folder holding bundle/mfeat.",
            dir.root.display(),
            status
                .missing()
                .iter()
                .map(|f| f.rel.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        return Ok(None);
    }
    registry.load("mfeat", dir).map(Some)
}

/// The digits `classes` of Multiple Features, one linear kernel per view.
pub fn subset(
    mfeat: &mkc_data::Dataset,
    classes: &[&str],
    opts: &KernelOptions,
) -> mkc_core::Result<Subset> {
    let classes: Vec<String> = classes.iter().map(|c| c.to_string()).collect();
    let ds = mfeat.keep_classes(&classes)?;
    let Features::Views(views) = &ds.features else {
        return Err(mkc_core::Error::input(
            "mfeat",
            "expected one matrix per view",
        ));
    };
    let mut kernels = Vec::new();
    let mut names = Vec::new();
    for (name, x) in views.iter().filter(|(v, _)| !opts.drop.contains(v)) {
        let mut x = x.clone();
        if opts.zscore {
            mkc_data::preprocess::z_score(&mut x, mkc_data::preprocess::StdDev::Population);
        }
        kernels.extend(mkc_kernels::build(
            x.as_ref(),
            &[KernelSpec::Linear],
            &opts.norms,
        )?);
        names.push(name.clone());
    }
    Ok(Subset {
        kernels,
        views: names,
        truth: ds.labels.clone(),
    })
}

/// The value following `flag` on the command line, if any.
pub fn arg_value(args: &[String], flag: &str) -> Option<String> {
    args.iter()
        .position(|a| a == flag)
        .and_then(|i| args.get(i + 1).cloned())
}
