//! Kernel k-means, n = 2000, k = 10, 20 iterations (issue 2's benchmark), from fixed
//! random initial labels on a Gaussian kernel of uniform random points (no cluster
//! structure, so all 20 iterations run).

use criterion::{criterion_group, criterion_main, Criterion};
use mkc_core::ParamGuard;
use mkc_kmeans::KernelKMeansParams;
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let (n, k) = (2000, 10);
    let (km, labels) = mkc_core::testing::uniform_kernel_and_labels(n, 8, k, 42);
    let params = KernelKMeansParams::new()
        .initial_labels(labels)
        .max_iter(20)
        .check()
        .unwrap();
    let fit = params.fit_kernel(km.as_ref(), k, 0).unwrap();
    eprintln!(
        "kernel k-means bench: n_iter = {}, converged = {}",
        fit.n_iter, fit.converged
    );
    let mut g = c.benchmark_group("kernel_kmeans");
    g.sample_size(10);
    g.bench_function("n2000_k10_iter20", |b| {
        b.iter(|| black_box(params.fit_kernel(black_box(km.as_ref()), k, 0).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
