//! Which input a two-cluster maximum margin fit reads: a precomputed kernel, or the
//! linear kernel of the set's features in feature space (no n x n matrix). LG-MMC's
//! [`LgmmcPath`](crate::LgmmcPath), and GMMC's and CPMMC's paths in `mkc-mmc`, share the
//! automatic rule here.

use mkc_core::{check_binary, KernelSet, Result, Timings};

/// A choice of input with an automatic rule; implement it with
/// [`input_path!`](crate::input_path) for an enum of variants `Kernel`, `Linear`, `Auto`.
pub trait InputPath: Copy {
    /// `Some(true)`: the linear feature path; `Some(false)`: the kernel path; `None`:
    /// automatic.
    fn forced(self) -> Option<bool>;

    /// Whether a fit on `data` takes the linear feature path: the forced choice, or,
    /// automatically, when the set has features and either no kernel or one kernel that
    /// is their linear kernel `XXᵀ` ([`KernelSet::is_features_linear`]: named `…linear`
    /// and matching the features' inner products where probed), so the feature path
    /// computes the same kernel without forming it. A normalised or per-view linear
    /// kernel stays on the kernel path.
    fn is_linear(self, data: &KernelSet<'_>) -> bool {
        self.forced().unwrap_or_else(|| data.feature_path_fits())
    }

    /// The frame of a two-cluster fit: check `n_clusters` ([`check_binary`], errors
    /// naming `method`), choose the path ([`Self::is_linear`]), run `body(linear,
    /// timings)` and record its wall time in the timings. Returns the body's value, the
    /// path taken and the timings.
    fn timed_fit<T>(
        self,
        method: &str,
        data: &KernelSet<'_>,
        n_clusters: usize,
        body: impl FnOnce(bool, &mut Timings) -> Result<T>,
    ) -> Result<(T, bool, Timings)> {
        check_binary(method, data, n_clusters)?;
        let t0 = std::time::Instant::now();
        let mut timings = Timings::default();
        let linear = self.is_linear(data);
        let out = body(linear, &mut timings)?;
        timings.set_wall(t0.elapsed().as_secs_f64());
        Ok((out, linear, timings))
    }
}

/// Implement [`InputPath`] for an enum with the variants `Kernel`, `Linear` and `Auto`:
/// `mkc_lgmmc::input_path!(MyPath);`. Also gives it the configuration words `auto`,
/// `linear`, `kernel` (`mkc_core::param_words!`).
#[macro_export]
macro_rules! input_path {
    ($t:ident) => {
        mkc_core::param_words!($t { "auto" => $t::Auto, "linear" => $t::Linear, "kernel" => $t::Kernel });
        impl $crate::InputPath for $t {
            fn forced(self) -> Option<bool> {
                match self {
                    $t::Linear => Some(true),
                    $t::Kernel => Some(false),
                    $t::Auto => None,
                }
            }
        }
    };
}
