//! The registry's `[downloads]` table: every registered file says where it can be had,
//! committed files match the repository's copies, pinned GitHub sources give both
//! URLs, malformed entries are errors naming the key, and a missing file's error names
//! the `mkc datasets fetch` command.

mod fetch_support;

use mkc_core::Error;
use mkc_data::datadir::sha256_file;
use mkc_data::fetch::{fetch, FetchOptions, Silent};
use mkc_data::registry::{DownloadSource, UNVERIFIED};
use mkc_data::{DataDir, Registry};
use std::path::Path;

fn repo_data() -> DataDir {
    DataDir::at(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data"))
}

/// Total bytes of the files with a web source (what `mkc datasets fetch --all`
/// downloads into an empty data directory). README's Data section quotes it.
const WEB_TOTAL: u64 = 23_801_423;

#[test]
fn every_registered_file_has_a_recorded_source() {
    let reg = Registry::load_default().unwrap();
    let all = reg.downloads(&reg.names()).unwrap();
    let mut web_total = 0;
    for d in &all {
        match &d.source {
            DownloadSource::Web { urls, origin } => {
                assert_ne!(d.sha256, UNVERIFIED, "{}", d.rel);
                let size = d.size.unwrap_or_else(|| panic!("{}: no size", d.rel));
                web_total += size;
                // raw.githubusercontent.com/OWNER/REPO/COMMIT/PATH, then
                // cdn.jsdelivr.net/gh/OWNER/REPO@COMMIT/PATH: same repository, commit, path
                assert_eq!(urls.len(), 2, "{}: {urls:?}", d.rel);
                let raw: Vec<&str> = urls[0]
                    .strip_prefix("https://raw.githubusercontent.com/")
                    .unwrap()
                    .splitn(4, '/')
                    .collect();
                let cdn = urls[1]
                    .strip_prefix("https://cdn.jsdelivr.net/gh/")
                    .unwrap();
                let (repo, commit, path) = (format!("{}/{}", raw[0], raw[1]), raw[2], raw[3]);
                assert_eq!(cdn, format!("{repo}@{commit}/{path}"));
                assert!(commit.len() == 40 && commit.bytes().all(|c| c.is_ascii_hexdigit()));
                assert_eq!(origin, &format!("{repo}@{} {path}", &commit[..7]));
            }
            DownloadSource::Repository => {
                // committed: the repository's copy has the registered size and sha256
                let p = repo_data().path(&d.rel);
                assert_eq!(
                    std::fs::metadata(&p).unwrap().len(),
                    d.size.unwrap(),
                    "{}",
                    d.rel
                );
                assert_eq!(sha256_file(&p).unwrap(), d.sha256, "{}", d.rel);
            }
            DownloadSource::Manual { how } => {
                assert!(!how.contains("records no download"), "{}: {how}", d.rel);
                assert!(how.contains(&d.rel), "{}: says where it goes: {how}", d.rel);
            }
        }
    }
    assert_eq!(web_total, WEB_TOTAL, "update README's Data section");
    let manual = all.iter().filter(|d| !d.is_fetchable()).count();
    assert_eq!(manual, 16, "10 SimpleMKKM kernel sets + 6 MNIST pair files");
}

#[test]
fn the_shared_data_matches_the_recorded_sizes() {
    let Some(dir) = DataDir::from_env() else {
        eprintln!("skipped: MKC_DATA_DIR is not set (fill a directory with `mkc datasets fetch --all` and point MKC_DATA_DIR at it)");
        return;
    };
    let reg = Registry::load_default().unwrap();
    for d in reg.downloads(&reg.names()).unwrap() {
        let p = dir.path(&d.rel);
        if let (Ok(m), Some(size)) = (std::fs::metadata(&p), d.size) {
            assert_eq!(m.len(), size, "{}", d.rel);
        }
    }
}

fn reg_with(download: &str, sha: &str) -> Result<Registry, Error> {
    fetch_support::try_registry(sha, download)
}

#[test]
fn malformed_download_entries_are_config_errors_naming_the_key() {
    let sha = "a".repeat(64);
    let commit = "0123456789abcdef0123456789abcdef01234567";
    let cases = [
        (
            r#""web/other.csv" = { size = 1, url = "https://x.org/a" }"#,
            "not a file of any dataset",
        ),
        (r#""web/toy.csv" = { url = "https://x.org/a" }"#, "`size`"),
        (
            r#""web/toy.csv" = { size = 0, url = "https://x.org/a" }"#,
            "0",
        ),
        (
            r#""web/toy.csv" = { size = 5, url = "ftp://x.org/a" }"#,
            "not an http(s) URL",
        ),
        (
            r#""web/toy.csv" = { size = 5, url = "https://x.org/a", committed = true }"#,
            "exactly one",
        ),
        (
            r#""web/toy.csv" = { size = 5, mirror = "https://x.org/a", manual = "m" }"#,
            "`mirror` needs `url`",
        ),
        (
            &format!(
                r#""web/toy.csv" = {{ size = 5, github = "o/r", commit = "{}", path = "a" }}"#,
                &commit[..7]
            ),
            "40 hex",
        ),
        (
            &format!(
                r#""web/toy.csv" = {{ size = 5, github = "o/r", commit = "{commit}", path = "../a" }}"#
            ),
            "plain relative path",
        ),
        (
            &format!(
                r#""web/toy.csv" = {{ size = 5, github = "o r", commit = "{commit}", path = "a" }}"#
            ),
            "owner/repository",
        ),
        (
            r#""web/toy.csv" = { size = 5, github = "o/r" }"#,
            "needs `commit` and `path`",
        ),
        (r#""web/toy.csv" = { manual = " " }"#, "where to put it"),
        (
            r#""web/toy.csv" = { size = 5, url = "https://x.org/a", sha = "x" }"#,
            "unknown field",
        ),
    ];
    for (entry, why) in cases {
        match reg_with(entry, &sha) {
            Err(Error::Config { key, reason, .. }) => {
                assert!(
                    key.contains("downloads") || why == "unknown field",
                    "{entry}: key {key}"
                );
                assert!(reason.contains(why), "{entry}: {reason}");
            }
            other => panic!("{entry}: {other:?}"),
        }
    }
    // a download must be checkable
    let e = reg_with(
        r#""web/toy.csv" = { size = 5, url = "https://x.org/a" }"#,
        UNVERIFIED,
    )
    .unwrap_err();
    assert!(e.to_string().contains("must be checked"), "{e}");
    // well formed: a github source gives the raw and the jsDelivr URL
    let r = reg_with(
        &format!(r#""web/toy.csv" = {{ size = 5, github = "o/r", commit = "{commit}", path = "d/a.csv" }}"#),
        &sha,
    )
    .unwrap();
    let DownloadSource::Web { urls, .. } = r.download("web/toy.csv").unwrap().source else {
        panic!()
    };
    assert_eq!(
        urls,
        [
            format!("https://raw.githubusercontent.com/o/r/{commit}/d/a.csv"),
            format!("https://cdn.jsdelivr.net/gh/o/r@{commit}/d/a.csv"),
        ]
    );
}

#[test]
fn a_missing_file_names_the_fetch_command() {
    let reg = Registry::load_default().unwrap();
    let empty = std::env::temp_dir().join(format!("mkc-fetch-empty-{}", std::process::id()));
    let dir = DataDir::at(&empty);
    let e = reg.load("coil20-3v19", &dir).unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, Error::MissingData { .. }), "{msg}");
    assert!(
        msg.contains(&format!(
            "`mkc datasets fetch coil20-3v19 --data-dir {}`",
            empty.display()
        )),
        "{msg}"
    );
    // a file without a public download says so and where it goes
    let e = reg.load("simplemkkm-ccv", &dir).unwrap_err().to_string();
    assert!(
        e.contains("no public download") && e.contains("external/simplemkkm/CCV_Kmatrix.mat"),
        "{e}"
    );
    assert!(!empty.exists());
}

#[test]
fn fetch_checks_its_input() {
    let reg = Registry::load_default().unwrap();
    let dir = DataDir::at(Path::new("unused"));
    let opts = FetchOptions::default();
    assert!(matches!(
        fetch(&reg, &[], &dir, &opts, &Silent),
        Err(Error::InvalidInput { .. })
    ));
    assert!(matches!(
        fetch(&reg, &["no-such-set"], &dir, &opts, &Silent),
        Err(Error::InvalidParam { .. })
    ));
    for bad in [
        FetchOptions {
            attempts: 0,
            ..opts.clone()
        },
        FetchOptions {
            timeout: std::time::Duration::ZERO,
            ..opts.clone()
        },
        FetchOptions {
            backoff: std::time::Duration::from_secs(60),
            ..opts.clone()
        },
        FetchOptions {
            stale_lock: std::time::Duration::from_secs(1),
            ..opts.clone()
        },
    ] {
        assert!(
            matches!(
                fetch(&reg, &["ionosphere"], &dir, &bad, &Silent),
                Err(Error::InvalidParam { .. })
            ),
            "{bad:?}"
        );
    }
}

#[test]
fn committed_files_are_copied_from_a_checkout_and_manual_ones_explained() {
    let reg = Registry::load_default().unwrap();
    let target = std::env::temp_dir().join(format!("mkc-fetch-copy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&target);
    let dir = DataDir::at(&target);
    // without a local copy: the error says it is committed
    let r = fetch(
        &reg,
        &["ionosphere"],
        &dir,
        &FetchOptions::default(),
        &Silent,
    )
    .unwrap();
    let msg = r[0].result.as_ref().unwrap_err().to_string();
    assert!(msg.contains("committed in the mkc repository"), "{msg}");
    // with the repository's data folder: copied, verified, loadable
    let opts = FetchOptions {
        local_copies: vec![repo_data().root],
        ..FetchOptions::default()
    };
    let r = fetch(
        &reg,
        &["ionosphere", "simplemkkm-ccv"],
        &dir,
        &opts,
        &Silent,
    )
    .unwrap();
    assert_eq!(r.len(), 3);
    assert!(r[0].is_ok() && r[1].is_ok(), "{}", r[0].summary());
    assert!(
        r[2].is_manual() && r[2].summary().starts_with("manual   "),
        "{}",
        r[2].summary()
    );
    assert_eq!(reg.load("ionosphere", &dir).unwrap().n_samples(), 351);
    assert!(
        !target.join("external").exists(),
        "nothing made for a manual file"
    );
    let _ = std::fs::remove_dir_all(&target);
}
