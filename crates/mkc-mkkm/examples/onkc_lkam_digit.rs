//! ONKC and LKAM on Digit (UCI Multiple Features, views fac, fou, kar; n = 2000, k = 10)
//! with the kernels of SimpleMKKM's Table 2 (`configs/simplemkkm.toml`: z-scored
//! features, one Gaussian per view, σ = median distance): one optimisation, then the
//! k-means on H with RUNS seeds; prints ACC / NMI (max normalisation) / purity, the
//! iterations, the optimisation time and the time per iteration.
//!
//! ```text
//! cargo run --release -p mkc-mkkm --example onkc_lkam_digit -- [RUNS] [onkc RHO LAMBDA] [lkam LAMBDA TAU]
//! ```
//! Data: the registry's `mfeat` from the data directory (`MKC_DATA_DIR`, else `./data`,
//! where the repository commits it); skipped with a message when absent. Defaults: 10
//! runs, ONKC ρ = λ = 1 and LKAM λ = 1, τ = 0.5 (the SimpleMKKM authors' Flower17 calls).

#[path = "../../mkc-simplemkkm/examples/common/mod.rs"]
mod common;

use std::time::Instant;

use mkc_mkkm::prelude::*;

fn report<D: Diagnostics>(
    name: &str,
    runs: Vec<mkc_core::Result<Clustering<D>>>,
    truth: &[usize],
    secs: f64,
) {
    let (runs, scores) = common::scored_runs(name, runs, truth);
    let mean = |f: fn(&mkc_metrics::Scores) -> f64| {
        100.0 * scores.iter().map(f).sum::<f64>() / scores.len() as f64
    };
    let first = &runs[0];
    let opt = first.timings.get("weights");
    println!(
        "{name:<30} ACC {:5.1}  NMI {:5.1}  purity {:5.1} | {} iterations, optimisation {opt:.2} s ({:.2} s/iteration), all {} runs {secs:.2} s",
        mean(|s| s.acc),
        mean(|s| s.nmi_max),
        mean(|s| s.purity),
        first.iterations,
        opt / first.iterations.max(1) as f64,
        runs.len(),
    );
    println!(
        "{:<30} γ = {:.3?}  {:?}",
        "",
        first.weights().unwrap_or(&[]),
        first.diagnostics.entries()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(10);
    let after = |key: &str, i: usize, default: f64| {
        args.iter()
            .position(|a| a == key)
            .and_then(|p| args.get(p + 1 + i))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let Some((kernels, truth)) = common::table_kernels() else {
        return;
    };
    let data = KernelSet::new(&kernels).expect("valid kernels");
    let seeds: Vec<u64> = (0..runs).collect();
    let (rho, lambda) = (after("onkc", 0, 1.0), after("onkc", 1, 1.0));
    let (lkam_lambda, tau) = (after("lkam", 0, 1.0), after("lkam", 1, 0.5));
    let methods: Vec<(String, Box<dyn DynClusterer>)> = vec![
        (
            format!("ONKC ρ = {rho}, λ = {lambda}"),
            Box::new(OnkcParams::new().rho(rho).lambda(lambda)),
        ),
        (
            format!("LKAM λ = {lkam_lambda}, τ = {tau}"),
            Box::new(LkamParams::new().lambda(lkam_lambda).tau(tau)),
        ),
    ];
    for (label, m) in &methods {
        let t = Instant::now();
        let fits = m.fit_restarts_dyn(&data, common::K, &seeds);
        report(label, fits, &truth, t.elapsed().as_secs_f64());
    }
}
