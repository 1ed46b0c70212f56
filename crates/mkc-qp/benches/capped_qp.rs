//! The SCMK column subproblems: all n columns of Z at once (Q = 2(αI + K), C = −2K,
//! u = 1) on a Gaussian kernel of n random points, cold and warm-started.
use criterion::{criterion_group, criterion_main, Criterion};
use faer::Mat;
use mkc_core::ParamGuard;
use mkc_qp::{CappedSimplexQp, QpMatrix};
use rand::Rng;

fn scmk(n: usize, alpha: f64) -> (Mat<f64>, Mat<f64>) {
    let mut r = mkc_core::seed::rng(1);
    let x: Vec<[f64; 2]> = (0..n)
        .map(|_| [r.random::<f64>(), r.random::<f64>()])
        .collect();
    let k = Mat::from_fn(n, n, |i, j| {
        (-((x[i][0] - x[j][0]).powi(2) + (x[i][1] - x[j][1]).powi(2)) / 0.01).exp()
    });
    let q = Mat::from_fn(n, n, |i, j| {
        2.0 * (k[(i, j)] + if i == j { alpha } else { 0.0 })
    });
    (q, Mat::from_fn(n, n, |i, j| -2.0 * k[(i, j)]))
}

fn bench(c: &mut Criterion) {
    let n = 1000;
    let solver = CappedSimplexQp::new(1.0).tol(1e-8).check().unwrap();
    let mut g = c.benchmark_group("scmk_columns_n1000");
    g.sample_size(10);
    for alpha in [1e-3, 1.0] {
        let (q, cm) = scmk(n, alpha);
        let qm = QpMatrix::new(q.as_ref()).unwrap();
        let cold = solver.solve_batch(&qm, cm.as_ref(), None).unwrap();
        g.bench_function(format!("batch_cold_alpha{alpha}"), |b| {
            b.iter(|| solver.solve_batch(&qm, cm.as_ref(), None).unwrap())
        });
        g.bench_function(format!("batch_warm_alpha{alpha}"), |b| {
            b.iter(|| {
                solver
                    .solve_batch(&qm, cm.as_ref(), Some(cold.z.as_ref()))
                    .unwrap()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
