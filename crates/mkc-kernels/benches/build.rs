//! Kernel matrix construction at n = 4000, d = 64 (issue 2): linear and Gaussian from
//! dense features, and the 12 SCMK kernels sharing one Gram matrix.
use criterion::{criterion_group, criterion_main, Criterion};
use faer::Mat;
use mkc_kernels::{build, gram, KernelFn, KernelSpec};
use rand::Rng;

fn bench(c: &mut Criterion) {
    let (n, d) = (4000, 64);
    let mut r = mkc_core::seed::rng(0);
    let x = Mat::from_fn(n, d, |_, _| r.random::<f64>());
    let mut g = c.benchmark_group("kernel_matrix_n4000_d64");
    g.sample_size(10);
    g.bench_function("linear", |b| {
        b.iter(|| gram(x.as_ref(), &KernelFn::Linear).unwrap())
    });
    g.bench_function("gaussian", |b| {
        b.iter(|| gram(x.as_ref(), &KernelFn::Gaussian { sigma: 2.0 }).unwrap())
    });
    g.bench_function("scmk_twelve", |b| {
        b.iter(|| build(x.as_ref(), &KernelSpec::scmk_twelve(), &[]).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
