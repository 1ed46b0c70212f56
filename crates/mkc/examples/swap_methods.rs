//! The README's "one method API" example: every method of mkc clusters the same kernels
//! through the same ten lines; only the parameter type changes.
//!
//! `cargo run --release -p mkc-all --example swap_methods -- K1.npy K2.npy K3.npy`
//! (n × n kernels saved with numpy.save); without arguments it makes three kernels on two
//! groups of points.

use mkc::prelude::*;

fn cluster(method: &dyn DynClusterer, kernels: &[Mat<f64>], k: usize) -> mkc::Result<()> {
    // readme-start
    let data = KernelSet::new(kernels)?; // validated once: square, finite, symmetric
    let fit = method.fit_dyn(&data, k, 42)?; // the number of clusters, a seed
    println!("{}: labels {:?}", method.name(), fit.labels);
    println!("kernel weights {:?}", fit.kernel_weights);
    println!("iterations {} converged {}", fit.iterations, fit.converged);
    println!("objective {:?}", fit.final_objective());
    println!("timings {:?}", fit.timings);
    println!("diagnostics {:?}", fit.diagnostics);
    // readme-end
    Ok(())
}

fn main() -> mkc::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kernels: Vec<Mat<f64>> = if args.is_empty() {
        demo_kernels()
    } else {
        args.iter()
            .map(mkc::data::npy::read)
            .collect::<mkc::Result<_>>()?
    };
    let methods: Vec<Box<dyn DynClusterer>> = vec![
        Box::new(SimpleMkkmParams::new()),
        Box::new(MkkmParams::new()),
        Box::new(MkkmMirParams::new()),
        Box::new(GumklParams::new()),
        Box::new(MvkkmParams::new()),
        Box::new(ScmkParams::new()),
        Box::new(KernelKMeansParams::new()),
        Box::new(SpectralParams::new()),
        Box::new(RmkcParams::new()),
        Box::new(IterSvrParams::new()),
        Box::new(LgmmcParams::new()),
        // The comparison systems of the papers' tables.
        Box::new(LmkkmParams::new()),
        Box::new(OnkcParams::new()),
        Box::new(LkamParams::new()),
        Box::new(LfMvcParams::new()),
        Box::new(MkkmMmParams::new()),
        Box::new(KammRParams::new()),
        Box::new(KammAParams::new()),
        Box::new(AvgParams::new()),
        Box::new(RkkmParams::new()),
        Box::new(RmkkmParams::new()),
        Box::new(AascParams::new()),
        Box::new(MvspecParams::new()),
        Box::new(GmmcParams::new()),
        Box::new(CpmmcParams::new()),
        Box::new(KMeansParams::new()),
        Box::new(KernelKMedoidsParams::new()),
        Box::new(GlobalKernelKMeansParams::new()),
        Box::new(ScskParams::new()),
    ];
    for m in &methods {
        // The binary methods (RMKC, iterSVR, LG-MMC, GMMC, CPMMC) say so with a typed error
        // for k ≠ 2; the feature-space ones (k-means) without features likewise.
        if let Err(e) = cluster(m.as_ref(), &kernels, 2) {
            println!("{:<10} error: {e}", m.name());
        }
    }
    Ok(())
}

/// Three Gaussian kernels (σ = 0.5, 1, 4) on 40 points in two groups on a line.
fn demo_kernels() -> Vec<Mat<f64>> {
    let x: Vec<f64> = (0..40)
        .map(|i| (i % 2) as f64 * 5.0 + (i as f64 * 0.37).sin())
        .collect();
    [0.5, 1.0, 4.0]
        .iter()
        .map(|s| {
            Mat::from_fn(40, 40, |i, j| {
                (-(x[i] - x[j]).powi(2) / (2.0 * s * s)).exp()
            })
        })
        .collect()
}
