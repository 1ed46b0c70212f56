//! `cargo xtask reproduce` (to be written).

#[derive(clap::Args)]
pub struct Args {
    /// Tables to regenerate (all when empty).
    pub tables: Vec<String>,
    /// Fewer restarts and smaller grids (what the snapshot tests run).
    #[arg(long, conflicts_with = "full")]
    pub quick: bool,
    /// The paper's full protocol.
    #[arg(long)]
    pub full: bool,
}

pub fn run(_args: Args) -> Result<(), Box<dyn std::error::Error>> {
    Err("reproduce is not implemented yet".into())
}
