//! Which input a two-cluster maximum margin fit reads: a precomputed kernel, or the
//! linear kernel of the set's features in feature space (no n x n matrix). LG-MMC's
//! [`LgmmcPath`](crate::LgmmcPath), and GMMC's and CPMMC's paths in `mkc-mmc`, share the
//! automatic rule here.

use mkc_core::KernelSet;

/// A choice of input with an automatic rule; implement it with
/// [`input_path!`](crate::input_path) for an enum of variants `Kernel`, `Linear`, `Auto`.
pub trait InputPath: Copy {
    /// `Some(true)`: the linear feature path; `Some(false)`: the kernel path; `None`:
    /// automatic.
    fn forced(self) -> Option<bool>;

    /// Whether a fit on `data` takes the linear feature path: the forced choice, or,
    /// automatically, when the set has features and either no kernel or exactly one
    /// kernel whose name ends in `linear` (the workspace's name of `XXᵀ`, so the feature
    /// path computes the same kernel without forming it).
    fn is_linear(self, data: &KernelSet<'_>) -> bool {
        self.forced().unwrap_or_else(|| {
            data.features().is_some()
                && (data.is_empty() || (data.len() == 1 && data.names()[0].ends_with("linear")))
        })
    }
}

/// Implement [`InputPath`] for an enum with the variants `Kernel`, `Linear` and `Auto`:
/// `mkc_lgmmc::input_path!(MyPath);`.
#[macro_export]
macro_rules! input_path {
    ($t:ident) => {
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
