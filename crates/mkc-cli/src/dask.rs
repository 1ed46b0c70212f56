//! `mkc run CONFIG --dask ADDRESS`: the config's jobs on a Dask cluster, through the
//! Python package (`python -m mkc.sweep`, which talks to the scheduler; the jobs are
//! the runner's own and their records the same JSON lines, see `mkc.sweep`). The
//! Python interpreter is `$MKC_PYTHON`, else `python3`; it needs the package `mkc`
//! (`pip install ./crates/mkc-python`) and `dask[distributed]`.

use crate::commands::RunArgs;
use mkc_core::{Error, Result};
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::Command;

/// The interpreter and the arguments of `python -m mkc.sweep` for `a` on `address`.
/// Records go to `--records`, else `results/runs/<config name>.jsonl`; as `mkc run`,
/// jobs on record are reused only with `--resume`.
pub fn command(a: &RunArgs, address: &str) -> (OsString, Vec<OsString>) {
    let python = std::env::var_os("MKC_PYTHON").unwrap_or_else(|| "python3".into());
    let mut args: Vec<OsString> = vec!["-m".into(), "mkc.sweep".into()];
    args.push(a.config.clone().into());
    for (flag, value) in [
        ("--scheduler", Some(PathBuf::from(address))),
        ("--profile", Some(PathBuf::from(&a.profile))),
        ("--records", a.records.clone()),
        ("--out", a.out.clone()),
        ("--data-dir", a.data_dir.clone()),
    ] {
        if let Some(v) = value {
            args.push(flag.into());
            args.push(v.into());
        }
    }
    if !a.resume {
        args.push("--no-resume".into());
    }
    if a.timings {
        args.push("--timings".into());
    }
    (python, args)
}

/// Run `a` on the Dask scheduler at `address` (the Python process prints the tables or
/// writes `--out`).
pub fn run(a: &RunArgs, address: &str) -> Result<()> {
    let (python, args) = command(a, address);
    let status = Command::new(&python).args(&args).status().map_err(|e| {
        Error::io(
            PathBuf::from(&python),
            std::io::Error::new(
                e.kind(),
                format!("{e} (mkc run --dask runs `python -m mkc.sweep`: set MKC_PYTHON to an interpreter with the mkc package and dask[distributed])"),
            ),
        )
    })?;
    if status.success() {
        Ok(())
    } else {
        Err(Error::input(
            "mkc run --dask",
            format!(
                "`{} -m mkc.sweep` failed ({status}); it needs the Python package mkc \
                 (pip install ./crates/mkc-python) and dask[distributed]",
                python.to_string_lossy()
            ),
        ))
    }
}
