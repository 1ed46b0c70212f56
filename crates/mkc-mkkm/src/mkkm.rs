//! mkkm (to be written).
