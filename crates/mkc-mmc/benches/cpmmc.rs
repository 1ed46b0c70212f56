//! CPMMC on MNIST 1 vs 7 (n = 15170, d = 784), the pair whose time LG-MMC's Table 3
//! reports for CPMMC (51.13 s, MATLAB on a 2.0 GHz Xeon): the linear feature-space path,
//! features scaled per column to [−1, 1] as in `configs/lgmmc.toml`, β = 0.03 n, seed 0,
//! C = 1 and C = 10 (the table's best setting). The data come from the data directory
//! (`MKC_DATA_DIR`, else `./data`); the bench is skipped with a message when they are
//! missing. Each setting prints its rounds, cuts, CCCP steps and error once.
//!
//! ```text
//! MKC_DATA_DIR=/path/to/data cargo bench -p mkc-mmc --bench cpmmc
//! ```

use criterion::{criterion_group, criterion_main, Criterion};
use mkc_mmc::prelude::*;
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let dir = mkc_data::DataDir::resolve(None);
    let ds = match mkc_data::Registry::load_default().and_then(|r| r.load("mnist-1v7", &dir)) {
        Ok(ds) => ds,
        Err(e) => {
            eprintln!("cpmmc bench: skipped, MNIST 1 vs 7 is not in the data directory: {e}");
            return;
        }
    };
    let mkc_data::Features::Dense(mut x) = ds.features.clone() else {
        eprintln!("cpmmc bench: skipped, mnist-1v7 has no dense features");
        return;
    };
    mkc_data::preprocess::min_max(&mut x, -1.0, 1.0);
    let data = KernelSet::from_features(x.as_ref()).expect("finite features");
    let mut g = c.benchmark_group("cpmmc_mnist_1v7");
    g.sample_size(10);
    for cc in [1.0, 10.0] {
        let params = CpmmcParams::new().c(cc).balance(0.03);
        let fit = params.fit(&data, 2, 0).expect("CPMMC fit");
        let err = 100.0 - 100.0 * mkc_metrics::accuracy(&ds.labels, &fit.labels).unwrap_or(0.0);
        eprintln!(
            "cpmmc bench C = {cc}: {} rounds, {} cuts, {} CCCP steps, error {err:.2}%, {}",
            fit.iterations, fit.diagnostics.cuts, fit.diagnostics.cccp_steps, fit.timings
        );
        g.bench_function(format!("linear_C{cc}"), |b| {
            b.iter(|| black_box(params.fit(black_box(&data), 2, 0).unwrap()))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
