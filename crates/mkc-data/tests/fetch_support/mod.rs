//! A tiny HTTP/1.1 server on 127.0.0.1 for the fetch tests: serves one fixture body at
//! any path, honours `Range: bytes=N-`, counts requests and records their `Range`
//! headers, and can misbehave on purpose (see [`Mode`]). Every socket has a timeout and
//! the accept loop ends at a deadline, so no test can hang.
#![allow(dead_code)]

use mkc_data::fetch::FetchOptions;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How the server answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The body (206 for a range request).
    Normal,
    /// Bytes of the right length but different content.
    WrongBytes,
    /// The first response announces the whole body, sends half and closes; later
    /// ones are `Normal`.
    DropHalf,
    /// Like `DropHalf`, but later responses ignore `Range` (200 with the whole body).
    DropHalfNoRange,
    /// HTTP 500 with an HTML page.
    Error500,
    /// HTTP 200 with an HTML page instead of the file.
    Html200,
    /// `Normal` after a pause before the body (so that fetches overlap).
    Slow,
}

/// A running server; stops when dropped.
pub struct Server {
    pub port: u16,
    requests: Arc<Mutex<Vec<Option<String>>>>,
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

/// Socket timeouts of the server and of the clients the tests configure.
pub const TIMEOUT: Duration = Duration::from_secs(5);
/// The server stops accepting after this long whatever happens.
const DEADLINE: Duration = Duration::from_secs(60);
const HTML: &[u8] = b"<!DOCTYPE html><html><head><title>Oops</title></head><body>Something went wrong</body></html>";

impl Server {
    /// Serve `body` with `mode`.
    pub fn start(body: Vec<u8>, mode: Mode) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        listener.set_nonblocking(true).expect("nonblocking");
        let port = listener.local_addr().expect("addr").port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (req, st) = (requests.clone(), stop.clone());
        let handle = std::thread::spawn(move || {
            let start = Instant::now();
            while !st.load(Ordering::SeqCst) && start.elapsed() < DEADLINE {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let _ = serve(stream, &body, mode, &req);
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                        std::thread::sleep(Duration::from_millis(5))
                    }
                    Err(_) => break,
                }
            }
        });
        Server {
            port,
            requests,
            stop,
            handle: Some(handle),
        }
    }

    /// The URL of `path` on this server.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}/{path}", self.port)
    }

    /// Requests served so far.
    pub fn requests(&self) -> usize {
        self.requests.lock().unwrap().len()
    }

    /// The `Range` header of each request, in order.
    pub fn ranges(&self) -> Vec<Option<String>> {
        self.requests.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// Read the request head (bounded) and return its `Range` value.
fn read_head(stream: &mut TcpStream) -> std::io::Result<Option<String>> {
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut buf)?;
        if n == 0 || head.len() > 16 * 1024 {
            break;
        }
        head.extend_from_slice(&buf[..n]);
    }
    let text = String::from_utf8_lossy(&head);
    Ok(text.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim()
            .eq_ignore_ascii_case("range")
            .then(|| v.trim().to_string())
    }))
}

fn respond(
    s: &mut TcpStream,
    status: &str,
    ctype: &str,
    extra: &str,
    body: &[u8],
) -> std::io::Result<()> {
    write!(
        s,
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\n{extra}Connection: close\r\n\r\n",
        body.len()
    )?;
    s.write_all(body)?;
    s.flush()
}

fn serve(
    mut s: TcpStream,
    body: &[u8],
    mode: Mode,
    requests: &Mutex<Vec<Option<String>>>,
) -> std::io::Result<()> {
    s.set_nonblocking(false)?;
    s.set_read_timeout(Some(TIMEOUT))?;
    s.set_write_timeout(Some(TIMEOUT))?;
    let range = read_head(&mut s)?;
    let nth = {
        let mut r = requests.lock().unwrap();
        r.push(range.clone());
        r.len()
    };
    let octet = "application/octet-stream";
    match mode {
        Mode::Error500 => {
            return respond(
                &mut s,
                "500 Internal Server Error",
                "text/html; charset=utf-8",
                "",
                HTML,
            )
        }
        Mode::Html200 => return respond(&mut s, "200 OK", "text/html; charset=utf-8", "", HTML),
        Mode::DropHalf | Mode::DropHalfNoRange if nth == 1 => {
            write!(
                s,
                "HTTP/1.1 200 OK\r\nContent-Type: {octet}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            )?;
            s.write_all(&body[..body.len() / 2])?;
            s.flush()?;
            return s.shutdown(std::net::Shutdown::Both);
        }
        Mode::Slow => std::thread::sleep(Duration::from_millis(300)),
        _ => {}
    }
    let wrong: Vec<u8>;
    let body = if mode == Mode::WrongBytes {
        wrong = body.iter().map(|b| b ^ 0x20).collect();
        &wrong[..]
    } else {
        body
    };
    let start = range
        .as_deref()
        .filter(|_| mode != Mode::DropHalfNoRange)
        .and_then(|r| r.strip_prefix("bytes="))
        .and_then(|r| r.strip_suffix('-'))
        .and_then(|n| n.parse::<usize>().ok());
    match start {
        Some(n) if n < body.len() => {
            let cr = format!(
                "Content-Range: bytes {n}-{}/{}\r\n",
                body.len() - 1,
                body.len()
            );
            respond(&mut s, "206 Partial Content", octet, &cr, &body[n..])
        }
        Some(_) => respond(&mut s, "416 Range Not Satisfiable", "text/plain", "", b""),
        None => respond(&mut s, "200 OK", octet, "", body),
    }
}

/// A CSV fixture of `rows` rows (two features and a label), a few hundred kB.
pub fn fixture(rows: usize) -> Vec<u8> {
    let mut s = String::new();
    for i in 0..rows {
        s.push_str(&format!(
            "{}.{},{},{}\n",
            i % 97,
            i % 13,
            (i * 7) % 101,
            i % 2
        ));
    }
    s.into_bytes()
}

/// Options for loopback tests: short back-off, socket timeouts.
pub fn options() -> FetchOptions {
    FetchOptions {
        attempts: 3,
        backoff: Duration::from_millis(10),
        max_backoff: Duration::from_millis(40),
        timeout: TIMEOUT,
        lock_wait: Duration::from_secs(30),
        stale_lock: Duration::from_secs(10),
        local_copies: Vec::new(),
    }
}

/// A fresh empty directory for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mkc-fetch-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// A registry with one dataset `toy` (a CSV, label last) whose file `web/toy.csv` has
/// `sha`, and the `[downloads]` table `downloads` (whole lines): `toy_registry.toml`,
/// shared with the Python package's fetch tests.
pub fn try_registry(sha: &str, downloads: &str) -> Result<mkc_data::Registry, mkc_core::Error> {
    let text = include_str!("toy_registry.toml")
        .replace("@SHA@", sha)
        .replace("@DOWNLOADS@", downloads);
    mkc_data::Registry::from_toml_str(&text, "fixture registry")
}

/// [`try_registry`] with `web/toy.csv` of `size` bytes from `source` (the body of an
/// inline table, such as `url = "…"`).
pub fn registry(sha: &str, size: usize, source: &str) -> mkc_data::Registry {
    try_registry(
        sha,
        &format!(r#""web/toy.csv" = {{ size = {size}, {source} }}"#),
    )
    .expect("fixture registry")
}
