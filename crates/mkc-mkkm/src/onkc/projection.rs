//! ONKC's G-step: the optimal neighbourhood kernel for fixed H and γ,
//!
//! `G = argmin_{G ⪰ 0} tr(G (I − HHᵀ)) + (ρ/2) ‖G − K_γ‖²_F = Π_PSD(K_γ − (1/ρ)(I − HHᵀ))`,
//!
//! the projection onto the PSD cone (completing the square). As in the authors' code:
//! symmetrise `A = K_γ − (1/ρ)(I − HHᵀ)`, full eigendecomposition, eigenvalues below
//! machine epsilon (2.2e-16, not scaled to ‖A‖) set to 0, rebuild, symmetrise. The full
//! decomposition (`mkc_linalg::eigen::sym_evd`, sequential, so the result does not depend
//! on the thread count) is the cost of ONKC: O(n³) per iteration.
//!
//! Two things come for free from the decomposition: the next H-step, `H = the top-k
//! eigenvectors of G`, is the eigenvectors of A with the k largest eigenvalues (G and A
//! share eigenvectors; G's eigenvalues are A's clipped at 0), and the rebuild uses the
//! smaller side of the spectrum: `G = Σ_{μ>ε} μ v vᵀ` when few eigenvalues are kept,
//! `G = A − Σ_{μ≤ε} μ v vᵀ` when few are dropped (same matrix, half the work or less).
//!
//! [`Projection::Auto`] (default) avoids the full decomposition when G has low rank —
//! for small ρ most eigenvalues of A are near −1/ρ (on Digit the rank of G is 10 at
//! ρ = 2⁻⁷, 59 at 2⁻³, 169 at 1, 907 at 8): it asks block Lanczos
//! (`mkc_linalg::eigen::top_k`) for the r largest eigenpairs of A, r = the rank plus k,
//! and accepts them when the r-th is at or below the floor, which proves that every
//! eigenvalue above it was found. The rank is the previous iteration's; at the first
//! G-step, or when the r-th eigenvalue shows that the rank grew, it is counted exactly
//! by Sylvester's law of inertia ([`kept_eigenvalues`], one LBLᵀ factorisation, a sixth
//! of a full decomposition). Beyond r = n/6 it uses the full decomposition (the Krylov
//! basis, about 3r vectors, is allowed up to 0.7 n here; `mkc_linalg`'s default switches
//! to a full decomposition at 0.3 n, which at n = 2000 would already catch Digit's rank
//! 169 at ρ = 1). G is then the same to the eigensolver's tolerance (relative residual
//! 1e-8). Measured on Digit at ρ = 1 (rank 185 at the first G-step, then 175, 169, 169;
//! 3 iterations): searching the first rank by doubling r from 2k took five Lanczos solves
//! (2.6 s of the 4.7 s optimisation on an idle machine); with the count, one fit takes
//! 4.1 s of CPU instead of 6.4–6.8 s (load ~10), the same objective to 1e-13.
//! [`Projection::Dense`] always decomposes fully, as the authors.

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatRef, Par};
use mkc_core::{Error, Result};
use mkc_linalg::eigen::EigenOptions;

/// How the G-step's PSD projection is computed (module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Projection {
    /// Block Lanczos for the eigenvalues above the floor while G's rank is at most n/6,
    /// the full decomposition otherwise.
    #[default]
    Auto,
    /// Always the full eigendecomposition (the authors' code; the reference).
    Dense,
}

/// Eigenvalues of A at or below this are set to 0 (the authors' `eps`).
pub const EIGEN_FLOOR: f64 = f64::EPSILON;

/// The result of one G-step.
#[derive(Clone, Debug)]
pub struct Neighbourhood {
    /// `G = Π_PSD(K_γ − (1/ρ)(I − HHᵀ))` (n x n, symmetric PSD).
    pub g: Mat<f64>,
    /// The top-k eigenvectors of G (n x k): the next H.
    pub top: Mat<f64>,
    /// The corresponding eigenvalues of G, descending (≥ 0).
    pub top_values: Vec<f64>,
    /// Number of eigenvalues of A kept (> [`EIGEN_FLOOR`]): the rank of G.
    pub rank: usize,
    /// Whether the full decomposition was used (else block Lanczos).
    pub dense: bool,
}

/// `A = K_γ − (1/ρ)(I − HHᵀ)`, symmetrised (the matrix ONKC projects).
pub fn shifted_kernel(k_gamma: MatRef<'_, f64>, h: MatRef<'_, f64>, rho: f64) -> Mat<f64> {
    let n = k_gamma.nrows();
    let mut a = k_gamma.to_owned();
    matmul(
        a.as_mut(),
        Accum::Add,
        h,
        h.transpose(),
        1.0 / rho,
        Par::rayon(0),
    );
    for i in 0..n {
        a[(i, i)] -= 1.0 / rho;
    }
    symmetrised(a)
}

/// `(A + Aᵀ)/2`.
fn symmetrised(a: Mat<f64>) -> Mat<f64> {
    let n = a.nrows();
    Mat::from_fn(n, n, |i, j| 0.5 * (a[(i, j)] + a[(j, i)]))
}

/// The G-step for `k` clusters (module docs); `rank_hint` is the rank of the previous
/// G (0 when there is none). Errors: a non-finite A or a failed decomposition.
pub fn neighbourhood_kernel(
    k_gamma: MatRef<'_, f64>,
    h: MatRef<'_, f64>,
    rho: f64,
    k: usize,
    how: Projection,
    rank_hint: usize,
    eigen: &EigenOptions,
) -> Result<Neighbourhood> {
    let a = shifted_kernel(k_gamma, h, rho);
    if how == Projection::Auto {
        if let Some(nb) = project_low_rank(a.as_ref(), k, rank_hint, eigen)? {
            return Ok(nb);
        }
    }
    project_psd(a, k)
}

/// `Π_PSD(A)` from its largest eigenpairs when G's rank is at most n/6 (module docs);
/// `None` when it is larger. The size of the Lanczos solve is the previous rank plus k
/// (`rank_hint`); without a hint, or when the solve shows that the rank grew past it, the
/// rank is counted exactly first ([`kept_eigenvalues`]).
pub fn project_low_rank(
    a: MatRef<'_, f64>,
    k: usize,
    rank_hint: usize,
    eigen: &EigenOptions,
) -> Result<Option<Neighbourhood>> {
    let n = a.nrows();
    let eigen = eigen.clone().dense_fraction(0.7);
    let mut exact = rank_hint == 0;
    let mut kept = if exact {
        kept_eigenvalues(a)?
    } else {
        rank_hint
    };
    loop {
        let r = (kept + k).max(2 * k);
        if r > n / 6 {
            return Ok(None);
        }
        // values descending
        let pairs = mkc_linalg::eigen::top_k(a, r, &eigen)?;
        if pairs.values[r - 1] <= EIGEN_FLOOR {
            let rank = pairs
                .values
                .iter()
                .take_while(|&&v| v > EIGEN_FLOOR)
                .count();
            let g = low_rank(pairs.vectors.as_ref(), &pairs.values, 0..rank, None);
            return Ok(Some(Neighbourhood {
                g: symmetrised(g),
                top: pairs.vectors.subcols(0, k).to_owned(),
                top_values: pairs.values[..k].iter().map(|v| v.max(0.0)).collect(),
                rank,
                dense: false,
            }));
        }
        if exact {
            // more eigenvalues above the floor than counted (rounding at the floor)
            return Ok(None);
        }
        kept = kept_eigenvalues(a)?;
        exact = true;
    }
}

/// The number of eigenvalues of the symmetric `a` above [`EIGEN_FLOOR`] (the rank of
/// `Π_PSD(a)`), by Sylvester's law of inertia: the signs of the 1 x 1 and 2 x 2 blocks of a
/// Bunch–Kaufman factorisation `P (A − floor·I) Pᵀ = L B Lᵀ` (faer, sequential, so the
/// count does not depend on the thread count). About n³/3 flops: a sixth of a full
/// eigendecomposition, and exact up to the rounding of eigenvalues within ~ε‖A‖ of the
/// floor (which a full decomposition cannot classify either).
pub fn kept_eigenvalues(a: MatRef<'_, f64>) -> Result<usize> {
    use faer::diag::Diag;
    use faer::dyn_stack::{MemBuffer, MemStack};
    use faer::linalg::cholesky::lblt::factor;
    let n = a.nrows();
    let mut l = a.to_owned();
    for i in 0..n {
        l[(i, i)] -= EIGEN_FLOOR;
    }
    let mut sub = Diag::<f64>::zeros(n);
    let (mut fwd, mut bwd) = (vec![0usize; n], vec![0usize; n]);
    let mut mem = MemBuffer::new(factor::cholesky_in_place_scratch::<usize, f64>(
        n,
        Par::Seq,
        Default::default(),
    ));
    factor::cholesky_in_place(
        l.as_mut(),
        sub.as_mut(),
        &mut fwd,
        &mut bwd,
        Par::Seq,
        MemStack::new(&mut mem),
        Default::default(),
    );
    let mut kept = 0;
    let mut i = 0;
    while i < n {
        let d = l[(i, i)];
        if !d.is_finite() {
            return Err(Error::numerical("ONKC", "non-finite LBLᵀ factor"));
        }
        if i + 1 < n && sub[i] != 0.0 {
            // a 2 x 2 block [d s; s e]: one eigenvalue of each sign when det < 0
            let (s, e) = (sub[i], l[(i + 1, i + 1)]);
            kept += match d * e - s * s {
                det if det < 0.0 => 1,
                _ if d > 0.0 => 2,
                _ => 0,
            };
            i += 2;
        } else {
            kept += usize::from(d > 0.0);
            i += 1;
        }
    }
    Ok(kept)
}

/// `Π_PSD(A)` of a symmetric A, with its top-k eigenvectors (module docs).
pub fn project_psd(a: Mat<f64>, k: usize) -> Result<Neighbourhood> {
    let n = a.nrows();
    if k == 0 || k > n {
        return Err(Error::input(
            "ONKC",
            format!("cannot take {k} eigenvectors of an {n} x {n} matrix"),
        ));
    }
    // ascending eigenvalues, eigenvectors as columns
    let (values, vectors) = mkc_linalg::eigen::sym_evd(a.as_ref())?;
    let first_kept = values.iter().position(|&v| v > EIGEN_FLOOR).unwrap_or(n);
    let rank = n - first_kept;
    let g = if rank <= first_kept {
        low_rank(vectors.as_ref(), &values, first_kept..n, None)
    } else {
        low_rank(vectors.as_ref(), &values, 0..first_kept, Some(a))
    };
    let order: Vec<usize> = (0..k).map(|t| n - 1 - t).collect();
    let top = Mat::from_fn(n, k, |i, c| vectors[(i, order[c])]);
    let top_values = order.iter().map(|&i| values[i].max(0.0)).collect();
    Ok(Neighbourhood {
        g: symmetrised(g),
        top,
        top_values,
        rank,
        dense: true,
    })
}

/// `base + s Σ_{i ∈ range} μ_i v_i v_iᵀ` (any order of the pairs) with s = +1 without a base (the kept part) and
/// s = −1 with one (A minus the dropped part).
fn low_rank(
    v: MatRef<'_, f64>,
    values: &[f64],
    range: std::ops::Range<usize>,
    base: Option<Mat<f64>>,
) -> Mat<f64> {
    let n = v.nrows();
    let cols = v.subcols(range.start, range.len());
    let scaled = Mat::from_fn(n, range.len(), |i, c| {
        cols[(i, c)] * values[range.start + c]
    });
    let (mut out, alpha) = match base {
        Some(a) => (a, -1.0),
        None => (Mat::zeros(n, n), 1.0),
    };
    if !range.is_empty() {
        matmul(
            out.as_mut(),
            Accum::Add,
            scaled.as_ref(),
            cols.transpose(),
            alpha,
            Par::rayon(0),
        );
    }
    out
}
