//! `cargo xtask compare kkm`: mkc's kernel k-means against a vectorised numpy kernel
//! k-means (`xtask/py/compare_kkm.py`, one `K @ H` product per iteration).
//!
//! Both sides get the same kernel and the same initial labels (through files), run at
//! most `iters` assignment steps plus the product for the final objective, and must
//! return the same labels. Timings are the best of `REPEATS` runs; ours includes input
//! validation (kernel symmetry/finiteness check), numpy's does not.

use crate::python::{run_script, venv_python};
use faer::Mat;
use mkc_core::ParamGuard;
use mkc_kmeans::KernelKMeansParams;
use std::path::Path;
use std::time::Instant;

const REPEATS: usize = 5;

/// (n, k, iterations).
const CASES: &[(usize, usize, usize)] = &[(2000, 10, 20)];

type Res<T> = Result<T, Box<dyn std::error::Error>>;

pub fn run() -> Res<()> {
    let python = venv_python(&["numpy"]);
    for &(n, k, iters) in CASES {
        let (kernel, init) = mkc_core::testing::uniform_kernel_and_labels(n, 8, k, 42);
        let params = KernelKMeansParams::new()
            .initial_labels(init.clone())
            .max_iter(iters)
            .check()?;
        let _warm = params.fit_kernel(kernel.as_ref(), k, 0)?;
        let mut ours = f64::INFINITY;
        let mut fit = None;
        for _ in 0..REPEATS {
            let t = Instant::now();
            let f = params.fit_kernel(kernel.as_ref(), k, 0)?;
            ours = ours.min(t.elapsed().as_secs_f64());
            fit = Some(f);
        }
        let fit = fit.ok_or("no run")?;
        let head = format!(
            "kkm n={n} k={k} iters={iters}: ours={ours:.4}s (n_iter={})",
            fit.n_iter
        );
        let py = match &python {
            Ok(py) => py,
            Err(reason) => {
                println!("{head} numpy=SKIPPED ({reason})");
                continue;
            }
        };
        match reference(py, &kernel, &init, k, iters) {
            Ok(r) => {
                let same = r.labels == fit.labels;
                let rel = (r.objective - fit.objective).abs() / fit.objective.abs().max(1e-300);
                println!(
                    "{head} numpy={:.4}s (n_iter={}) same_labels={same} objective_rel_diff={rel:.1e} ratio={:.3}",
                    r.seconds,
                    r.n_iter,
                    ours / r.seconds
                );
                if !same {
                    let diff = r
                        .labels
                        .iter()
                        .zip(&fit.labels)
                        .filter(|(a, b)| a != b)
                        .count();
                    eprintln!("warning: labels differ on {diff} of {n} points");
                }
            }
            Err(e) => println!("{head} numpy=SKIPPED (reference failed: {e})"),
        }
    }
    Ok(())
}

struct Reference {
    seconds: f64,
    objective: f64,
    n_iter: usize,
    labels: Vec<usize>,
}

fn reference(
    py: &Path,
    kernel: &Mat<f64>,
    init: &[usize],
    k: usize,
    iters: usize,
) -> Res<Reference> {
    let n = kernel.nrows();
    let dir = std::env::temp_dir().join(format!("mkc-compare-kkm-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let result = (|| -> Res<Reference> {
        let mut bytes = Vec::with_capacity(n * n * 8);
        for j in 0..n {
            for i in 0..n {
                bytes.extend_from_slice(&kernel[(i, j)].to_le_bytes());
            }
        }
        std::fs::write(dir.join("kernel.f64"), bytes)?;
        let lab: Vec<u8> = init
            .iter()
            .flat_map(|&l| (l as u64).to_le_bytes())
            .collect();
        std::fs::write(dir.join("init.u64"), lab)?;
        let json = run_script(py, "compare_kkm.py", &dir, &[&n, &k, &iters, &REPEATS])?;
        let labels: Vec<usize> = std::fs::read(dir.join("labels_py.u64"))?
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8])) as usize)
            .collect();
        Ok(Reference {
            seconds: field(&json, "seconds")?,
            objective: field(&json, "objective")?,
            n_iter: field(&json, "n_iter")? as usize,
            labels,
        })
    })();
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// A numeric field of the one-line JSON the script prints.
fn field(json: &str, name: &str) -> Res<f64> {
    let key = format!("\"{name}\":");
    let start = json
        .find(&key)
        .ok_or_else(|| format!("no `{name}` in {json:?}"))?
        + key.len();
    let rest = json[start..].trim_start();
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    Ok(rest[..end].trim().parse()?)
}
