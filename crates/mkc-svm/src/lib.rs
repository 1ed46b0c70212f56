//! An SMO solver for precomputed kernels (C-SVC, epsilon-SVR, simplex-constrained squared-hinge dual) with warm starts.
//!
//! (Work in progress.)
