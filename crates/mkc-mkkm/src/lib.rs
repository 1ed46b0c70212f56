//! The multiple kernel k-means family: the systems SimpleMKKM (Liu et al., ICML 2021) is
//! compared with — MKKM, MKKM-MiR, LMKKM, ONKC, LKAM, LF-MVC, MKKM-MM — each through the
//! workspace's one method API ([`mkc_core::Clusterer`]).

#![forbid(unsafe_code)]

pub mod lf_mvc;
pub mod lkam;
pub mod lmkkm;
pub mod mkkm;
pub mod mkkm_mir;
pub mod mkkm_mm;
pub mod onkc;

/// The method API and this crate's methods: `use mkc_mkkm::prelude::*;`.
pub mod prelude {
    pub use mkc_core::prelude::*;
}
