//! Does the maximum-margin criterion itself prefer the true classes?
//!
//! For a dataset of `configs/lgmmc.toml` and a balance fraction, this runs LG-MMC on each kernel
//! of the `lgmmc-lin-gauss5` recipe and C ∈ {0.1, 1, 10, 100}, and evaluates the inner problem of
//! the LG-MMC paper's eq. (4),
//!
//!   J(y) = max_{α ≥ 0, 1ᵀα = 1} −½ αᵀ(K∘yyᵀ + I/C)α   (on K + 1, the bias as in the solver),
//!
//! for the true labels and for LG-MMC's labels. Eq. (4) minimises J over balanced y, so a lower
//! J is a larger margin: where our labels have the lower J, a better optimiser of eq. (4) would
//! move away from the true classes, not towards them. Used for the notes of `configs/lgmmc.toml`.
//!
//! With a third argument `start`, it also runs LG-MMC started from the true classes
//! ([`LgmmcParams::initial_labels`], when they lie in the balance set) and prints the final
//! objective of eq. (7) and the error of both runs: eq. (7) is convex, so if the start from
//! the classes ends at a lower objective our default run stopped short of the optimum.
//!
//! A further argument `refine=N` runs LG-MMC with N ascent steps on the most violated label
//! vector ([`LgmmcParams::refine_steps`]); `rounds=N` and `tol=X` set the cutting plane's cap
//! and tolerance (default 20 and 0.01), `kernel=I` keeps one kernel (0 = linear) and
//! `c=0.1,10` sets the C values.
//!
//! ```text
//! MKC_DATA_DIR=<data directory> cargo run --release -p mkc-cli --example lgmmc_margin_check -- lamda-clean1 0.3
//! MKC_DATA_DIR=<data directory> cargo run --release -p mkc-cli --example lgmmc_margin_check -- letter-ab 0.03 start
//! ```
use faer::Mat;
use mkc_core::{Clustering, ParamGuard};
use mkc_lgmmc::prelude::{Clusterer, KernelSet};
use mkc_lgmmc::{Balance, LgmmcDiagnostics, LgmmcParams, LgmmcPath};
use mkc_svm::SimplexSquaredHingeParams;
use std::error::Error;
use std::path::{Path, PathBuf};

fn margin_objective(k: &Mat<f64>, y: &[f64], c: f64) -> Result<f64, Box<dyn Error>> {
    let solver = SimplexSquaredHingeParams::new(c).tol(1e-6).check()?;
    Ok(solver.fit(k.as_ref(), &[y], &[1.0])?.objective)
}

fn signs(labels: &[usize]) -> Vec<f64> {
    labels
        .iter()
        .map(|&l| if l == 0 { 1.0 } else { -1.0 })
        .collect()
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(name), Some(balance)) = (args.get(1), args.get(2)) else {
        return Err(
            "usage: lgmmc_margin_check DATASET BALANCE_FRACTION (e.g. lamda-clean1 0.3)".into(),
        );
    };
    let balance: f64 = balance.parse()?;
    let from_truth = args[3..].iter().any(|a| a == "start");
    let opt = |key: &str| args[3..].iter().find_map(|a| a.strip_prefix(key));
    let refine: usize = opt("refine=").map_or(Ok(0), str::parse)?;
    let rounds: usize = opt("rounds=").map_or(Ok(20), str::parse)?;
    let tol: f64 = opt("tol=").map_or(Ok(1e-2), str::parse)?;
    let only_kernel: Option<usize> = opt("kernel=").map(str::parse).transpose()?;
    let cs: Vec<f64> = match opt("c=") {
        Some(list) => list.split(',').map(str::parse).collect::<Result<_, _>>()?,
        None => vec![0.1, 1.0, 10.0, 100.0],
    };
    let data_dir = std::env::var_os("MKC_DATA_DIR").map(PathBuf::from);
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/lgmmc.toml");
    let loaded = mkc_cli::cluster::load(
        &[],
        Some(name),
        None,
        Some("lgmmc-lin-gauss5"),
        Some(&config),
        data_dir.as_deref(),
    )?;
    let truth = signs(loaded.truth.as_deref().ok_or("the dataset has no labels")?);
    let n = truth.len();
    println!(
        "{name}: n = {n}, 1ᵀy(true) = {}, β = {:.2}",
        truth.iter().sum::<f64>(),
        balance * n as f64
    );
    for (ki, k) in loaded.kernels.iter().enumerate() {
        let with_bias = Mat::from_fn(n, n, |i, j| k[(i, j)] + 1.0);
        if only_kernel.is_some_and(|o| o != ki) {
            continue;
        }
        for &c in &cs {
            let run = |start: Option<Vec<f64>>| -> Result<_, Box<dyn Error>> {
                let params = LgmmcParams::new()
                    .c(c)
                    .balance(Balance::Fraction(balance))
                    .initial_labels(start)
                    .refine_steps(refine)
                    .max_iter(rounds)
                    .tol(tol);
                let one = [k.as_ref()];
                Ok(match (ki, loaded.features.as_ref()) {
                    (0, Some(x)) => params.path(LgmmcPath::Linear).fit(
                        &KernelSet::from_features(x.as_ref())?,
                        2,
                        0,
                    )?,
                    _ => params.path(LgmmcPath::Kernel).fit(
                        &KernelSet::from_refs(one.to_vec())?,
                        2,
                        0,
                    )?,
                })
            };
            let error = |labels: &[f64]| {
                let agree = labels.iter().zip(&truth).filter(|(a, b)| a == b).count();
                100.0 * (n - agree.max(n - agree)) as f64 / n as f64
            };
            let fit = run(None)?;
            let ours = signs(&fit.labels);
            let err = error(&ours);
            if from_truth && truth.iter().sum::<f64>().abs() <= balance * n as f64 {
                let alt = run(Some(truth.clone()))?;
                let last =
                    |f: &Clustering<LgmmcDiagnostics>| f.final_objective().unwrap_or(f64::NAN);
                println!(
                    "  {} C={c}: default start: error {err:.2}%, eq. (7) {:.6e} ({} rounds, {:?}); from the classes: error {:.2}%, eq. (7) {:.6e} ({} rounds, {:?})",
                    loaded.names[ki], last(&fit), fit.iterations, fit.diagnostics.stop,
                    error(&signs(&alt.labels)), last(&alt), alt.iterations, alt.diagnostics.stop,
                );
                continue;
            }
            let (j_true, j_ours) = (
                margin_objective(&with_bias, &truth, c)?,
                margin_objective(&with_bias, &ours, c)?,
            );
            println!(
                "  {} C={c}: error {err:.2}%, 1ᵀy = {}, J(true) = {j_true:.4e}, J(ours) = {j_ours:.4e}: {}",
                loaded.names[ki],
                ours.iter().sum::<f64>(),
                if j_true < j_ours { "the true classes have the larger margin" } else { "ours have the larger margin" }
            );
        }
    }
    Ok(())
}
