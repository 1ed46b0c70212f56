//! The `mkc` command line.

fn main() {
    println!("mkc {}", env!("CARGO_PKG_VERSION"));
}
