//! Readers for the data formats of the MKC/MMC field (CSV, LIBSVM, npy, MAT v5, MAT v7.3) and a dataset registry.
//!
//! (Work in progress.)
