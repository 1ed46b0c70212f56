//! Clustering metrics: Hungarian accuracy, NMI, purity, ARI, contingency tables.
//!
//! (Work in progress.)
