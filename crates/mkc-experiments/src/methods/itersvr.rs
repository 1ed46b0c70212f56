//! iterSVR: alternating eps-SVR and relabelling (Zhang, Tsang & Kwok 2007) — adapter placeholder; the method engineer replaces this file.

use super::{Input, Method, Outcome};
use crate::params::{ParamSet, ParamSpec};
use mkc_core::{Error, Result};

/// Placeholder adapter.
pub struct IterSvr;

impl Method for IterSvr {
    fn name(&self) -> &'static str {
        "itersvr"
    }
    fn about(&self) -> &'static str {
        "iterSVR: alternating eps-SVR and relabelling (Zhang, Tsang & Kwok 2007) (not available yet)"
    }
    fn params(&self) -> Vec<ParamSpec> {
        Vec::new()
    }
    fn run(&self, _input: &Input<'_>, _p: &ParamSet, _seed: u64) -> Result<Outcome> {
        Err(Error::input("method", "itersvr is not available yet"))
    }
}
