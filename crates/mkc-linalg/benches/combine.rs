//! Weighted kernel sum Σ_p c_p K_p into a preallocated matrix (n = 2000, m = 10), and
//! the trace quadratics tr(HᵀK_pH) for the same kernels (c = 10 columns).

use criterion::{criterion_group, criterion_main, Criterion};
use faer::Mat;
use mkc_linalg::{trace_quadratic_many, weighted_sum_into};
use std::hint::black_box;
use std::time::Duration;

fn kernels(n: usize, m: usize) -> Vec<Mat<f64>> {
    (0..m)
        .map(|p| {
            Mat::from_fn(n, n, |i, j| {
                (-((i as f64 - j as f64) / (10.0 + p as f64)).powi(2)).exp()
            })
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let (n, m) = (2000, 10);
    let ks = kernels(n, m);
    let refs: Vec<_> = ks.iter().map(|k| k.as_ref()).collect();
    let coeffs: Vec<f64> = (0..m).map(|p| 1.0 / (1.0 + p as f64)).collect();
    let mut dst = Mat::<f64>::zeros(n, n);
    let mut g = c.benchmark_group("combine");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    g.bench_function("weighted_sum_into n=2000 m=10", |b| {
        b.iter(|| weighted_sum_into(dst.as_mut(), black_box(&coeffs), &refs).unwrap())
    });
    let h = Mat::from_fn(n, 10, |i, j| ((i * 7 + j) % 11) as f64);
    g.bench_function("trace_quadratic_many n=2000 m=10 c=10", |b| {
        b.iter(|| trace_quadratic_many(&refs, black_box(h.as_ref())).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
