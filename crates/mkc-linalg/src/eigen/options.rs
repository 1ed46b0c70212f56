//! Options of the eigensolvers, checked once through `ParamGuard`.

use mkc_core::{Error, ParamGuard, Result};

mkc_core::params! {
    /// Options for [`top_k`](super::top_k) / [`bottom_k`](super::bottom_k) and the warm
    /// variants. Builder methods have the field names: `EigenOptions::default().tol(1e-8)`.
    pub struct EigenOptions {
        /// Convergence: every returned pair satisfies ‖Av − λv‖₂ ≤ `tol` · ‖A‖₂, with ‖A‖₂
        /// estimated by the largest |Ritz value| seen (the tolerance is relative to the largest
        /// eigenvalue in magnitude, never to λ itself, so zero eigenvalues converge).
        /// Default 1e-10; must lie in [1e-14, 0.1].
        pub tol: f64 = 1e-10,
        /// Cap on restart cycles of the block Lanczos iteration (default 500). At the cap the
        /// solver falls back to the dense solver when `n <= dense_fallback_max_n`, otherwise it
        /// returns `Error::NotConverged`; it never loops forever.
        pub max_iter: usize = 500,
        /// Seed of the random start block and of the random vectors that replace directions
        /// lost to breakdown (`mkc_core::seed::rng`). Same seed, same result.
        pub seed: u64 = 0,
        /// Block size b of the block Lanczos iteration; `None` picks clamp(k, 8, 32)
        /// (tuned on this 2-core machine: large enough for efficient matrix products, small
        /// enough to keep the Krylov space growing in small steps; b ≥ k up to k = 32 for
        /// multiplicities). The lower bound was 16 until 2026-11-28: with b = 8 (k ≤ 8)
        /// or b = k the Rayleigh–Ritz problems shrink from 128 to 64–80 and the solves
        /// at n = 1000 take 5.0 ms instead of 9.7 (k = 2, 5) and 10.5 instead of 15 (k = 10);
        /// at n = 4000 (bound by reading A once per block) they take as long.
        pub block_size: Option<usize> = None,
        /// Maximal basis size before a thick restart; `None` picks max(8b, 3k + 2b)
        /// (a basis large enough that typical kernel spectra converge without a restart).
        pub max_basis: Option<usize> = None,
        /// Use the dense solver (module docs) when n is at most this (default 256).
        pub dense_below: usize = 256,
        /// Also use the dense solver when the basis would exceed this fraction of n
        /// (default 0.3: for k a sizeable fraction of n a full decomposition is cheaper).
        pub dense_fraction: f64 = 0.3,
        /// Largest n for which non-convergence falls back to the dense solver (default 6000).
        pub dense_fallback_max_n: usize = 6000,
        /// For n ≤ `dense_fallback_max_n`: hand over to the dense solver once the block
        /// Lanczos iteration has made more than `dense_switch · n` products with A without
        /// converging (checked at each thick restart). A product with A and its
        /// reorthogonalisation cost O(n²) and the dense solver O(n³), so past about n
        /// products the iteration has spent more than the dense solve would: on SCSK's
        /// Laplacians of BA (n = 1404, bottom 36, warm-started) some solves needed 190–240
        /// restarts, 7000–8500 products (3–4 s), where the dense solver takes about 0.3 s;
        /// `dense_switch = 1` ends them after 1404 products. Default `f64::INFINITY` (no
        /// switch: the iteration goes on to `max_iter`), so that the pairs every other
        /// caller gets stay those its published results were computed with; SCSK/SCMK
        /// (`mkc-scmk`) set 1.
        pub dense_switch: f64 = f64::INFINITY,
    }
    /// The defaults listed on the fields.
    new;
}

impl ParamGuard for EigenOptions {
    type Checked = EigenOptions;
    fn check(&self) -> Result<EigenOptions> {
        if !(self.tol.is_finite() && (1e-14..=0.1).contains(&self.tol)) {
            return Err(Error::param(
                "tol",
                self.tol,
                "must lie in [1e-14, 0.1] (tighter cannot be met in f64)",
            ));
        }
        if self.max_iter == 0 {
            return Err(Error::param(
                "max_iter",
                self.max_iter,
                "must be at least 1",
            ));
        }
        if self.block_size == Some(0) {
            return Err(Error::param("block_size", 0, "must be at least 1"));
        }
        if self.max_basis == Some(0) {
            return Err(Error::param("max_basis", 0, "must be at least 1"));
        }
        if !(self.dense_fraction.is_finite() && (0.0..=1.0).contains(&self.dense_fraction)) {
            return Err(Error::param(
                "dense_fraction",
                self.dense_fraction,
                "must lie in [0, 1]",
            ));
        }
        if self.dense_switch.is_nan() || self.dense_switch <= 0.0 {
            return Err(Error::param(
                "dense_switch",
                self.dense_switch,
                "must be > 0 (f64::INFINITY: no switch)",
            ));
        }
        Ok(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builder_and_check() {
        let o = EigenOptions::default()
            .tol(1e-8)
            .seed(3)
            .block_size(Some(4));
        assert_eq!((o.tol, o.seed, o.block_size), (1e-8, 3, Some(4)));
        assert!(o.check().is_ok());
        for bad in [
            EigenOptions::default().tol(0.0),
            EigenOptions::default().tol(f64::NAN),
            EigenOptions::default().tol(1e-16),
            EigenOptions::default().max_iter(0),
            EigenOptions::default().block_size(Some(0)),
            EigenOptions::default().max_basis(Some(0)),
            EigenOptions::default().dense_fraction(2.0),
            EigenOptions::default().dense_switch(0.0),
            EigenOptions::default().dense_switch(f64::NAN),
        ] {
            assert!(
                matches!(bad.check(), Err(Error::InvalidParam { .. })),
                "{bad:?}"
            );
        }
    }
}
