//! Config-driven experiments that reproduce the tables of the five MKC/MMC papers.
//!
//! (Work in progress.)
