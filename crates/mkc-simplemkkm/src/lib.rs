//! SimpleMKKM (Liu et al., ICML): min-max multiple kernel k-means by reduced gradient, plus MKKM and average-kernel baselines.
//!
//! (Work in progress.)
