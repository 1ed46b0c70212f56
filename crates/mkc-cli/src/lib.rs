//! The `mkc` command line: cluster with any registered method, score labellings, run
//! experiment configs, list datasets, build kernels.
//!
//! ```text
//! mkc cluster --method kkm --dataset ionosphere --recipe gauss-median --clusters 2 --seed 1 --out labels.csv
//! mkc cluster --method avg-kkm --kernel k1.npy k2.npy --clusters 3 --out labels.csv --report run.json
//! mkc score --truth truth.csv --pred labels.csv
//! mkc run configs/rmkc.toml --profile quick
//! mkc run configs/rmkc.toml --dask tcp://scheduler:8786
//! mkc datasets
//! mkc kernels --dataset digit --recipe linear-per-view --out kernels/
//! ```
//!
//! Method options (`--n_init`, `--C`, …) are generated from the method registry of
//! `mkc-experiments`: every registered method's parameters become flags of
//! `mkc cluster`, with the paper's defaults.

#![forbid(unsafe_code)]

use clap::{Arg, ArgMatches, Command, FromArgMatches, Parser, Subcommand};
use std::ffi::OsString;

pub mod cluster;
pub mod commands;
pub mod dask;
pub mod labels;

#[derive(Parser)]
#[command(name = "mkc", version, about = "Multiple kernel clustering and maximum margin clustering", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Cluster a dataset, feature file or kernel files with one method; write the labels.
    Cluster(cluster::ClusterArgs),
    /// Score predicted labels against true labels (ACC, NMI max/arithmetic, purity, ARI).
    Score(commands::ScoreArgs),
    /// Run an experiment config (a sweep) and print its tables as Markdown.
    Run(commands::RunArgs),
    /// List the registered datasets with n, d, classes and whether their files are present.
    Datasets(commands::DatasetsArgs),
    /// Build the kernels of a dataset or feature file with a recipe and write them as .npy.
    Kernels(commands::KernelsArgs),
}

/// The `--<param>` flags of every registered method, grouped by name.
fn method_args() -> Vec<Arg> {
    let mut by_name: Vec<(&'static str, Vec<String>)> = Vec::new();
    for m in mkc_experiments::methods::all() {
        for p in m.params() {
            let line = format!(
                "{}: {}{}",
                m.name(),
                p.help,
                if p.default.is_empty() {
                    " (required)".to_string()
                } else {
                    format!(" [default {}]", p.default)
                }
            );
            match by_name.iter_mut().find(|(n, _)| *n == p.name) {
                Some((_, lines)) => lines.push(line),
                None => by_name.push((p.name, vec![line])),
            }
        }
    }
    by_name
        .into_iter()
        .map(|(name, lines)| {
            // clap ids are &'static str; the set of flags is built once per process.
            let id: &'static str = Box::leak(format!("param:{name}").into_boxed_str());
            Arg::new(id)
                .long(name)
                .value_name("VALUE")
                .help(lines.join("; "))
                .help_heading("Method options (see --method)")
        })
        .collect()
}

/// The clap command with the method options of every registered method.
pub fn command() -> Command {
    let cmd = <Cli as clap::CommandFactory>::command();
    let extra = method_args();
    cmd.mut_subcommand("cluster", |c| c.args(extra))
}

fn method_values(m: &ArgMatches) -> Vec<(String, String)> {
    let Some(("cluster", sub)) = m.subcommand() else {
        return vec![];
    };
    sub.ids()
        .filter_map(|id| {
            id.as_str()
                .strip_prefix("param:")
                .map(|n| (n.to_string(), id.as_str().to_string()))
        })
        .filter_map(|(name, id)| sub.get_one::<String>(&id).map(|v| (name, v.clone())))
        .collect()
}

/// Run `mkc` with these arguments (the first is the program name); returns the exit
/// code: 0 on success, 1 on an error (printed in words to stderr), 2 on a usage error.
pub fn run_cli<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let matches = match command().try_get_matches_from(args) {
        Ok(m) => m,
        Err(e) => {
            let _ = e.print();
            return e.exit_code();
        }
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return e.exit_code();
        }
    };
    let result = match cli.command {
        Cmd::Cluster(a) => cluster::run(a, &method_values(&matches)),
        Cmd::Score(a) => commands::score(a),
        Cmd::Run(a) => commands::run(a),
        Cmd::Datasets(a) => commands::datasets(a),
        Cmd::Kernels(a) => commands::kernels(a),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("mkc: error: {e}");
            1
        }
    }
}
