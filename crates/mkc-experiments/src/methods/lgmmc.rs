//! LG-MMC: label-generating maximum margin clustering (Li et al.) — adapter placeholder; the method engineer replaces this file.

use super::{Input, Method, Outcome};
use crate::params::{ParamSet, ParamSpec};
use mkc_core::{Error, Result};

/// Placeholder adapter.
pub struct Lgmmc;

impl Method for Lgmmc {
    fn name(&self) -> &'static str {
        "lgmmc"
    }
    fn about(&self) -> &'static str {
        "LG-MMC: label-generating maximum margin clustering (Li et al.) (not available yet)"
    }
    fn params(&self) -> Vec<ParamSpec> {
        Vec::new()
    }
    fn run(&self, _input: &Input<'_>, _p: &ParamSet, _seed: u64) -> Result<Outcome> {
        Err(Error::input("method", "lgmmc is not available yet"))
    }
}
