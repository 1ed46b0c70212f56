//! Figures: tick names, panels, rounding, and SVGs that name what they show.

use super::style::tick;
use super::*;

fn s(label: &str, names: &[&str], values: &[f64]) -> Series {
    Series {
        label: label.into(),
        names: names.iter().map(|n| n.to_string()).collect(),
        values: values.to_vec(),
    }
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

#[test]
fn rounding_keeps_four_significant_digits() {
    assert_eq!(round4(0.123456), 0.1235);
    assert_eq!(round4(12345.6), 12350.0);
    assert_eq!(round4(0.0), 0.0);
    let ticks: Vec<String> = [18.0, 0.05, 12.34567, -0.0, 1e-7]
        .iter()
        .map(|&y| tick(y))
        .collect();
    assert_eq!(ticks, ["18", "0.05", "12.35", "0", "0.0000001"]);
}

#[test]
fn tick_names_keep_the_part_that_differs_and_never_cut_numbers() {
    let cases: [(&[&str], &[&str], &str); 5] = [
        (
            &["fac/linear", "fou/linear"],
            &["fac", "fou"],
            "kernel (…/linear)",
        ),
        (
            &[
                "gauss(σ=0.1·range)",
                "gauss(σ=0.2·range)",
                "gauss(σ=1·range)",
            ],
            &["0.1", "0.2", "1"],
            "kernel (gauss(σ=…·range))",
        ),
        // The shared "0." of 0.1 and 0.2 stays with the numbers.
        (
            &["gauss(σ=0.1·range)", "gauss(σ=0.2·range)"],
            &["0.1", "0.2"],
            "kernel (gauss(σ=…·range))",
        ),
        // A one-letter prefix is not worth a pattern.
        (&["K1", "K2"], &["K1", "K2"], "kernel"),
        (&["only"], &["only"], "kernel"),
    ];
    for (names, short, axis) in cases {
        assert_eq!(
            short_names(&strings(names)),
            (strings(short), axis.to_string())
        );
    }
}

#[test]
fn rows_with_other_kernels_get_their_own_panel() {
    let data = vec![
        s("a", &["x", "y"], &[0.5, 0.5]),
        s("b", &["u", "v", "w"], &[0.2, 0.3, 0.5]),
        s("c", &["x", "y"], &[0.9, 0.1]),
    ];
    let p = panels(&data);
    assert_eq!(p.len(), 2);
    assert_eq!(
        p.iter()
            .map(|p| p.iter().map(|s| s.label.as_str()).collect::<Vec<_>>())
            .collect::<Vec<_>>(),
        vec![vec!["a", "c"], vec!["b"]]
    );
}

#[test]
fn draws_svgs_with_names_on_the_axis_and_skips_empty_data() {
    let dir = std::env::temp_dir().join(format!("mkc-fig-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("w.svg");
    let data = vec![
        s(
            "D1",
            &["fac/linear", "fou/linear", "kar/linear"],
            &[0.2, 0.5, 0.3],
        ),
        s(
            "D2",
            &["fac/linear", "fou/linear", "kar/linear"],
            &[0.1, 0.6, 0.3],
        ),
    ];
    assert!(draw(&p, "weights", FigureKind::Weights, &data).unwrap());
    let svg = std::fs::read_to_string(&p).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("weights"));
    for text in [
        "fac",
        "fou",
        "kar",
        "kernel (…/linear)",
        "learned weight",
        "D1",
        "D2",
    ] {
        assert!(svg.contains(text), "{text} missing");
    }
    // Two series of three bars, plus the two legend marks.
    assert!(svg.matches("<rect").count() >= 8);
    let o = dir.join("o.svg");
    let obj = vec![s("D1", &["1", "2", "3"], &[3.0, 2.0, 1.5])];
    assert!(draw(&o, "objective", FigureKind::Objective, &obj).unwrap());
    let svg = std::fs::read_to_string(&o).unwrap();
    assert!(svg.contains("iteration") && svg.contains("objective value"));
    assert!(!draw(&dir.join("e.svg"), "e", FigureKind::Objective, &[]).unwrap());
    std::fs::remove_dir_all(&dir).ok();
}
