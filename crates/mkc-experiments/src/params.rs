//! Hyperparameter values, the parameter declarations of a method, and grid expansion.

use mkc_core::params::{ParamInfo, Reflect, ValueKind, Words};
use mkc_core::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// One hyperparameter value as written in a config or on the command line.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum ParamValue {
    /// `true` / `false`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A real number.
    Float(f64),
    /// A word (e.g. `"golden"`, `"inf"`).
    Str(String),
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Bool(b) => write!(f, "{b}"),
            ParamValue::Int(i) => write!(f, "{i}"),
            ParamValue::Float(x) => write!(f, "{x}"),
            ParamValue::Str(s) => write!(f, "{s}"),
        }
    }
}

/// The type of a declared parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// A real number (integers are accepted; `inf` allowed as text).
    Float,
    /// A non-negative integer.
    Int,
    /// `true` / `false`.
    Bool,
    /// One of the listed words.
    Choice(&'static [&'static str]),
}

impl ParamKind {
    /// Parse command-line text into a value of this kind.
    pub fn parse(self, name: &str, text: &str) -> Result<ParamValue> {
        let t = text.trim();
        match self {
            ParamKind::Float => t
                .parse::<f64>()
                .ok()
                .filter(|v| !v.is_nan())
                .map(ParamValue::Float)
                .ok_or_else(|| Error::param(name, text, "expected a number")),
            ParamKind::Int => t
                .parse::<i64>()
                .ok()
                .filter(|v| *v >= 0)
                .map(ParamValue::Int)
                .ok_or_else(|| Error::param(name, text, "expected a non-negative integer")),
            ParamKind::Bool => match t {
                "true" | "yes" | "1" => Ok(ParamValue::Bool(true)),
                "false" | "no" | "0" => Ok(ParamValue::Bool(false)),
                _ => Err(Error::param(name, text, "expected true or false")),
            },
            ParamKind::Choice(words) => {
                if words.contains(&t) {
                    Ok(ParamValue::Str(t.to_string()))
                } else {
                    Err(Error::param(
                        name,
                        text,
                        format!("expected one of {}", words.join(", ")),
                    ))
                }
            }
        }
    }

    /// Check that a config value has this kind (ints are accepted as floats).
    pub fn accepts(self, v: &ParamValue) -> bool {
        match (self, v) {
            (ParamKind::Float, ParamValue::Float(_) | ParamValue::Int(_)) => true,
            (ParamKind::Float, ParamValue::Str(s)) => s == "inf",
            (ParamKind::Int, ParamValue::Int(i)) => *i >= 0,
            (ParamKind::Bool, ParamValue::Bool(_)) => true,
            (ParamKind::Choice(words), ParamValue::Str(s)) => words.contains(&s.as_str()),
            _ => false,
        }
    }

    /// Words for error messages.
    pub fn describe(self) -> String {
        match self {
            ParamKind::Float => "a number".into(),
            ParamKind::Int => "a non-negative integer".into(),
            ParamKind::Bool => "true or false".into(),
            ParamKind::Choice(w) => format!("one of {}", w.join(", ")),
        }
    }
}

impl From<ValueKind> for ParamKind {
    fn from(k: ValueKind) -> Self {
        match k {
            ValueKind::Float => ParamKind::Float,
            ValueKind::Int => ParamKind::Int,
            ValueKind::Bool => ParamKind::Bool,
            ValueKind::Choice(words) => ParamKind::Choice(words),
        }
    }
}

/// Declaration of one hyperparameter of a method: name (also the CLI flag `--name`),
/// kind, default as text (the paper's default; `""` = required) and help text.
#[derive(Debug, Clone, Copy)]
pub struct ParamSpec {
    /// Name in configs and the CLI flag `--<name>`.
    pub name: &'static str,
    /// Type.
    pub kind: ParamKind,
    /// Default (text, parsed with `kind`); empty when the parameter is required.
    pub default: &'static str,
    /// One-line help (say where the default comes from).
    pub help: &'static str,
}

impl ParamSpec {
    /// Shorthand constructor.
    pub const fn new(
        name: &'static str,
        kind: ParamKind,
        default: &'static str,
        help: &'static str,
    ) -> Self {
        ParamSpec {
            name,
            kind,
            default,
            help,
        }
    }
}

/// One config key of a reflected parameter table ([`reflected`]): the builder's setter,
/// the key (usually the setter's name), and the default when the config's differs from
/// the builder's (the papers' protocol against a library default).
pub type ReflectedKey = (&'static str, &'static str, Option<&'static str>);

/// The parameter table of a builder: for each key, the kind, default and doc of the
/// setter it feeds, as the builder declares them ([`Reflect`]); the doc becomes the
/// one-line help. Built once per method (the adapters cache it), so the text it
/// allocates is leaked once.
///
/// # Panics
/// When a setter is not one the builder reflects or its type has no configuration value
/// (a declaration error of the adapter, which the registry's tests catch).
pub fn reflected<R: Reflect>(keys: &[ReflectedKey]) -> Vec<ParamSpec> {
    let info = R::param_info();
    keys.iter()
        .map(|&(setter, key, default)| {
            let i: &ParamInfo = info
                .iter()
                .find(|i| i.name == setter)
                .unwrap_or_else(|| panic!("`{setter}` is not a reflected parameter"));
            let kind = i
                .kind
                .unwrap_or_else(|| panic!("`{setter}` takes no configuration value"));
            let default = match default {
                Some(d) => d,
                None => Box::leak(i.default.clone().into_boxed_str()),
            };
            ParamSpec::new(
                key,
                kind.into(),
                default,
                Box::leak(i.help().into_boxed_str()),
            )
        })
        .collect()
}

/// The value of a word parameter as an option enum of a method crate ([`Words`], declared
/// with `mkc_core::param_words!`); the adapters' `by_word!` implements [`FromParam`] with it.
pub fn word<T: Words>(set: &ParamSet, name: &str) -> Result<T> {
    let w = set.str(name)?;
    T::from_word(w)
        .ok_or_else(|| Error::param(name, w, format!("expected one of {}", T::WORDS.join(", "))))
}

/// A complete assignment of a method's parameters (defaults filled in), sorted by name.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ParamSet(pub BTreeMap<String, ParamValue>);

impl ParamSet {
    /// Fill `given` with the defaults of `specs`; unknown names and wrong kinds are errors.
    pub fn from_specs(specs: &[ParamSpec], given: &BTreeMap<String, ParamValue>) -> Result<Self> {
        for (name, v) in given {
            let Some(spec) = specs.iter().find(|s| s.name == name) else {
                let known: Vec<&str> = specs.iter().map(|s| s.name).collect();
                let known = if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                };
                return Err(Error::param(
                    name,
                    v,
                    format!("unknown parameter (known: {known})"),
                ));
            };
            if !spec.kind.accepts(v) {
                return Err(Error::param(
                    name,
                    v,
                    format!("expected {}", spec.kind.describe()),
                ));
            }
        }
        let mut out = BTreeMap::new();
        for s in specs {
            let v = match given.get(s.name) {
                Some(v) => v.clone(),
                None if s.default.is_empty() => {
                    return Err(Error::param(s.name, "(missing)", "required parameter"));
                }
                None => s.kind.parse(s.name, s.default)?,
            };
            out.insert(s.name.to_string(), v);
        }
        Ok(ParamSet(out))
    }

    fn raw(&self, name: &str) -> Result<&ParamValue> {
        self.0
            .get(name)
            .ok_or_else(|| Error::param(name, "(missing)", "parameter not declared by the method"))
    }

    /// A real-valued parameter (`"inf"` → ∞).
    pub fn f64(&self, name: &str) -> Result<f64> {
        match self.raw(name)? {
            ParamValue::Float(v) => Ok(*v),
            ParamValue::Int(v) => Ok(*v as f64),
            ParamValue::Str(s) if s == "inf" => Ok(f64::INFINITY),
            v => Err(Error::param(name, v, "expected a number")),
        }
    }

    /// A non-negative integer parameter.
    pub fn usize(&self, name: &str) -> Result<usize> {
        match self.raw(name)? {
            ParamValue::Int(v) if *v >= 0 => Ok(*v as usize),
            v => Err(Error::param(name, v, "expected a non-negative integer")),
        }
    }

    /// A boolean parameter.
    pub fn bool(&self, name: &str) -> Result<bool> {
        match self.raw(name)? {
            ParamValue::Bool(b) => Ok(*b),
            v => Err(Error::param(name, v, "expected true or false")),
        }
    }

    /// A word parameter.
    pub fn str(&self, name: &str) -> Result<&str> {
        match self.raw(name)? {
            ParamValue::Str(s) => Ok(s),
            v => Err(Error::param(name, v, "expected a word")),
        }
    }

    /// A parameter as the type the receiving setter takes (`f64`, `usize`, `bool` or an
    /// option enum with `mkc_core::param_words!`, read through the adapters' `by_word!`).
    pub fn get<T: FromParam>(&self, name: &str) -> Result<T> {
        T::from_param(self, name)
    }

    /// `name=value, …` of the parameters in `names` (all when empty), for table notes.
    pub fn describe(&self, names: &[String]) -> String {
        self.0
            .iter()
            .filter(|(k, _)| names.is_empty() || names.contains(k))
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A value an adapter reads from a [`ParamSet`] with [`ParamSet::get`].
pub trait FromParam: Sized {
    /// Read parameter `name` of `set` as this type (a typed error names the key).
    fn from_param(set: &ParamSet, name: &str) -> Result<Self>;
}

impl FromParam for f64 {
    fn from_param(set: &ParamSet, name: &str) -> Result<Self> {
        set.f64(name)
    }
}

impl FromParam for usize {
    fn from_param(set: &ParamSet, name: &str) -> Result<Self> {
        set.usize(name)
    }
}

impl FromParam for bool {
    fn from_param(set: &ParamSet, name: &str) -> Result<Self> {
        set.bool(name)
    }
}

/// Expand fixed parameters and a grid into the list of grid points (cartesian product;
/// the last grid key varies fastest, keys in name order). An empty grid gives one point.
pub fn expand_grid(
    fixed: &BTreeMap<String, ParamValue>,
    grid: &BTreeMap<String, Vec<ParamValue>>,
) -> Vec<BTreeMap<String, ParamValue>> {
    let mut points = vec![fixed.clone()];
    for (name, values) in grid {
        let mut next = Vec::with_capacity(points.len() * values.len());
        for p in &points {
            for v in values {
                let mut q = p.clone();
                q.insert(name.clone(), v.clone());
                next.push(q);
            }
        }
        points = next;
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[ParamSpec] = &[
        ParamSpec::new("C", ParamKind::Float, "1", "regulariser"),
        ParamSpec::new("L", ParamKind::Int, "30", "candidates"),
        ParamSpec::new(
            "search",
            ParamKind::Choice(&["golden", "armijo"]),
            "golden",
            "line search",
        ),
    ];

    #[test]
    fn defaults_fill_and_kinds_are_checked() {
        let mut given = BTreeMap::new();
        given.insert("C".to_string(), ParamValue::Int(10));
        let p = ParamSet::from_specs(SPECS, &given).unwrap();
        assert_eq!(p.f64("C").unwrap(), 10.0);
        assert_eq!(p.usize("L").unwrap(), 30);
        assert_eq!(p.str("search").unwrap(), "golden");
        given.insert("L".to_string(), ParamValue::Float(1.5));
        assert!(ParamSet::from_specs(SPECS, &given).is_err());
        given.remove("L");
        given.insert("Q".to_string(), ParamValue::Int(1));
        let e = ParamSet::from_specs(SPECS, &given).unwrap_err().to_string();
        assert!(e.contains("`Q`") && e.contains("unknown"), "{e}");
    }

    #[test]
    fn grid_is_the_cartesian_product() {
        let mut grid = BTreeMap::new();
        grid.insert(
            "C".to_string(),
            vec![ParamValue::Int(1), ParamValue::Int(2)],
        );
        grid.insert(
            "L".to_string(),
            vec![ParamValue::Int(3), ParamValue::Int(4), ParamValue::Int(5)],
        );
        let pts = expand_grid(&BTreeMap::new(), &grid);
        assert_eq!(pts.len(), 6);
        assert_eq!(pts[1]["L"], ParamValue::Int(4));
        assert_eq!(expand_grid(&BTreeMap::new(), &BTreeMap::new()).len(), 1);
    }

    #[test]
    fn cli_text_parses_by_kind() {
        assert_eq!(
            ParamKind::Float.parse("C", "0.5").unwrap(),
            ParamValue::Float(0.5)
        );
        assert!(ParamKind::Int.parse("L", "-1").is_err());
        assert!(ParamKind::Choice(&["a"]).parse("s", "b").is_err());
    }
}
