//! iterSVR (Zhang, Tsang & Kwok 2007; `mkc_rmkc::itersvr`): alternate an ε-SVR on the
//! current labels and relabelling by the sign of its output under the balance bound,
//! from kernel k-means labels (one k-means++ seeding per run, from the run's seed).
//! Single kernel: the tables report the best kernel and the average over kernels. The
//! RMKC paper's protocol: ℓ = 0.03N (balanced data) or 0.3N (unbalanced), C on the grid
//! {1e-2, …, 1e2}, 30 runs. The bound is the parameter `ell` (a fraction of N), not
//! `balance` as for RMKC, so that a table's per-row `ell` leaves RMKC's ℓ = 0.5N alone.
//! `kernel-type = "auto"` (default, `IterSvrPath::Auto`) runs the SVRs on the linear
//! feature-space path (no n x n matrix, semismooth Newton SVR) when the recipe builds no
//! kernel (features-only recipes, e.g. LG-MMC's MNIST pairs: the paper's linear kernel
//! there) or the job's kernel is the linear kernel of the scaled features
//! (`KernelSet::is_features_linear`: LG-MMC's `linear` column; the start is still kernel
//! k-means on that kernel), and the precomputed-kernel path for every other kernel;
//! `linear` / `kernel` force one. The k-means starts do not depend on C, so the jobs of a C
//! grid share them ([`Method::shared_key`](super::Method::shared_key); the fits are bit for
//! bit the same), and on the kernel path the seeds of a job whose starts are equal share
//! one fit (`IterSvr::fit_with_starts`; bit for bit the same fits too).

use super::KernelUse;
use mkc_rmkc::itersvr::IterSvrPath;
use mkc_rmkc::IterSvrParams;

by_word!(IterSvrPath);

adapter! {
    /// iterSVR, single kernel.
    IterSvr, "itersvr", "iterSVR: alternating ε-SVR and balanced relabelling from kernel k-means, two clusters (Zhang, Tsang & Kwok 2007)",
    reflect IterSvrParams => [c = "C", epsilon, balance = "ell", max_iter, svm_tol, path = "kernel-type", max_epochs];
    kernels = KernelUse::Single;
    extra {
        // The k-means start of every seed (`IterSvr::start`), the same for every C.
        shared_across_c! {
            IterSvr, "kmeans", Vec<usize>,
            |m, set, k, seed| m.start(set, k, seed),
            batch |m, set, k, seeds, starts| m.fit_with_starts(set, k, seeds, starts),
        }
    }
}
