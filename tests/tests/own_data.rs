//! A user's own sweep: `configs/example-own-data.toml` (feature and kernel files beside
//! it, paths relative to the config) run by `mkc run`, every method and grid point, and
//! the tables checked against what the example data are built to show. (`mkc cluster
//! --dataset shapes --config …` on one of its rows: `cli_cluster.rs`.)

mod common;

use std::path::{Path, PathBuf};

fn config() -> PathBuf {
    common::root().join("configs/example-own-data.toml")
}

/// The cells of row `label` in the Markdown table under `heading`: (mean, std) per
/// column after the dataset and n columns.
fn row(md: &str, heading: &str, label: &str) -> (usize, Vec<(f64, f64)>) {
    let table = md
        .split(&format!("### {heading}\n"))
        .nth(1)
        .unwrap_or_else(|| panic!("no table {heading} in\n{md}"));
    let line = table
        .lines()
        .find(|l| l.starts_with(&format!("| {label} |")))
        .unwrap_or_else(|| panic!("no row {label} in\n{table}"));
    let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
    let n = cells[1].parse().unwrap();
    let stats = cells[2..]
        .iter()
        .map(|c| {
            let (m, s) = c
                .split_once(" ± ")
                .unwrap_or_else(|| panic!("cell {c:?} of {line}"));
            (m.parse().unwrap(), s.parse().unwrap())
        })
        .collect();
    (n, stats)
}

fn run(profile: &str, out: &Path, records: &Path) -> i32 {
    mkc_cli::run_cli([
        "mkc",
        "run",
        config().to_str().unwrap(),
        "--profile",
        profile,
        "--out",
        out.to_str().unwrap(),
        "--records",
        records.to_str().unwrap(),
    ])
}

#[test]
fn the_example_sweep_runs_every_method_and_grid_point_on_the_users_files() {
    let dir = common::temp_dir("own-data");
    let (md_path, rec) = (dir.join("sweep.md"), dir.join("runs.jsonl"));
    // The test runs from tests/, not from the config's directory: the paths are taken
    // relative to the config file.
    assert_eq!(run("full", &md_path, &rec), 0);
    let md = std::fs::read_to_string(&md_path).unwrap();
    // Every (column, grid point, kernel, restart) is one record. Shapes: 2 views x 3
    // Gaussians = 6 kernels; rings: 2 kernels. KKM (shared by the best and average
    // columns): 2 grid points x kernels x 5 restarts; Avg-KKM, MKKM, SimpleMKKM: 5 each;
    // GUMKL: 3 values of p x 5.
    let per_row = |m: usize| 2 * m * 5 + 3 * 5 + 3 * 5;
    let lines = std::fs::read_to_string(&rec).unwrap();
    assert_eq!(lines.lines().count(), per_row(6) + per_row(2));
    for l in lines.lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        assert!(v["error"].is_null(), "{v}");
    }
    // Columns: KKM best, KKM average, Avg-KKM, MKKM, SimpleMKKM, GUMKL.
    let (n, acc) = row(&md, "ACC (%)", "Shapes (two views, CSV)");
    assert_eq!((n, acc.len()), (90, 6));
    // No single kernel sees all three classes apart (each view merges two of them)...
    assert!(acc[0].0 < 85.0 && acc[1].0 <= acc[0].0, "{acc:?}");
    // ...the kernels of both views together do.
    for (name, i) in [("Avg-KKM", 2), ("SimpleMKKM", 4)] {
        assert!(acc[i].0 > 95.0, "{name}: {acc:?}");
    }
    for (mean, std) in &acc {
        assert!(
            (100.0 / 3.0..=100.0).contains(mean) && *std >= 0.0,
            "{acc:?}"
        );
    }
    let (n, acc) = row(&md, "ACC (%)", "Rings (two kernels, .npy)");
    assert_eq!((n, acc.len()), (30, 6));
    // K2 (the centred squared radius) separates the rings exactly.
    assert_eq!(acc[0], (100.0, 0.0), "{acc:?}");
    let (_, purity) = row(&md, "Purity (%)", "Rings (two kernels, .npy)");
    assert!(purity.iter().zip(&acc).all(|(p, a)| p.0 >= a.0 - 1e-9));
    // The chosen settings are named in the notes.
    assert!(md.contains("/ KKM (best kernel): n_init="), "{md}");
    std::fs::remove_dir_all(&dir).ok();
}
