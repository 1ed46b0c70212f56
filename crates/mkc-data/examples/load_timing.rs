//! Time loading registered datasets (release build):
//! `MKC_DATA_DIR=<data directory> cargo run --release -p mkc-data --example load_timing -- mnist-3v8`
//! (the data directory is resolved as everywhere: `$MKC_DATA_DIR`, else `./data`).
//! Each dataset's files are also timed separately (sha256; parse of the data file).
use mkc_data::{csv, datadir::sha256_file, DataDir, Registry};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = DataDir::resolve(None);
    let reg = Registry::load_default()?;
    let names: Vec<String> = std::env::args().skip(1).collect();
    let names = if names.is_empty() {
        vec!["mnist-3v8".to_string()]
    } else {
        names
    };
    for name in names {
        let t = Instant::now();
        let ds = reg.load(&name, &dir)?;
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{name}: n = {}, d = {}, classes {:?}: load {secs:.3} s",
            ds.n_samples(),
            ds.n_features(),
            ds.class_counts()
        );
        for rel in reg.files(&name)?.keys() {
            let path = dir.path(rel);
            let t = Instant::now();
            sha256_file(&path)?;
            let sha = t.elapsed().as_secs_f64();
            let parse = if rel.ends_with("data.csv.gz") || rel.ends_with("data.csv") {
                let t = Instant::now();
                csv::read_dense(&path, &csv::CsvOptions::new())?;
                format!(", read_dense {:.3} s", t.elapsed().as_secs_f64())
            } else {
                String::new()
            };
            println!("  {rel}: sha256 {sha:.3} s{parse}");
        }
    }
    Ok(())
}
