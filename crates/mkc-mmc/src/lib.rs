//! Maximum margin clustering baselines of LG-MMC's tables (Li et al., AISTATS 2009): GMMC
//! (Valizadegan & Jin, NIPS 2006) and CPMMC (Zhao, Wang & Zhang, SDM 2008), each through the
//! workspace's one method API ([`mkc_core::Clusterer`]).

#![forbid(unsafe_code)]

pub mod cpmmc;
pub mod gmmc;

pub use cpmmc::{Cpmmc, CpmmcDiagnostics, CpmmcInit, CpmmcParams, CpmmcPath, CpmmcStop};
pub use gmmc::{Gmmc, GmmcDiagnostics, GmmcParams, GmmcPath};

/// The method API and this crate's methods: `use mkc_mmc::prelude::*;`.
pub mod prelude {
    pub use crate::cpmmc::{CpmmcInit, CpmmcParams, CpmmcPath};
    pub use crate::gmmc::{GmmcParams, GmmcPath};
    pub use mkc_core::prelude::*;
}
