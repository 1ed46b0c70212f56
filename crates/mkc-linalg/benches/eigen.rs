//! Top-k eigenpairs of a dense Gaussian kernel (n = 1000, 2000, 4000; k = 10, 100), the
//! same matrices as `cargo xtask compare eigen`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use faer::Mat;
use mkc_linalg::eigen::{top_k, EigenOptions};
use rand::Rng;
use std::time::Duration;

/// exp(−‖x_i − x_j‖²/(0.1·d)) for n uniform random points in [0,1]^d.
fn gaussian_kernel(n: usize, d: usize, seed: u64) -> Mat<f64> {
    let mut rng = mkc_core::seed::rng(seed);
    let x: Vec<f64> = (0..n * d).map(|_| rng.random::<f64>()).collect();
    let scale = 1.0 / (0.1 * d as f64);
    Mat::from_fn(n, n, |i, j| {
        let s: f64 = (0..d).map(|t| (x[i * d + t] - x[j * d + t]).powi(2)).sum();
        (-s * scale).exp()
    })
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("top_k");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    let opts = EigenOptions::default();
    for n in [1000usize, 2000, 4000] {
        let a = gaussian_kernel(n, 8, 7);
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
