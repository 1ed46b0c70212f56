//! Kernel construction (linear, polynomial, Gaussian, cosine; dense and sparse), normalisation and validity checks.
//!
//! (Work in progress.)
