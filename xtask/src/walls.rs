//! Wall-clock times of reproductions, kept beside the run records: every `cargo xtask
//! reproduce` that runs jobs (not `--recorded-only`) appends one line per config to
//! `results/runs/<name>.walls.jsonl` (the tables it covered, the profile, its wall-clock
//! seconds, how many runs came from the records, the thread count, the load average
//! before and after and the commit), and `--timings` lists them in `results/timings.md`.
//! Run-seconds (the records' own times) say where the time goes; these say how long a
//! reproduction took on the machine that ran it, and under what load.

use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// One reproduction of one config (all its tables or some).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Wall {
    /// `quick` or `full`.
    pub profile: String,
    /// The tables that ran, in the config's order.
    pub tables: Vec<String>,
    /// Wall-clock seconds of the config's plan.
    pub seconds: f64,
    /// Runs taken from the records (`--resume`) instead of being run.
    pub recorded_runs: usize,
    /// Worker threads (rayon).
    pub threads: usize,
    /// The 1-, 5- and 15-minute load averages before the run and after it (Linux).
    pub load_before: Option<[f64; 3]>,
    pub load_after: Option<[f64; 3]>,
    /// Seconds since the Unix epoch at the end of the run.
    pub finished: u64,
    /// `git rev-parse --short HEAD` of the working tree when the run started (with `+`
    /// when files outside `results/` had uncommitted changes), if git is there.
    pub commit: Option<String>,
}

/// `results/runs/<name>.walls.jsonl`.
pub fn path(runs: &Path, name: &str) -> PathBuf {
    runs.join(format!("{name}.walls.jsonl"))
}

/// The load averages from `/proc/loadavg`, if readable.
pub fn load() -> Option<[f64; 3]> {
    let s = std::fs::read_to_string("/proc/loadavg").ok()?;
    let mut it = s.split_whitespace().map(|v| v.parse::<f64>().ok());
    Some([it.next()??, it.next()??, it.next()??])
}

/// The commit of the tree at `root`, `+` marking uncommitted changes to tracked files
/// outside `results/`.
pub fn commit(root: &Path) -> Option<String> {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(root)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let rev = git(&["rev-parse", "--short", "HEAD"])?;
    // Regenerated tables under results/ do not make the code another commit.
    let dirty = git(&[
        "status",
        "--porcelain",
        "--untracked-files=no",
        "--",
        ".",
        ":!results",
    ])
    .is_some_and(|s| !s.is_empty());
    Some(if dirty { format!("{rev}+") } else { rev })
}

/// Seconds since the Unix epoch.
pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Append `w` to the config's file.
pub fn append(runs: &Path, name: &str, w: &Wall) -> std::io::Result<()> {
    std::fs::create_dir_all(runs)?;
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path(runs, name))?;
    let line = serde_json::to_string(w).map_err(std::io::Error::other)?;
    writeln!(f, "{line}")
}

/// The config's lines (none without a file); a line that does not parse is an error
/// naming the file and the line.
pub fn read(runs: &Path, name: &str) -> Result<Vec<Wall>, String> {
    let p = path(runs, name);
    let text = match std::fs::read_to_string(&p) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", p.display())),
    };
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| format!("{}, line {}: {e}", p.display(), i + 1))
        })
        .collect()
}

fn fmt_load(l: &Option<[f64; 3]>) -> String {
    l.map_or("—".into(), |l| format!("{:.1}", l[0]))
}

/// The Markdown section of `results/timings.md`: per config and profile, the latest
/// line of each table selection (the latest reproduction of the whole config, or of
/// each table), and the sum of the latest lines of the single tables where they cover
/// every table.
pub fn markdown(configs: &[(String, Vec<Wall>)]) -> String {
    let mut out = String::from(
        "## Wall-clock time of the reproductions on record\n\n\
         From `results/runs/<name>.walls.jsonl`, which every `cargo xtask reproduce` that \
         runs jobs appends to (the latest line of each config and table selection is shown). \
         Wall-clock seconds depend on the machine and on what else ran: the load averages \
         (1 minute) before and after are beside them; on two idle cores the load is about 2 \
         while a reproduction runs.\n\n\
         | Config | Profile | Tables | Wall s | Runs from records | Threads | Load before | Load after | Commit |\n\
         |---|---|---|---:|---:|---:|---:|---:|---|\n",
    );
    let mut any = false;
    for (name, walls) in configs {
        let mut latest: Vec<&Wall> = Vec::new();
        for w in walls {
            match latest
                .iter_mut()
                .find(|l| l.profile == w.profile && l.tables == w.tables)
            {
                Some(l) => *l = w,
                None => latest.push(w),
            }
        }
        for w in latest {
            any = true;
            out.push_str(&format!(
                "| {name} | {} | {} | {:.0} | {} | {} | {} | {} | {} |\n",
                w.profile,
                w.tables.join(", "),
                w.seconds,
                w.recorded_runs,
                w.threads,
                fmt_load(&w.load_before),
                fmt_load(&w.load_after),
                w.commit.as_deref().unwrap_or("—"),
            ));
        }
    }
    if !any {
        out.push_str("| (none on record) | | | | | | | | |\n");
    }
    out.push_str(&current_total(configs));
    out
}

/// The latest complete lines (file order; no runs taken from the records) that together
/// cover every table of a config and profile: for each table the latest such line that
/// ran it, each line once; and whether a chosen line also ran a table that a later
/// chosen line ran again (its seconds then count that table twice). A `--resume` run
/// that took runs from the records timed only the rest, so it does not stand for the
/// table's wall time.
fn covering<'a>(walls: &'a [Wall], profile: &str) -> (Vec<&'a Wall>, bool) {
    let mut latest: Vec<(&str, usize)> = Vec::new();
    for (i, w) in walls
        .iter()
        .enumerate()
        .filter(|(_, w)| w.profile == profile && w.recorded_runs == 0)
    {
        for t in &w.tables {
            match latest.iter_mut().find(|(name, _)| *name == t.as_str()) {
                Some(entry) => entry.1 = i,
                None => latest.push((t.as_str(), i)),
            }
        }
    }
    let mut chosen: Vec<usize> = latest.iter().map(|&(_, i)| i).collect();
    chosen.sort_unstable();
    chosen.dedup();
    let overlap = chosen.iter().any(|&i| {
        walls[i].tables.iter().any(|t| {
            latest
                .iter()
                .any(|(name, j)| *name == t.as_str() && *j != i)
        })
    });
    (chosen.into_iter().map(|i| &walls[i]).collect(), overlap)
}

/// "What a reproduction of everything on record takes now": per config, the sum of the
/// latest lines covering its tables ([`covering`]), and the total of the full profile.
fn current_total(configs: &[(String, Vec<Wall>)]) -> String {
    let mut out = String::from(
        "\nThe latest run of each table, each run once (a whole-config run covers all its \
         tables; older lines of the same tables are not added):\n\n\
         | Config | Profile | Runs used (tables: wall s, commit) | Wall s |\n\
         |---|---|---|---:|\n",
    );
    let mut total = 0.0;
    let mut any = false;
    for (name, walls) in configs {
        let mut profiles: Vec<&str> = walls.iter().map(|w| w.profile.as_str()).collect();
        profiles.dedup();
        profiles.sort_unstable();
        profiles.dedup();
        for profile in profiles {
            let (lines, overlap) = covering(walls, profile);
            let sum: f64 = lines.iter().map(|w| w.seconds).sum();
            if profile == "full" {
                total += sum;
                any = true;
            }
            let used: Vec<String> = lines
                .iter()
                .map(|w| {
                    format!(
                        "{}: {:.0}, {}",
                        w.tables.join(" + "),
                        w.seconds,
                        w.commit.as_deref().unwrap_or("—")
                    )
                })
                .collect();
            let mut note = String::new();
            if overlap {
                note.push_str(
                    " (a run used also covers a table a later run repeated: counted twice)",
                );
            }
            // Partial runs after the last complete one: they re-ran some jobs only.
            let last = lines.last().map(|l| l.finished).unwrap_or(0);
            for w in walls
                .iter()
                .filter(|w| w.profile == profile && w.recorded_runs > 0 && w.finished > last)
            {
                note.push_str(&format!(
                    " (not counted: a later `--resume` run of {}, {:.0} s with {} runs from \
                     the records, {})",
                    w.tables.join(" + "),
                    w.seconds,
                    w.recorded_runs,
                    w.commit.as_deref().unwrap_or("—")
                ));
            }
            out.push_str(&format!(
                "| {name} | {profile} | {}{note} | {sum:.0} |\n",
                used.join("; ")
            ));
        }
    }
    if any {
        out.push_str(&format!(
            "| **all configs** | full | | **{total:.0}** ({:.0} min) |\n",
            total / 60.0
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A whole-config run replaces the older single-table lines; a later single-table run
    /// replaces its table's share, and the whole-config line then counts that table twice
    /// (said in the row).
    #[test]
    fn current_total_takes_the_latest_run_of_each_table_once() {
        let walls = vec![
            wall(&["t1"], 10.0),
            wall(&["t2"], 20.0),
            wall(&["t1", "t2"], 25.0),
        ];
        let (lines, overlap) = covering(&walls, "full");
        assert_eq!(lines, vec![&walls[2]]);
        assert!(!overlap);
        let mut later = walls.clone();
        later.push(wall(&["t2"], 18.0));
        let (lines, overlap) = covering(&later, "full");
        assert_eq!(lines, vec![&later[2], &later[3]]);
        assert!(overlap);
        let md = current_total(&[("x".into(), later)]);
        assert!(
            md.contains("| 43 |") && md.contains("counted twice"),
            "{md}"
        );
        assert!(covering(&walls, "quick").0.is_empty());
    }

    /// A `--resume` run (runs from the records) does not stand for its tables' wall time:
    /// the total keeps the latest complete run and names the partial one.
    #[test]
    fn resumed_runs_are_not_counted_as_the_tables_wall() {
        let mut walls = vec![wall(&["t1", "t2"], 3000.0)];
        let mut resumed = wall(&["t1", "t2"], 126.0);
        (resumed.recorded_runs, resumed.finished) = (8209, 2);
        walls.push(resumed);
        let (lines, _) = covering(&walls, "full");
        assert_eq!(lines, vec![&walls[0]]);
        let md = current_total(&[("x".into(), walls)]);
        assert!(md.contains("| 3000 |"), "{md}");
        assert!(
            md.contains("not counted: a later `--resume` run of t1 + t2, 126 s with 8209 runs"),
            "{md}"
        );
    }

    fn wall(tables: &[&str], seconds: f64) -> Wall {
        Wall {
            profile: "full".into(),
            tables: tables.iter().map(|s| s.to_string()).collect(),
            seconds,
            recorded_runs: 0,
            threads: 2,
            load_before: Some([0.5, 0.4, 0.3]),
            load_after: Some([2.0, 1.9, 1.5]),
            finished: 1,
            commit: Some("abc1234".into()),
        }
    }

    #[test]
    fn lines_round_trip_and_the_latest_of_a_selection_is_shown() {
        let dir = std::env::temp_dir().join(format!("mkc-walls-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(read(&dir, "x").unwrap(), Vec::new());
        let (a, b, c) = (
            wall(&["t1"], 10.0),
            wall(&["t2"], 20.0),
            wall(&["t1"], 12.0),
        );
        for w in [&a, &b, &c] {
            append(&dir, "x", w).unwrap();
        }
        let back = read(&dir, "x").unwrap();
        assert_eq!(back, vec![a, b, c]);
        let md = markdown(&[("x".into(), back)]);
        assert!(
            md.contains("| x | full | t1 | 12 | 0 | 2 | 0.5 | 2.0 | abc1234 |"),
            "{md}"
        );
        assert!(md.contains("| x | full | t2 | 20 |"), "{md}");
        assert!(!md.contains("| t1 | 10 |"), "{md}");
        // the current total takes the latest run of each table, each run once
        assert!(
            md.contains("| x | full | t2: 20, abc1234; t1: 12, abc1234 | 32 |"),
            "{md}"
        );
        assert!(
            md.contains("| **all configs** | full | | **32** (1 min) |"),
            "{md}"
        );
        std::fs::write(path(&dir, "x"), "{not json}\n").unwrap();
        let err = read(&dir, "x").unwrap_err();
        assert!(err.contains("x.walls.jsonl, line 1"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
