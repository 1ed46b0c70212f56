//! Building the kernel list of a dataset from a [`Recipe`]: feature scaling, kernels
//! per view, normalisations. Pairwise squared distances are computed once per view and
//! shared by every Gaussian of the recipe.

use crate::config::{KernelEntry, KernelKind, NormalizeStep, Recipe, Scale};
use faer::Mat;
use mkc_core::{Error, Result};
use mkc_data::preprocess::{self, StdDev};
use mkc_kernels::{width, KernelFn, Normalization, Width};

/// Scale each column of `x` in place, through [`mkc_data::preprocess`] (constant
/// columns become 0; z-score divides by the population standard deviation, see
/// [`StdDev::Population`]).
pub fn scale_features(x: &mut Mat<f64>, scale: Scale) {
    match scale {
        Scale::None => {}
        Scale::Minmax => preprocess::min_max(x, 0.0, 1.0),
        Scale::Symmetric => preprocess::min_max(x, -1.0, 1.0),
        Scale::Zscore => preprocess::z_score(x, StdDev::Population),
    }
}

/// exp(−d2 / scale) elementwise (symmetric by construction).
fn exp_kernel(d2: &Mat<f64>, scale: f64) -> Mat<f64> {
    let n = d2.nrows();
    Mat::from_fn(n, n, |i, j| (-d2[(i, j)].max(0.0) / scale).exp())
}

fn fmt_w(v: f64) -> String {
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// The kernels of one entry on one feature matrix, with their names.
fn entry_kernels(
    x: &Mat<f64>,
    d2: &mut Option<Mat<f64>>,
    e: &KernelEntry,
    view: &str,
) -> Result<Vec<(String, Mat<f64>)>> {
    let prefix = if view.is_empty() {
        String::new()
    } else {
        format!("{view}/")
    };
    let mut out = Vec::new();
    let needs_d2 = matches!(e.kind, KernelKind::Gaussian | KernelKind::GaussianScaled);
    if needs_d2 && d2.is_none() {
        *d2 = Some(mkc_kernels::sq_dists(x.as_ref())?);
    }
    let empty = Mat::zeros(0, 0);
    let d = d2.as_ref().unwrap_or(&empty);
    match e.kind {
        KernelKind::Linear => out.push((
            format!("{prefix}linear"),
            mkc_kernels::gram(x.as_ref(), &KernelFn::Linear)?,
        )),
        KernelKind::Cosine => out.push((
            format!("{prefix}cosine"),
            mkc_kernels::gram(x.as_ref(), &KernelFn::Cosine)?,
        )),
        KernelKind::Polynomial => {
            let offsets = e.a.clone().unwrap_or_else(|| vec![0.0]);
            for &a in &offsets {
                for &degree in e.degree.as_deref().unwrap_or(&[]) {
                    let f = KernelFn::Polynomial { a, degree };
                    out.push((
                        format!("{prefix}poly(a={},b={degree})", fmt_w(a)),
                        mkc_kernels::gram(x.as_ref(), &f)?,
                    ));
                }
            }
        }
        KernelKind::GaussianScaled => {
            let dmax = mkc_kernels::d_max_sq(d.as_ref())?;
            for &t in e.t.as_deref().unwrap_or(&[]) {
                let scale = t * dmax;
                if !(scale.is_finite() && scale > 0.0) {
                    return Err(Error::input(
                        format!("{prefix}gaussian-scaled"),
                        "all samples coincide (d_max = 0)",
                    ));
                }
                out.push((
                    format!("{prefix}gauss(t={})", fmt_w(t)),
                    exp_kernel(d, scale),
                ));
            }
        }
        KernelKind::Gaussian => {
            let (rule, values): (&str, &[f64]) = if let Some(v) = &e.sigma {
                ("", v)
            } else if let Some(v) = &e.sigma_range_fraction {
                ("·range", v)
            } else if let Some(v) = &e.sigma_mean_ratio {
                ("·rms", v)
            } else if let Some(v) = &e.sigma_median_ratio {
                ("·median", v)
            } else {
                ("", &[])
            };
            let widths: Vec<Width> = values
                .iter()
                .map(|&f| match rule {
                    "·range" => Width::RangeFraction { fraction: f },
                    "·rms" => Width::MeanRatio { ratio: f },
                    "·median" => Width::MedianRatio { ratio: f },
                    _ => Width::Sigma { sigma: f },
                })
                .collect();
            let stats = if widths.iter().any(Width::needs_stats) {
                Some(width::dist_stats_for(d.as_ref(), &widths)?)
            } else {
                None
            };
            for (&f, w) in values.iter().zip(&widths) {
                let sigma = w
                    .sigma(stats.as_ref())
                    .map_err(|err| Error::input(format!("{prefix}gaussian"), err.to_string()))?;
                out.push((
                    format!("{prefix}gauss(σ={}{rule})", fmt_w(f)),
                    exp_kernel(d, 2.0 * sigma * sigma),
                ));
            }
        }
    }
    Ok(out)
}

fn normalization(s: NormalizeStep) -> Normalization {
    match s {
        NormalizeStep::Center => Normalization::Center,
        NormalizeStep::UnitDiagonal => Normalization::UnitDiagonal,
        NormalizeStep::DivideByMax => Normalization::DivideByMax,
        NormalizeStep::Trace => Normalization::Trace,
        NormalizeStep::Multiplicative => Normalization::Multiplicative,
    }
}

/// Apply the recipe's normalisations, in order, to every kernel.
pub fn normalize_all(kernels: &mut [Mat<f64>], steps: &[NormalizeStep]) -> Result<()> {
    for k in kernels.iter_mut() {
        for &s in steps {
            mkc_kernels::normalize::apply(k.as_mut(), &normalization(s))?;
        }
    }
    Ok(())
}

/// Build the kernels of `recipe` on the given (already scaled) views. A single-view
/// dataset passes one view named `""`.
pub fn build_kernels(
    views: &[(String, Mat<f64>)],
    recipe: &Recipe,
) -> Result<(Vec<Mat<f64>>, Vec<String>)> {
    let mut names = Vec::new();
    let mut kernels = Vec::new();
    for (view, x) in views {
        let mut d2 = None;
        for e in &recipe.kernels {
            for (name, k) in entry_kernels(x, &mut d2, e, view)? {
                names.push(name);
                kernels.push(k);
            }
        }
    }
    normalize_all(&mut kernels, &recipe.normalize)?;
    Ok((kernels, names))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_features_conventions() {
        // column 0: 1, 2, 3 (mean 2, population sd sqrt(2/3)); column 1 constant
        let x = Mat::from_fn(3, 2, |i, j| if j == 0 { (i + 1) as f64 } else { 7.0 });
        let run = |s| {
            let mut y = x.clone();
            scale_features(&mut y, s);
            y
        };
        assert_eq!(run(Scale::None), x);
        let m = run(Scale::Minmax);
        assert_eq!(
            (m[(0, 0)], m[(1, 0)], m[(2, 0)], m[(1, 1)]),
            (0.0, 0.5, 1.0, 0.0)
        );
        let s = run(Scale::Symmetric);
        assert_eq!(
            (s[(0, 0)], s[(1, 0)], s[(2, 0)], s[(1, 1)]),
            (-1.0, 0.0, 1.0, 0.0)
        );
        let z = run(Scale::Zscore);
        let f = 1.5f64.sqrt();
        assert!((z[(0, 0)] + f).abs() < 1e-15 && (z[(2, 0)] - f).abs() < 1e-15);
        assert_eq!((z[(1, 0)], z[(0, 1)]), (0.0, 0.0));
    }
}
