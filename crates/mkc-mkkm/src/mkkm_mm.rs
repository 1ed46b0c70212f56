//! mkkm_mm (to be written).
