//! A private Python environment for the comparison harnesses: `target/xtask-venv`,
//! created with `python3 -m venv` and filled with pip. When anything fails the
//! harness prints a clear skip line instead of an error.

use std::fmt::Display;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Path of the venv's python, creating the venv and installing `packages` if needed.
/// Returns `Err(reason)` when Python or pip is unavailable (callers print a skip).
pub fn venv_python(packages: &[&str]) -> Result<PathBuf, String> {
    let root = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target"));
    let venv = root.join("xtask-venv");
    let py = venv.join("bin").join("python");
    if !py.exists() {
        let st = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .status()
            .map_err(|e| format!("python3 not runnable: {e}"))?;
        if !st.success() {
            return Err("python3 -m venv failed".into());
        }
    }
    let check = format!(
        "import {}",
        packages
            .iter()
            .map(|p| import_name(p))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let have = Command::new(&py)
        .args(["-c", &check])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if !have {
        let st = Command::new(&py)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
            ])
            .args(packages)
            .status()
            .map_err(|e| format!("pip not runnable: {e}"))?;
        if !st.success() {
            return Err(format!("pip install {} failed", packages.join(" ")));
        }
    }
    Ok(py)
}

fn import_name(package: &str) -> &str {
    match package {
        "scikit-learn" => "sklearn",
        other => other,
    }
}

/// Run the harness script `xtask/py/<script>` with `py`, its arguments a path and then
/// `rest` as text; its standard output, or why it failed (its standard error).
pub fn run_script(
    py: &Path,
    script: &str,
    path_arg: &Path,
    rest: &[&dyn Display],
) -> Result<String, String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("py")
        .join(script);
    let out = Command::new(py)
        .arg(&path)
        .arg(path_arg)
        .args(rest.iter().map(|a| a.to_string()))
        .output()
        .map_err(|e| format!("running {}: {e}", path.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{script} exited with {}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    String::from_utf8(out.stdout).map_err(|e| format!("{script}: output not UTF-8: {e}"))
}
