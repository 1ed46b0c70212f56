//! The `mkc` binary itself: help text and exit codes.

use std::path::Path;
use std::process::Command;

fn mkc(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mkc"))
        .args(args)
        .output()
        .expect("run mkc");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `mkc score --truth T --pred P`.
fn score(truth: &Path, pred: &Path) -> (i32, String, String) {
    let [t, p] = [truth, pred].map(|f| f.to_str().unwrap());
    mkc(&["score", "--truth", t, "--pred", p])
}

#[test]
fn help_lists_commands_and_method_options() {
    let (code, out, _) = mkc(&["--help"]);
    assert_eq!(code, 0);
    for c in ["cluster", "score", "run", "datasets", "kernels"] {
        assert!(out.contains(c), "{out}");
    }
    let (code, out, _) = mkc(&["cluster", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("--n_init") && out.contains("kkm:"), "{out}");
    assert!(
        out.contains("--kernel-index") && out.contains("--report"),
        "{out}"
    );
}

#[test]
fn errors_are_words_and_nonzero() {
    let dir = std::env::temp_dir().join(format!("mkc-bin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let t = dir.join("t.csv");
    let p = dir.join("p.csv");
    std::fs::write(&t, "a\na\nb\nb\n").unwrap();
    std::fs::write(&p, "1\n1\n0\n").unwrap();
    let (code, _, err) = score(&t, &p);
    assert_eq!(code, 1);
    assert!(
        err.contains("has 4 labels but") && err.contains("has 3"),
        "{err}"
    );
    std::fs::write(&p, "1\n1\n0\n0\n").unwrap();
    let (code, out, _) = score(&t, &p);
    assert_eq!(code, 0);
    assert!(out.contains("ACC         1.0000"), "{out}");
    let (code, _, err) = mkc(&[
        "cluster", "--method", "nosuch", "--kernel", "x.npy", "--out", "l.csv",
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("unknown method") && err.contains("kkm"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
