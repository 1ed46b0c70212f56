//! Reflection of parameter builders: each parameter a builder declares (with
//! [`params!`](macro@crate::params) or a reflected [`setters!`](crate::setters!) block) as its
//! name, the kind of value a configuration gives it, its default as text and its doc.
//!
//! The declaration is the one source of truth: a front end (the experiments' config keys,
//! a command line's flags) builds its parameter table from [`Reflect::param_info`]
//! instead of repeating names, defaults and help.
//!
//! ```
//! use mkc_core::params::{Reflect, ValueKind};
//!
//! #[derive(Debug, Clone, Copy, PartialEq)]
//! pub enum Search { Golden, Armijo }
//! mkc_core::param_words!(Search { "golden" => Search::Golden, "armijo" => Search::Armijo });
//!
//! mkc_core::params! {
//!     /// Parameters of a method.
//!     pub struct P {
//!         /// Relative tolerance.
//!         pub tol: f64 = 1e-5,
//!         /// Line search.
//!         pub search: Search = Search::Golden,
//!         /// Cap (ours).
//!         pub max_iter: usize = 100,
//!     }
//!     /// The defaults.
//!     new;
//! }
//! let info = P::param_info();
//! assert_eq!(info[0].name, "tol");
//! assert_eq!((info[0].kind, info[0].default.as_str()), (Some(ValueKind::Float), "1e-5"));
//! assert_eq!(info[1].kind, Some(ValueKind::Choice(&["golden", "armijo"])));
//! assert_eq!((info[1].default.as_str(), info[2].default.as_str()), ("golden", "100"));
//! assert_eq!(info[2].help(), "Cap (ours).");
//! ```

/// The kind of value a configuration gives a parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// A real number (`inf` allowed).
    Float,
    /// A non-negative integer.
    Int,
    /// `true` / `false`.
    Bool,
    /// One of the listed words.
    Choice(&'static [&'static str]),
}

/// A parameter type that a configuration can set from a value of one [`ValueKind`].
pub trait ParamType {
    /// The kind of value.
    const KIND: ValueKind;
    /// The value as configuration text (parsing it with [`Self::KIND`] gives it back).
    fn to_text(&self) -> String;
}

/// A real number as the shortest of its plain and exponent forms (`1e-5`, `0.03`, `100`,
/// `inf`); ties keep the plain form.
pub fn float_text(x: f64) -> String {
    let plain = format!("{x}");
    if x != 0.0 && x.abs() < 1.0 {
        let sci = format!("{x:e}");
        if sci.len() < plain.len() {
            return sci;
        }
    }
    plain
}

impl ParamType for f64 {
    const KIND: ValueKind = ValueKind::Float;
    fn to_text(&self) -> String {
        float_text(*self)
    }
}

impl ParamType for bool {
    const KIND: ValueKind = ValueKind::Bool;
    fn to_text(&self) -> String {
        self.to_string()
    }
}

macro_rules! int_param_type {
    ($($t:ty),*) => {$(
        impl ParamType for $t {
            const KIND: ValueKind = ValueKind::Int;
            fn to_text(&self) -> String {
                self.to_string()
            }
        }
    )*};
}
int_param_type!(usize, u32, u64);

/// An option enum chosen by a word (implemented with [`param_words!`](crate::param_words!)).
pub trait Words: Sized {
    /// The words, in the order listings show them.
    const WORDS: &'static [&'static str];
    /// The word of this value.
    fn word(&self) -> &'static str;
    /// The value of a word; `None` for a word not in [`Self::WORDS`].
    fn from_word(word: &str) -> Option<Self>;
}

/// Implement [`Words`] and [`ParamType`] (kind [`ValueKind::Choice`]) for an option
/// enum: `param_words!(Norm { "none" => Norm::None, "1" => Norm::L1, "2" => Norm::L2 })`.
/// Variants no word names (one holding data, say) are written after `_ =>` with the text
/// that shows them, which is not one of the words.
#[macro_export]
macro_rules! param_words {
    ($ty:ty { $($word:literal => $value:path),+ $(,)? $(; _ => $other:literal)? }) => {
        impl $crate::params::Words for $ty {
            const WORDS: &'static [&'static str] = &[$($word),+];
            fn word(&self) -> &'static str {
                #[allow(unreachable_patterns)]
                match self {
                    $($value => $word,)+
                    $(_ => $other,)?
                }
            }
            fn from_word(word: &str) -> Option<Self> {
                match word {
                    $($word => Some($value),)+
                    _ => None,
                }
            }
        }
        impl $crate::params::ParamType for $ty {
            const KIND: $crate::params::ValueKind =
                $crate::params::ValueKind::Choice(<$ty as $crate::params::Words>::WORDS);
            fn to_text(&self) -> String {
                $crate::params::Words::word(self).to_string()
            }
        }
    };
}

/// One declared parameter: its name (the field or setter), the kind of value a
/// configuration gives it (`None` for a type no configuration value gives, such as a
/// nested options struct), its default as text and its doc comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamInfo {
    /// The setter's (and usually the field's) name.
    pub name: &'static str,
    /// The kind of value, or `None` when the type is not a [`ParamType`].
    pub kind: Option<ValueKind>,
    /// The default as text (empty when `kind` is `None`).
    pub default: String,
    /// The doc comment, its lines as written (each with its leading space).
    pub doc: &'static str,
}

impl ParamInfo {
    /// The doc comment as one line of plain text: lines trimmed and joined by spaces,
    /// rustdoc links (``[`X`]``, ``[`X`](path)``) shown as `` `X` ``.
    pub fn help(&self) -> String {
        let line = self
            .doc
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        unlink(&line)
    }

    #[doc(hidden)]
    pub fn from_probe(
        name: &'static str,
        doc: &'static str,
        probe: Option<(ValueKind, String)>,
    ) -> Self {
        let (kind, default) = match probe {
            Some((k, d)) => (Some(k), d),
            None => (None, String::new()),
        };
        ParamInfo {
            name,
            kind,
            default,
            doc,
        }
    }
}

/// `text` with each rustdoc link ``[`X`]`` or ``[`X`](target)`` replaced by `` `X` ``.
fn unlink(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("[`") {
        let Some(j) = rest[i + 2..].find("`]").map(|j| i + 2 + j) else {
            break;
        };
        out.push_str(&rest[..i]);
        out.push_str(&rest[i + 1..j + 1]);
        rest = &rest[j + 2..];
        if rest.starts_with('(') {
            if let Some(k) = rest.find(')') {
                rest = &rest[k + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// A parameter builder that lists its parameters ([`params!`](macro@crate::params) implements
/// it).
pub trait Reflect {
    /// Every declared parameter with its default (that of `new()`), in declaration order.
    fn param_info() -> Vec<ParamInfo>;

    /// The parameter named `name`.
    fn param(name: &str) -> Option<ParamInfo> {
        Self::param_info().into_iter().find(|p| p.name == name)
    }
}

/// Autoref dispatch for the macros: the kind and text of a value whose type is a
/// [`ParamType`], `None` for any other type.
#[doc(hidden)]
pub struct Probe<'a, T>(pub &'a T);

#[doc(hidden)]
pub trait ViaParamType {
    fn probe(&self) -> Option<(ValueKind, String)>;
}

impl<T: ParamType> ViaParamType for Probe<'_, T> {
    fn probe(&self) -> Option<(ValueKind, String)> {
        Some((T::KIND, self.0.to_text()))
    }
}

#[doc(hidden)]
pub trait ViaOther {
    fn probe(&self) -> Option<(ValueKind, String)>;
}

impl<T> ViaOther for &Probe<'_, T> {
    fn probe(&self) -> Option<(ValueKind, String)> {
        None
    }
}

/// The doc text of a list of attributes (each as `[…]`), non-doc attributes skipped.
#[doc(hidden)]
#[macro_export]
macro_rules! __doc_text {
    (@acc [$($d:literal)*]) => { concat!($($d, "\n"),*) };
    (@acc [$($d:literal)*] [doc = $x:literal] $($rest:tt)*) => {
        $crate::__doc_text!(@acc [$($d)* $x] $($rest)*)
    };
    (@acc [$($d:literal)*] [$($other:tt)*] $($rest:tt)*) => {
        $crate::__doc_text!(@acc [$($d)*] $($rest)*)
    };
    ($($attr:tt)*) => { $crate::__doc_text!(@acc [] $($attr)*) };
}

/// The [`ParamInfo`] of a value, named and documented.
#[doc(hidden)]
#[macro_export]
macro_rules! __param_info {
    ($value:expr, $name:ident, $doc:expr) => {{
        #[allow(unused_imports)]
        use $crate::params::reflect::{ViaOther as _, ViaParamType as _};
        $crate::params::ParamInfo::from_probe(
            stringify!($name),
            $doc,
            (&$crate::params::reflect::Probe(&$value)).probe(),
        )
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_shortest() {
        let cases = [
            (1.0, "1"),
            (1e-5, "1e-5"),
            (1e-3, "1e-3"),
            (0.03, "0.03"),
            (0.01, "0.01"),
            (0.25, "0.25"),
            (0.1, "0.1"),
            (100.0, "100"),
            (-1.0, "-1"),
            (0.0, "0"),
            (f64::INFINITY, "inf"),
        ];
        for (x, t) in cases {
            assert_eq!(float_text(x), t);
            assert_eq!(t.parse::<f64>().unwrap(), x);
        }
    }

    struct Opaque;

    #[test]
    fn help_is_one_line_without_links() {
        let info = ParamInfo::from_probe(
            "z",
            " Solver ([`ZSolver`]) or [`Norm::L1`](crate::Norm),\n a [link] and `code`.\n",
            None,
        );
        assert_eq!(
            info.help(),
            "Solver (`ZSolver`) or `Norm::L1`, a [link] and `code`."
        );
    }

    #[test]
    #[allow(clippy::needless_borrow)] // the borrow is what the macros write
    fn probe_tells_param_types_apart() {
        use super::{ViaOther as _, ViaParamType as _};
        assert_eq!(
            (&Probe(&3usize)).probe(),
            Some((ValueKind::Int, "3".into()))
        );
        assert_eq!((&Probe(&Opaque)).probe(), None);
        let info =
            crate::__param_info!(true, flag, crate::__doc_text!([doc = " A flag."][must_use]));
        assert_eq!(info.help(), "A flag.");
        assert_eq!(
            (info.kind, info.default.as_str()),
            (Some(ValueKind::Bool), "true")
        );
    }
}
