//! GUMKL (Tzortzis & Likas): greedy unsupervised multiple kernel learning, and MVKKM.
//!
//! (Work in progress.)
