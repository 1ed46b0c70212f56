//! The cells of one dataset row: per table and column, the summary of the column's
//! spec, the setting the grid search chose, and the run shown in figures.

use super::collect::{DatasetRuns, SpecRuns};
use super::jobs::Job;
use super::ColumnReport;
use crate::config::{PlanColumn, PlanTable};
use crate::dataset::Prepared;
use crate::summary::summarise;

/// Describes the chosen grid point / kernel for the notes ("C=1; kernel 3 `gauss`").
fn describe_choice(
    col: &PlanColumn,
    jobs: &[&Job<'_>],
    groups: &[usize],
    data: &Prepared,
) -> String {
    if groups.len() > 1 {
        return format!("average over {} kernels", groups.len());
    }
    let mut parts = Vec::new();
    for &g in groups {
        let job = jobs[g];
        let mut s = if col.grid_keys.is_empty() {
            String::new()
        } else {
            col.points[job.point].describe(&col.grid_keys)
        };
        if let Some(p) = job.kernel {
            let k = format!("kernel {} `{}`", p + 1, data.kernel_names[p]);
            s = if s.is_empty() { k } else { format!("{s}; {k}") };
        }
        if let Some(r) = &data.recipe {
            let k = format!("recipe `{r}`");
            s = if s.is_empty() {
                k
            } else {
                format!("{s} of {k}")
            };
        }
        if !s.is_empty() {
            parts.push(s);
        }
    }
    parts.join(" | ")
}

impl DatasetRuns<'_> {
    /// The report of column `ci` of table `t` (index `ti`).
    fn column_report(
        &self,
        spec_runs: &[SpecRuns],
        t: &PlanTable,
        (ti, ci): (usize, usize),
    ) -> ColumnReport {
        let col = &t.columns[ci];
        let mut report = ColumnReport::empty(&col.id);
        let Some(si) = self.specs.iter().position(|s| s.users.contains(&(ti, ci))) else {
            return report;
        };
        let sr = &spec_runs[si];
        report.error = sr.first_error.clone();
        report.cell = summarise(
            &sr.groups,
            col.summary,
            col.select,
            col.per_metric,
            &t.metrics,
        );
        let choice = report.cell.as_ref().and_then(|c| {
            c.chosen
                .get(&col.select)
                .or_else(|| c.chosen.values().next())
        });
        if let Some(ch) = choice {
            let job_refs: Vec<&Job<'_>> = sr.jobs.iter().map(|&j| &self.jobs[j]).collect();
            // the first run of the chosen group, run now or taken from the records
            let j = sr.jobs[ch.groups[0]];
            report.example = match (&self.results[j], &self.recorded[j]) {
                (Some(r), _) => r.outcomes.first().and_then(|o| o.as_ref().ok()).cloned(),
                (None, Some(rec)) => rec
                    .first()
                    .and_then(|o| o.as_ref().ok())
                    .map(|o| o.1.clone()),
                (None, None) => None,
            };
            report.chosen = Some(describe_choice(col, &job_refs, &ch.groups, self.data));
        }
        report
    }

    /// The report of every column whose runs are in these specs, by (table index,
    /// column index).
    pub fn column_reports(&self, spec_runs: &[SpecRuns]) -> Vec<super::CellReport> {
        let mut out = Vec::new();
        for spec in &self.specs {
            for &(ti, ci) in &spec.users {
                let t = &self.plan.tables[ti];
                out.push(((ti, ci), self.column_report(spec_runs, t, (ti, ci))));
            }
        }
        out
    }
}
