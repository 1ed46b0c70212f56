//! gmmc (to be written).
