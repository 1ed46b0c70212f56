//! SimpleMKKM optimisation on the Digit kernels (UCI Multiple Features views fac, fou,
//! kar; n = 2000, m = 3, k = 10), excluding kernel construction and the final k-means.
//!
//! `cargo bench -p mkc-simplemkkm --bench digit` (data from `$MKC_MFEAT_DIR`, default
//! /work/shared/data/bundle/mfeat; skipped when absent). Kernel recipe: the one of the
//! table (`configs/simplemkkm.toml`, recipe digit-gauss-median): every feature z-scored,
//! then a Gaussian with σ = median pairwise distance per view. `MKC_DIGIT_KERNEL=raw`
//! skips the z-scoring, `MKC_DIGIT_KERNEL=linear` uses linear kernels on raw features.
//! `MKC_BENCH_REFERENCE=1` also benches the reference path (an eigensolve per J
//! evaluation, `Solver::Eigensolver`; several seconds per fit).

use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion};
use faer::Mat;
use mkc_core::ParamGuard;
use mkc_kernels::{gram, sq_dists, KernelFn};
use mkc_simplemkkm::{Preprocessing, SimpleMkkmParams, Solver};

fn load(dir: &Path, view: &str) -> Option<Mat<f64>> {
    let text = std::fs::read_to_string(dir.join(format!("views/{view}.csv"))).ok()?;
    let rows: Vec<Vec<f64>> = text
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| l.split(',').map(|v| v.trim().parse().unwrap()).collect())
        .collect();
    Some(Mat::from_fn(rows.len(), rows[0].len(), |i, j| rows[i][j]))
}

/// Every column to mean 0 and (population) standard deviation 1; constant columns to 0.
fn standardise(x: &mut Mat<f64>) {
    let n = x.nrows() as f64;
    for j in 0..x.ncols() {
        let mean = x.col(j).iter().sum::<f64>() / n;
        let sd = (x.col(j).iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt();
        for v in x.col_mut(j).iter_mut() {
            *v = if sd > 0.0 { (*v - mean) / sd } else { 0.0 };
        }
    }
}

fn median_distance(x: &Mat<f64>) -> f64 {
    let d2 = sq_dists(x.as_ref()).unwrap();
    let n = d2.nrows();
    let mut d: Vec<f64> = (0..n)
        .flat_map(|j| (0..j).map(move |i| (i, j)))
        .map(|(i, j)| d2[(i, j)].max(0.0).sqrt())
        .collect();
    d.sort_by(|a, b| a.total_cmp(b));
    d[d.len() / 2]
}

fn bench(c: &mut Criterion) {
    let dir = PathBuf::from(
        std::env::var("MKC_MFEAT_DIR").unwrap_or_else(|_| "/work/shared/data/bundle/mfeat".into()),
    );
    let Some(views) = ["fac", "fou", "kar"]
        .iter()
        .map(|v| load(&dir, v))
        .collect::<Option<Vec<_>>>()
    else {
        eprintln!(
            "Digit data not found under {}: bench skipped",
            dir.display()
        );
        return;
    };
    let choice = std::env::var("MKC_DIGIT_KERNEL").unwrap_or_default();
    let linear = choice == "linear";
    let zscore = choice.is_empty();
    let views: Vec<Mat<f64>> = views
        .into_iter()
        .map(|mut x| {
            if zscore {
                standardise(&mut x);
            }
            x
        })
        .collect();
    let raw: Vec<Mat<f64>> = views
        .iter()
        .map(|x| {
            gram(
                x.as_ref(),
                &if linear {
                    KernelFn::Linear
                } else {
                    KernelFn::Gaussian {
                        sigma: median_distance(x),
                    }
                },
            )
            .unwrap()
        })
        .collect();
    let refs: Vec<_> = raw.iter().map(|m| m.as_ref()).collect();
    let pre = Preprocessing::default().apply(&refs).unwrap();
    let pre_refs: Vec<_> = pre.iter().map(|m| m.as_ref()).collect();
    let model = SimpleMkkmParams::new(10)
        .preprocessing(Preprocessing::None)
        .check()
        .unwrap();
    let fit = model.fit(&pre_refs).unwrap();
    let i = &fit.info;
    eprintln!(
        "SimpleMKKM on Digit ({}): {} iterations, {} exact eigensolves ({:.2?} each), {} trial points ({} from the trial cache), {} subspace expansions ({} kernel matvecs), optimisation {:.2?}, γ = {:.4?}",
        if linear {
            "linear"
        } else if zscore {
            "z-scored, gaussian median"
        } else {
            "gaussian median"
        },
        i.iterations, i.eigensolves, i.time_per_eigensolve, i.projected_evaluations, i.trial_cache_hits,
        i.subspace_expansions, i.kernel_matvecs, i.optimisation_time, fit.gamma
    );
    let mut g = c.benchmark_group("simplemkkm_digit");
    g.sample_size(10);
    g.bench_function("optimisation", |b| b.iter(|| model.fit(&pre_refs).unwrap()));
    let with_prep = SimpleMkkmParams::new(10).check().unwrap();
    g.bench_function("optimisation_with_preprocessing", |b| {
        b.iter(|| with_prep.fit(&refs).unwrap())
    });
    if std::env::var("MKC_BENCH_REFERENCE").is_ok() {
        let reference = SimpleMkkmParams::new(10)
            .preprocessing(Preprocessing::None)
            .solver(Solver::Eigensolver)
            .check()
            .unwrap();
        g.bench_function("optimisation_reference_eigensolver", |b| {
            b.iter(|| reference.fit(&pre_refs).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
