//! MATLAB Level 5 MAT-file parser (the format of `save -v6`/`-v7`; MathWorks,
//! "MAT-File Format", chapter 1).
//!
//! Layout: a 128-byte header (116 bytes of text, 8 bytes subsystem offset, a 2-byte
//! version and the 2-byte endian indicator `IM`, which reads `MI` when the file was
//! written big-endian), then a sequence of tagged data elements. A tag is `(type u32,
//! nbytes u32)`, data padded to 8 bytes; in the *small element* form the tag's upper
//! 16 bits hold `nbytes` (≤ 4) and the data sits in the tag's second word. Each variable
//! is an `miMATRIX` element (array flags, dimensions, name, then class-specific parts)
//! or an `miCOMPRESSED` element whose zlib stream inflates to one `miMATRIX`.
//!
//! Safety: every length is checked against the bytes present before use; nesting is
//! limited to [`MAX_DEPTH`]; inflated data is capped at [`INFLATE_RATIO`] times the
//! compressed size (zlib cannot exceed ~1032:1), so no claim in a header sizes an
//! allocation.

use super::array::{
    check_csc, element_count, header_text, sparse_from_csc, utf16_chars, MatArray, MatClass,
    MatFile,
};
use crate::bytes::{self, parse_err, Cursor, Endian};
use mkc_core::Result;
use std::io::Read;
use std::path::Path;

/// Deepest nesting of cells/structs accepted (guards the stack against crafted files).
pub const MAX_DEPTH: usize = 64;
/// Largest accepted inflate ratio of an `miCOMPRESSED` element.
pub const INFLATE_RATIO: usize = 1100;

const MI_INT8: u32 = 1;
const MI_UINT8: u32 = 2;
const MI_INT16: u32 = 3;
const MI_UINT16: u32 = 4;
const MI_INT32: u32 = 5;
const MI_UINT32: u32 = 6;
const MI_SINGLE: u32 = 7;
const MI_DOUBLE: u32 = 9;
const MI_INT64: u32 = 12;
const MI_UINT64: u32 = 13;
const MI_MATRIX: u32 = 14;
const MI_COMPRESSED: u32 = 15;
const MI_UTF8: u32 = 16;
const MI_UTF16: u32 = 17;
const MI_UTF32: u32 = 18;

const CLASS_CELL: u8 = 1;
const CLASS_STRUCT: u8 = 2;
const CLASS_CHAR: u8 = 4;
const CLASS_SPARSE: u8 = 5;

/// Parse a whole MAT v5 file held in memory (`path` is used in error messages).
pub fn parse(data: &[u8], path: &Path) -> Result<MatFile> {
    if data.len() < 128 {
        return Err(parse_err(
            path,
            "header",
            format!("file is {} bytes, a MAT header needs 128", data.len()),
        ));
    }
    if &data[0..6] != b"MATLAB" {
        return Err(parse_err(
            path,
            "header",
            "not a MAT-file (text does not start with `MATLAB`)",
        ));
    }
    let endian = match &data[126..128] {
        b"IM" => Endian::Little,
        b"MI" => Endian::Big,
        other => {
            return Err(parse_err(
                path,
                "header byte 126",
                format!("bad endian indicator {other:?} (expected `IM` or `MI`)"),
            ))
        }
    };
    let header = header_text(data);
    let version = match endian {
        Endian::Little => u16::from_le_bytes([data[124], data[125]]),
        Endian::Big => u16::from_be_bytes([data[124], data[125]]),
    };
    if version == 0x0200 || header.starts_with("MATLAB 7.3") {
        return Err(parse_err(
            path,
            "header",
            "this is a MAT v7.3 (HDF5) file: read it with `mat73::read` (cargo feature `mat73`)",
        ));
    }
    if version != 0x0100 {
        return Err(parse_err(
            path,
            "header byte 124",
            format!("unknown MAT version 0x{version:04x}"),
        ));
    }
    let mut cur = Cursor::with_base(&data[128..], endian, path, 128);
    let mut vars = Vec::new();
    read_top_level(&mut cur, &mut vars, true)?;
    Ok(MatFile { header, vars })
}

/// Read the top-level elements of `cur` into `vars`. `allow_compressed` is false inside
/// an inflated stream (MATLAB never nests compression).
fn read_top_level(
    cur: &mut Cursor<'_>,
    vars: &mut Vec<(String, MatArray)>,
    allow_compressed: bool,
) -> Result<()> {
    while cur.remaining() >= 8 {
        let start = cur.offset();
        let (ty, body) = read_element(cur, "data element")?;
        match ty {
            MI_MATRIX => {
                let mut sub = Cursor::with_base(body, cur.endian, cur.path(), start + 8);
                let (name, value) = read_matrix(&mut sub, 0)?;
                vars.push((name, value));
            }
            MI_COMPRESSED if allow_compressed => {
                let inflated = inflate(body, cur.path(), start)?;
                let mut sub = Cursor::new(&inflated, cur.endian, cur.path());
                read_top_level(&mut sub, vars, false).map_err(|e| match e {
                    mkc_core::Error::Parse {
                        path,
                        location,
                        reason,
                    } => mkc_core::Error::Parse {
                        path,
                        location: format!(
                            "compressed element at byte {start}, inflated {location}"
                        ),
                        reason,
                    },
                    other => other,
                })?;
            }
            _ => {} // other top-level elements carry no variables: skip
        }
    }
    Ok(())
}

/// Inflate an `miCOMPRESSED` body, refusing to grow past `INFLATE_RATIO` × its size.
fn inflate(body: &[u8], path: &Path, start: usize) -> Result<Vec<u8>> {
    let cap = body
        .len()
        .saturating_mul(INFLATE_RATIO)
        .saturating_add(1 << 16);
    let mut out = Vec::new();
    let mut dec = flate2::read::ZlibDecoder::new(body).take(cap as u64 + 1);
    dec.read_to_end(&mut out).map_err(|e| {
        parse_err(
            path,
            format!("compressed element at byte {start}"),
            format!("zlib stream is corrupt: {e}"),
        )
    })?;
    if out.len() > cap {
        return Err(parse_err(
            path,
            format!("compressed element at byte {start}"),
            format!("inflates past {cap} bytes ({INFLATE_RATIO}x its size): refusing"),
        ));
    }
    Ok(out)
}

/// Read one tagged element (either form), consuming its padding. Returns (type, data).
fn read_element<'a>(cur: &mut Cursor<'a>, what: &str) -> Result<(u32, &'a [u8])> {
    let first = cur.u32(what)?;
    let small_len = (first >> 16) as usize;
    if small_len != 0 {
        // small data element: 2-byte nbytes, 2-byte type, 4 bytes of data
        let ty = first & 0xffff;
        if small_len > 4 {
            return Err(cur.err(format!(
                "{what}: small element claims {small_len} bytes (at most 4)"
            )));
        }
        let data = cur.take(4, what)?;
        return Ok((ty, &data[..small_len]));
    }
    let ty = first;
    let n = cur.u32(what)? as usize;
    let data = cur.take(n, what)?;
    if ty != MI_COMPRESSED {
        // pad to a multiple of 8; tolerate a missing pad at the very end of a buffer
        let pad = (8 - n % 8) % 8;
        cur.skip(pad.min(cur.remaining()), what)?;
    }
    Ok((ty, data))
}

/// Bytes per value of a numeric data type, or `None` for non-numeric types.
fn mi_size(ty: u32) -> Option<usize> {
    Some(match ty {
        MI_INT8 | MI_UINT8 | MI_UTF8 => 1,
        MI_INT16 | MI_UINT16 | MI_UTF16 => 2,
        MI_INT32 | MI_UINT32 | MI_SINGLE | MI_UTF32 => 4,
        MI_DOUBLE | MI_INT64 | MI_UINT64 => 8,
        _ => return None,
    })
}

/// Decode numeric element data to f64.
fn decode_numeric(cur: &Cursor<'_>, ty: u32, data: &[u8], what: &str) -> Result<Vec<f64>> {
    let size =
        mi_size(ty).ok_or_else(|| cur.err(format!("{what}: data type {ty} is not numeric")))?;
    if data.len() % size != 0 {
        return Err(cur.err(format!(
            "{what}: {} bytes is not a whole number of {size}-byte values",
            data.len()
        )));
    }
    let e = cur.endian;
    Ok(match ty {
        MI_INT8 => bytes::decode(data, e, bytes::conv_i8),
        MI_UINT8 | MI_UTF8 => bytes::decode(data, e, bytes::conv_u8),
        MI_INT16 => bytes::decode(data, e, bytes::conv_i16),
        MI_UINT16 | MI_UTF16 => bytes::decode(data, e, bytes::conv_u16),
        MI_INT32 => bytes::decode(data, e, bytes::conv_i32),
        MI_UINT32 | MI_UTF32 => bytes::decode(data, e, bytes::conv_u32),
        MI_SINGLE => bytes::decode(data, e, bytes::conv_f32),
        MI_DOUBLE => bytes::decode(data, e, bytes::conv_f64),
        MI_INT64 => bytes::decode(data, e, bytes::conv_i64),
        _ => bytes::decode(data, e, bytes::conv_u64),
    })
}

/// Decode an integer-valued element (dims, indices) to usize, rejecting negatives.
fn decode_indices(cur: &Cursor<'_>, ty: u32, data: &[u8], what: &str) -> Result<Vec<usize>> {
    if matches!(ty, MI_SINGLE | MI_DOUBLE) {
        return Err(cur.err(format!(
            "{what}: stored as floating point, expected integers"
        )));
    }
    let vals = decode_numeric(cur, ty, data, what)?;
    vals.into_iter()
        .map(|v| {
            if v >= 0.0 && v.fract() == 0.0 && v < 9.0e15 {
                Ok(v as usize)
            } else {
                Err(cur.err(format!("{what}: invalid value {v}")))
            }
        })
        .collect()
}

fn product(cur: &Cursor<'_>, dims: &[usize]) -> Result<usize> {
    element_count(dims).ok_or_else(|| cur.err(format!("dimensions {dims:?} overflow")))
}

/// The array flags, dimensions and name that open every `miMATRIX` body.
struct ArrayHeader {
    class_id: u8,
    complex: bool,
    logical: bool,
    dims: Vec<usize>,
    name: String,
}

impl ArrayHeader {
    /// `s` prefixed with the variable's name (when it has one), for error messages.
    fn ctx(&self, s: &str) -> String {
        if self.name.is_empty() {
            s.to_string()
        } else {
            format!("`{}` {s}", self.name)
        }
    }
}

/// Parse the body of an `miMATRIX` element; returns (name, value).
fn read_matrix(cur: &mut Cursor<'_>, depth: usize) -> Result<(String, MatArray)> {
    if depth > MAX_DEPTH {
        return Err(cur.err(format!("arrays nested deeper than {MAX_DEPTH} levels")));
    }
    if cur.is_empty() {
        // an empty miMATRIX: MATLAB writes these for [] inside cells
        return Ok((String::new(), MatArray::empty()));
    }
    let h = read_array_header(cur)?;
    let value = match h.class_id {
        CLASS_CELL => read_cell(cur, &h, depth)?,
        CLASS_STRUCT => read_struct(cur, h.dims.clone(), depth, &h.ctx("struct"))?,
        CLASS_CHAR => read_char(cur, &h)?,
        CLASS_SPARSE => read_sparse(cur, &h.dims, h.logical, h.complex, &h.ctx("sparse"))?,
        id => match MatClass::from_id(id) {
            Some(class) => read_numeric(cur, class, &h)?,
            None => MatArray::Unsupported { class_id: id },
        },
    };
    Ok((h.name, value))
}

/// Array flags (class, complex and logical bits), dimensions (at least 2) and name.
fn read_array_header(cur: &mut Cursor<'_>) -> Result<ArrayHeader> {
    let (ty, flags) = read_element(cur, "array flags")?;
    if ty != MI_UINT32 || flags.len() != 8 {
        return Err(cur.err(format!(
            "array flags: expected 8 bytes of miUINT32, found type {ty} with {} bytes",
            flags.len()
        )));
    }
    let b = &flags[0..4];
    let flag_word = match cur.endian {
        Endian::Little => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        Endian::Big => u32::from_be_bytes([b[0], b[1], b[2], b[3]]),
    };
    let (dty, ddata) = read_element(cur, "dimensions")?;
    let dims = decode_indices(cur, dty, ddata, "dimensions")?;
    if dims.len() < 2 {
        return Err(cur.err(format!(
            "dimensions: {} given, at least 2 required",
            dims.len()
        )));
    }
    let (nty, ndata) = read_element(cur, "array name")?;
    if !matches!(nty, MI_INT8 | MI_UINT8 | MI_UTF8) {
        return Err(cur.err(format!("array name: unexpected data type {nty}")));
    }
    Ok(ArrayHeader {
        class_id: (flag_word & 0xff) as u8,
        complex: flag_word & 0x0800 != 0,
        logical: flag_word & 0x0200 != 0,
        dims,
        name: String::from_utf8_lossy(ndata)
            .trim_end_matches('\0')
            .to_string(),
    })
}

/// One nested `miMATRIX` element (a cell element or a struct field value).
fn read_child(cur: &mut Cursor<'_>, depth: usize, what: &str) -> Result<MatArray> {
    let start = cur.offset();
    let (ety, body) = read_element(cur, what)?;
    if ety != MI_MATRIX {
        return Err(cur.err(format!("{what}: expected miMATRIX, found type {ety}")));
    }
    let mut sub = Cursor::with_base(body, cur.endian, cur.path(), start + 8);
    Ok(read_matrix(&mut sub, depth + 1)?.1)
}

fn read_cell(cur: &mut Cursor<'_>, h: &ArrayHeader, depth: usize) -> Result<MatArray> {
    let count = product(cur, &h.dims)?;
    let mut items = Vec::with_capacity(count.min(cur.remaining() / 8));
    for k in 0..count {
        items.push(read_child(
            cur,
            depth,
            &h.ctx(&format!("cell element {k}")),
        )?);
    }
    Ok(MatArray::Cell {
        dims: h.dims.clone(),
        items,
    })
}

/// Char data as UTF-8 (or 8-bit), UTF-16 or UTF-32 code units; absent for `''`.
fn read_char(cur: &mut Cursor<'_>, h: &ArrayHeader) -> Result<MatArray> {
    let (cty, cdata) = if cur.is_empty() {
        (MI_UTF8, &[][..])
    } else {
        read_element(cur, &h.ctx("char data"))?
    };
    let chars: Vec<char> = match cty {
        MI_UTF8 | MI_INT8 | MI_UINT8 => String::from_utf8_lossy(cdata).chars().collect(),
        MI_UINT16 | MI_UTF16 | MI_INT16 => utf16_chars(
            decode_numeric(cur, cty, cdata, "char data")?
                .into_iter()
                .map(|v| v as u16),
        ),
        MI_UINT32 | MI_UTF32 | MI_INT32 => decode_numeric(cur, cty, cdata, "char data")?
            .into_iter()
            .map(|v| char::from_u32(v as u32).unwrap_or(char::REPLACEMENT_CHARACTER))
            .collect(),
        other => return Err(cur.err(h.ctx(&format!("char data: unexpected data type {other}")))),
    };
    Ok(MatArray::char_array(h.dims.clone(), &chars))
}

/// A dense numeric array: the real part and, for complex arrays, the imaginary part,
/// each with exactly as many values as the dimensions say.
fn read_numeric(cur: &mut Cursor<'_>, class: MatClass, h: &ArrayHeader) -> Result<MatArray> {
    let count = product(cur, &h.dims)?;
    let mut part = |what: &str| -> Result<Vec<f64>> {
        let (ty, data) = read_element(cur, &h.ctx(what))?;
        let values = decode_numeric(cur, ty, data, &h.ctx(what))?;
        if values.len() != count {
            return Err(cur.err(h.ctx(&format!(
                "{what} has {} values, dimensions {:?} need {count}",
                values.len(),
                h.dims
            ))));
        }
        Ok(values)
    };
    let real = part("real part")?;
    let imag = if h.complex {
        Some(part("imaginary part")?)
    } else {
        None
    };
    Ok(MatArray::Numeric {
        class,
        logical: h.logical,
        dims: h.dims.clone(),
        real,
        imag,
    })
}

fn read_struct(
    cur: &mut Cursor<'_>,
    dims: Vec<usize>,
    depth: usize,
    what: &str,
) -> Result<MatArray> {
    let (lty, ldata) = read_element(cur, "field name length")?;
    let len = decode_indices(cur, lty, ldata, "field name length")?;
    let len = match len.as_slice() {
        [l] if *l > 0 => *l,
        _ => return Err(cur.err(format!("{what}: bad field name length {len:?}"))),
    };
    let (_, names) = read_element(cur, "field names")?;
    if names.len() % len != 0 {
        return Err(cur.err(format!(
            "{what}: {} bytes of field names is not a multiple of {len}",
            names.len()
        )));
    }
    let field_names: Vec<String> = names
        .chunks_exact(len)
        .map(|c| {
            String::from_utf8_lossy(c)
                .trim_end_matches('\0')
                .to_string()
        })
        .collect();
    let count = product(cur, &dims)?;
    let mut fields: Vec<(String, Vec<MatArray>)> =
        field_names.into_iter().map(|n| (n, Vec::new())).collect();
    // with no fields there is nothing to read per element (and a crafted element
    // count must not spin the loop)
    let count = if fields.is_empty() { 0 } else { count };
    for k in 0..count {
        for (f, field) in fields.iter_mut().enumerate() {
            let child = read_child(cur, depth, &format!("{what} element {k} field {f}"))?;
            field.1.push(child);
        }
    }
    Ok(MatArray::Struct { dims, fields })
}

fn read_sparse(
    cur: &mut Cursor<'_>,
    dims: &[usize],
    logical: bool,
    complex: bool,
    what: &str,
) -> Result<MatArray> {
    if dims.len() != 2 {
        return Err(cur.err(format!(
            "{what}: {} dimensions, sparse matrices have 2",
            dims.len()
        )));
    }
    let (nrows, ncols) = (dims[0], dims[1]);
    let (ity, idata) = read_element(cur, "sparse row indices (ir)")?;
    let ir = decode_indices(cur, ity, idata, "sparse row indices (ir)")?;
    let (jty, jdata) = read_element(cur, "sparse column pointers (jc)")?;
    let jc = decode_indices(cur, jty, jdata, "sparse column pointers (jc)")?;
    let nnz = check_csc(nrows, ncols, &ir, &jc).map_err(|r| cur.err(format!("{what}: {r}")))?;
    let values = if cur.is_empty() && logical {
        vec![1.0; nnz]
    } else {
        let (pty, pdata) = read_element(cur, "sparse values (pr)")?;
        decode_numeric(cur, pty, pdata, "sparse values (pr)")?
    };
    let imag = if complex && values.len() >= nnz {
        let (pty, pdata) = read_element(cur, "sparse imaginary values (pi)")?;
        Some(decode_numeric(
            cur,
            pty,
            pdata,
            "sparse imaginary values (pi)",
        )?)
    } else {
        None
    };
    sparse_from_csc((nrows, ncols, logical), (ir, jc, nnz), values, imag)
        .map_err(|r| cur.err(format!("{what}: {r}")))
}
