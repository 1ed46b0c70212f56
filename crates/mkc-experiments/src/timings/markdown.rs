//! `results/timings.md`: the sums of [`ConfigTimings`] as Markdown tables.

use super::{ConfigTimings, ProfileTimings, Sums};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Phase groups of the summary tables, in column order.
const GROUPS: [&str; 5] = ["solves", "eigen", "k-means", "kernels", "rest"];

/// The group of phase `phase` of method `method`: `solves` (SVM, QP, SDP, MKL solves;
/// RMKC's `init`, `theta` and `labels` steps are SVM solves, counted in its
/// diagnostics), `eigen` (eigensolves), `k-means` (k-means / k-medoids restarts and
/// robust k-means' `l21` iterations), `kernels` (kernel combination and feature maps
/// inside a run), `rest` (weight updates, other steps and untimed time).
pub fn phase_group(method: &str, phase: &str) -> &'static str {
    match phase {
        "svm" | "qp" | "mkl" | "sdp" => "solves",
        "init" | "theta" | "labels" if method == "rmkc" => "solves",
        "eigensolve" => "eigen",
        "kmeans" | "kmedoids" | "l21" => "k-means",
        "composite" | "combine" | "gram" | "affinity" | "features" | "preprocess" => "kernels",
        _ => "rest",
    }
}

fn pct(part: f64, whole: f64) -> String {
    if whole > 0.0 {
        format!("{:.0}%", 100.0 * part / whole)
    } else {
        "–".into()
    }
}

/// Seconds as `12.3` below 100, `1234` above.
fn secs(s: f64) -> String {
    if s < 100.0 {
        format!("{s:.1}")
    } else {
        format!("{s:.0}")
    }
}

/// Runs: whole numbers as such, shares with one decimal.
fn runs(r: f64) -> String {
    if (r - r.round()).abs() < 1e-9 {
        format!("{}", r.round() as u64)
    } else {
        format!("{r:.1}")
    }
}

/// The phases of `s`, slowest first: `labels 900 (57%), init 300 (19%)`.
fn phase_list(s: &Sums, most: usize) -> String {
    let mut v: Vec<(&String, &f64)> = s.phases.iter().filter(|(_, x)| **x > 0.0).collect();
    v.sort_by(|a, b| b.1.total_cmp(a.1));
    v.iter()
        .take(most)
        .map(|(n, x)| format!("{n} {} ({})", secs(**x), pct(**x, s.seconds)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The run-seconds of a table's methods by phase group.
fn groups_of(methods: &BTreeMap<String, Sums>) -> BTreeMap<&'static str, f64> {
    let mut g = BTreeMap::new();
    for (m, s) in methods {
        for (p, x) in &s.phases {
            *g.entry(phase_group(m, p)).or_default() += x;
        }
    }
    g
}

fn profile_section(out: &mut String, name: &str, profile: &str, p: &ProfileTimings, top: usize) {
    let total = p.total.seconds;
    let kernels: f64 = p.kernels.values().sum();
    let _ = writeln!(
        out,
        "### {name}, {profile} profile: {} run-seconds in {} runs\n",
        secs(total),
        runs(p.total.runs)
    );
    if p.kernels.is_empty() {
        let _ = writeln!(out, "Kernel construction: not on record.\n");
    } else {
        let _ = writeln!(
            out,
            "Kernel construction (once per dataset, outside the runs): {} s over {} datasets.\n",
            secs(kernels),
            p.kernels.len()
        );
    }
    let _ = writeln!(
        out,
        "| Table | Runs | Run-s | Share | Solves | Eigen | k-means | Kernels | Rest | Slowest datasets (run-s) |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    for (t, tt) in &p.tables {
        let g = groups_of(&tt.methods);
        let mut ds: Vec<(&String, &f64)> = tt.datasets.iter().collect();
        ds.sort_by(|a, b| b.1.total_cmp(a.1));
        let ds: Vec<String> = ds
            .iter()
            .take(3)
            .map(|(d, x)| format!("{d} {}", secs(**x)))
            .collect();
        let cols: Vec<String> = GROUPS
            .iter()
            .map(|k| pct(g.get(k).copied().unwrap_or(0.0), tt.total.seconds))
            .collect();
        let _ = writeln!(
            out,
            "| {t} | {} | {} | {} | {} | {} |",
            runs(tt.total.runs),
            secs(tt.total.seconds),
            pct(tt.total.seconds, total),
            cols.join(" | "),
            ds.join(", ")
        );
    }
    let _ = writeln!(out);
    for (t, tt) in &p.tables {
        let _ = writeln!(out, "#### {name} {t} ({profile}) by method\n");
        let _ = writeln!(out, "| Method | Runs | Failed | Run-s | Share | Mean s/run | Phases (s, share of the method) |");
        let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---|");
        let mut ms: Vec<(&String, &Sums)> = tt.methods.iter().collect();
        ms.sort_by(|a, b| b.1.seconds.total_cmp(&a.1.seconds));
        for (m, s) in ms {
            let mean = if s.runs > 0.0 {
                s.seconds / s.runs
            } else {
                0.0
            };
            let _ = writeln!(
                out,
                "| {m} | {} | {} | {} | {} | {mean:.3} | {} |",
                runs(s.runs),
                runs(s.failed),
                secs(s.seconds),
                pct(s.seconds, tt.total.seconds),
                phase_list(s, 4)
            );
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(out, "#### {name} ({profile}): the {top} slowest jobs\n");
    let _ = writeln!(
        out,
        "| Table | Dataset | Method | Kernel | Parameters | Runs | Run-s | Main phases |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---:|---:|---|");
    for j in p.jobs.iter().take(top) {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            j.tables,
            j.dataset,
            j.method,
            j.kernel.as_deref().unwrap_or("all"),
            j.params.replace('|', "/"),
            runs(j.sums.runs),
            secs(j.sums.seconds),
            phase_list(&j.sums, 2)
        );
    }
    let _ = writeln!(out);
}

/// The report over `configs`: a summary table, then per config and profile (full first)
/// the tables' totals with their phase groups, each table by method with its phases,
/// and the `top` slowest jobs. `source` says where the records were read (for the header).
pub fn markdown(configs: &[ConfigTimings], source: &str, top: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Where the reproduction's time goes\n");
    let _ = writeln!(
        out,
        "Generated by `cargo xtask reproduce --timings` from the run records in `{source}` \
         (nothing was run). **Run-seconds** add up the runs' own wall times; jobs and restarts \
         run in parallel, so a profile's wall time on two idle cores is roughly half its \
         run-seconds (and the records may come from a loaded machine). A run shared by columns \
         of several tables counts an equal share towards each. Phase groups: **solves** = SVM, \
         QP, SDP and MKL solves (RMKC's `init`, `theta` and `labels` steps are SVM solves), \
         **eigen** = eigensolves, **k-means** = k-means/k-medoids restarts and robust k-means' \
         `l21` iterations, **kernels** = kernel combination and feature maps inside a run, \
         **rest** = weight updates, other steps and untimed time (a run without timed phases is \
         all rest). A run whose phases add up to more than its wall time (restarts that share \
         work record the shared phases in full, their wall time only an equal share) has its \
         phases scaled down to its wall time. Kernel construction per dataset happens outside the runs and is listed \
         separately when on record. Tables or datasets without records in a profile do not \
         appear.\n"
    );
    let _ = writeln!(out, "| Config | Profile | Runs | Run-s | Kernel construction s | Record lines | Config hashes (runs) |");
    let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---|");
    let order = |c: &ConfigTimings| -> Vec<String> {
        let mut v: Vec<String> = c.profiles.keys().cloned().collect();
        v.sort_by_key(|p| (p != "full", p.clone()));
        v
    };
    for c in configs {
        for p in order(c) {
            let pt = &c.profiles[&p];
            let hashes: Vec<String> = pt
                .hashes
                .iter()
                .map(|(h, n)| format!("{h} ({n})"))
                .collect();
            let k: f64 = pt.kernels.values().sum();
            let _ = writeln!(
                out,
                "| {} | {p} | {} | {} | {} | {} | {} |",
                c.name,
                runs(pt.total.runs),
                secs(pt.total.seconds),
                if pt.kernels.is_empty() {
                    "–".into()
                } else {
                    secs(k)
                },
                c.lines,
                hashes.join(", ")
            );
        }
    }
    let _ = writeln!(out);
    for c in configs {
        let _ = writeln!(out, "## {}\n", c.name);
        let _ = writeln!(
            out,
            "{} record lines, {} distinct runs (the last record of each run counts).\n",
            c.lines, c.runs
        );
        for p in order(c) {
            profile_section(&mut out, &c.name, &p, &c.profiles[&p], top);
        }
    }
    out
}
