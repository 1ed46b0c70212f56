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
//! ```text
//! MKC_DATA_DIR=../shared/data cargo run --release -p mkc-cli --example lgmmc_margin_check -- lamda-clean1 0.3
//! ```
use faer::Mat;
use mkc_core::ParamGuard;
use mkc_lgmmc::{Balance, LgmmcParams};
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
        for c in [0.1, 1.0, 10.0, 100.0] {
            let params = LgmmcParams::new()
                .c(c)
                .balance(Balance::Fraction(balance))
                .check()?;
            let fit = match (ki, loaded.features.as_ref()) {
                (0, Some(x)) => params.fit_linear(x.as_ref())?,
                _ => params.fit_kernel(k.as_ref())?,
            };
            let ours = signs(&fit.labels);
            let agree = ours.iter().zip(&truth).filter(|(a, b)| a == b).count();
            let err = 100.0 * (n - agree.max(n - agree)) as f64 / n as f64;
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
