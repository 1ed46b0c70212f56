//! GUMKL's experiment (the paper's Figs. 2 and 3) on UCI Multiple Features.
//!
//! The paper's Corel data is not available; this reproduces its design on mfeat: five
//! four-class subsets D1–D5 (200 digits per class, n = 800), one linear kernel per view (six
//! views), NMI for p ∈ {1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 10, ∞} (p = 1: best single view,
//! p = ∞: uniform sum), always refined by kernel k-means, and the weights per p.
//!
//! ```text
//! cargo run --release -p mkc-gumkl --example mfeat_gumkl -- [--dir data/bundle/mfeat]
//!     [--norm trace|unit|none] [--zscore] [--no-refine] [--mvkkm] [--drop VIEW]...
//! ```
//!
//! Kernel preprocessing (the paper does not state one): every linear kernel is centred and
//! scaled to trace n (`--norm trace`, default), so that a view's within-cluster variance E_v
//! is n times the fraction of its total scatter left inside the clusters and eq. (7) compares
//! views by cluster quality rather than by the units of their features. `--norm unit` uses
//! unit diagonal (cosine) instead; `--zscore` standardises each feature first.

use std::path::{Path, PathBuf};

use faer::Mat;
use mkc_core::ParamGuard;
use mkc_gumkl::{GumklParams, MvkkmInit, MvkkmParams};
use mkc_metrics::{nmi, NmiNorm};

const VIEWS: [&str; 6] = ["fac", "fou", "kar", "mor", "pix", "zer"];
const SUBSETS: [(&str, [usize; 4]); 5] = [
    ("D1", [0, 1, 2, 3]),
    ("D2", [0, 1, 2, 7]),
    ("D3", [3, 5, 8, 9]),
    ("D4", [2, 5, 6, 9]),
    ("D5", [1, 4, 7, 8]),
];
const PS: [f64; 10] = [1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 10.0, f64::INFINITY];

fn read_csv(path: &Path) -> Result<Vec<Vec<f64>>, Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| {
            l.split(',')
                .map(|v| {
                    v.trim()
                        .parse::<f64>()
                        .map_err(|e| format!("{}:{}: {e}", path.display(), i + 1).into())
                })
                .collect()
        })
        .collect()
}

#[derive(Clone, Copy, PartialEq)]
enum Norm {
    Trace,
    Unit,
    None,
}

fn kernel(rows: &[&Vec<f64>], zscore: bool, norm: Norm) -> Mat<f64> {
    let (n, d) = (rows.len(), rows[0].len());
    let mut x = Mat::from_fn(n, d, |i, j| rows[i][j]);
    if zscore {
        for j in 0..d {
            let mean = (0..n).map(|i| x[(i, j)]).sum::<f64>() / n as f64;
            let sd = ((0..n).map(|i| (x[(i, j)] - mean).powi(2)).sum::<f64>() / n as f64).sqrt();
            (0..n).for_each(|i| {
                x[(i, j)] = if sd > 0.0 {
                    (x[(i, j)] - mean) / sd
                } else {
                    0.0
                }
            });
        }
    }
    let mut k = x.as_ref() * x.as_ref().transpose();
    match norm {
        Norm::Trace => {
            mkc_linalg::center_in_place(k.as_mut()).expect("valid kernel");
            let tr: f64 = (0..n).map(|i| k[(i, i)]).sum();
            k *= faer::Scale(n as f64 / tr);
        }
        Norm::Unit => {
            let dg: Vec<f64> = (0..n).map(|i| k[(i, i)].max(1e-300).sqrt()).collect();
            k = Mat::from_fn(n, n, |i, j| k[(i, j)] / (dg[i] * dg[j]));
        }
        Norm::None => {}
    }
    k
}

fn p_name(p: f64) -> String {
    if p.is_infinite() {
        "inf".into()
    } else {
        format!("{p}")
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut dir = std::env::var("MKC_DATA_DIR")
        .map(|d| PathBuf::from(d).join("bundle/mfeat"))
        .unwrap_or_else(|_| PathBuf::from("data/bundle/mfeat"));
    let (mut norm, mut zscore, mut refine, mut mvkkm) = (Norm::Trace, false, true, false);
    let mut drop: Vec<String> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--dir" => dir = PathBuf::from(it.next().ok_or("--dir needs a path")?),
            "--norm" => {
                norm = match it.next().map(String::as_str) {
                    Some("trace") => Norm::Trace,
                    Some("unit") => Norm::Unit,
                    Some("none") => Norm::None,
                    other => return Err(format!("--norm trace|unit|none, got {other:?}").into()),
                }
            }
            "--zscore" => zscore = true,
            "--no-refine" => refine = false,
            "--mvkkm" => mvkkm = true,
            "--drop" => drop.push(it.next().ok_or("--drop needs a view name")?.clone()),
            other => return Err(format!("unknown argument {other}").into()),
        }
    }
    let labels: Vec<usize> = read_csv(&dir.join("labels.csv"))?
        .iter()
        .map(|r| r[0] as usize)
        .collect();
    let names: Vec<&str> = VIEWS
        .iter()
        .copied()
        .filter(|v| !drop.iter().any(|d| d == v))
        .collect();
    let views: Vec<Vec<Vec<f64>>> = names
        .iter()
        .map(|v| read_csv(&dir.join(format!("views/{v}.csv"))))
        .collect::<Result<_, _>>()?;

    let mut nmi_table: Vec<Vec<f64>> = Vec::new();
    for (name, classes) in SUBSETS {
        let idx: Vec<usize> = (0..labels.len())
            .filter(|&i| classes.contains(&labels[i]))
            .collect();
        let truth: Vec<usize> = idx.iter().map(|&i| labels[i]).collect();
        let ks: Vec<Mat<f64>> = views
            .iter()
            .map(|v| {
                kernel(
                    &idx.iter().map(|&i| &v[i]).collect::<Vec<_>>(),
                    zscore,
                    norm,
                )
            })
            .collect();
        let refs: Vec<_> = ks.iter().map(|k| k.as_ref()).collect();
        println!("\n{name} = digits {classes:?} (n = {})", idx.len());
        println!(
            "{:>5} {:>7} {:>7} {:>4}  weights {:?}",
            "p", "NMI", "NMI-gk", "it", names
        );
        let mut row = Vec::new();
        let init = if mvkkm {
            let t = std::time::Instant::now();
            let sum = mkc_linalg::weighted_sum(&vec![1.0; refs.len()], &refs)?;
            let l = mkc_gumkl::global_kernel_kmeans(sum.as_ref(), 4, false, 300)?;
            eprintln!("  global kernel k-means: {:.2?}", t.elapsed());
            Some(l)
        } else {
            None
        };
        for p in PS {
            let t = std::time::Instant::now();
            let fit = GumklParams::new(4)
                .p(p)
                .refine(refine)
                .check()?
                .fit(&refs)?;
            let score = nmi(&truth, &fit.labels, NmiNorm::Arithmetic)?;
            let raw = nmi(&truth, &fit.medoid_labels, NmiNorm::Arithmetic)?;
            let w: Vec<String> = fit.weights.iter().map(|w| format!("{w:.3}")).collect();
            print!(
                "{:>5} {score:>7.4} {raw:>7.4} {:>4}  [{}]  {:.2?}",
                p_name(p),
                fit.n_iter,
                w.join(" "),
                t.elapsed()
            );
            row.push(score);
            if let Some(init) = &init {
                let m = MvkkmParams::new(4)
                    .p(p)
                    .init(MvkkmInit::Labels(init.clone()))
                    .check()?
                    .fit(&refs)?;
                let s = nmi(&truth, &m.labels, NmiNorm::Arithmetic)?;
                let w: Vec<String> = m.weights.iter().map(|w| format!("{w:.3}")).collect();
                print!("   MVKKM {s:.4} it {} [{}]", m.n_iter, w.join(" "));
            }
            println!();
        }
        nmi_table.push(row);
    }
    println!(
        "\nNMI (GUMKL{}), rows D1..D5, columns p = {:?}",
        if refine { " + kernel k-means" } else { "" },
        PS.map(p_name)
    );
    for (r, (name, _)) in nmi_table.iter().zip(SUBSETS) {
        let cells: Vec<String> = r.iter().map(|x| format!("{x:.3}")).collect();
        println!("{name}  {}", cells.join("  "));
    }
    let mean: Vec<String> = (0..PS.len())
        .map(|j| format!("{:.3}", nmi_table.iter().map(|r| r[j]).sum::<f64>() / 5.0))
        .collect();
    println!("mean {}", mean.join("  "));
    Ok(())
}
