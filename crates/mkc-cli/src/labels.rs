//! Label files: one label per line (any text; blank lines are skipped).

use mkc_core::{Error, Result};
use std::path::Path;

/// Read labels and map them to 0.. in order of first appearance.
pub fn read(path: &Path) -> Result<Vec<usize>> {
    mkc_experiments::own_data::read_labels(path).map(|(ids, _)| ids)
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
