//! lkam (to be written).
