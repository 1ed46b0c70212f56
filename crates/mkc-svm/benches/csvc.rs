//! Criterion benches for the `cargo xtask compare svm` cases: C-SVC on an RBF kernel
//! (gamma 0.1) of two overlapping 10-D Gaussian blobs, n = 1000, 2000, 4000, C = 1, 10,
//! and the warm-started re-solve after flipping the least confident label at n = 2000.
//! Small sample sizes: `cargo bench -p mkc-svm`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use faer::Mat;
use mkc_core::ParamGuard;
use mkc_svm::{CSvcParams, CheckedKernel};
use rand::{Rng, SeedableRng};

fn blobs(n: usize, seed: u64) -> (Mat<f64>, Vec<f64>) {
    let d = 10;
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut normal = move || {
        let u1: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
        let u2: f64 = rng.random();
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    };
    let y: Vec<f64> = (0..n)
        .map(|i| if i % 2 == 0 { 1.0 } else { -1.0 })
        .collect();
    let x = Mat::from_fn(n, d, |i, _| 0.3 * y[i] + normal());
    let sq: Vec<f64> = (0..n)
        .map(|i| (0..d).map(|c| x[(i, c)] * x[(i, c)]).sum())
        .collect();
    let g = &x * x.transpose();
    let k = Mat::from_fn(n, n, |i, j| {
        if i == j {
            1.0
        } else {
            (-0.1 * (sq[i] + sq[j] - 2.0 * g[(i, j)]).max(0.0)).exp()
        }
    });
    let k = Mat::from_fn(n, n, |i, j| if i <= j { k[(i, j)] } else { k[(j, i)] });
    (k, y)
}

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
