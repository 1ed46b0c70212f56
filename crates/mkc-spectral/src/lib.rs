//! Multiple kernel spectral clustering: AASC (Huang et al., 2012) and MVSpec (Tzortzis &
//! Likas, ICDM 2012).

#![forbid(unsafe_code)]

/// The method API and this crate's methods: `use mkc_spectral::prelude::*;`.
pub mod prelude {
    pub use mkc_core::prelude::*;
}
