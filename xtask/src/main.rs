//! Project automation. Run as `cargo xtask <command>` (an alias in `.cargo/config.toml`
//! that builds this crate in release mode).
//!
//! - `cargo xtask reproduce [TABLE…] [--quick | --full]` — regenerate the paper tables
//!   into `results/`.
//! - `cargo xtask compare eigen|kkm|svm` — time our solvers against the Python
//!   references (numpy/scipy/scikit-learn, installed with pip into a private venv by
//!   the harness) side by side, one line per case ending in `ratio=<ours/theirs>`.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod compare;
mod python;
mod reproduce;
mod walls;

#[derive(Parser)]
#[command(name = "xtask", about = "mkc project automation")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Regenerate the experiment tables of the papers into results/.
    Reproduce(reproduce::Args),
    /// Time our solvers against the Python references, side by side.
    Compare {
        #[command(subcommand)]
        what: compare::What,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Reproduce(args) => reproduce::run(args),
        Command::Compare { what } => compare::run(what),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
