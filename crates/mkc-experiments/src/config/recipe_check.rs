//! Checking a kernel recipe: every entry names the parameters of its kind and no other,
//! each list non-empty with values in range.

use super::schema::{KernelEntry, KernelKind, Recipe};
use super::validate::err;
use mkc_core::Result;

/// The four Gaussian width rules (exactly one per Gaussian entry).
const WIDTHS: [&str; 4] = [
    "sigma",
    "sigma_range_fraction",
    "sigma_mean_ratio",
    "sigma_median_ratio",
];

/// Which optional fields of a kernel entry are present (each checked for its range), in
/// schema order: the widths, `t`, `a`, `degree`.
type Present = [(&'static str, bool); 7];

/// `Some` list must be non-empty with finite positive values.
fn check_widths(src: &str, key: &str, v: &Option<Vec<f64>>) -> Result<bool> {
    let Some(v) = v else { return Ok(false) };
    if v.is_empty() {
        return Err(err(src, key, "empty list"));
    }
    if let Some(x) = v.iter().find(|x| !(x.is_finite() && **x > 0.0)) {
        return Err(err(
            src,
            key,
            format!("{x} is not a finite positive number"),
        ));
    }
    Ok(true)
}

/// The polynomial offsets `a`: non-empty, finite and `>= 0`.
fn check_offsets(src: &str, k: &str, a: &Option<Vec<f64>>) -> Result<bool> {
    match a {
        Some(a) if a.is_empty() => Err(err(src, format!("{k}.a"), "empty list")),
        Some(a) => match a.iter().find(|x| !(x.is_finite() && **x >= 0.0)) {
            Some(x) => Err(err(
                src,
                format!("{k}.a"),
                format!("{x} is not a finite number >= 0"),
            )),
            None => Ok(true),
        },
        None => Ok(false),
    }
}

/// The polynomial degrees: non-empty, each at least 1.
fn check_degrees(src: &str, k: &str, d: &Option<Vec<u32>>) -> Result<bool> {
    match d {
        Some(d) if d.is_empty() => Err(err(src, format!("{k}.degree"), "empty list")),
        Some(d) if d.contains(&0) => Err(err(
            src,
            format!("{k}.degree"),
            "degrees must be at least 1",
        )),
        Some(_) => Ok(true),
        None => Ok(false),
    }
}

fn present(src: &str, k: &str, e: &KernelEntry) -> Result<Present> {
    let width = |field: &'static str, v: &Option<Vec<f64>>| -> Result<(&'static str, bool)> {
        Ok((field, check_widths(src, &format!("{k}.{field}"), v)?))
    };
    Ok([
        width(WIDTHS[0], &e.sigma)?,
        width(WIDTHS[1], &e.sigma_range_fraction)?,
        width(WIDTHS[2], &e.sigma_mean_ratio)?,
        width(WIDTHS[3], &e.sigma_median_ratio)?,
        width("t", &e.t)?,
        ("a", check_offsets(src, k, &e.a)?),
        ("degree", check_degrees(src, k, &e.degree)?),
    ])
}

/// The fields kind `kind` takes, and the one it needs (with the reason).
fn fields_of(
    kind: KernelKind,
) -> (
    &'static [&'static str],
    Option<(&'static str, &'static str)>,
) {
    match kind {
        KernelKind::Gaussian => (&WIDTHS, None),
        KernelKind::GaussianScaled => (&["t"], Some(("t", "gaussian-scaled needs the list t"))),
        KernelKind::Polynomial => (
            &["a", "degree"],
            Some(("degree", "a polynomial kernel needs degree")),
        ),
        KernelKind::Linear | KernelKind::Cosine => (&[], None),
    }
}

/// The fields the kind needs are there and the others absent.
fn check_kind(src: &str, k: &str, kind: KernelKind, p: &Present) -> Result<()> {
    let has = |f: &str| p.iter().any(|&(g, on)| g == f && on);
    if kind == KernelKind::Gaussian && WIDTHS.iter().filter(|w| has(w)).count() != 1 {
        return Err(err(
            src,
            k,
            "a gaussian kernel needs exactly one of sigma, sigma_range_fraction, sigma_mean_ratio, sigma_median_ratio",
        ));
    }
    let (allowed, needed) = fields_of(kind);
    if let Some((f, why)) = needed.filter(|(f, _)| !has(f)) {
        return Err(err(src, format!("{k}.{f}"), why));
    }
    match p.iter().find(|&&(f, on)| on && !allowed.contains(&f)) {
        Some((f, _)) => Err(err(
            src,
            format!("{k}.{f}"),
            format!("does not apply to kind {kind:?}"),
        )),
        None => Ok(()),
    }
}

/// Check recipe `name` of the file `src`. An empty kernel list is a features-only
/// recipe: the scaled features reach the methods that work in feature space (k-means,
/// LG-MMC's linear path) and no n x n kernel is built (MNIST-sized data).
pub(crate) fn check_recipe(src: &str, name: &str, r: &Recipe) -> Result<()> {
    for (i, e) in r.kernels.iter().enumerate() {
        let k = format!("recipes.{name}.kernels[{i}]");
        let p = present(src, &k, e)?;
        check_kind(src, &k, e.kind, &p)?;
    }
    Ok(())
}
