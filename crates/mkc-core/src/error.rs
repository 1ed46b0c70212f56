//! The single error type of the workspace (one error crate for all, as polars does),
//! plus helper macros so that every crate reports problems the same way.

use std::path::PathBuf;

/// Result alias used by every mkc crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in mkc. Each variant names *what* was wrong and *where*.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An argument has the wrong shape (rows/columns/length).
    #[error("{what}: expected {expected}, got {got}")]
    Shape {
        what: String,
        expected: String,
        got: String,
    },

    /// A NaN or infinite value where finite numbers are required.
    #[error("{what}: non-finite value {value} at row {row}, column {col}")]
    NonFinite {
        what: String,
        row: usize,
        col: usize,
        value: f64,
    },

    /// A matrix that must be symmetric is not (beyond the tolerance).
    #[error("{what}: not symmetric: entry ({i}, {j}) = {a:e} but ({j}, {i}) = {b:e}")]
    NotSymmetric {
        what: String,
        i: usize,
        j: usize,
        a: f64,
        b: f64,
    },

    /// A matrix that must be positive semidefinite is not.
    #[error("{what}: not positive semidefinite (smallest eigenvalue {min_eigenvalue:e})")]
    NotPsd { what: String, min_eigenvalue: f64 },

    /// A hyperparameter is out of its valid range.
    #[error("invalid parameter `{name}` = {value}: {reason}")]
    InvalidParam {
        name: String,
        value: String,
        reason: String,
    },

    /// An input is empty or has too few distinct elements (e.g. a one-class dataset).
    #[error("{what}: {reason}")]
    InvalidInput { what: String, reason: String },

    /// An iterative solver hit its iteration cap without meeting its tolerance.
    #[error("{what} did not converge in {iterations} iterations (residual {residual:e}, tolerance {tolerance:e})")]
    NotConverged {
        what: String,
        iterations: usize,
        residual: f64,
        tolerance: f64,
    },

    /// A numerical failure that input validation could not rule out.
    #[error("numerical failure in {what}: {reason}")]
    Numerical { what: String, reason: String },

    /// An I/O error, with the file it concerns.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// A file could be read but its content is malformed.
    #[error("{}: {location}: {reason}", path.display())]
    Parse {
        path: PathBuf,
        location: String,
        reason: String,
    },

    /// A dataset file is not in the data directory.
    #[error("dataset `{dataset}`: missing file {} (sha256 {sha256}); {hint}", file.display())]
    MissingData {
        dataset: String,
        file: PathBuf,
        sha256: String,
        hint: String,
    },

    /// A data file does not have the checksum the registry records.
    #[error("{}: sha256 mismatch: expected {expected}, found {found}", path.display())]
    Checksum {
        path: PathBuf,
        expected: String,
        found: String,
    },

    /// A configuration file has an unknown key, a wrong type or an impossible value.
    #[error("config {source_name}: `{key}`: {reason}")]
    Config {
        source_name: String,
        key: String,
        reason: String,
    },
}

impl Error {
    /// Shorthand for [`Error::InvalidParam`].
    pub fn param(
        name: impl Into<String>,
        value: impl std::fmt::Display,
        reason: impl Into<String>,
    ) -> Self {
        Error::InvalidParam {
            name: name.into(),
            value: value.to_string(),
            reason: reason.into(),
        }
    }
    /// Shorthand for [`Error::Io`].
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}

/// The shorthand constructors of the variants whose fields are all `String` or `PathBuf`:
/// `fn NAME(field: impl Into<T>, …) -> Self`, one argument per field, in order.
macro_rules! shorthands {
    ($($fn:ident => $variant:ident { $($field:ident: $ty:ty),+ })*) => {
        impl Error {
            $(
                #[doc = concat!("Shorthand for [`Error::", stringify!($variant), "`].")]
                pub fn $fn($($field: impl Into<$ty>),+) -> Self {
                    Error::$variant { $($field: $field.into()),+ }
                }
            )*
        }
    };
}

shorthands! {
    input => InvalidInput { what: String, reason: String }
    shape => Shape { what: String, expected: String, got: String }
    numerical => Numerical { what: String, reason: String }
    parse => Parse { path: PathBuf, location: String, reason: String }
    config => Config { source_name: String, key: String, reason: String }
}

/// Return early with an error: `mkc_bail!(param "C", c, "must be positive")`,
/// `mkc_bail!(input "labels", "only one class")`, or `mkc_bail!(expr)`.
#[macro_export]
macro_rules! mkc_bail {
    (param $name:expr, $value:expr, $($fmt:tt)+) => {
        return Err($crate::Error::param($name, $value, format!($($fmt)+)))
    };
    (input $what:expr, $($fmt:tt)+) => {
        return Err($crate::Error::input($what, format!($($fmt)+)))
    };
    ($err:expr) => {
        return Err($err.into())
    };
}

/// `mkc_ensure!(cond, param "k", k, "must be at least 1")` — bail unless `cond` holds.
/// Takes the same forms as [`mkc_bail!`] after the condition.
#[macro_export]
macro_rules! mkc_ensure {
    ($cond:expr, $($rest:tt)+) => {
        let holds: bool = $cond;
        if !holds {
            $crate::mkc_bail!($($rest)+);
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn positive(c: f64) -> Result<f64> {
        mkc_ensure!(c > 0.0, param "C", c, "must be positive, got {c}");
        Ok(c)
    }

    #[test]
    fn ensure_macro_builds_param_error() {
        assert_eq!(positive(2.0).unwrap(), 2.0);
        let e = positive(-1.0).unwrap_err();
        assert!(matches!(&e, Error::InvalidParam { name, .. } if name == "C"));
        assert!(e.to_string().contains("`C` = -1"));
    }
}
