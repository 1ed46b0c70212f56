//! GMMC's barrier method: a synthetic size sweep (two groups in 10 dimensions, linear
//! kernel, C = 1, ℓ = 0.03 n, n = 250, 500, 1000) and an LG-MMC data set with the linear
//! kernel (`GMMC_BENCH_DATASET`, default `german-credit`, n = 1000, the largest set the
//! paper's GMMC finished; from the data directory `MKC_DATA_DIR`, else `./data`; skipped
//! with a message when it is missing). `GMMC_BENCH_DATASET=satellite-1v2` (n = 2236, the
//! largest solved here, about 5.5 min a fit) takes an hour for criterion's 10 samples.
//! Each fit prints its Newton steps and certified gap once.
//!
//! ```text
//! cargo bench -p mkc-mmc --bench gmmc
//! ```

use criterion::{criterion_group, criterion_main, Criterion};
use faer::Mat;
use mkc_mmc::gmmc::{Balance, GmmcParams};
use mkc_mmc::prelude::*;
use std::hint::black_box;

/// Two groups of n/2 points, centres ±1 on the first axis, uniform jitter of width 3.
fn synthetic(n: usize, d: usize) -> Mat<f64> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    };
    Mat::from_fn(n, d, |i, j| {
        let side = if i % 2 == 0 { -1.0 } else { 1.0 };
        (if j == 0 { side } else { 0.0 }) + 3.0 * next()
    })
}

fn once(what: &str, params: &GmmcParams, data: &KernelSet<'_>) {
    let fit = params.fit(data, 2, 0).unwrap();
    let d = &fit.diagnostics;
    eprintln!(
        "gmmc bench {what}: n = {}, r = {}, {} Newton steps, {} rounds, gap {:.1e} (relaxation {:.4}), {}",
        data.n(),
        d.feature_dim,
        d.newton_steps,
        fit.iterations,
        d.gap,
        d.relaxation,
        fit.timings
    );
}

fn bench(c: &mut Criterion) {
    let params = GmmcParams::new().c(1.0).balance(Balance::Fraction(0.03));
    let mut g = c.benchmark_group("gmmc");
    g.sample_size(10);
    for n in [250, 500, 1000] {
        let x = synthetic(n, 10);
        let data = KernelSet::from_features(x.as_ref()).unwrap();
        once(&format!("synthetic n{n}"), &params, &data);
        g.bench_function(format!("synthetic_linear_n{n}"), |b| {
            b.iter(|| black_box(params.fit(black_box(&data), 2, 0).unwrap()))
        });
    }
    let name = std::env::var("GMMC_BENCH_DATASET").unwrap_or_else(|_| "german-credit".into());
    let dir = mkc_data::DataDir::resolve(None);
    match mkc_data::Registry::load_default().and_then(|r| r.load(&name, &dir)) {
        Ok(ds) => {
            let mkc_data::Features::Dense(mut x) = ds.features.clone() else {
                panic!("{name}: dense features expected");
            };
            mkc_data::preprocess::min_max(&mut x, -1.0, 1.0);
            let data = KernelSet::from_features(x.as_ref()).unwrap();
            once(&name, &params, &data);
            g.sample_size(10);
            g.bench_function(format!("{name}_linear"), |b| {
                b.iter(|| black_box(params.fit(black_box(&data), 2, 0).unwrap()))
            });
        }
        Err(e) => eprintln!("gmmc bench: skip {name}: {e}"),
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
