//! cpmmc (to be written).
