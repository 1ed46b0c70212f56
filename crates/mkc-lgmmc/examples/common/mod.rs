//! What the two-class quickstarts (LG-MMC here, GMMC and CPMMC in `mkc-mmc`) share: the
//! command line `[dataset] [C] [balance] [flag]`, a registered dataset's features scaled
//! per column to [−1, 1] (LG-MMC's protocol), a fit on the linear kernel of the features
//! and one on the Gaussian kernel with σ = the RMS pairwise distance (the middle of the
//! paper's five widths), and the report of each (error against the classes, cluster
//! sizes, then the method's own lines).
//!
//! Data directory: `MKC_DATA_DIR`, else `./data`, where the repository commits the small
//! sets; a dataset that is not there is skipped with a printed reason.

#![allow(dead_code)]

use faer::Mat;
use mkc_core::{Clustering, Error, KernelSet, Result};
use mkc_data::{Dataset, Features, Registry};
use mkc_kernels::{build, KernelSpec, Width};

/// The command line and the dataset it names.
pub struct TwoClass {
    /// The registry name.
    pub name: String,
    /// C (default 1).
    pub c: f64,
    /// The balance as a fraction of n (default 0.03).
    pub balance: f64,
    /// The fourth argument, if any.
    pub flag: Option<String>,
    /// The dataset (labels: the classes).
    pub dataset: Dataset,
    /// Its features scaled per column to [−1, 1].
    pub x: Mat<f64>,
}

/// Parse `[dataset] [C] [balance] [flag]` (dataset default `default`), load the dataset
/// and scale its features; `None` when the dataset is not in the data directory.
pub fn two_class(default: &str) -> Result<Option<TwoClass>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or(default, String::as_str).to_string();
    let number = |i: usize, d: f64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let (c, balance) = (number(1, 1.0), number(2, 0.03));
    let Some(dataset) = Registry::load_or_skip(&name)? else {
        return Ok(None);
    };
    let Features::Dense(mut x) = dataset.features.clone() else {
        return Err(Error::input(name, "needs dense features"));
    };
    mkc_data::preprocess::min_max(&mut x, -1.0, 1.0);
    println!("{name}: n = {}, d = {}", x.nrows(), x.ncols());
    Ok(Some(TwoClass {
        name,
        c,
        balance,
        flag: args.get(3).cloned(),
        dataset,
        x,
    }))
}

impl TwoClass {
    /// The Gaussian kernel with σ = the RMS pairwise distance of the scaled features.
    pub fn gaussian(&self) -> Result<Vec<Mat<f64>>> {
        let spec = KernelSpec::Gaussian {
            width: Width::MeanRatio { ratio: 1.0 },
        };
        build(self.x.as_ref(), &[spec], &[])
    }

    /// `fit` on the linear kernel of the features, then (unless the fourth argument is
    /// `linear`) on the Gaussian kernel (named `gauss(σ=rms)`); after each, the outcome
    /// and the two lines `details` writes about the fit.
    pub fn linear_and_gaussian<D>(
        &self,
        fit: impl Fn(&KernelSet<'_>) -> Result<Clustering<D>>,
        details: impl Fn(&Clustering<D>) -> [String; 2],
    ) -> Result<()> {
        let show = |what: &str, fit: Clustering<D>| -> Result<()> {
            let [first, second] = details(&fit);
            println!("{what}: {}, {first}", self.outcome(&fit.labels)?);
            println!("  {second}");
            Ok(())
        };
        let linear = KernelSet::from_features(self.x.as_ref())?;
        show("linear kernel", fit(&linear)?)?;
        if self.flag.as_deref() != Some("linear") {
            let gauss = self.gaussian()?;
            let data = KernelSet::new(&gauss)?.with_names(vec!["gauss(σ=rms)".into()])?;
            show("Gaussian kernel", fit(&data)?)?;
        }
        Ok(())
    }

    /// `"error e%, clusters a / b"` of 0/1 labels against the classes.
    pub fn outcome(&self, labels: &[usize]) -> Result<String> {
        let acc = mkc_metrics::accuracy(&self.dataset.labels, labels)?;
        let ones = labels.iter().filter(|&&l| l == 1).count();
        Ok(format!(
            "error {:.2}%, clusters {} / {}",
            100.0 * (1.0 - acc),
            labels.len() - ones,
            ones
        ))
    }
}
