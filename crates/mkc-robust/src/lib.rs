//! Robust kernel k-means (Du et al., IJCAI 2015): RKKM and RMKKM.

#![forbid(unsafe_code)]

/// The method API and this crate's methods: `use mkc_robust::prelude::*;`.
pub mod prelude {
    pub use mkc_core::prelude::*;
}
