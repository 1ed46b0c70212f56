//! One HTTP attempt: GET (with `Range: bytes=<have>-` when part of the file is already
//! in `<file>.part`), check what the server says against the registry's size, append
//! the body to the part file. The caller verifies the sha256 and renames.

use super::human_bytes;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::Path;
use std::time::Duration;

/// Why an attempt did not bring the whole file.
#[derive(Debug)]
pub(super) enum Failure {
    /// Worth another attempt at the same URL after a back-off (connection lost,
    /// timeout, HTTP 5xx, 408, 429); `answered`: the server sent a response (false
    /// when no connection was made).
    Retry { why: String, answered: bool },
    /// This URL will not give the file (HTTP 404, an HTML page, a different size):
    /// go to the next one.
    NextUrl(String),
}

/// The agent of one download: connect and per-read timeouts, no automatic status
/// errors (the status is checked here), no content decoding (the bytes as served).
pub(super) fn agent(url: &str, timeout: Duration) -> ureq::Agent {
    let loopback = ["http://127.0.0.1", "http://localhost", "http://[::1]"]
        .iter()
        .any(|p| url.starts_with(p));
    let mut cfg = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_connect(Some(timeout))
        .timeout_resolve(Some(timeout))
        .timeout_per_read(Some(timeout))
        .timeout_per_write(Some(timeout))
        .accept_encoding("identity")
        .user_agent(concat!("mkc-data/", env!("CARGO_PKG_VERSION")));
    if loopback {
        // never send a request for this machine through a proxy of the environment
        cfg = cfg.proxy(None);
    }
    cfg.build().into()
}

fn header<'a>(r: &'a ureq::http::Response<ureq::Body>, name: &str) -> Option<&'a str> {
    r.headers().get(name).and_then(|v| v.to_str().ok())
}

/// `bytes START-END/TOTAL` → (START, TOTAL if given).
fn content_range(v: &str) -> Option<(u64, Option<u64>)> {
    let rest = v.trim().strip_prefix("bytes ")?;
    let (range, total) = rest.split_once('/')?;
    let start = range.split_once('-')?.0.trim().parse().ok()?;
    Some((start, total.trim().parse().ok()))
}

fn status_text(code: u16, mime: Option<&str>) -> String {
    let reason = ureq::http::StatusCode::from_u16(code)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("");
    match mime {
        Some(m) => format!("HTTP {code} {reason} ({m} body)"),
        None => format!("HTTP {code} {reason}"),
    }
}

fn open_part(part: &Path, append: bool) -> Result<File, Failure> {
    let mut o = OpenOptions::new();
    o.create(true);
    if append {
        o.append(true);
    } else {
        o.write(true).truncate(true);
    }
    o.open(part)
        .map_err(|e| Failure::NextUrl(format!("cannot write {}: {e}", part.display())))
}

/// Check the response head; returns the offset the body starts at.
fn check_head(
    r: &ureq::http::Response<ureq::Body>,
    rel: &str,
    have: u64,
    size: u64,
) -> Result<u64, Failure> {
    let code = r.status().as_u16();
    let mime = r.body().mime_type();
    if code == 408 || code == 429 || (500..600).contains(&code) {
        return Err(Failure::Retry {
            why: status_text(code, mime),
            answered: true,
        });
    }
    if code == 416 {
        return Err(Failure::Retry {
            why: format!(
                "{} for bytes {have}- (the partial download is dropped)",
                status_text(code, None)
            ),
            answered: true,
        });
    }
    if code != 200 && code != 206 {
        return Err(Failure::NextUrl(status_text(code, mime)));
    }
    let is_html = mime.is_some_and(|m| m.eq_ignore_ascii_case("text/html"));
    if is_html && !(rel.ends_with(".html") || rel.ends_with(".htm")) {
        return Err(Failure::NextUrl(format!(
            "{}: the server sent a web page (an error or sign-in page?) instead of the file",
            status_text(code, mime)
        )));
    }
    let start = if code == 206 {
        let cr = header(r, "content-range").and_then(content_range);
        match cr {
            Some((s, total)) if s == have && total.is_none_or(|t| t == size) => s,
            Some((_, Some(t))) if t != size => {
                return Err(Failure::NextUrl(format!(
                    "the server's file has {t} bytes, the registry expects {size}"
                )))
            }
            _ => {
                return Err(Failure::Retry {
                    why: format!(
                        "HTTP 206 with an unexpected Content-Range {:?} for bytes {have}-",
                        header(r, "content-range")
                    ),
                    answered: true,
                })
            }
        }
    } else {
        0
    };
    let expect = size - start;
    if let Some(len) = header(r, "content-length").and_then(|v| v.trim().parse::<u64>().ok()) {
        if len != expect {
            return Err(Failure::NextUrl(format!(
                "the server announces {len} bytes from byte {start}, the registry expects {expect} ({size} in all)"
            )));
        }
    }
    Ok(start)
}

/// One attempt at `url`: bring `part` (holding `have` bytes) up to `size` bytes.
/// `on_bytes(done)` is called as data arrives.
pub(super) fn attempt(
    agent: &ureq::Agent,
    url: &str,
    rel: &str,
    part: &Path,
    size: u64,
    on_bytes: &dyn Fn(u64),
) -> Result<(), Failure> {
    let have = std::fs::metadata(part).map(|m| m.len()).unwrap_or(0);
    let have = if have >= size {
        // complete or too long from an earlier run: start over (the caller verified it)
        let _ = std::fs::remove_file(part);
        0
    } else {
        have
    };
    let mut req = agent.get(url);
    if have > 0 {
        req = req.header("Range", format!("bytes={have}-"));
    }
    let mut resp = req.call().map_err(|e| Failure::Retry {
        why: e.to_string(),
        answered: false,
    })?;
    let start = match check_head(&resp, rel, have, size) {
        Ok(s) => s,
        Err(f) => {
            if resp.status().as_u16() == 416 {
                let _ = std::fs::remove_file(part);
            }
            return Err(f);
        }
    };
    let mut file = open_part(part, start > 0)?;
    let mut done = start;
    on_bytes(done);
    let mut reader = resp.body_mut().as_reader();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) => {
                let _ = file.flush();
                return Err(Failure::Retry {
                    why: format!(
                        "connection lost after {} of {}: {e}",
                        human_bytes(done),
                        human_bytes(size)
                    ),
                    answered: true,
                });
            }
        };
        if done + n as u64 > size {
            drop(file);
            let _ = std::fs::remove_file(part);
            return Err(Failure::NextUrl(format!(
                "the server sent more than the {size} bytes the registry expects"
            )));
        }
        file.write_all(&buf[..n])
            .map_err(|e| Failure::NextUrl(format!("cannot write {}: {e}", part.display())))?;
        done += n as u64;
        on_bytes(done);
    }
    file.flush()
        .map_err(|e| Failure::NextUrl(format!("cannot write {}: {e}", part.display())))?;
    if done < size {
        return Err(Failure::Retry {
            why: format!(
                "the connection closed after {} of {}",
                human_bytes(done),
                human_bytes(size)
            ),
            answered: true,
        });
    }
    Ok(())
}
