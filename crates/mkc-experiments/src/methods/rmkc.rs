//! RMKC (Tzortzis & Likas, `mkc-rmkc`): ratio-based multiple kernel clustering, two
//! clusters. Parameters as in the paper's Section 3: C (grid {1e-2, …, 1e2}), L = 30,
//! ℓ = 0.5N (`balance`, a fraction of N), and the norm on θ (`p`: none, 1, 2). Each run
//! draws its own initial pairs from the run's seed (the paper's 30 runs). The run records
//! the solve counts (`init_solves`, `theta_solves`, `label_solves`) and the final J and E
//! as diagnostics, and the seconds of the phases `init`, `theta` and `labels`. The initial
//! split of each seed depends on neither L nor the iteration cap, nor on the norm between
//! the 1-norm and none (the same uniform θ⁽⁰⁾), so the jobs that differ only in those
//! share it (`Rmkc::start_params`; the fits are bit for bit the same).

use mkc_rmkc::{InitialSplit, Norm, RmkcParams};

by_word!(Norm);

// `balance` is ℓ as a fraction of N: `mkc_rmkc::Balance` is LG-MMC's, read as in `lgmmc.rs`.

adapter! {
    /// RMKC.
    Rmkc, "rmkc", "RMKC: ratio-based multiple kernel clustering, two clusters (Tzortzis & Likas)",
    reflect RmkcParams => [c = "C", l = "L", balance, norm = "p", init_pairs, svm_tol, max_iter];
    extra {
        // The initial split of every seed (`Rmkc::initial_split`), the same for the fits
        // with equal `Rmkc::start_params`: Table 1's 1-norm and no-norm columns.
        shared_per_seed! {
            Rmkc, "init", InitialSplit,
            key |b| b.check().map(|m| m.start_params()).ok(),
            |m, set, k, seed| m.initial_split(set, k, seed),
            |m, set, k, _seed, split| m.fit_with_split(set, k, split),
        }
    }
}
