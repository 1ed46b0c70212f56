//! lf_mvc (to be written).
