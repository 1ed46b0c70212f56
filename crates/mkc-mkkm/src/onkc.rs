//! onkc (to be written).
