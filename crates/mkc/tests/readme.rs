//! The README shows the lines of `examples/swap_methods.rs` between its `readme-start` and
//! `readme-end` markers: this test keeps the two the same.

#[test]
fn readme_shows_the_swap_methods_example() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let example = std::fs::read_to_string(root.join("examples/swap_methods.rs")).unwrap();
    let readme = std::fs::read_to_string(root.join("../../README.md")).unwrap();
    let start = example.find("// readme-start").unwrap();
    let end = example.find("// readme-end").unwrap();
    let body: Vec<&str> = example[start..end]
        .lines()
        .skip(1)
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    assert!(
        body.len() <= 10,
        "the README promises ten lines, got {}",
        body.len()
    );
    let shown: Vec<&str> = readme.lines().map(str::trim).collect();
    for line in &body {
        assert!(
            shown.contains(line),
            "README.md lacks the example line `{line}`"
        );
    }
}
