//! NumPy `.npy` files (format versions 1.0, 2.0 and 3.0): read 0-, 1- and 2-D arrays of
//! `f8`, `f4`, `i1`…`i8`, `u1`…`u8` and `b1` in either byte order and either memory
//! order into a `Mat<f64>` (a 1-D array of length n becomes n x 1); write `f8` arrays.
//!
//! Written by hand (the format is a magic string, a version, a header length and a
//! Python dict literal) so that every claim in the header is checked against the bytes
//! present before anything is allocated.

use crate::bytes::{self, parse_err, Endian};
use faer::{Mat, MatRef};
use mkc_core::{Error, Result};
use std::path::Path;

const MAGIC: &[u8] = b"\x93NUMPY";

/// Read a `.npy` file into a matrix (rows = first axis).
pub fn read(path: impl AsRef<Path>) -> Result<Mat<f64>> {
    let path = path.as_ref();
    let data = bytes::read_file(path)?;
    from_bytes(&data, path)
}

/// Write a matrix as a `.npy` file (`<f8`, C order, format 1.0).
pub fn write(path: impl AsRef<Path>, m: MatRef<'_, f64>) -> Result<()> {
    let path = path.as_ref();
    std::fs::write(path, to_bytes(m)).map_err(|e| Error::io(path, e))
}

/// Serialise a matrix in `.npy` format (`<f8`, C order, format 1.0).
pub fn to_bytes(m: MatRef<'_, f64>) -> Vec<u8> {
    let (r, c) = (m.nrows(), m.ncols());
    let mut header = format!("{{'descr': '<f8', 'fortran_order': False, 'shape': ({r}, {c}), }}");
    // pad so that magic(6) + version(2) + len(2) + header is a multiple of 64, ending in '\n'
    let unpadded = 10 + header.len() + 1;
    header.push_str(&" ".repeat((64 - unpadded % 64) % 64));
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len() + 8 * r * c);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[1, 0]);
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    for i in 0..r {
        for j in 0..c {
            out.extend_from_slice(&m[(i, j)].to_le_bytes());
        }
    }
    out
}

/// Parse `.npy` bytes (`path` is used in error messages).
pub fn from_bytes(data: &[u8], path: &Path) -> Result<Mat<f64>> {
    let (hstart, hlen) = header_span(data, path)?;
    let text = std::str::from_utf8(&data[hstart..hstart + hlen])
        .map_err(|_| parse_err(path, "header", "header is not UTF-8 text"))?;
    let header = Header::parse(text, path)?;
    header.decode(&data[hstart + hlen..], path)
}

/// Check the magic string and version; returns where the header text starts and its
/// length (checked against the bytes present).
fn header_span(data: &[u8], path: &Path) -> Result<(usize, usize)> {
    if data.len() < 10 || &data[..6] != MAGIC {
        return Err(parse_err(
            path,
            "header",
            "not a .npy file (missing \\x93NUMPY magic)",
        ));
    }
    let (major, minor) = (data[6], data[7]);
    let (hlen, hstart) = match major {
        1 => (u16::from_le_bytes([data[8], data[9]]) as usize, 10),
        2 | 3 => {
            if data.len() < 12 {
                return Err(parse_err(path, "header", "truncated header length"));
            }
            (
                u32::from_le_bytes([data[8], data[9], data[10], data[11]]) as usize,
                12,
            )
        }
        _ => {
            return Err(parse_err(
                path,
                "header",
                format!("unsupported .npy version {major}.{minor}"),
            ))
        }
    };
    if hlen > data.len() - hstart {
        return Err(parse_err(
            path,
            "header",
            format!("header claims {hlen} bytes, {} remain", data.len() - hstart),
        ));
    }
    Ok((hstart, hlen))
}

/// What the header dict says: element type, memory order and the 2-D shape.
struct Header<'a> {
    endian: Endian,
    /// The dtype without its byte-order character (`f8`, `i2`, `b1`, …).
    kind: &'a str,
    /// Bytes per element.
    size: usize,
    fortran: bool,
    rows: usize,
    cols: usize,
}

impl<'a> Header<'a> {
    /// Parse the Python dict literal of the header.
    fn parse(text: &'a str, path: &Path) -> Result<Self> {
        let key = |k: &str| {
            dict_value(text, k).ok_or_else(|| parse_err(path, "header", format!("no '{k}' key")))
        };
        let descr = key("descr")?;
        let fortran = key("fortran_order")?;
        let shape = key("shape")?;
        let fortran = match fortran {
            "True" => true,
            "False" => false,
            other => {
                return Err(parse_err(
                    path,
                    "header",
                    format!("fortran_order = {other:?}"),
                ))
            }
        };
        let dims = parse_shape(shape)
            .ok_or_else(|| parse_err(path, "header", format!("bad shape {shape:?}")))?;
        let (rows, cols) = match dims.as_slice() {
            [] => (1, 1),
            [n] => (*n, 1),
            [r, c] => (*r, *c),
            _ => {
                return Err(Error::shape(
                    format!("{}", path.display()),
                    "a 0-, 1- or 2-D array",
                    format!("shape {dims:?}"),
                ))
            }
        };
        let (endian, kind, size) = dtype(descr.trim_matches(|c| c == '\'' || c == '"'), path)?;
        Ok(Header {
            endian,
            kind,
            size,
            fortran,
            rows,
            cols,
        })
    }

    /// The data after the header, which must hold exactly rows x cols elements.
    fn decode(&self, body: &[u8], path: &Path) -> Result<Mat<f64>> {
        let (rows, cols, kind, endian) = (self.rows, self.cols, self.kind, self.endian);
        let count = rows
            .checked_mul(cols)
            .ok_or_else(|| parse_err(path, "header", "shape overflows"))?;
        let need = count
            .checked_mul(self.size)
            .ok_or_else(|| parse_err(path, "header", "shape overflows"))?;
        if body.len() != need {
            return Err(parse_err(
                path,
                "data",
                format!(
                    "shape ({rows}, {cols}) of {kind} needs {need} bytes, the file holds {}",
                    body.len()
                ),
            ));
        }
        let vals = match kind {
            "f8" => bytes::decode(body, endian, bytes::conv_f64),
            "f4" => bytes::decode(body, endian, bytes::conv_f32),
            "i8" => bytes::decode(body, endian, bytes::conv_i64),
            "u8" => bytes::decode(body, endian, bytes::conv_u64),
            "i4" => bytes::decode(body, endian, bytes::conv_i32),
            "u4" => bytes::decode(body, endian, bytes::conv_u32),
            "i2" => bytes::decode(body, endian, bytes::conv_i16),
            "u2" => bytes::decode(body, endian, bytes::conv_u16),
            "i1" => bytes::decode(body, endian, bytes::conv_i8),
            _ => bytes::decode(body, endian, bytes::conv_u8),
        };
        Ok(if self.fortran {
            Mat::from_fn(rows, cols, |i, j| vals[i + j * rows])
        } else {
            Mat::from_fn(rows, cols, |i, j| vals[i * cols + j])
        })
    }
}

/// Byte order, kind and element size of a dtype string such as `<f8` or `|b1`.
fn dtype<'a>(descr: &'a str, path: &Path) -> Result<(Endian, &'a str, usize)> {
    let (endian, kind) = match descr.as_bytes().first() {
        Some(b'<') | Some(b'|') | Some(b'=') => (Endian::Little, &descr[1..]),
        Some(b'>') => (Endian::Big, &descr[1..]),
        _ => (Endian::Little, descr),
    };
    let size: usize = match kind {
        "f8" | "i8" | "u8" => 8,
        "f4" | "i4" | "u4" => 4,
        "i2" | "u2" => 2,
        "i1" | "u1" | "b1" => 1,
        other => {
            return Err(parse_err(
                path,
                "header",
                format!("unsupported dtype {other:?}"),
            ))
        }
    };
    Ok((endian, kind, size))
}

/// The raw text of `key`'s value in a Python dict literal (a string, a bool or a tuple).
fn dict_value<'a>(header: &'a str, key: &str) -> Option<&'a str> {
    let pos = header
        .find(&format!("'{key}'"))
        .or_else(|| header.find(&format!("\"{key}\"")))?;
    let rest = header[pos + key.len() + 2..].trim_start();
    let rest = rest.strip_prefix(':')?.trim_start();
    let end = match rest.chars().next()? {
        '(' => rest.find(')')? + 1,
        q @ ('\'' | '"') => rest[1..].find(q)? + 2,
        _ => rest.find([',', '}']).unwrap_or(rest.len()),
    };
    Some(rest[..end].trim())
}

fn parse_shape(s: &str) -> Option<Vec<usize>> {
    let inner = s.strip_prefix('(')?.strip_suffix(')')?;
    inner
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| t.trim_end_matches('L').parse().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_padding() {
        let m = Mat::from_fn(3, 2, |i, j| (i * 10 + j) as f64 - 0.5);
        let b = to_bytes(m.as_ref());
        let hlen = u16::from_le_bytes([b[8], b[9]]) as usize;
        assert_eq!((10 + hlen) % 64, 0);
        let back = from_bytes(&b, Path::new("x.npy")).unwrap();
        assert_eq!(back, m);
    }

    #[test]
    fn dtypes_and_header_keys() {
        let p = Path::new("x.npy");
        for (descr, endian, kind, size) in [
            ("<f8", Endian::Little, "f8", 8),
            (">i2", Endian::Big, "i2", 2),
            ("|b1", Endian::Little, "b1", 1),
            ("u4", Endian::Little, "u4", 4),
        ] {
            assert_eq!(dtype(descr, p).unwrap(), (endian, kind, size), "{descr}");
        }
        assert!(dtype("<c16", p).is_err());
        let h = Header::parse(
            "{'descr': '>u2', 'fortran_order': True, 'shape': (3,), }",
            p,
        )
        .unwrap();
        assert_eq!(
            (h.endian, h.kind, h.size, h.fortran, h.rows, h.cols),
            (Endian::Big, "u2", 2, true, 3, 1)
        );
        let e = Header::parse("{'descr': '<f8', 'shape': (3,), }", p)
            .err()
            .unwrap();
        assert!(e.to_string().contains("fortran_order"), "{e}");
        assert!(Header::parse(
            "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 2, 3), }",
            p
        )
        .is_err());
    }
}
