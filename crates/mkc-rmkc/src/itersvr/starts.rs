//! Fits from given starts for several seeds at once ([`IterSvr::fit_with_starts`]), one
//! fit per distinct start on the kernel path.
//!
//! On the kernel path a run depends on its start alone (the SVRs and the relabelling
//! are deterministic), and kernel k-means restarts often land on the same partition: in
//! the records of RMKC's Table 2 (full profile, 30 restarts per job), 3514 of the 4040
//! iterSVR run-seconds were spent repeating a trajectory that another restart of the
//! same job had already made (Satellite, σ = 0.5·range, C = 100: 2 distinct starts in
//! 30); in LG-MMC's Table 2 (10 restarts), 2524 of 7269.

use super::{targets, IterSvr, IterSvrDiagnostics, KernelStep};
use mkc_core::{check_binary, Clustering, Error, KernelSet, Result, Timings};
use mkc_svm::CheckedKernel;
use rayon::prelude::*;
use std::collections::HashMap;
use std::time::Instant;

type Fit = Result<Clustering<IterSvrDiagnostics>>;

impl IterSvr {
    /// [`IterSvr::fit_with_start`] for every seed (`starts[r]` the start of `seeds[r]`),
    /// in parallel and in seed order, with the same results bit for bit. On the kernel
    /// path seeds whose starts are equal share one fit (module docs): each gets a copy
    /// whose phases are the fit's and whose wall time is an equal share of it (the
    /// convention of restarts that share work), and the kernel is checked once for all.
    /// On the linear path, where the seed also drives the epochs, every seed fits on its
    /// own. A seed whose start is invalid gets its own fit's error.
    ///
    /// # Errors
    /// Per seed, those of [`IterSvr::fit_with_start`]; every seed gets
    /// [`Error::Shape`] when `starts` and `seeds` differ in length.
    pub fn fit_with_starts(
        &self,
        data: &KernelSet<'_>,
        n_clusters: usize,
        seeds: &[u64],
        starts: &[Vec<usize>],
    ) -> Vec<Fit> {
        if starts.len() != seeds.len() {
            return seeds
                .iter()
                .map(|_| {
                    Err(Error::shape(
                        "starts",
                        format!("one per seed ({})", seeds.len()),
                        starts.len().to_string(),
                    ))
                })
                .collect();
        }
        let each = || -> Vec<Fit> {
            seeds
                .par_iter()
                .zip(starts)
                .map(|(&s, start)| self.fit_with_start(data, n_clusters, s, start))
                .collect()
        };
        if seeds.len() < 2 || check_binary("itersvr", data, n_clusters).is_err() {
            return each();
        }
        if self.linear_path(data) {
            return each();
        }
        let Ok(k) = data.one_kernel("itersvr") else {
            return each();
        };
        let t0 = Instant::now();
        let Ok(ck) = CheckedKernel::new(k.as_mat()) else {
            return each();
        };
        let check = t0.elapsed().as_secs_f64();
        // The first seed of every distinct start, and each seed's.
        let mut first: HashMap<&[usize], usize> = HashMap::new();
        let owner: Vec<usize> = starts
            .iter()
            .enumerate()
            .map(|(r, s)| *first.entry(s.as_slice()).or_insert(r))
            .collect();
        let distinct: Vec<usize> = (0..seeds.len()).filter(|&r| owner[r] == r).collect();
        let fits: Vec<Fit> = distinct
            .par_iter()
            .map(|&r| self.fit_checked(&ck, data.n(), &starts[r]))
            .collect();
        // Per first seed: its fit's place in `fits` and how many seeds share it.
        let (mut slot, mut members) = (vec![usize::MAX; seeds.len()], vec![0usize; seeds.len()]);
        for (d, &r) in distinct.iter().enumerate() {
            slot[r] = d;
        }
        for &o in &owner {
            members[o] += 1;
        }
        (0..seeds.len())
            .map(|r| match &fits[slot[owner[r]]] {
                Ok(fit) => {
                    let mut copy = fit.clone();
                    let m = members[owner[r]] as f64;
                    copy.timings.set_wall((fit.timings.wall() + check) / m);
                    Ok(copy)
                }
                // The seed's own error (a start that fails its checks fails alike).
                Err(_) => self.fit_with_start(data, n_clusters, seeds[r], &starts[r]),
            })
            .collect()
    }

    /// [`IterSvr::fit_with_start`] on the kernel path with the kernel already checked.
    fn fit_checked(&self, ck: &CheckedKernel<'_>, n: usize, start: &[usize]) -> Fit {
        let t0 = Instant::now();
        mkc_core::validate::len("start", start.len(), n)?;
        if let Some(i) = start.iter().position(|&l| l > 1) {
            return Err(Error::input(
                "start",
                format!("label {} at index {i} is not 0 or 1", start[i]),
            ));
        }
        self.run(
            &mut KernelStep::new(self, ck),
            targets(start),
            Timings::default(),
            t0,
        )
    }
}
