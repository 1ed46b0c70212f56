//! A bounds-checked byte cursor for the binary readers (MAT v5, npy).
//!
//! Every read checks the remaining length first and returns a typed error, so a
//! truncated or lying file can never cause a panic, and no buffer is ever sized by a
//! claimed length before that length has been checked against the bytes present.

use mkc_core::{Error, Result};
use std::path::{Path, PathBuf};

/// Byte order of a binary file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endian {
    /// Least significant byte first.
    Little,
    /// Most significant byte first.
    Big,
}

/// A cursor over a byte slice that reports errors against a file path.
#[derive(Debug, Clone)]
pub(crate) struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    /// Offset of `data[0]` in the file (for error messages only).
    base: usize,
    pub(crate) endian: Endian,
    path: &'a Path,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(data: &'a [u8], endian: Endian, path: &'a Path) -> Self {
        Cursor {
            data,
            pos: 0,
            base: 0,
            endian,
            path,
        }
    }

    /// A cursor over a sub-slice, remembering its offset for error messages.
    pub(crate) fn with_base(data: &'a [u8], endian: Endian, path: &'a Path, base: usize) -> Self {
        Cursor {
            data,
            pos: 0,
            base,
            endian,
            path,
        }
    }

    pub(crate) fn path(&self) -> &'a Path {
        self.path
    }

    pub(crate) fn offset(&self) -> usize {
        self.base + self.pos
    }

    pub(crate) fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    pub(crate) fn err(&self, reason: impl Into<String>) -> Error {
        parse_err(self.path, format!("byte offset {}", self.offset()), reason)
    }

    /// Take the next `n` bytes; errors if fewer remain.
    pub(crate) fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(self.err(format!(
                "truncated {what}: needs {n} bytes, only {} remain",
                self.remaining()
            )));
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    pub(crate) fn skip(&mut self, n: usize, what: &str) -> Result<()> {
        self.take(n, what).map(|_| ())
    }

    pub(crate) fn u32(&mut self, what: &str) -> Result<u32> {
        let b = self.take(4, what)?;
        let a = [b[0], b[1], b[2], b[3]];
        Ok(match self.endian {
            Endian::Little => u32::from_le_bytes(a),
            Endian::Big => u32::from_be_bytes(a),
        })
    }
}

/// The shorthand for a parse error at a location.
pub(crate) fn parse_err(
    path: &Path,
    location: impl Into<String>,
    reason: impl Into<String>,
) -> Error {
    Error::parse(PathBuf::from(path), location, reason)
}

/// Decode `bytes` (a whole number of `size`-byte elements) into f64 with `conv`.
pub(crate) fn decode<const N: usize>(
    bytes: &[u8],
    endian: Endian,
    conv: impl Fn([u8; N], Endian) -> f64,
) -> Vec<f64> {
    bytes
        .chunks_exact(N)
        .map(|c| {
            let mut a = [0u8; N];
            a.copy_from_slice(c);
            conv(a, endian)
        })
        .collect()
}

macro_rules! conv_fn {
    ($name:ident, $t:ty, $n:literal) => {
        pub(crate) fn $name(a: [u8; $n], e: Endian) -> f64 {
            (match e {
                Endian::Little => <$t>::from_le_bytes(a),
                Endian::Big => <$t>::from_be_bytes(a),
            }) as f64
        }
    };
}
conv_fn!(conv_i8, i8, 1);
conv_fn!(conv_u8, u8, 1);
conv_fn!(conv_i16, i16, 2);
conv_fn!(conv_u16, u16, 2);
conv_fn!(conv_i32, i32, 4);
conv_fn!(conv_u32, u32, 4);
conv_fn!(conv_i64, i64, 8);
conv_fn!(conv_u64, u64, 8);
conv_fn!(conv_f32, f32, 4);
conv_fn!(conv_f64, f64, 8);

/// Read a whole file, mapping the I/O error to [`Error::Io`] with the path.
pub(crate) fn read_file(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| Error::io(path, e))
}

/// Read a whole file, transparently gunzipping it when it starts with the gzip magic.
pub(crate) fn read_maybe_gz(path: &Path) -> Result<Vec<u8>> {
    let raw = read_file(path)?;
    if raw.len() >= 18 && raw[0] == 0x1f && raw[1] == 0x8b {
        use std::io::Read;
        // pre-size from the gzip trailer (ISIZE = uncompressed size mod 2^32), capped
        // at the largest ratio deflate can reach so a lying trailer cannot size it
        let n = raw.len();
        let isize = u32::from_le_bytes([raw[n - 4], raw[n - 3], raw[n - 2], raw[n - 1]]) as usize;
        let mut out = Vec::with_capacity(isize.min(n.saturating_mul(1032)));
        flate2::read::MultiGzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .map_err(|e| parse_err(path, "gzip stream", format!("cannot decompress: {e}")))?;
        Ok(out)
    } else {
        Ok(raw)
    }
}
