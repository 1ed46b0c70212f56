//! The `mkc` binary; everything lives in the library (`mkc_cli::run_cli`).

fn main() -> std::process::ExitCode {
    let code = mkc_cli::run_cli(std::env::args_os());
    std::process::ExitCode::from(u8::try_from(code).unwrap_or(1))
}
