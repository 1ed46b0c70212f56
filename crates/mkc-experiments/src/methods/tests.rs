//! The registry's parameter tables against the builders they feed.

use super::all;
use crate::params::{ParamSet, ParamSpec};
use std::collections::BTreeMap;

fn defaults(specs: &[ParamSpec]) -> ParamSet {
    ParamSet::from_specs(specs, &BTreeMap::new()).expect("every default parses")
}

/// Every key is declared once with a help line, every default parses and passes the
/// method's check, and the declared defaults give the builder's own (replaced defaults
/// excepted).
#[test]
fn tables_parse_and_give_the_builders_defaults() {
    for m in all() {
        let specs = m.params();
        let mut names: Vec<&str> = specs.iter().map(|s| s.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(
            names.len(),
            specs.len(),
            "{}: a key declared twice",
            m.name()
        );
        for s in &specs {
            assert!(
                !s.help.trim().is_empty(),
                "{}: `{}` has no help",
                m.name(),
                s.name
            );
        }
        let p = defaults(&specs);
        m.check(&p)
            .unwrap_or_else(|e| panic!("{}: defaults rejected: {e}", m.name()));
        let differing = m.defaults_differing().unwrap();
        assert!(
            differing.is_empty(),
            "{}: defaults differ for {differing:?}",
            m.name()
        );
    }
}

/// The table lists exactly what the adapter reads: without any one key the build fails
/// (so no key is declared and ignored), and with all of them it succeeds.
#[test]
fn every_key_is_read_by_the_build() {
    for m in all() {
        let specs = m.params();
        let full = defaults(&specs);
        assert!(m.build(&full).is_ok(), "{}", m.name());
        for s in &specs {
            let mut less = full.clone();
            less.0.remove(s.name);
            assert!(
                m.build(&less).is_err(),
                "{}: `{}` is declared but not read",
                m.name(),
                s.name
            );
        }
    }
}
