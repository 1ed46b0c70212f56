//! Malformed input gives a typed error, never a panic: hand-made defects, plus a
//! proptest that truncates and mutates valid MAT, npy, CSV and LIBSVM files.
//! `PROPTEST_CASES=100000 cargo test --release -p mkc-data --test malformed` runs long.

use mkc_core::Error;
use mkc_data::{csv, libsvm, mat::v5, npy};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

fn fx(name: &str) -> Vec<u8> {
    std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .join(name),
    )
    .unwrap()
}

const P: &str = "test-input";

fn is_parse(e: &Error) -> bool {
    matches!(
        e,
        Error::Parse { .. } | Error::Shape { .. } | Error::InvalidInput { .. }
    )
}

#[test]
fn mat_truncated_and_wrong_magic() {
    let good = fx("numeric.mat");
    for cut in [0, 10, 127, 128, 130, 200, good.len() - 1] {
        let r = v5::parse(&good[..cut], Path::new(P));
        if cut < 128 {
            assert!(matches!(r, Err(Error::Parse { .. })), "cut {cut}");
        } else if let Err(e) = r {
            assert!(is_parse(&e), "cut {cut}: {e}");
        }
    }
    let message = |bytes: &[u8]| v5::parse(bytes, Path::new(P)).unwrap_err().to_string();
    let e = message(&good[..good.len() - 1]);
    assert!(e.contains("truncated"), "{e}");
    // (byte changed, new value, what the error says)
    for (at, byte, says) in [(0, b'X', "not a MAT-file"), (126, b'Q', "endian")] {
        let mut bad = good.clone();
        bad[at] = byte;
        let e = message(&bad);
        assert!(e.contains(says), "{e}");
    }
}

/// A hand-built little-endian miMATRIX claiming huge dimensions must fail on the
/// size check without allocating.
#[test]
fn mat_absurd_dimensions() {
    fn el(ty: u32, payload: &[u8]) -> Vec<u8> {
        let mut v = ty.to_le_bytes().to_vec();
        v.extend((payload.len() as u32).to_le_bytes());
        v.extend(payload);
        v.resize(v.len() + (8 - payload.len() % 8) % 8, 0);
        v
    }
    let mut header = b"MATLAB 5.0 MAT-file".to_vec();
    header.resize(124, b' ');
    header.extend([0, 1, b'I', b'M']);
    let mut body = el(6, &[6, 0, 0, 0, 0, 0, 0, 0]); // double
    body.extend(el(5, &[0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f])); // 2^31-1 x 2^31-1
    body.extend(el(1, b"X"));
    body.extend(el(9, &1.0f64.to_le_bytes()));
    let mut file = header.clone();
    file.extend(el(14, &body));
    let e = v5::parse(&file, Path::new(P)).unwrap_err();
    assert!(e.to_string().contains("need"), "{e}");
    // a cell claiming 2^31 x 2^31 elements with no data
    let mut body = el(6, &[1, 0, 0, 0, 0, 0, 0, 0]);
    body.extend(el(5, &[0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f]));
    body.extend(el(1, b"C"));
    let mut file = header.clone();
    file.extend(el(14, &body));
    assert!(matches!(
        v5::parse(&file, Path::new(P)),
        Err(Error::Parse { .. })
    ));
    // an element claiming 4 GB in a 200-byte file
    let mut file = header;
    file.extend(14u32.to_le_bytes());
    file.extend(u32::MAX.to_le_bytes());
    file.extend([0u8; 64]);
    assert!(v5::parse(&file, Path::new(P))
        .unwrap_err()
        .to_string()
        .contains("truncated"));
}

#[test]
fn mat_corrupt_compressed_stream() {
    let mut good = fx("numeric_compressed.mat");
    let n = good.len();
    for b in good[140..n.min(180)].iter_mut() {
        *b ^= 0x5a;
    }
    assert!(v5::parse(&good, Path::new(P)).is_err());
}

/// Edit the text header of a v1 .npy file, keeping its length field consistent.
fn replace_header(npy: &[u8], from: &str, to: &str) -> Vec<u8> {
    let hlen = u16::from_le_bytes([npy[8], npy[9]]) as usize;
    let header = std::str::from_utf8(&npy[10..10 + hlen])
        .unwrap()
        .replace(from, to);
    let mut out = npy[..8].to_vec();
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    out.extend(&npy[10 + hlen..]);
    out
}

#[test]
fn npy_defects() {
    let good = fx("f8_c.npy");
    assert!(npy::from_bytes(&good[..good.len() - 3], Path::new(P))
        .unwrap_err()
        .to_string()
        .contains("needs 48 bytes"));
    assert!(npy::from_bytes(b"NUMPY\x01\x00", Path::new(P)).is_err());
    let huge = replace_header(&good, "(2, 3)", "(9999999999999, 99999)");
    assert!(matches!(
        npy::from_bytes(&huge, Path::new(P)),
        Err(Error::Parse { .. })
    ));
    let overflow = replace_header(&good, "(2, 3)", "(18446744073709551615, 3)");
    assert!(npy::from_bytes(&overflow, Path::new(P)).is_err());
    let bad_dtype = replace_header(&good, "<f8", "<c8");
    assert!(npy::from_bytes(&bad_dtype, Path::new(P))
        .unwrap_err()
        .to_string()
        .contains("dtype"));
    let three_d = replace_header(&good, "(2, 3)", "(1, 2, 3)");
    assert!(matches!(
        npy::from_bytes(&three_d, Path::new(P)),
        Err(Error::Shape { .. })
    ));
}

#[test]
fn csv_defects_name_line_and_column() {
    let o = csv::CsvOptions::new();
    let e = csv::parse_dense(b"1,2,3\n4,5\n", Path::new(P), &o).unwrap_err();
    assert!(
        e.to_string().contains("line 2") && e.to_string().contains("2 fields, expected 3"),
        "{e}"
    );
    let e = csv::parse_dense(b"1,2,3\n4,5,6,7\n", Path::new(P), &o).unwrap_err();
    assert!(e.to_string().contains("4 fields"), "{e}");
    let e = csv::parse_dense(b"1,2\n3,NaN\n", Path::new(P), &o).unwrap_err();
    assert!(
        e.to_string().contains("line 2, column 2") && e.to_string().contains("missing"),
        "{e}"
    );
    for missing in ["?", "", "NA", "nan"] {
        let text = format!("1,{missing}\n3,4\n");
        assert!(
            csv::parse_dense(text.as_bytes(), Path::new(P), &o).is_err(),
            "{missing:?}"
        );
        let m = csv::parse_dense(
            text.as_bytes(),
            Path::new(P),
            &o.clone().nan(csv::NanPolicy::Allow),
        )
        .unwrap();
        assert!(m[(0, 1)].is_nan() && m[(1, 1)] == 4.0);
    }
    let e = csv::parse_dense(b"1,abc\n", Path::new(P), &o).unwrap_err();
    assert!(e.to_string().contains("not a number"), "{e}");
    let e = csv::parse_dense(b"1,inf\n", Path::new(P), &o).unwrap_err();
    assert!(e.to_string().contains("non-finite"), "{e}");
    assert!(csv::parse_dense(b"\n\n", Path::new(P), &o).is_err());
    assert!(csv::parse_dense(&[0xff, 0xfe, b'1'], Path::new(P), &o).is_err());
}

#[test]
fn csv_accepts_tabs_crlf_blank_lines_and_header() {
    let m = csv::parse_dense(
        b"a\tb\r\n1\t2.5\r\n\r\n3\t-4e2\r\n\n",
        Path::new(P),
        &csv::CsvOptions::new().header(true),
    )
    .unwrap();
    assert_eq!(
        (m.nrows(), m.ncols(), m[(0, 1)], m[(1, 1)]),
        (2, 2, 2.5, -400.0)
    );
}

#[test]
fn libsvm_reads_and_rejects() {
    let d = libsvm::parse(
        b"+1 1:0.5 3:2 # comment\n-1 qid:3 2:1.5\n\n2 4:-1\n",
        Path::new(P),
        None,
    )
    .unwrap();
    assert_eq!(d.labels, vec![1.0, -1.0, 2.0]);
    let m = d.features.to_dense();
    assert_eq!((m.nrows(), m.ncols()), (3, 4));
    assert_eq!(
        (m[(0, 0)], m[(0, 2)], m[(1, 1)], m[(2, 3)], m[(0, 1)]),
        (0.5, 2.0, 1.5, -1.0, 0.0)
    );
    let with_d = libsvm::parse(b"1 2:1\n", Path::new(P), Some(10)).unwrap();
    assert_eq!(with_d.features.ncols(), 10);
    for (bad, why) in [
        (&b"1 0:1\n"[..], "start at 1"),
        (b"1 3:1 2:1\n", "must increase"),
        (b"1 3:1 3:2\n", "must increase"),
        (b"x 1:1\n", "label"),
        (b"nan 1:1\n", "not finite"),
        (b"1 1-1\n", "index:value"),
        (b"1 1:abc\n", "not a number"),
        (b"1 -4:1\n", "positive integer"),
        (b"", "no data"),
    ] {
        let e = libsvm::parse(bad, Path::new(P), None).unwrap_err();
        assert!(
            e.to_string().contains(why),
            "{:?}: {e}",
            String::from_utf8_lossy(bad)
        );
    }
    assert!(libsvm::parse(b"1 11:1\n", Path::new(P), Some(10))
        .unwrap_err()
        .to_string()
        .contains("exceeds"));
}

fn valid_inputs() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("mat", fx("numeric.mat")),
        ("mat", fx("numeric_compressed.mat")),
        ("mat", fx("sparse.mat")),
        ("mat", fx("cell_char_struct.mat")),
        ("mat", fx("bigendian.mat")),
        ("npy", fx("f8_c.npy")),
        ("npy", fx("f4_fortran.npy")),
        ("npy", fx("i2_big.npy")),
        ("csv", b"1,2,3\n4.5,-6,7e3\n8,9,10\n".to_vec()),
        ("csv", b"a\tb\n1\t2\n3\t4\n".to_vec()),
        (
            "libsvm",
            b"+1 1:0.5 3:2\n-1 2:1.5 7:3\n1 qid:2 4:1\n".to_vec(),
        ),
    ]
}

fn run(kind: &str, data: &[u8]) {
    let p = Path::new(P);
    // results are ignored: the property is "no panic" (and bounded allocation)
    match kind {
        "mat" => {
            if let Ok(f) = v5::parse(data, p) {
                for (name, v) in &f.vars {
                    let _ = v.to_mat(name);
                    let _ = v.to_vec(name);
                    let _ = v.to_sparse_row(name);
                    let _ = mkc_data::kmatrix::kernel_stack(v, name);
                    if let Ok(cells) = v.cells(name) {
                        for c in cells {
                            let _ = c.to_mat(name);
                        }
                    }
                }
            }
        }
        "npy" => {
            let _ = npy::from_bytes(data, p);
        }
        "csv" => {
            let _ = csv::parse_dense(data, p, &csv::CsvOptions::new());
            let _ = csv::parse_dense(
                data,
                p,
                &csv::CsvOptions::new()
                    .header(true)
                    .nan(csv::NanPolicy::Allow),
            );
        }
        _ => {
            let _ = libsvm::parse(data, p, None);
            let _ = libsvm::parse(data, p, Some(5));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Truncate a valid file anywhere, then flip/overwrite a few bytes anywhere.
    #[test]
    fn mutated_files_never_panic(
        which in 0usize..11,
        cut in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..8),
        truncate in any::<bool>(),
    ) {
        let inputs = valid_inputs();
        let (kind, mut data) = inputs[which].clone();
        for (pos, byte) in edits {
            let i = pos.index(data.len());
            data[i] = byte;
        }
        if truncate {
            let n = cut.index(data.len() + 1);
            data.truncate(n);
        }
        run(kind, &data);
    }

    /// Random bytes behind a valid MAT header (exercises the element parser directly).
    #[test]
    fn random_mat_bodies_never_panic(body in prop::collection::vec(any::<u8>(), 0..512), big in any::<bool>()) {
        let mut data = b"MATLAB 5.0 MAT-file".to_vec();
        data.resize(124, b' ');
        data.extend([0, 1]);
        data.extend(if big { b"MI" } else { b"IM" });
        if big { data[124] = 1; data[125] = 0; }
        data.extend(body);
        run("mat", &data);
    }
}
