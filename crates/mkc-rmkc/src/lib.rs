//! RMKC (Tzortzis & Likas): ratio-based multiple kernel clustering, and the iterSVR baseline.
//!
//! (Work in progress.)
