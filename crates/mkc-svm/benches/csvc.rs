//! Criterion benches for the `cargo xtask compare svm` cases: C-SVC on an RBF kernel
//! (gamma 0.1) of two overlapping 10-D Gaussian blobs, n = 1000, 2000, 4000, C = 1, 10,
//! and the warm-started re-solve after flipping the least confident label at n = 2000.
//! Small sample sizes: `cargo bench -p mkc-svm`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use mkc_core::ParamGuard;
use mkc_svm::{CSvcParams, CheckedKernel};

use mkc_svm::problems::overlapping_blobs_rbf as blobs;

fn cold(c: &mut Criterion) {
    let mut group = c.benchmark_group("csvc_rbf_blobs");
    group.sample_size(10);
    for n in [1000usize, 2000, 4000] {
        let (k, y) = blobs(n, 2024);
        for cc in [1.0, 10.0] {
            let svc = CSvcParams::new(cc).check().expect("valid C");
            group.bench_with_input(BenchmarkId::new(format!("C={cc}"), n), &n, |b, _| {
                b.iter(|| svc.fit(k.as_ref(), &y).expect("fit"))
            });
        }
    }
    group.finish();
}

fn warm(c: &mut Criterion) {
    let mut group = c.benchmark_group("csvc_warm_flip");
    group.sample_size(10);
    let n = 2000;
    let (k, y) = blobs(n, 2024);
    let ck = CheckedKernel::new(k.as_ref()).expect("kernel");
    for cc in [1.0, 10.0] {
        let svc = CSvcParams::new(cc).check().expect("valid C");
        let base = svc.solve(&ck, 1.0, &y, None).expect("base");
        let flip = (0..n)
            .min_by(|&a, &b| (y[a] * base.decision[a]).total_cmp(&(y[b] * base.decision[b])))
            .unwrap_or(0);
        let mut y2 = y.clone();
        y2[flip] = -y2[flip];
        group.bench_function(BenchmarkId::new(format!("cold C={cc}"), n), |b| {
            b.iter(|| svc.solve(&ck, 1.0, &y2, None).expect("cold"))
        });
        group.bench_function(BenchmarkId::new(format!("warm C={cc}"), n), |b| {
            b.iter(|| svc.solve_from(&ck, 1.0, &y2, &base, &y, 1.0).expect("warm"))
        });
    }
    group.finish();
}

criterion_group!(benches, cold, warm);
criterion_main!(benches);
