//! LMKKM where the authors' code cannot run: P Gaussian kernels of n synthetic points
//! (k clusters in 5 dimensions, one width per kernel), fitted through the contract;
//! prints the time and the peak resident memory (Linux `VmHWM`) against the model of
//! the crate docs (`8 n² (2P + 1)` bytes with preprocessing) and the authors' QP matrix
//! alone (`8 (nP)²` bytes).
//!
//! ```text
//! cargo run --release -p mkc-mkkm --example lmkkm_large_n -- [N] [P] [ITERATIONS] [K]
//! ```
//! Defaults: n = 8189, P = 4 (the size of Flower102, a '-' cell of SimpleMKKM's Table 2),
//! 2 iterations, k = 10.

use std::time::Instant;

use faer::Mat;
use mkc_kernels::{KernelSpec, Width};
use mkc_mkkm::prelude::*;

fn arg(i: usize, default: usize) -> usize {
    std::env::args()
        .nth(i)
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Peak resident memory in GB (Linux), if readable.
fn peak_gb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024.0 / 1e9)
}

fn main() -> Result<()> {
    let (n, p, iterations, k) = (arg(1, 8189), arg(2, 4), arg(3, 2), arg(4, 10));
    // k cluster centres on a circle, deterministic jitter
    let x = Mat::from_fn(n, 5, |i, j| {
        let c = (i % k) as f64 * std::f64::consts::TAU / k as f64;
        let centre = match j {
            0 => 3.0 * c.cos(),
            1 => 3.0 * c.sin(),
            _ => 0.0,
        };
        let h = ((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ (j as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9))
            >> 11;
        centre + (h as f64 / (1u64 << 53) as f64 - 0.5) * 2.0
    });
    let specs: Vec<KernelSpec> = (0..p)
        .map(|q| KernelSpec::Gaussian {
            width: Width::MedianRatio {
                ratio: 0.5 * (q + 1) as f64,
            },
        })
        .collect();
    let t = Instant::now();
    let kernels = mkc_kernels::build(x.as_ref(), &specs, &[])?;
    println!("{p} kernels of {n} x {n} built in {:.1?}", t.elapsed());
    let data = KernelSet::new(&kernels)?;
    let truth: Vec<usize> = (0..n).map(|i| i % k).collect();
    let t = Instant::now();
    let fit = LmkkmParams::new().iterations(iterations).fit(&data, k, 0)?;
    let acc = mkc_metrics::accuracy(&truth, &fit.labels)?;
    let gb = |bytes: f64| bytes / 1e9;
    let n2 = (n * n) as f64;
    println!(
        "LMKKM: {} iterations in {:.1?}, ACC {:.1}%, objective {:?}",
        fit.iterations,
        t.elapsed(),
        100.0 * acc,
        fit.objective
    );
    println!(
        "peak memory {:.2} GB; model 8n²(2P+1) = {:.2} GB; the authors' QP matrix alone 8(nP)² = {:.2} GB",
        peak_gb().unwrap_or(f64::NAN),
        gb(8.0 * n2 * (2 * p + 1) as f64),
        gb(8.0 * n2 * (p * p) as f64)
    );
    Ok(())
}
