//! `mkc_data::fetch` against a server on 127.0.0.1 that the tests start: a good
//! download, a wrong checksum, a connection dropped half-way (resumed), an error page,
//! a file already present, two concurrent fetches of one file, lock files. Nothing
//! leaves the machine; every socket has a timeout.
#![cfg(feature = "fetch")]

mod fetch_support;

use fetch_support::{fixture, options, registry, temp_dir, Mode, Server};
use mkc_core::Error;
use mkc_data::datadir::sha256_hex;
use mkc_data::fetch::{fetch, fetch_file, FileReport, Outcome, Silent};
use mkc_data::DataDir;
use std::path::{Path, PathBuf};

const REL: &str = "web/toy.csv";

/// The server, the registry pointing at it (and optionally a mirror), the body.
fn setup(mode: Mode, mirror: Option<&Server>) -> (Server, mkc_data::Registry, Vec<u8>) {
    let body = fixture(20_000);
    let server = Server::start(body.clone(), mode);
    let mut source = format!("url = \"{}\"", server.url("files/toy.csv"));
    if let Some(m) = mirror {
        source.push_str(&format!(", mirror = \"{}\"", m.url("mirror/toy.csv")));
    }
    let reg = registry(&sha256_hex(&body), body.len(), &source);
    (server, reg, body)
}

/// One scenario: the server, its registry, the body it serves and a fresh directory.
struct Toy {
    server: Server,
    reg: mkc_data::Registry,
    body: Vec<u8>,
    dir: PathBuf,
}

impl Toy {
    /// A server in `mode` (no mirror) and the directory `temp_dir(name)`.
    fn new(mode: Mode, name: &str) -> Self {
        let (server, reg, body) = setup(mode, None);
        Toy {
            server,
            reg,
            body,
            dir: temp_dir(name),
        }
    }

    /// Fetch the registry's one dataset into the directory.
    fn fetch(&self) -> FileReport {
        fetch_toy(&self.reg, &self.dir)
    }

    /// Fetch, which succeeds, and [`Toy::saved`].
    fn fetched(&self) {
        let r = self.fetch();
        assert!(r.is_ok(), "{}", r.summary());
        self.saved();
    }

    /// The file holds the body and nothing else is left under `web/`.
    fn saved(&self) {
        assert_eq!(std::fs::read(self.dir.join(REL)).unwrap(), self.body);
        only(&self.dir, &["toy.csv"]);
    }
}

/// A port that was free a moment ago: connections to it are refused at once.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn fetch_toy(reg: &mkc_data::Registry, dir: &Path) -> FileReport {
    let mut r = fetch(reg, &["toy"], &DataDir::at(dir), &options(), &Silent).unwrap();
    assert_eq!(r.len(), 1);
    r.pop().unwrap()
}

/// Nothing but `keep` under `dir/web` (no part or lock file).
fn only(dir: &Path, keep: &[&str]) {
    let mut names: Vec<String> = std::fs::read_dir(dir.join("web"))
        .map(|rd| {
            rd.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    assert_eq!(names, keep, "files left in {}", dir.display());
}

#[test]
fn a_good_download_is_verified_and_loads() {
    let t = Toy::new(Mode::Normal, "good");
    let r = t.fetch();
    match r.result.as_ref().unwrap() {
        Outcome::Fetched {
            url, resumed_from, ..
        } => {
            assert_eq!(url, &t.server.url("files/toy.csv"));
            assert_eq!(*resumed_from, 0);
        }
        other => panic!("{other:?}"),
    }
    t.saved();
    assert_eq!(
        (t.server.requests(), t.server.ranges()[0].clone()),
        (1, None)
    );
    assert!(
        r.summary().starts_with("fetched  web/toy.csv"),
        "{}",
        r.summary()
    );
    // the registry's verify passes (sha256 and size as registered)
    t.reg.verify("toy", &DataDir::at(&t.dir)).unwrap();
}

#[test]
fn a_wrong_checksum_names_both_hashes_and_leaves_nothing() {
    let (server, reg, body) = setup(Mode::WrongBytes, None);
    let dir = temp_dir("checksum");
    let r = fetch_toy(&reg, &dir);
    let wrong: Vec<u8> = body.iter().map(|b| b ^ 0x20).collect();
    match r.result {
        Err(Error::Checksum {
            path,
            expected,
            found,
        }) => {
            assert_eq!(path, dir.join(REL));
            assert_eq!(expected, sha256_hex(&body));
            assert_eq!(found, sha256_hex(&wrong));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(server.requests(), 1, "a checksum mismatch is not retried");
    only(&dir, &[]);
}

#[test]
fn a_bad_primary_falls_back_to_the_mirror() {
    let body = fixture(20_000);
    let mirror = Server::start(body.clone(), Mode::Normal);
    let (primary, reg, _) = setup(Mode::WrongBytes, Some(&mirror));
    let dir = temp_dir("mirror");
    let r = fetch_toy(&reg, &dir);
    match r.result.unwrap() {
        Outcome::Fetched { url, .. } => assert_eq!(url, mirror.url("mirror/toy.csv")),
        other => panic!("{other:?}"),
    }
    assert_eq!((primary.requests(), mirror.requests()), (1, 1));
    assert_eq!(std::fs::read(dir.join(REL)).unwrap(), body);
    only(&dir, &["toy.csv"]);
}

#[test]
fn a_connection_dropped_half_way_is_resumed_with_a_range_request() {
    let t = Toy::new(Mode::DropHalf, "drop");
    t.fetched();
    let half = t.body.len() / 2;
    assert_eq!(
        t.server.ranges(),
        vec![None, Some(format!("bytes={half}-"))],
        "the second request asks for the missing half only"
    );
}

#[test]
fn a_server_that_ignores_range_still_gives_the_right_bytes() {
    let t = Toy::new(Mode::DropHalfNoRange, "norange");
    t.fetched();
    assert_eq!(t.server.requests(), 2);
}

#[test]
fn an_interrupted_earlier_fetch_is_resumed_from_its_part_file() {
    let t = Toy::new(Mode::Normal, "part");
    std::fs::create_dir_all(t.dir.join("web")).unwrap();
    let k = 12_345;
    std::fs::write(t.dir.join("web/toy.csv.part"), &t.body[..k]).unwrap();
    match t.fetch().result.unwrap() {
        Outcome::Fetched { resumed_from, .. } => assert_eq!(resumed_from, k as u64),
        other => panic!("{other:?}"),
    }
    assert_eq!(t.server.ranges(), vec![Some(format!("bytes={k}-"))]);
    t.saved();
}

#[test]
fn an_error_page_is_not_taken_for_the_file() {
    // HTTP 500: retried (it may pass), then a failure naming the status
    let t = Toy::new(Mode::Error500, "e500");
    let r = t.fetch();
    let msg = r.result.as_ref().unwrap_err().to_string();
    assert!(
        msg.contains("HTTP 500") && msg.contains(&t.server.url("files/toy.csv")),
        "{msg}"
    );
    assert_eq!(t.server.requests(), options().attempts as usize);
    only(&t.dir, &[]);
    assert!(
        r.summary().starts_with("failed   web/toy.csv"),
        "{}",
        r.summary()
    );
    // HTTP 200 with a web page: not retried, not saved
    let t = Toy::new(Mode::Html200, "html200");
    let msg = t.fetch().result.unwrap_err().to_string();
    assert!(msg.contains("web page"), "{msg}");
    assert_eq!(t.server.requests(), 1);
    only(&t.dir, &[]);
}

#[test]
fn a_present_valid_file_makes_no_request_and_a_wrong_one_is_replaced() {
    let t = Toy::new(Mode::Normal, "present");
    std::fs::create_dir_all(t.dir.join("web")).unwrap();
    std::fs::write(t.dir.join(REL), &t.body).unwrap();
    assert_eq!(t.fetch().result.unwrap(), Outcome::Present);
    assert_eq!(t.server.requests(), 0);
    // same size, other bytes: downloaded again and replaced
    std::fs::write(
        t.dir.join(REL),
        t.body.iter().map(|b| b ^ 1).collect::<Vec<u8>>(),
    )
    .unwrap();
    match t.fetch().result.unwrap() {
        Outcome::Fetched { replaced, .. } => assert!(replaced),
        other => panic!("{other:?}"),
    }
    t.saved();
    assert_eq!(t.server.requests(), 1);
}

#[test]
fn two_concurrent_fetches_download_once_and_both_succeed() {
    let t = Toy::new(Mode::Slow, "concurrent");
    let d = t.reg.download(REL).unwrap();
    let outcomes: Vec<Outcome> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..2)
            .map(|_| s.spawn(|| fetch_file(&d, &DataDir::at(&t.dir), &options(), &Silent)))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap().unwrap()).collect()
    });
    assert_eq!(t.server.requests(), 1, "one download");
    let fetched = outcomes
        .iter()
        .filter(|o| matches!(o, Outcome::Fetched { .. }))
        .count();
    assert_eq!(fetched, 1, "{outcomes:?}");
    assert!(outcomes.contains(&Outcome::Present), "{outcomes:?}");
    t.saved();
}

#[test]
fn a_stale_lock_is_removed_and_a_live_one_waited_for() {
    let (server, reg, _) = setup(Mode::Normal, None);
    let dir = temp_dir("locks");
    std::fs::create_dir_all(dir.join("web")).unwrap();
    let lock = dir.join("web/toy.csv.lock");
    // a live lock (fresh mtime) that nobody releases: the wait ends with an error
    std::fs::write(&lock, b"").unwrap();
    let mut opts = options();
    opts.lock_wait = std::time::Duration::from_millis(200);
    let d = reg.download(REL).unwrap();
    let e = fetch_file(&d, &DataDir::at(&dir), &opts, &Silent).unwrap_err();
    assert!(e.to_string().contains("toy.csv.lock"), "{e}");
    assert_eq!(server.requests(), 0);
    // the same lock, last touched an hour ago: a dead fetch's, removed
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&lock)
        .unwrap()
        .set_modified(old)
        .unwrap();
    assert!(fetch_file(&d, &DataDir::at(&dir), &opts, &Silent).is_ok());
    only(&dir, &["toy.csv"]);
}

#[test]
fn a_local_copy_is_used_before_the_network() {
    let (server, reg, body) = setup(Mode::Normal, None);
    let (dir, copies) = (temp_dir("local"), temp_dir("local-src"));
    std::fs::create_dir_all(copies.join("web")).unwrap();
    std::fs::write(copies.join(REL), &body).unwrap();
    let mut opts = options();
    opts.local_copies = vec![copies.clone()];
    let d = reg.download(REL).unwrap();
    let out = fetch_file(&d, &DataDir::at(&dir), &opts, &Silent).unwrap();
    assert_eq!(out, Outcome::Copied { from: copies });
    assert_eq!(server.requests(), 0);
    assert_eq!(std::fs::read(dir.join(REL)).unwrap(), body);
}

#[test]
fn an_unreachable_server_fails_after_its_attempts() {
    let port = free_port();
    let body = fixture(100);
    let url = format!("url = \"http://127.0.0.1:{port}/toy.csv\"");
    let reg = registry(&sha256_hex(&body), body.len(), &url);
    let dir = temp_dir("refused");
    let r = fetch_toy(&reg, &dir);
    let msg = r.result.unwrap_err().to_string();
    assert!(
        msg.contains("download failed") && msg.contains("attempt 3 of 3"),
        "{msg}"
    );
    only(&dir, &[]);
}

/// Counts the retries a fetch announces.
#[derive(Default)]
struct Retries(std::sync::atomic::AtomicUsize);

impl mkc_data::fetch::Progress for Retries {
    fn retry(&self, _rel: &str, _why: &str, _wait: std::time::Duration) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }
}

#[test]
fn a_host_that_never_answers_is_tried_once_for_the_later_files() {
    let port = free_port();
    let body = fixture(100);
    let (sha, size) = (sha256_hex(&body), body.len());
    let set = |name: &str| {
        format!(
            "[datasets.{name}]\ndescription = \"x\"\nformat = \"csv\"\nlabel_column = -1\n\
             files = {{ \"web/{name}.csv\" = \"{sha}\" }}\nexpect = {{ n = 1, d = 2, n_classes = 2 }}\n"
        )
    };
    let text = format!(
        "{}{}[downloads]\n\"web/a.csv\" = {{ size = {size}, url = \"http://127.0.0.1:{port}/a\" }}\n\
         \"web/b.csv\" = {{ size = {size}, url = \"http://127.0.0.1:{port}/b\" }}\n",
        set("a"),
        set("b")
    );
    let reg = mkc_data::Registry::from_toml_str(&text, "two files").unwrap();
    let dir = temp_dir("dead");
    let retries = Retries::default();
    let r = fetch(&reg, &["a", "b"], &DataDir::at(&dir), &options(), &retries).unwrap();
    assert!(r.iter().all(|f| !f.is_ok()));
    let n = retries.0.load(std::sync::atomic::Ordering::SeqCst);
    assert_eq!(
        n,
        options().attempts as usize - 1,
        "retries for the first file only"
    );
    let msg = r[1].result.as_ref().unwrap_err().to_string();
    assert!(msg.contains("attempt 1 of 1"), "{msg}");
}
