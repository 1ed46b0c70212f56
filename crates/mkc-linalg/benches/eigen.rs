//! Top-k eigenpairs of a dense Gaussian kernel (n = 1000, 2000, 4000; k = 10, 100), the
//! same matrices as `cargo xtask compare eigen`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use mkc_linalg::eigen::{top_k, EigenOptions};
use mkc_linalg::problems::uniform_gaussian_kernel as gaussian_kernel;
use std::time::Duration;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("top_k");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    let opts = EigenOptions::default();
    for n in [1000usize, 2000, 4000] {
        let a = gaussian_kernel(n, 8, 7).expect("n, d ≥ 1");
        for k in [10usize, 100] {
            g.bench_with_input(BenchmarkId::new(format!("n={n}"), k), &k, |b, &k| {
                b.iter(|| top_k(a.as_ref(), k, &opts).unwrap())
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
