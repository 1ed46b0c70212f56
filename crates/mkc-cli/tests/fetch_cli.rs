//! `mkc datasets fetch` and the `mkc datasets` listing, without the network: committed
//! files are copied from the repository's data/ folder, external ones (when
//! `MKC_DATA_DIR` is set) from that folder with `--from`.

use mkc_data::DataDir;
use std::path::{Path, PathBuf};
use std::process::Command;

fn mkc(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mkc"))
        .args(args)
        .env_remove("MKC_DATA_DIR")
        .output()
        .expect("run mkc");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mkc-cli-fetch-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `mkc datasets fetch ARGS… --data-dir DIR`.
fn fetch(args: &[&str], dir: &Path) -> (i32, String, String) {
    mkc(&[&["datasets", "fetch"], args, &["--data-dir", s(dir)]].concat())
}

#[test]
fn fetch_copies_committed_files_then_finds_them_present() {
    let dir = temp("committed");
    let (code, out, err) = fetch(&["ionosphere", "letter-ab"], &dir);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.matches("copied   bundle/").count(), 4, "{out}");
    assert!(out.contains("4 files: 0 fetched (0 B), 4 copied"), "{out}");
    let (code, out, _) = fetch(&["ionosphere"], &dir);
    assert_eq!(code, 0);
    assert!(out.contains("present  bundle/ionosphere/data.csv"), "{out}");
    // the listing shows them present, a missing external set as fetchable with its size
    let (code, out, _) = mkc(&["datasets", "--data-dir", s(&dir)]);
    assert_eq!(code, 0);
    let line = |name: &str| {
        out.lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("{name} not listed:\n{out}"))
            .to_string()
    };
    assert!(line("ionosphere").contains("present"), "{out}");
    assert!(line("coil20").contains("fetch 3.0 MB"), "{out}");
    assert!(line("simplemkkm-ccv").contains("manual"), "{out}");
    assert!(
        out.contains(" datasets present. `mkc datasets fetch NAME…`"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_without_a_public_download_says_where_it_goes() {
    let dir = temp("manual");
    let (code, out, err) = fetch(&["simplemkkm-ccv"], &dir);
    assert_eq!(code, 0, "not a failure of the fetch: {out}{err}");
    assert!(
        out.contains("manual   external/simplemkkm/CCV_Kmatrix.mat: no public download")
            && out
                .contains("put it in the data directory as `external/simplemkkm/CCV_Kmatrix.mat`"),
        "{out}"
    );
    assert!(
        out.contains("1 without a public download, 0 failed"),
        "{out}"
    );
}

#[test]
fn bad_requests_are_usage_errors() {
    assert_eq!(mkc(&["datasets", "fetch"]).0, 2, "names, --paper or --all");
    assert_eq!(mkc(&["datasets", "fetch", "--paper", "nope"]).0, 2);
    assert_eq!(mkc(&["datasets", "fetch", "--all", "ionosphere"]).0, 2);
    let unused = Path::new("unused");
    let (code, _, err) = fetch(&["no-such-set"], unused);
    assert_eq!(code, 1);
    assert!(
        err.contains("no-such-set") && err.contains("not in the registry"),
        "{err}"
    );
    let (code, _, err) = fetch(&["ionosphere", "--attempts", "0"], unused);
    assert_eq!(code, 1);
    assert!(err.contains("attempts"), "{err}");
}

#[test]
fn a_paper_is_fetched_from_a_shared_copy() {
    let Some(DataDir { root: shared, .. }) = DataDir::from_env() else {
        eprintln!("skipped: MKC_DATA_DIR is not set (a data directory filled by `mkc datasets fetch --all`)");
        return;
    };
    let shared = if shared.is_absolute() {
        shared
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(shared)
    };
    let dir = temp("paper");
    let (code, out, err) = fetch(&["--paper", "rmkc", "--from", s(&shared)], &dir);
    assert_eq!(code, 0, "{out}{err}");
    // RMKC's tables: UCI sets, COIL-20 pairs, Multiple Features and optdigits pairs
    assert!(
        out.contains("copied   external/coil20/COIL20_1440n_1024d_20c.mat"),
        "{out}"
    );
    assert!(out.contains("copied   bundle/mfeat/views/fac.csv"), "{out}");
    assert!(out.contains(" 0 failed"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
