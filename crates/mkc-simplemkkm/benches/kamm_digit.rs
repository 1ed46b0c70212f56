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
use mkc_simplemkkm::prelude::*;

use common::K;

fn bench(c: &mut Criterion) {
    let Some((kernels, truth)) = common::table_kernels() else {
        return;
    };
    let data = KernelSet::new(&kernels).expect("Digit kernels");
    let methods: Vec<Box<dyn DynClusterer>> =
        vec![Box::new(KammRParams::new()), Box::new(KammAParams::new())];
    let mut g = c.benchmark_group("kamm_digit");
    g.sample_size(10);
    for m in &methods {
        let fit = m.fit_dyn(&data, K, 0).expect("fit");
        let gamma = fit.weights().unwrap_or(&[]);
        eprintln!(
            "{}, γ = {gamma:.3?}",
            common::fit_line(m.name(), &fit, &truth)
        );
        g.bench_function(m.name(), |b| {
            b.iter(|| m.fit_dyn(&data, K, 0).expect("fit"))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
