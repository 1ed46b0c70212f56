//! KAMM-R and KAMM-A (SimpleMKKM's Table 3) on Digit (UCI Multiple Features, views fac,
//! fou, kar; n = 2000, 3 kernels, k = 10) with the table's kernels
//! (`configs/simplemkkm.toml`): one contract fit each (preprocessing, optimisation, one
//! k-means on H); kernel construction outside the timing. Before timing, one fit per
//! method prints its iterations, the optimisation time and the time per iteration.
//!
//! `cargo bench -p mkc-simplemkkm --bench kamm_digit`. Data: the registry's `mfeat` from
//! the data directory (`MKC_DATA_DIR`, else `./data`); skipped with a message when absent.

#[path = "../examples/common/mod.rs"]
mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use faer::Mat;
use mkc_simplemkkm::prelude::*;

const K: usize = 10;

fn bench(c: &mut Criterion) {
    let Some((views, truth)) = common::digit_views() else {
        return;
    };
    let kernels: Vec<Mat<f64>> = views
        .iter()
        .map(|x| common::kernel(x, common::TABLE_RECIPE))
        .collect();
    let data = KernelSet::new(&kernels).expect("Digit kernels");
    let methods: Vec<Box<dyn DynClusterer>> =
        vec![Box::new(KammRParams::new()), Box::new(KammAParams::new())];
    let mut g = c.benchmark_group("kamm_digit");
    g.sample_size(10);
    for m in &methods {
        let fit = m.fit_dyn(&data, K, 0).expect("fit");
        let opt = fit.timings.get("weights");
        let acc = mkc_metrics::accuracy(&truth, &fit.labels).unwrap_or(f64::NAN);
        eprintln!(
            "{:>7}: {} iterations, wall {:.2} s, optimisation {opt:.2} s ({:.3} s per iteration), ACC {:.1}, γ = {:.3?}",
            m.name(),
            fit.iterations,
            fit.timings.wall(),
            opt / fit.iterations.max(1) as f64,
            100.0 * acc,
            fit.weights().unwrap_or(&[]),
        );
        g.bench_function(m.name(), |b| {
            b.iter(|| m.fit_dyn(&data, K, 0).expect("fit"))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
