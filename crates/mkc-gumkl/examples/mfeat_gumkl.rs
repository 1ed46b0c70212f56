//! GUMKL's experiment (the paper's Figs. 2 and 3) on UCI Multiple Features.
//!
//! The paper's Corel data is not available; this reproduces its design on mfeat: five
//! four-class subsets D1–D5 (200 digits per class, n = 800), one linear kernel per view (six
//! views), NMI for p ∈ {1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 10, ∞} (p = 1: best single view,
//! p = ∞: uniform sum), always refined by kernel k-means, and the weights per p.
//!
//! ```text
//! cargo run --release -p mkc-gumkl --example mfeat_gumkl -- [--data-dir DIR]
//!     [--norm trace|unit|none] [--zscore] [--no-refine] [--mvkkm] [--drop VIEW]...
//! ```
//!
//! Kernel preprocessing (the paper does not state one): every linear kernel is centred and
//! scaled to trace n (`--norm trace`, default), so that a view's within-cluster variance E_v
//! is n times the fraction of its total scatter left inside the clusters and eq. (7) compares
//! views by cluster quality rather than by the units of their features. `--norm unit` uses
//! unit diagonal (cosine) instead; `--zscore` standardises each feature first. `--mvkkm` adds
//! MVKKM per p, all started from one global kernel k-means partition per subset.
//!
//! The data directory is `--data-dir`, else `$MKC_DATA_DIR`, else `./data` (where Multiple
//! Features is committed).

mod common;

use common::KernelOptions;
use mkc_data::DataDir;
use mkc_gumkl::prelude::*;
use mkc_gumkl::GumklDiagnostics;
use mkc_kernels::Normalization;
use mkc_kmeans::GlobalKernelKMeansParams;
use mkc_metrics::{nmi, NmiNorm};

const SUBSETS: [(&str, [&str; 4]); 5] = [
    ("D1", ["0", "1", "2", "3"]),
    ("D2", ["0", "1", "2", "7"]),
    ("D3", ["3", "5", "8", "9"]),
    ("D4", ["2", "5", "6", "9"]),
    ("D5", ["1", "4", "7", "8"]),
];
const PS: [f64; 10] = [1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 10.0, f64::INFINITY];

fn p_name(p: f64) -> String {
    if p.is_infinite() {
        "inf".into()
    } else {
        format!("{p}")
    }
}

fn weights_text(w: Option<&[f64]>) -> String {
    let w: Vec<String> = w
        .unwrap_or_default()
        .iter()
        .map(|w| format!("{w:.3}"))
        .collect();
    w.join(" ")
}

struct Options {
    dir: DataDir,
    kernels: KernelOptions,
    refine: bool,
    mvkkm: bool,
}

fn options() -> std::result::Result<Options, Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut o = Options {
        dir: DataDir::resolve(None),
        kernels: KernelOptions::default(),
        refine: true,
        mvkkm: false,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--data-dir" => o.dir = DataDir::at(it.next().ok_or("--data-dir needs a path")?),
            "--norm" => {
                o.kernels.norms = match it.next().map(String::as_str) {
                    Some("trace") => vec![Normalization::Center, Normalization::Trace],
                    Some("unit") => vec![Normalization::UnitDiagonal],
                    Some("none") => vec![],
                    other => return Err(format!("--norm trace|unit|none, got {other:?}").into()),
                }
            }
            "--zscore" => o.kernels.zscore = true,
            "--no-refine" => o.refine = false,
            "--mvkkm" => o.mvkkm = true,
            "--drop" => o
                .kernels
                .drop
                .push(it.next().ok_or("--drop needs a view name")?.clone()),
            other => return Err(format!("unknown argument {other}").into()),
        }
    }
    Ok(o)
}

fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    let o = options()?;
    let Some(mfeat) = common::load_mfeat(&o.dir)? else {
        return Ok(());
    };
    let mut nmi_table: Vec<Vec<f64>> = Vec::new();
    for (name, classes) in SUBSETS {
        let s = common::subset(&mfeat, &classes, &o.kernels)?;
        let data = KernelSet::new(&s.kernels)?;
        println!("\n{name} = digits {classes:?} (n = {})", data.n());
        println!(
            "{:>5} {:>7} {:>7} {:>4}  weights {:?}",
            "p", "NMI", "NMI-gk", "it", s.views
        );
        // MVKKM's start, computed once per subset and shared by every p.
        let init = if o.mvkkm {
            let sum = mkc_linalg::weighted_sum(&vec![1.0; data.len()], data.kernels())?;
            let t = std::time::Instant::now();
            let l = GlobalKernelKMeansParams::new()
                .check()?
                .fit_kernel(sum.as_ref(), 4)?;
            eprintln!("  global kernel k-means: {:.2?}", t.elapsed());
            Some(l.labels)
        } else {
            None
        };
        let mut row = Vec::new();
        for p in PS {
            let fit = GumklParams::new().p(p).refine(o.refine).fit(&data, 4, 0)?;
            let d: &GumklDiagnostics = &fit.diagnostics;
            let score = nmi(&s.truth, &fit.labels, NmiNorm::Arithmetic)?;
            let raw = nmi(&s.truth, &d.medoid_labels, NmiNorm::Arithmetic)?;
            print!(
                "{:>5} {score:>7.4} {raw:>7.4} {:>4}  [{}]  {:.2}s",
                p_name(p),
                fit.iterations,
                weights_text(fit.weights()),
                fit.timings.total()
            );
            row.push(score);
            if let Some(init) = &init {
                let m = MvkkmParams::new()
                    .p(p)
                    .init(MvkkmInit::Labels(init.clone()))
                    .fit(&data, 4, 0)?;
                let sc = nmi(&s.truth, &m.labels, NmiNorm::Arithmetic)?;
                print!(
                    "   MVKKM {sc:.4} it {} [{}]",
                    m.iterations,
                    weights_text(m.weights())
                );
            }
            println!();
        }
        nmi_table.push(row);
    }
    println!(
        "\nNMI (GUMKL{}), rows D1..D5, columns p = {:?}",
        if o.refine { " + kernel k-means" } else { "" },
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
