//! Dense linear-algebra helpers on faer: weighted kernel sums, Frobenius products, centring, Laplacians, top-k/bottom-k symmetric eigenpairs.
//!
//! (Work in progress.)
