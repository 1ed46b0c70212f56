//! mkkm_mir (to be written).
