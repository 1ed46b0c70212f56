//! k-means, kernel k-means, kernel k-medoids and greedy medoid initialisation, seeded and parallel.
//!
//! (Work in progress.)
