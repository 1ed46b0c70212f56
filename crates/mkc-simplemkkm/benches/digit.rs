//! SimpleMKKM optimisation on the Digit kernels (UCI Multiple Features views fac, fou,
//! kar; n = 2000, m = 3, k = 10), excluding kernel construction and the final k-means.
//!
//! `cargo bench -p mkc-simplemkkm --bench digit`. Data: the registry's `mfeat` from the
//! data directory (`MKC_DATA_DIR`, else `./data`); skipped with a message when absent.
//! Kernel recipe: the table's (`configs/simplemkkm.toml`, recipe digit-gauss-median):
//! every feature z-scored, then a Gaussian with σ = median pairwise distance per view.
//! `MKC_DIGIT_KERNEL=raw` skips the z-scoring, `MKC_DIGIT_KERNEL=linear` uses linear
//! kernels on raw features. `MKC_BENCH_REFERENCE=1` also benches the reference path (an
//! eigensolve per J evaluation, `Solver::Eigensolver`; several seconds per fit).

#[path = "../examples/common/mod.rs"]
mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use faer::Mat;
use mkc_core::ParamGuard;
use mkc_simplemkkm::{Preprocessing, SimpleMkkmParams, Solver};

const K: usize = 10;

fn bench(c: &mut Criterion) {
    let Some((views, _)) = common::digit_views() else {
        return;
    };
    let recipe = match std::env::var("MKC_DIGIT_KERNEL").as_deref() {
        Ok("raw") => "gauss-median",
        Ok("linear") => "linear",
        _ => common::TABLE_RECIPE,
    };
    let raw: Vec<Mat<f64>> = views.iter().map(|x| common::kernel(x, recipe)).collect();
    let refs: Vec<_> = raw.iter().map(|m| m.as_ref()).collect();
    let pre = Preprocessing::default().apply(&refs).unwrap();
    let pre_refs: Vec<_> = pre.iter().map(|m| m.as_ref()).collect();
    let model = SimpleMkkmParams::new()
        .preprocessing(Preprocessing::None)
        .check()
        .unwrap();
    let fit = model.fit_kernels(&pre_refs, K).unwrap();
    let i = &fit.diagnostics;
    eprintln!(
        "SimpleMKKM on Digit ({recipe}): {} iterations, {} exact eigensolves ({:.2?} each), {} trial points ({} from the trial cache), {} subspace expansions ({} kernel matvecs), optimisation {:.2?}, γ = {:.4?}",
        fit.iterations, i.eigensolves, i.method.time_per_eigensolve, i.method.projected_evaluations, i.method.trial_cache_hits,
        i.method.subspace_expansions, i.method.kernel_matvecs, i.optimisation_time, fit.gamma
    );
    let mut g = c.benchmark_group("simplemkkm_digit");
    g.sample_size(10);
    g.bench_function("optimisation", |b| {
        b.iter(|| model.fit_kernels(&pre_refs, K).unwrap())
    });
    let with_prep = SimpleMkkmParams::new().check().unwrap();
    g.bench_function("optimisation_with_preprocessing", |b| {
        b.iter(|| with_prep.fit_kernels(&refs, K).unwrap())
    });
    if std::env::var("MKC_BENCH_REFERENCE").is_ok() {
        let reference = SimpleMkkmParams::new()
            .preprocessing(Preprocessing::None)
            .solver(Solver::Eigensolver)
            .check()
            .unwrap();
        g.bench_function("optimisation_reference_eigensolver", |b| {
            b.iter(|| reference.fit_kernels(&pre_refs, K).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
