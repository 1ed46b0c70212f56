//! Label files: one label per line (any text; blank lines are skipped).

use mkc_core::{Error, Result};
use std::path::Path;

/// Read labels and map them to 0.. in order of first appearance.
pub fn read(path: &Path) -> Result<Vec<usize>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let mut names: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for line in text.lines() {
        let t = line.trim().trim_matches('"');
        if t.is_empty() {
            continue;
        }
        let id = match names.iter().position(|n| *n == t) {
            Some(i) => i,
            None => {
                names.push(t);
                names.len() - 1
            }
        };
        out.push(id);
    }
    if out.is_empty() {
        return Err(Error::parse(
            path,
            "file",
            "no labels (expected one label per line)",
        ));
    }
    Ok(out)
}

/// Write labels, one per line.
pub fn write(path: &Path, labels: &[usize]) -> Result<()> {
    let mut s = String::with_capacity(labels.len() * 3);
    for l in labels {
        s.push_str(&l.to_string());
        s.push('\n');
    }
    std::fs::write(path, s).map_err(|e| Error::io(path, e))
}
