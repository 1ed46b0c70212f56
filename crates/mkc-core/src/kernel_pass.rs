//! The one-pass verdict of the kernel check ([`crate::validate::kernel`]): finite, max
//! |K| and the largest asymmetry, reading every entry exactly once.
//!
//! The pass runs over strips of [`STRIP`] columns `jb..je`: for every row `i < je` it
//! compares `K[i, j]` (read down the strip's columns, 16 sequential streams) with
//! `K[j, i]` (16 contiguous entries of column `i`). The upper triangle and the diagonal
//! blocks are read as `K[i, j]`, the rest as `K[j, i]`. Branch-free lane accumulators,
//! compiled for the best instruction set the CPU has (`pulp`'s runtime dispatch). This
//! is 3–4x faster than square tiles transposed through a buffer with strided reads
//! (n = 4000: 17 ms against 70 ms, which missed the TLB), and about 1.4x faster than
//! tiles that copy their transposed partner through a buffer by column pieces (n = 4000,
//! one thread: 16 ms against 22 ms). Strips are independent: [`summary`] runs them in
//! parallel or on the calling thread.

use rayon::prelude::*;

/// Width of the column strips (16 running maxima per lane array).
const STRIP: usize = 16;

type Lanes = [f64; STRIP];

/// What one pass over a square matrix finds.
pub(crate) struct Summary {
    /// Every entry finite.
    pub finite: bool,
    /// max |K_ij| (meaningful when `finite`).
    pub max_abs: f64,
    /// max |K_ij − K_ji| (meaningful when `finite`).
    pub max_asym: f64,
}

/// The verdict over the columns `cols` of a square matrix (column-major slices), its
/// strips in parallel (rayon) or on the calling thread. Maxima and the NaN flag do not
/// depend on the order the strips are combined in.
pub(crate) fn summary(cols: &[&[f64]], parallel: bool) -> Summary {
    let n = cols.len();
    let strip = |jb: usize| pulp::Arch::new().dispatch(StripPass { cols, jb });
    let parts: Vec<(Lanes, Lanes, Lanes)> = if parallel {
        (0..n.div_ceil(STRIP))
            .into_par_iter()
            .map(|s| strip(s * STRIP))
            .collect()
    } else {
        (0..n.div_ceil(STRIP)).map(|s| strip(s * STRIP)).collect()
    };
    let mut out = Summary {
        finite: true,
        max_abs: 0.0,
        max_asym: 0.0,
    };
    for (max_abs, worst, nonfinite) in parts {
        out.finite &= !nonfinite.iter().sum::<f64>().is_nan();
        out.max_abs = max_abs.iter().fold(out.max_abs, |m, &v| m.max(v));
        out.max_asym = worst.iter().fold(out.max_asym, |m, &v| m.max(v));
    }
    out
}

/// One strip `jb..jb + STRIP`: per lane max |K|, the largest asymmetry and a NaN flag.
struct StripPass<'a, 'k> {
    cols: &'a [&'k [f64]],
    jb: usize,
}

impl pulp::WithSimd for StripPass<'_, '_> {
    type Output = (Lanes, Lanes, Lanes);
    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) -> Self::Output {
        let (cols, jb) = (self.cols, self.jb);
        let je = (jb + STRIP).min(cols.len());
        let w = je - jb;
        let strip = &cols[jb..je];
        // Branch-free lane accumulators: `x − x` is NaN exactly when x is not finite.
        let mut max_abs = [0.0f64; STRIP];
        let mut worst = [0.0f64; STRIP];
        let mut nonfinite = [0.0f64; STRIP];
        let mut row = [0.0f64; STRIP];
        for (i, col_i) in cols[..je].iter().enumerate() {
            // row[jj] = K[jb + jj, i]
            row[..w].copy_from_slice(&col_i[jb..je]);
            for jj in 0..w {
                let (a, b) = (strip[jj][i], row[jj]);
                #[allow(clippy::eq_op)] // x − x: NaN exactly for non-finite x
                {
                    nonfinite[jj] += (a - a) + (b - b);
                }
                max_abs[jj] = max_abs[jj].max(a.abs());
                worst[jj] = worst[jj].max((a - b).abs());
            }
        }
        (max_abs, worst, nonfinite)
    }
}
