//! Checking a kernel recipe: every entry names the parameters of its kind and no other,
//! each list non-empty with values in range.

use super::schema::{KernelEntry, KernelKind, Recipe};
use super::validate::err;
use mkc_core::Result;

/// Which optional fields of a kernel entry are present (each checked for its range).
struct Present {
    /// The four Gaussian width rules, in schema order.
    widths: [(&'static str, bool); 4],
    t: bool,
    a: bool,
    degree: bool,
}

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
    Ok(Present {
        widths: [
            width("sigma", &e.sigma)?,
            width("sigma_range_fraction", &e.sigma_range_fraction)?,
            width("sigma_mean_ratio", &e.sigma_mean_ratio)?,
            width("sigma_median_ratio", &e.sigma_median_ratio)?,
        ],
        t: check_widths(src, &format!("{k}.t"), &e.t)?,
        a: check_offsets(src, k, &e.a)?,
        degree: check_degrees(src, k, &e.degree)?,
    })
}

/// The fields the kind needs are there and the others absent.
fn check_kind(src: &str, k: &str, kind: KernelKind, p: &Present) -> Result<()> {
    let stray = |field: &str, present: bool| -> Result<()> {
        if present {
            Err(err(
                src,
                format!("{k}.{field}"),
                format!("does not apply to kind {kind:?}"),
            ))
        } else {
            Ok(())
        }
    };
    let no_widths = || p.widths.iter().try_for_each(|&(f, on)| stray(f, on));
    match kind {
        KernelKind::Gaussian => {
            if p.widths.iter().filter(|w| w.1).count() != 1 {
                return Err(err(
                    src,
                    k,
                    "a gaussian kernel needs exactly one of sigma, sigma_range_fraction, sigma_mean_ratio, sigma_median_ratio",
                ));
            }
            stray("t", p.t)?;
            stray("a", p.a)?;
            stray("degree", p.degree)
        }
        KernelKind::GaussianScaled => {
            if !p.t {
                return Err(err(
                    src,
                    format!("{k}.t"),
                    "gaussian-scaled needs the list t",
                ));
            }
            no_widths()?;
            stray("a", p.a)?;
            stray("degree", p.degree)
        }
        KernelKind::Polynomial => {
            if !p.degree {
                return Err(err(
                    src,
                    format!("{k}.degree"),
                    "a polynomial kernel needs degree",
                ));
            }
            no_widths()?;
            stray("t", p.t)
        }
        KernelKind::Linear | KernelKind::Cosine => {
            no_widths()?;
            stray("t", p.t)?;
            stray("a", p.a)?;
            stray("degree", p.degree)
        }
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
