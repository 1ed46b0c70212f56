//! Shared foundations of the mkc workspace: one error type for every crate, input
//! validation helpers, a parameter-guard trait in the manner of linfa, and
//! deterministic seeding.
//!
//! Every public entry point of every mkc crate returns [`Result<T>`] with the
//! [`Error`] defined here, so a user matches on one enum whatever crate failed.
//!
//! ```
//! use faer::Mat;
//! use mkc_core::{validate, Error};
//!
//! let k = Mat::from_fn(3, 3, |i, j| if i == j { 1.0 } else { 0.5 });
//! assert!(validate::kernel("K", k.as_ref()).is_ok());
//!
//! let bad = Mat::from_fn(3, 3, |i, j| (i + 2 * j) as f64);
//! assert!(matches!(validate::kernel("K", bad.as_ref()), Err(Error::NotSymmetric { .. })));
//! ```

pub mod error;
pub mod params;
pub mod seed;
pub mod validate;

pub use error::{Error, Result};
pub use params::{Fit, ParamGuard};
