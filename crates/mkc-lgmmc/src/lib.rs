//! LG-MMC (Li, Tsang, Kwok & Zhou, AISTATS 2009): label-generating maximum margin clustering.
//!
//! (Work in progress.)
