//! Simplex, l1-ball, sphere and capped-simplex projections and small simplex-constrained QPs.
//!
//! (Work in progress.)
