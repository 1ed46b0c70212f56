//! k-means++ seeding (greedy variant, as scikit-learn), generic over the distance so
//! that the same code seeds k-means on features and kernel k-means in feature space.

use mkc_core::seed::Rng;
use rand::Rng as _;

/// Index drawn with probability proportional to `mass[i]` (uniform if the total is 0).
fn draw(mass: &[f64], total: f64, rng: &mut Rng) -> usize {
    let n = mass.len();
    if total.is_nan() || total <= 0.0 {
        return rng.random_range(0..n);
    }
    let target = rng.random::<f64>() * total;
    let mut acc = 0.0;
    for (i, &m) in mass.iter().enumerate() {
        acc += m;
        if acc > target {
            return i;
        }
    }
    // Rounding left the target above the running sum: the last point with mass.
    mass.iter().rposition(|&m| m > 0.0).unwrap_or(n - 1)
}

/// Greedy k-means++ (Arthur & Vassilvitskii 2007, with scikit-learn's
/// `2 + floor(ln k)` local trials per centre): the first centre is drawn with
/// probability ∝ `w_i`; every further centre is the best (lowest weighted potential
/// Σ_i w_i min_c d(i, c)) of the local trials, each drawn ∝ `w_i · D(i)²`, ties to the
/// first trial. `dist(i, j)` is the squared distance between points `i` and `j`.
///
/// `dist(i, j, bound)` must return the squared distance when it is below `bound`, and
/// otherwise any value ≥ `bound` (a partial sum may stop early): only `min(closest, d)`
/// is used, so the result is the same as with exact distances.
///
/// Returns the `k` centre indices (distinct unless the data has fewer than `k`
/// distinct points and all the mass is 0, when uniform draws may repeat).
pub(crate) fn kmeans_plus_plus(
    n: usize,
    k: usize,
    w: &[f64],
    rng: &mut Rng,
    dist: impl Fn(usize, usize, f64) -> f64,
) -> Vec<usize> {
    kmeans_plus_plus_cols(n, k, w, rng, |c, known, out| {
        for (i, o) in out.iter_mut().enumerate() {
            *o = dist(i, c, known.map_or(f64::INFINITY, |kn| kn.closest[i]));
        }
    })
}

/// What the seeding knows when it evaluates a candidate (after the first centre).
pub(crate) struct Known<'a> {
    /// d(i, ·) to the nearest chosen centre, as computed.
    pub(crate) closest: &'a [f64],
    /// That centre's position among the chosen ones.
    pub(crate) nearest: &'a [usize],
    /// For every chosen centre (by position), the values its evaluation returned: d(i, s),
    /// or a lower bound of it where the evaluation skipped point i.
    pub(crate) chosen: &'a [Vec<f64>],
}

/// [`kmeans_plus_plus`] with the distances of all points to a candidate at once:
/// `dists(c, known, out)` writes `out[i]` = d(i, c), or, when `known` is given and
/// d(i, c) is provably above `known.closest[i]`, any value v with
/// `known.closest[i]` < v ≤ d(i, c) (a lower bound; it is kept with the centre if the
/// candidate is chosen). Same draws, same centres.
pub(crate) fn kmeans_plus_plus_cols(
    n: usize,
    k: usize,
    w: &[f64],
    rng: &mut Rng,
    mut dists: impl FnMut(usize, Option<&Known<'_>>, &mut [f64]),
) -> Vec<usize> {
    let trials = 2 + (k as f64).ln().floor() as usize;
    let wsum: f64 = w.iter().sum();
    let first = draw(w, wsum, rng);
    let mut centres = vec![first];
    let mut col = vec![0.0; n];
    dists(first, None, &mut col);
    let mut closest: Vec<f64> = col.iter().map(|d| d.max(0.0)).collect();
    let mut chosen = vec![closest.clone()];
    let mut nearest = vec![0usize; n];
    let mut mass: Vec<f64> = closest.iter().zip(w).map(|(d, wi)| d * wi).collect();
    let mut pot: f64 = mass.iter().sum();
    let mut cand_closest = vec![0.0; n];
    let mut best_closest = vec![0.0; n];
    let mut best_col = vec![0.0; n];
    while centres.len() < k {
        let mut best: Option<(f64, usize)> = None;
        for _ in 0..trials {
            let c = draw(&mass, pot, rng);
            let known = Known {
                closest: &closest,
                nearest: &nearest,
                chosen: &chosen,
            };
            dists(c, Some(&known), &mut col);
            let mut p = 0.0;
            for i in 0..n {
                let d = closest[i].min(col[i].max(0.0));
                cand_closest[i] = d;
                p += w[i] * d;
            }
            if best.is_none_or(|(bp, _)| p < bp) {
                best = Some((p, c));
                best_closest.copy_from_slice(&cand_closest);
                best_col.copy_from_slice(&col);
            }
        }
        let (p, c) = best.unwrap_or((pot, 0));
        let pos = centres.len();
        centres.push(c);
        for i in 0..n {
            if best_closest[i] < closest[i] {
                nearest[i] = pos;
            }
        }
        chosen.push(best_col.iter().map(|d| d.max(0.0)).collect());
        closest.copy_from_slice(&best_closest);
        for i in 0..n {
            mass[i] = w[i] * closest[i];
        }
        pot = p;
    }
    centres
}
