//! One fit of every method of the family on Digit (UCI Multiple Features, views fac, fou,
//! kar; n = 2000, 3 kernels, k = 10), kernels built as SimpleMKKM's table builds them
//! (`configs/simplemkkm.toml`: every feature z-scored, Gaussian with σ = the median
//! pairwise distance per view). A fit is the contract's: preprocessing, the optimisation
//! and one k-means on H; kernel construction is outside the timing.
//!
//! `cargo bench -p mkc-mkkm --bench digit` (`-- lmkkm` for one method). Data: the
//! registry's `mfeat` from the data directory (`MKC_DATA_DIR`, else `./data`); skipped
//! with a message when absent. Before timing, one fit per method prints its iterations,
//! the optimisation time and the time per iteration.

#[path = "../../mkc-simplemkkm/examples/common/mod.rs"]
mod common;

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use mkc_mkkm::prelude::*;

use common::K;

/// The family's methods with their defaults, by registry name.
fn methods() -> Vec<Box<dyn DynClusterer>> {
    vec![
        Box::new(MkkmParams::new()),
        Box::new(MkkmMirParams::new()),
        Box::new(MkkmMmParams::new()),
        Box::new(LfMvcParams::new()),
        Box::new(OnkcParams::new()),
        Box::new(LkamParams::new()),
        Box::new(LmkkmParams::new()),
    ]
}

fn bench(c: &mut Criterion) {
    let Some((kernels, truth)) = common::table_kernels() else {
        return;
    };
    let data = KernelSet::new(&kernels).expect("Digit kernels");
    let mut g = c.benchmark_group("mkkm_family_digit");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for m in methods() {
        let fit = m.fit_dyn(&data, K, 0).expect("fit");
        eprintln!("{}", common::fit_line(m.name(), &fit, &truth));
        g.bench_function(m.name(), |b| {
            b.iter(|| m.fit_dyn(&data, K, 0).expect("fit"))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
