//! spectral clustering (normalised cut) with the kernel as affinity — adapter placeholder; the method engineer replaces this file.

use super::{Input, Method, Outcome};
use crate::params::{ParamSet, ParamSpec};
use mkc_core::{Error, Result};

/// Placeholder adapter.
pub struct Spectral;

impl Method for Spectral {
    fn name(&self) -> &'static str {
        "sc"
    }
    fn about(&self) -> &'static str {
        "spectral clustering (normalised cut) with the kernel as affinity (not available yet)"
    }
    fn params(&self) -> Vec<ParamSpec> {
        Vec::new()
    }
    fn run(&self, _input: &Input<'_>, _p: &ParamSet, _seed: u64) -> Result<Outcome> {
        Err(Error::input("method", "sc is not available yet"))
    }
}
