//! SCSK and SCMK (Kang, Peng & Cheng, AAAI 2017): twin learning of similarity and clustering with multiple kernels.
//!
//! (Work in progress.)
