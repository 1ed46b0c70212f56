//! k-means on the rows of a matrix shaped like SCMK's indicator P on AR (n = 840 rows,
//! c = 120 clusters in 120 dimensions, 100 restarts as SCSK/SCMK's final step), and a
//! small case (k = 10, d = 10, 10 restarts, as SimpleMKKM's final step) that stays on
//! the exact-difference path.

use criterion::{criterion_group, criterion_main, Criterion};
use faer::Mat;
use mkc_core::ParamGuard;
use mkc_kmeans::KMeansParams;
use rand::Rng;
use std::hint::black_box;

/// `groups` noisy clusters of rows in `d` dimensions.
fn rows(n: usize, d: usize, groups: usize) -> Mat<f64> {
    let mut rng = mkc_core::seed::rng(7);
    let centres: Vec<f64> = (0..groups * d).map(|_| rng.random::<f64>()).collect();
    Mat::from_fn(n, d, |i, j| {
        centres[(i % groups) * d + j] + 0.3 * rng.random::<f64>()
    })
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("kmeans_rows");
    g.sample_size(10);
    for &(n, d, k, n_init) in &[(840usize, 120usize, 120usize, 100usize), (2000, 10, 10, 10)] {
        let x = rows(n, d, k);
        let params = KMeansParams::new().n_init(n_init).check().unwrap();
        g.bench_function(format!("n{n}_d{d}_k{k}_init{n_init}"), |b| {
            b.iter(|| black_box(params.fit_features(black_box(x.as_ref()), k, 0).unwrap()))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
