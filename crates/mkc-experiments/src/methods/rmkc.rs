//! RMKC: ratio-based multiple kernel clustering (Tzortzis & Likas) — adapter placeholder; the method engineer replaces this file.

use super::{Input, Method, Outcome};
use crate::params::{ParamSet, ParamSpec};
use mkc_core::{Error, Result};

/// Placeholder adapter.
pub struct Rmkc;

impl Method for Rmkc {
    fn name(&self) -> &'static str {
        "rmkc"
    }
    fn about(&self) -> &'static str {
        "RMKC: ratio-based multiple kernel clustering (Tzortzis & Likas) (not available yet)"
    }
    fn params(&self) -> Vec<ParamSpec> {
        Vec::new()
    }
    fn run(&self, _input: &Input<'_>, _p: &ParamSet, _seed: u64) -> Result<Outcome> {
        Err(Error::input("method", "rmkc is not available yet"))
    }
}
