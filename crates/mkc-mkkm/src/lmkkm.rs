//! lmkkm (to be written).
