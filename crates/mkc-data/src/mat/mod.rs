//! MATLAB MAT-files: Level 5 (v6/v7, written by hand here: [`v5`]) and, with the
//! `mat73` feature, v7.3 (HDF5, `v73`). Both readers build the same [`MatArray`]
//! values from the shared pieces of `array.rs`.

mod array;
pub mod v5;
#[cfg(feature = "mat73")]
pub mod v73;

pub use array::{MatArray, MatClass, MatFile};

use mkc_core::Result;
use std::path::Path;

/// Read a MAT v5 file (any class the format defines; see [`MatArray`]).
pub fn read_mat(path: impl AsRef<Path>) -> Result<MatFile> {
    let path = path.as_ref();
    let data = crate::bytes::read_file(path)?;
    v5::parse(&data, path)
}

/// `true` when the bytes look like a MAT v7.3 file (HDF5 signature after the
/// 512-byte MATLAB user block).
pub fn is_v73(data: &[u8]) -> bool {
    data.len() >= 520 && &data[512..520] == b"\x89HDF\r\n\x1a\n"
}

/// Read a MAT file of either kind: v5 directly, v7.3 through `v73`
/// (an error naming the feature when it is not compiled in).
pub fn read_any(path: impl AsRef<Path>) -> Result<MatFile> {
    let path = path.as_ref();
    let data = crate::bytes::read_file(path)?;
    if is_v73(&data) || (data.len() >= 8 && &data[0..8] == b"\x89HDF\r\n\x1a\n") {
        #[cfg(feature = "mat73")]
        {
            return v73::parse(data, path);
        }
        #[cfg(not(feature = "mat73"))]
        {
            return Err(crate::bytes::parse_err(
                path,
                "header",
                "MAT v7.3 (HDF5) file: rebuild mkc-data with the `mat73` feature to read it",
            ));
        }
    }
    v5::parse(&data, path)
}
