//! GUMKL and MVKKM on four digits of UCI Multiple Features (six views, one linear kernel
//! each), through the workspace's method API.
//!
//! ```text
//! cargo run --release -p mkc-gumkl --example gumkl_quickstart -- [--data-dir DIR] [--p 3]
//! ```
//!
//! The data directory is `--data-dir`, else `$MKC_DATA_DIR`, else `./data` (Multiple
//! Features is committed there, so this runs from the repository root of a fresh clone).
//! Expect GUMKL to take well under a second and MVKKM about half a minute: its start, exact
//! global kernel k-means, runs kernel k-means from each of the 800 points for every cluster
//! added (`MvkkmInit::FastGlobalKernelKMeans` runs one).

mod common;

use mkc_data::DataDir;
use mkc_gumkl::prelude::*;
use mkc_metrics::{accuracy, nmi, NmiNorm};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = DataDir::resolve(
        common::arg_value(&args, "--data-dir")
            .as_deref()
            .map(std::path::Path::new),
    );
    let p = match common::arg_value(&args, "--p") {
        Some(v) => v
            .parse()
            .map_err(|_| Error::param("p", v, "not a number"))?,
        None => 3.0,
    };
    let Some(mfeat) = common::load_mfeat(&dir)? else {
        return Ok(());
    };
    // Digits 0, 1, 2 and 3 (the D1 subset of configs/gumkl.toml): n = 800, four clusters.
    let d1 = common::subset(
        &mfeat,
        &["0", "1", "2", "3"],
        &common::KernelOptions::default(),
    )?;
    let data = KernelSet::new(&d1.kernels)?.with_names(d1.views.clone())?;

    let methods: Vec<Box<dyn DynClusterer>> = vec![
        Box::new(GumklParams::new().p(p)),
        Box::new(MvkkmParams::new().p(p)),
    ];
    for method in &methods {
        // Both methods are deterministic: the seed is ignored.
        let fit = method.fit_dyn(&data, 4, 0)?;
        println!(
            "{} (p = {p}): NMI {:.3}, ACC {:.3}, {} iterations, {:.2} s",
            method.name(),
            nmi(&d1.truth, &fit.labels, NmiNorm::Arithmetic)?,
            accuracy(&d1.truth, &fit.labels)?,
            fit.iterations,
            fit.timings.wall()
        );
        let weights = fit.weights().unwrap_or_default();
        for (view, w) in data.names().iter().zip(weights) {
            println!("  weight {view:>4}: {w:.3}");
        }
        println!("  first labels: {:?}", &fit.labels[..12]);
    }
    Ok(())
}
