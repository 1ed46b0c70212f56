//! Summarising the runs of a column into one cell: mean ± std over restarts, the best
//! grid point (and kernel) as the papers report, or the average over single kernels.

use crate::config::SummaryRule;
use crate::metric::{Metric, Scores};
use serde::Serialize;
use std::collections::BTreeMap;

/// Mean and sample standard deviation (n − 1 denominator, as MATLAB's `std`; 0 for one run).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Stat {
    /// Mean.
    pub mean: f64,
    /// Sample standard deviation.
    pub std: f64,
    /// Number of runs.
    pub n: usize,
}

impl Stat {
    /// Statistics of `values` (`None` when empty).
    pub fn of(values: &[f64]) -> Option<Stat> {
        let n = values.len();
        if n == 0 {
            return None;
        }
        let mean = values.iter().sum::<f64>() / n as f64;
        let std = if n > 1 {
            (values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1) as f64).sqrt()
        } else {
            0.0
        };
        Some(Stat { mean, std, n })
    }
}

/// The successful runs of one grid point on one kernel unit (a kernel for single-kernel
/// methods, all kernels otherwise).
#[derive(Debug, Clone)]
pub struct Group {
    /// Index of the grid point.
    pub point: usize,
    /// Kernel index for single-kernel methods.
    pub kernel: Option<usize>,
    /// Scores of its runs (failed runs are left out).
    pub runs: Vec<Scores>,
}

/// Which groups a cell was computed from.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// Indices into the group list.
    pub groups: Vec<usize>,
}

/// One summarised cell: a statistic per metric and the groups chosen for each.
#[derive(Debug, Clone)]
pub struct Cell {
    /// metric → statistic.
    pub stats: BTreeMap<Metric, Stat>,
    /// metric → chosen groups.
    pub chosen: BTreeMap<Metric, Choice>,
}

fn mean_of(g: &Group, m: Metric) -> Option<f64> {
    Stat::of(&g.runs.iter().map(|s| s.get(m)).collect::<Vec<_>>()).map(|s| s.mean)
}

/// Index of the best group among `candidates` by the mean of `m` (ties: lowest index).
fn best_of(groups: &[Group], candidates: impl Iterator<Item = usize>, m: Metric) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for i in candidates {
        let Some(v) = mean_of(&groups[i], m) else {
            continue;
        };
        let better = match best {
            None => true,
            Some((_, b)) => {
                if m.higher_is_better() {
                    v > b
                } else {
                    v < b
                }
            }
        };
        if better {
            best = Some((i, v));
        }
    }
    best.map(|b| b.0)
}

fn choose(groups: &[Group], rule: SummaryRule, m: Metric) -> Option<Choice> {
    match rule {
        SummaryRule::Best => {
            best_of(groups, 0..groups.len(), m).map(|i| Choice { groups: vec![i] })
        }
        SummaryRule::Average => {
            let mut kernels: Vec<Option<usize>> = groups.iter().map(|g| g.kernel).collect();
            kernels.sort();
            kernels.dedup();
            let chosen: Vec<usize> = kernels
                .iter()
                .filter_map(|k| {
                    best_of(
                        groups,
                        (0..groups.len()).filter(|&i| groups[i].kernel == *k),
                        m,
                    )
                })
                .collect();
            (!chosen.is_empty()).then_some(Choice { groups: chosen })
        }
    }
}

/// Summarise `groups` for `metrics`: select by `select` (or per metric), then mean ± std
/// over the runs of the chosen group(s), pooled. `None` when no run succeeded.
pub fn summarise(
    groups: &[Group],
    rule: SummaryRule,
    select: Metric,
    per_metric: bool,
    metrics: &[Metric],
) -> Option<Cell> {
    let mut stats = BTreeMap::new();
    let mut chosen = BTreeMap::new();
    for &m in metrics {
        let c = choose(groups, rule, if per_metric { m } else { select })?;
        let vals: Vec<f64> = c
            .groups
            .iter()
            .flat_map(|&i| groups[i].runs.iter().map(move |s| s.get(m)))
            .collect();
        stats.insert(m, Stat::of(&vals)?);
        chosen.insert(m, c);
    }
    Some(Cell { stats, chosen })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sc(acc: f64) -> Scores {
        Scores {
            acc,
            nmi: acc / 2.0,
            nmi_arith: 0.0,
            purity: 0.0,
            ari: 0.0,
            time: 0.0,
        }
    }

    fn groups() -> Vec<Group> {
        // (grid point, kernel, ACC of the two runs)
        [
            (0, 0, 60.0, 70.0),
            (1, 0, 80.0, 80.0),
            (0, 1, 90.0, 90.0),
            (1, 1, 90.0, 90.0),
        ]
        .into_iter()
        .map(|(point, kernel, a, b)| Group {
            point,
            kernel: Some(kernel),
            runs: vec![sc(a), sc(b)],
        })
        .collect()
    }

    /// The cell of [`groups`] under `rule`, selecting by ACC.
    fn cell(rule: SummaryRule, per_metric: bool, metrics: &[Metric]) -> Cell {
        summarise(&groups(), rule, Metric::Acc, per_metric, metrics).unwrap()
    }

    #[test]
    fn stat_uses_sample_std() {
        let s = Stat::of(&[1.0, 2.0, 3.0]).unwrap();
        assert_eq!((s.mean, s.std, s.n), (2.0, 1.0, 3));
        assert_eq!(Stat::of(&[5.0]).unwrap().std, 0.0);
        assert!(Stat::of(&[]).is_none());
    }

    #[test]
    fn best_takes_the_best_mean_and_the_lowest_index_on_ties() {
        let c = cell(SummaryRule::Best, false, &[Metric::Acc, Metric::Error]);
        assert_eq!(c.chosen[&Metric::Acc].groups, vec![2]);
        assert_eq!(c.stats[&Metric::Acc].mean, 90.0);
        assert_eq!(c.stats[&Metric::Error].mean, 10.0);
        // Error picked per metric: the lowest error is the same group.
        let c = cell(SummaryRule::Best, true, &[Metric::Error]);
        assert_eq!(c.chosen[&Metric::Error].groups, vec![2]);
    }

    #[test]
    fn average_pools_the_best_point_of_each_kernel() {
        let c = cell(SummaryRule::Average, false, &[Metric::Acc]);
        assert_eq!(c.chosen[&Metric::Acc].groups, vec![1, 2]);
        let s = c.stats[&Metric::Acc];
        assert_eq!((s.mean, s.n), (85.0, 4));
        assert!((s.std - (100.0f64 / 3.0).sqrt()).abs() < 1e-12);
    }
}
