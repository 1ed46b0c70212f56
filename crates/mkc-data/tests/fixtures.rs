//! Readers on the committed fixtures (written by `fixtures/make_fixtures.py` with
//! scipy/numpy/h5py): exact values for every MAT class, logical, complex, sparse,
//! cell, char, struct, compressed and big-endian elements, and npy dtypes/orders.

use mkc_data::mat::{read_mat, MatArray, MatClass};
use mkc_data::npy;
use std::path::PathBuf;

fn fx(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

fn numeric(a: &MatArray) -> (MatClass, bool, Vec<usize>, Vec<f64>) {
    match a {
        MatArray::Numeric {
            class,
            logical,
            dims,
            real,
            imag: None,
        } => (*class, *logical, dims.clone(), real.clone()),
        other => panic!("not a real numeric array: {other:?}"),
    }
}

/// Column-major values of the 2 x 3 fixtures given row by row.
fn cm(rows: [[f64; 3]; 2]) -> Vec<f64> {
    (0..3)
        .flat_map(|j| (0..2).map(move |i| rows[i][j]))
        .collect()
}

/// The 2x3x4 array `A(i,j,k) = 100 i + 10 j + k` (1-based) of the fixtures, in MATLAB's
/// column-major order.
fn check_cube(dims: &[usize], real: &[f64]) {
    assert_eq!(dims, [2, 3, 4]);
    for k in 0..4 {
        for j in 0..3 {
            for i in 0..2 {
                let want = (100 * (i + 1) + 10 * (j + 1) + k + 1) as f64;
                assert_eq!(real[i + 2 * j + 6 * k], want);
            }
        }
    }
}

fn check_numeric_file(name: &str) {
    let f = read_mat(fx(name)).unwrap();
    // The integer variables: [[min, max, 0], [1, −1, last]] (signed; 64-bit limits at
    // ±2^53, exact in f64) or [[0, max, 1], [2, 3, 4]] (unsigned).
    let signed = |min: f64, max: f64, last: f64| [[min, max, 0.0], [1.0, -1.0, last]];
    let unsigned = |max: f64| [[0.0, max, 1.0], [2.0, 3.0, 4.0]];
    let (b31, big) = (2147483648.0, 9007199254740992.0);
    let expect: Vec<(&str, MatClass, [[f64; 3]; 2])> = vec![
        (
            "d",
            MatClass::Double,
            [[1.5, -2.25, 3.0], [4.0, 1e-300, -6.5]],
        ),
        ("s", MatClass::Single, [[0.5, -1.25, 3.0], [4.0, 5.0, -6.0]]),
        ("i8", MatClass::Int8, signed(-128.0, 127.0, 5.0)),
        ("u8", MatClass::UInt8, unsigned(255.0)),
        ("i16", MatClass::Int16, signed(-32768.0, 32767.0, 7.0)),
        ("u16", MatClass::UInt16, unsigned(65535.0)),
        ("i32", MatClass::Int32, signed(-b31, b31 - 1.0, 9.0)),
        ("u32", MatClass::UInt32, unsigned(4294967295.0)),
        ("i64", MatClass::Int64, signed(-big, big, 11.0)),
        ("u64", MatClass::UInt64, unsigned(big)),
    ];
    for (var, class, rows) in expect {
        let (c, logical, dims, real) = numeric(f.require(var).unwrap());
        assert_eq!(
            (c, logical, dims),
            (class, false, vec![2, 3]),
            "{name}: {var}"
        );
        assert_eq!(real, cm(rows), "{name}: {var}");
        // and as a faer matrix in MATLAB orientation
        let m = f.require(var).unwrap().to_mat(var).unwrap();
        assert_eq!(m[(0, 1)], rows[0][1], "{name}: {var}");
    }
    let (c, logical, dims, real) = numeric(f.require("b").unwrap());
    assert_eq!((c, logical, dims), (MatClass::UInt8, true, vec![2, 3]));
    assert_eq!(real, cm([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]]));
    match f.require("z").unwrap() {
        MatArray::Numeric {
            dims,
            real,
            imag: Some(im),
            ..
        } => {
            assert_eq!(
                (dims.clone(), real.clone(), im.clone()),
                (vec![1, 2], vec![1.0, 3.0], vec![2.0, -4.0])
            );
        }
        other => panic!("z: {other:?}"),
    }
    assert!(
        f.require("z").unwrap().to_mat("z").is_err(),
        "complex to real must be refused"
    );
    assert_eq!(
        f.require("col").unwrap().to_vec("col").unwrap(),
        vec![1.0, 2.0, 3.0, 4.0]
    );
    assert_eq!(
        f.require("row").unwrap().to_vec("row").unwrap(),
        vec![1.0, 2.0, 3.0, 4.0]
    );
    assert!(
        f.require("d").unwrap().to_vec("d").is_err(),
        "a 2x3 matrix is not a vector"
    );
    // 2x3x4, A(i,j,k) = 100 i + 10 j + k (1-based)
    let (_, _, dims, real) = numeric(f.require("cube").unwrap());
    check_cube(&dims, &real);
    assert!(f.require("nope").is_err());
}

#[test]
fn every_numeric_class_uncompressed_and_compressed() {
    check_numeric_file("numeric.mat");
    check_numeric_file("numeric_compressed.mat");
}

#[test]
fn sparse_matrices() {
    let f = read_mat(fx("sparse.mat")).unwrap();
    let s = f.require("S").unwrap();
    let dense = s.to_mat("S").unwrap();
    let want = [
        [0.0, 1.5, 0.0, 0.0],
        [2.0, 0.0, 0.0, -3.0],
        [0.0, 0.0, 0.0, 4.25],
    ];
    for (i, row) in want.iter().enumerate() {
        for (j, &v) in row.iter().enumerate() {
            assert_eq!(dense[(i, j)], v);
        }
    }
    let sr = s.to_sparse_row("S").unwrap();
    assert_eq!((sr.nrows(), sr.ncols(), sr.compute_nnz()), (3, 4, 4));
    assert_eq!(sr.to_dense(), dense);
    match f.require("L").unwrap() {
        MatArray::Sparse {
            logical,
            nrows,
            ncols,
            ..
        } => assert_eq!((*logical, *nrows, *ncols), (true, 3, 2)),
        other => panic!("L: {other:?}"),
    }
    let l = f.require("L").unwrap().to_mat("L").unwrap();
    assert_eq!(
        (l[(0, 0)], l[(0, 1)], l[(2, 1)], l[(1, 0)]),
        (1.0, 0.0, 1.0, 0.0)
    );
}

#[test]
fn cells_chars_structs_and_empty() {
    let f = read_mat(fx("cell_char_struct.mat")).unwrap();
    let cells = f.require("C").unwrap().cells("C").unwrap();
    assert_eq!(cells.len(), 3);
    assert_eq!(numeric(&cells[0]).3, vec![1.0, 3.0, 2.0, 4.0]);
    let (c1, _, d1, v1) = numeric(&cells[1]);
    assert_eq!(
        (c1, d1, v1),
        (MatClass::UInt16, vec![1, 3], vec![7.0, 8.0, 9.0])
    );
    let (c2, _, d2, _) = numeric(&cells[2]);
    assert_eq!((c2, d2), (MatClass::UInt8, vec![3, 2]));
    assert_eq!(f.require("t").unwrap().text("t").unwrap(), "hello");
    assert_eq!(f.require("T").unwrap().text("T").unwrap(), "abc\nxyz");
    match f.require("st").unwrap() {
        MatArray::Struct { fields, .. } => {
            let names: Vec<&str> = fields.iter().map(|(n, _)| n.as_str()).collect();
            assert_eq!(names, vec!["alpha", "name"]);
            assert_eq!(numeric(&fields[0].1[0]).3, vec![42.0]);
            assert_eq!(fields[1].1[0].text("name").unwrap(), "mkc");
        }
        other => panic!("st: {other:?}"),
    }
    assert_eq!(f.require("e").unwrap().dims(), vec![0, 0]);
}

#[test]
fn big_endian_file() {
    let f = read_mat(fx("bigendian.mat")).unwrap();
    let b = f.require("B").unwrap().to_mat("B").unwrap();
    assert_eq!((b.nrows(), b.ncols()), (2, 3));
    assert_eq!(
        (b[(0, 0)], b[(0, 2)], b[(1, 0)], b[(1, 2)]),
        (1.0, 3.0, 4.0, 6.0)
    );
}

#[test]
fn npy_dtypes_and_orders() {
    for name in ["f8_c.npy", "f4_fortran.npy", "i2_big.npy", "u1.npy"] {
        let m = npy::read(fx(name)).unwrap();
        assert_eq!((m.nrows(), m.ncols()), (2, 3), "{name}");
        for i in 0..2 {
            for j in 0..3 {
                assert_eq!(m[(i, j)], (1 + 3 * i + j) as f64, "{name} ({i},{j})");
            }
        }
    }
    let b = npy::read(fx("b1.npy")).unwrap();
    assert_eq!((b[(0, 0)], b[(0, 1)], b[(1, 0)]), (1.0, 0.0, 0.0));
    let v = npy::read(fx("vec_i8.npy")).unwrap();
    assert_eq!((v.nrows(), v.ncols(), v[(1, 0)]), (3, 1, -6.0));
}

#[test]
fn npy_write_then_read() {
    let dir = std::env::temp_dir().join(format!("mkc-data-npy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let m = faer::Mat::from_fn(4, 3, |i, j| (i as f64) - 0.25 * j as f64);
    let p = dir.join("k.npy");
    npy::write(&p, m.as_ref()).unwrap();
    assert_eq!(npy::read(&p).unwrap(), m);
    std::fs::remove_dir_all(&dir).ok();
}

#[cfg(feature = "mat73")]
#[test]
fn mat73_orientation_on_a_fixture() {
    let f = mkc_data::mat73::read(fx("v73.mat")).unwrap();
    let (_, _, dims, real) = numeric(f.require("K").unwrap());
    check_cube(&dims, &real);
    assert_eq!(f.require("Y").unwrap().dims(), vec![2, 1]);
    assert_eq!(
        f.require("Y").unwrap().to_vec("Y").unwrap(),
        vec![1.0, -1.0]
    );
    let (c, _, d, v) = numeric(f.require("u").unwrap());
    assert_eq!(
        (c, d, v),
        (MatClass::UInt8, vec![1, 3], vec![7.0, 8.0, 9.0])
    );
    // read_any dispatches on the HDF5 signature
    assert_eq!(
        mkc_data::mat::read_any(fx("v73.mat")).unwrap().vars.len(),
        3
    );
}

#[test]
fn v73_without_the_feature_is_a_typed_error_from_read_mat() {
    let e = read_mat(fx("v73.mat")).unwrap_err();
    assert!(e.to_string().contains("v7.3"), "{e}");
}
