//! Time RMKC and iterSVR on a bundle dataset with the paper's 10 Gaussian kernels
//! (σ = 10%…100% of the range of pairwise distances, multiplicatively normalised).
//!
//! ```text
//! cargo run --release -p mkc-rmkc --example rmkc_timing -- DIR [CLASS_A CLASS_B] [--tes] [--C c] [--runs r] [--p 1|2|none] [--itersvr ell]
//! ```
//! DIR holds `data.csv`, `labels.csv` (and `split.csv` for `--tes`). Prints per run the
//! accuracy, J, iterations, solves and seconds per part.

use faer::Mat;
use mkc_kernels::{normalize::Normalization, KernelSpec};
use mkc_rmkc::prelude::*;
use std::time::Instant;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first().map(std::path::PathBuf::from) else {
        println!("usage: rmkc_timing DIR [CLASS_A CLASS_B] [--tes] [--C c] [--runs r] [--p 1|2|none] [--itersvr ell]");
        return Ok(());
    };
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .map(|i| args[i + 1].clone())
    };
    let classes: Vec<&String> = args[1..]
        .iter()
        .take_while(|a| !a.starts_with("--"))
        .collect();
    let c: f64 = flag("--C").map_or(1.0, |v| v.parse().unwrap());
    let runs: usize = flag("--runs").map_or(3, |v| v.parse().unwrap());
    let norm = match flag("--p").as_deref() {
        Some("none") => Norm::None,
        Some("2") => Norm::L2,
        _ => Norm::L1,
    };
    let x = mkc_data::csv::read_dense(dir.join("data.csv"), &Default::default())?;
    let labels = mkc_data::csv::read_strings(dir.join("labels.csv"))?;
    let tes = args.iter().any(|a| a == "--tes");
    let split = if tes {
        Some(mkc_data::csv::read_split(dir.join("split.csv"))?)
    } else {
        None
    };
    let keep: Vec<usize> = (0..labels.len())
        .filter(|&i| classes.is_empty() || classes.iter().any(|c| **c == labels[i]))
        .filter(|&i| split.as_ref().is_none_or(|s| s[i].0 == "tes"))
        .collect();
    let xs = Mat::from_fn(keep.len(), x.ncols(), |i, j| x[(keep[i], j)]);
    let names: Vec<&String> = {
        let mut v: Vec<&String> = keep.iter().map(|&i| &labels[i]).collect();
        v.sort();
        v.dedup();
        v
    };
    let truth: Vec<usize> = keep
        .iter()
        .map(|&i| names.iter().position(|n| **n == labels[i]).unwrap())
        .collect();
    let t = Instant::now();
    let ks = mkc_kernels::build(
        xs.as_ref(),
        &KernelSpec::rmkc_gaussians(),
        &[Normalization::Multiplicative],
    )?;
    println!(
        "n = {}, kernels built in {:.2}s",
        keep.len(),
        t.elapsed().as_secs_f64()
    );
    let data = KernelSet::new(&ks)?;
    if let Some(ell) = flag("--itersvr") {
        let it = IterSvrParams::new()
            .c(c)
            .balance(ell.parse().unwrap())
            .check()?;
        for v in 0..data.len() {
            let one = data.select(&[v])?;
            let t = Instant::now();
            let mut accs = Vec::new();
            for s in 0..runs as u64 {
                let fit = it.fit(&one, 2, s)?;
                accs.push(mkc_metrics::accuracy(&truth, &fit.labels)? * 100.0);
            }
            println!(
                "itersvr kernel {v}: acc {:?} in {:.2}s",
                accs.iter()
                    .map(|a| (a * 100.0).round() / 100.0)
                    .collect::<Vec<_>>(),
                t.elapsed().as_secs_f64()
            );
        }
        return Ok(());
    }
    let rmkc = RmkcParams::new().c(c).norm(norm).check()?;
    for s in 0..runs as u64 {
        let fit = rmkc.fit(&data, 2, s)?;
        let acc = mkc_metrics::accuracy(&truth, &fit.labels)? * 100.0;
        let (d, t) = (&fit.diagnostics, &fit.timings);
        println!(
            "seed {s}: acc {acc:.2} J {:.4} iter {} | init {} solves {:.2}s | theta {} solves {:.2}s | labels {} solves {:.2}s | total {:.2}s | θ {:?}",
            d.objective,
            fit.iterations,
            d.init_solves,
            t.get("init"),
            d.theta_solves,
            t.get("theta"),
            d.label_solves,
            t.get("labels"),
            t.wall(),
            fit.weights().unwrap_or_default().iter().map(|t| (t * 1000.0).round() / 1000.0).collect::<Vec<_>>()
        );
    }
    Ok(())
}
