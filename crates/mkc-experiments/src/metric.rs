//! The metrics a table can show, scored with `mkc-metrics` against the true labels.

use serde::{Deserialize, Serialize};

/// A metric of a table cell. Scores in [0, 1] are shown as percentages, as the papers do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Metric {
    /// Clustering accuracy: best one-to-one matching (Hungarian), in %.
    Acc,
    /// Clustering error, 100 − ACC (LG-MMC's tables), in %.
    Error,
    /// NMI normalised by max(H(U), H(V)) (the SimpleMKKM authors' code), in %.
    Nmi,
    /// NMI normalised by the arithmetic mean of the entropies (scikit-learn), in %.
    NmiArith,
    /// Purity, in %.
    Purity,
    /// Adjusted Rand index, in %.
    Ari,
    /// Wall-clock seconds of one run (never in snapshots).
    Time,
}

impl Metric {
    /// All metrics, in display order.
    pub const ALL: [Metric; 7] = [
        Metric::Acc,
        Metric::Error,
        Metric::Nmi,
        Metric::NmiArith,
        Metric::Purity,
        Metric::Ari,
        Metric::Time,
    ];

    /// The config / JSON name.
    pub fn key(self) -> &'static str {
        match self {
            Metric::Acc => "acc",
            Metric::Error => "error",
            Metric::Nmi => "nmi",
            Metric::NmiArith => "nmi-arith",
            Metric::Purity => "purity",
            Metric::Ari => "ari",
            Metric::Time => "time",
        }
    }

    /// Heading used in the Markdown.
    pub fn heading(self) -> &'static str {
        match self {
            Metric::Acc => "ACC (%)",
            Metric::Error => "Clustering error (%)",
            Metric::Nmi => "NMI (%, max normalisation)",
            Metric::NmiArith => "NMI (%, arithmetic normalisation)",
            Metric::Purity => "Purity (%)",
            Metric::Ari => "ARI (%)",
            Metric::Time => "Wall-clock time (s)",
        }
    }

    /// Whether larger is better (for picking the best grid point).
    pub fn higher_is_better(self) -> bool {
        !matches!(self, Metric::Error | Metric::Time)
    }
}

/// All scores of one run, as percentages (time in seconds).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Scores {
    /// ACC (%).
    pub acc: f64,
    /// NMI, max normalisation (%).
    pub nmi: f64,
    /// NMI, arithmetic normalisation (%).
    pub nmi_arith: f64,
    /// Purity (%).
    pub purity: f64,
    /// ARI (%).
    pub ari: f64,
    /// Wall-clock seconds of the run.
    pub time: f64,
}

impl Scores {
    /// Score predicted labels against the truth; `time` is the run's wall time in s.
    pub fn compute(truth: &[usize], pred: &[usize], time: f64) -> mkc_core::Result<Self> {
        let s = mkc_metrics::score_all(truth, pred)?;
        Ok(Scores {
            acc: 100.0 * s.acc,
            nmi: 100.0 * s.nmi_max,
            nmi_arith: 100.0 * s.nmi_arith,
            purity: 100.0 * s.purity,
            ari: 100.0 * s.ari,
            time,
        })
    }

    /// The value of one metric.
    pub fn get(&self, m: Metric) -> f64 {
        match m {
            Metric::Acc => self.acc,
            Metric::Error => 100.0 - self.acc,
            Metric::Nmi => self.nmi,
            Metric::NmiArith => self.nmi_arith,
            Metric::Purity => self.purity,
            Metric::Ari => self.ari,
            Metric::Time => self.time,
        }
    }
}
