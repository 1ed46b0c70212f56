//! Work that jobs of one unit share ([`Method::shared_key`]), such as MVKKM's global
//! kernel k-means start, which every point of its grid over p would otherwise compute
//! again: computed once per (method, kernel, key, seeds) for the jobs not on record, before the
//! unit's jobs run, and handed to each of them with an equal share of its seconds.
//!
//! Only work that at least two pending jobs use is computed here (one job computes its
//! own, as without sharing). The computations run in parallel with rayon (each may use
//! rayon itself: global kernel k-means runs its candidates in parallel) and no job starts
//! before all of them end. When one fails, its jobs run without it and report their own
//! errors.

use super::jobs::{input_of, job_seeds, point_params, Job, Recorded};
use crate::config::Plan;
use crate::dataset::Prepared;
use crate::methods::{self, Method, SharedWork};
use rayon::prelude::*;
use std::time::Instant;

/// The shared work of every job (`None`: the job computes everything itself).
pub(super) fn prepare(
    plan: &Plan,
    jobs: &[Job<'_>],
    recorded: &[Option<Recorded>],
    data: &Prepared,
) -> Vec<Option<SharedWork>> {
    // (method, kernel, key, seeds) -> the pending jobs that use it, in job order
    type Id = (&'static str, Option<usize>, String, Vec<u64>);
    let mut groups: Vec<(Id, &'static dyn Method, Vec<usize>)> = Vec::new();
    for (j, job) in jobs.iter().enumerate() {
        if recorded[j].is_some() {
            continue;
        }
        let Some(method) = job.col.method.as_deref().and_then(methods::find) else {
            continue;
        };
        let Some(key) = method.shared_key(point_params(job.col, &data.key, job.point)) else {
            continue;
        };
        let id = (method.name(), job.kernel, key, job_seeds(plan, job));
        match groups.iter_mut().find(|g| g.0 == id) {
            Some((_, _, users)) => users.push(j),
            None => groups.push((id, method, vec![j])),
        }
    }
    // The groups' work in parallel (each may use rayon itself), in group order.
    let made: Vec<(Vec<usize>, Option<SharedWork>)> = groups
        .into_par_iter()
        .filter(|g| g.2.len() > 1)
        .map(|(_, method, users)| {
            let first = &jobs[users[0]];
            let t0 = Instant::now();
            let value = method.shared_work(
                &input_of(first, data),
                point_params(first.col, &data.key, first.point),
                &job_seeds(plan, first),
            );
            let share = t0.elapsed().as_secs_f64() / users.len() as f64;
            let work = value.ok().map(|value| SharedWork { value, share });
            (users, work)
        })
        .collect();
    let mut out = vec![None; jobs.len()];
    for (users, work) in made {
        for j in users {
            out[j] = work.clone();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{parse_config, resolve};
    use crate::dataset::{DataSource, RawData, RawFeatures};
    use crate::runner::jobs::{jobs, units};
    use crate::runner::prepare_dataset;
    use faer::Mat;
    use mkc_core::ParamGuard;
    use std::sync::Arc;

    struct Toy;

    impl DataSource for Toy {
        fn contains(&self, name: &str) -> bool {
            name == "toy"
        }
        fn load(&self, _name: &str) -> mkc_core::Result<RawData> {
            let n = 24;
            let view = |d: usize, salt: usize| {
                Mat::from_fn(n, d, |i, j| {
                    ((i * 31 + j * 17 + salt) % 11) as f64 / 4.0 + 3.0 * (i % 2) as f64
                })
            };
            Ok(RawData {
                features: RawFeatures::Views(vec![
                    ("a".into(), view(3, 1)),
                    ("b".into(), view(2, 5)),
                ]),
                labels: (0..n).map(|i| i % 2).collect(),
                class_names: vec!["x".into(), "y".into()],
            })
        }
    }

    const CONFIG: &str = r#"
title = "shared"
seeds = [1]
restarts = 2
[recipes.r]
kernels = [{ kind = "linear" }, { kind = "gaussian", sigma_median_ratio = [1.0] }]
[datasets.toy]
recipe = "r"
[tables.t]
title = "T"
datasets = ["toy"]
columns = [
  { id = "mvkkm", label = "MVKKM", method = "mvkkm", grid = { p = [1.5, 2.0, 3.0] } },
  { id = "fast", label = "MVKKM fast", method = "mvkkm", grid = { p = [2.0, 4.0], init = ["fast-global"] } },
  { id = "one", label = "MVKKM one p", method = "mvkkm", grid = { p = [5.0], max_iter = [7] } },
  { id = "kkm", label = "KKM", method = "kkm", grid = { n_init = [1, 2] } },
  { id = "lgmmc", label = "LG-MMC", method = "lgmmc", grid = { C = [1.0, 10.0] } },
  { id = "itersvr", label = "IterSVR", method = "itersvr", grid = { C = [1.0, 10.0] } },
  { id = "rmkc", label = "RMKC", method = "rmkc", params = { p = "1" }, grid = { C = [1.0, 10.0] } },
  { id = "rmkc-none", label = "RMKC none", method = "rmkc", params = { p = "none" }, grid = { C = [1.0, 10.0] } },
  { id = "rmkc-l2", label = "RMKC 2", method = "rmkc", params = { p = "2" }, grid = { C = [1.0] } },
  { id = "lkam", label = "LKAM", method = "lkam", grid = { tau = [0.2, 0.5], lambda = [0.5, 1.0, 2.0] } },
]
"#;

    /// The shared work of the pending jobs: one start per (init, kernels), every p of a
    /// grid given the same value and an equal share of its time; nothing for methods
    /// without shared work, for a key only one pending job uses, or for recorded jobs.
    #[test]
    fn grid_points_with_one_start_share_it_once() {
        let cfg = parse_config("shared.toml", CONFIG).unwrap();
        let plan = resolve("shared.toml", &cfg, "full", &|n| n == "toy").unwrap();
        let key = "toy".to_string();
        let data = prepare_dataset(&plan, &Toy, &key).unwrap();
        let unit = units(&plan, &key).remove(0);
        let list = jobs(&unit.specs, data.kernels.len());
        let what: Vec<(&str, usize)> = list.iter().map(|j| (j.col.id.as_str(), j.point)).collect();
        // kkm, lgmmc and itersvr: one job per kernel (two per view) and point
        assert_eq!(data.kernels.len(), 4);
        assert_eq!(list.len(), 3 + 2 + 1 + 3 * 2 * 4 + 5 + 6, "{what:?}");
        let none = vec![None; list.len()];
        let shared = prepare(&plan, &list, &none, &data);
        let of = |id: &str| -> Vec<Option<SharedWork>> {
            list.iter()
                .zip(&shared)
                .filter(|(j, _)| j.col.id == id)
                .map(|(_, s)| s.clone())
                .collect()
        };
        // The global start (mvkkm and, with the same key, the p = 5 column: its max_iter
        // does not matter to the start) is one value in all four jobs.
        let global: Vec<SharedWork> = of("mvkkm").into_iter().chain(of("one")).flatten().collect();
        assert_eq!(global.len(), 4);
        for s in &global {
            assert!(Arc::ptr_eq(&s.value, &global[0].value));
            assert_eq!(s.share, global[0].share);
            assert!(s.share >= 0.0);
        }
        let fast: Vec<SharedWork> = of("fast").into_iter().flatten().collect();
        assert_eq!(fast.len(), 2);
        assert!(!Arc::ptr_eq(&fast[0].value, &global[0].value));
        assert!(Arc::ptr_eq(&fast[0].value, &fast[1].value));
        assert!(of("kkm").iter().all(Option::is_none));
        // LG-MMC and IterSVR: one value per kernel (and seed list), shared by both C: the
        // features of each seed, the k-means start of each seed.
        for id in ["lgmmc", "itersvr"] {
            let per_kernel: Vec<(Option<usize>, SharedWork)> = list
                .iter()
                .zip(&shared)
                .filter(|(j, _)| j.col.id == id)
                .map(|(j, s)| (j.kernel, s.clone().unwrap()))
                .collect();
            assert_eq!(per_kernel.len(), 8);
            for (ka, a) in &per_kernel {
                for (kb, b) in &per_kernel {
                    assert_eq!(
                        ka == kb,
                        Arc::ptr_eq(&a.value, &b.value),
                        "{id} {ka:?} {kb:?}"
                    );
                }
                let seeds = match id {
                    "lgmmc" => a
                        .value
                        .downcast_ref::<Vec<Option<Mat<f64>>>>()
                        .unwrap()
                        .len(),
                    _ => a.value.downcast_ref::<Vec<Vec<usize>>>().unwrap().len(),
                };
                assert_eq!(seeds, 2, "{id}: two restarts of seed 1");
            }
        }
        // RMKC: one initial split per C (and seed list) for the 1-norm and no norm (the
        // same θ⁽⁰⁾); the 2-norm's single job computes its own.
        let (one, none_) = (of("rmkc"), of("rmkc-none"));
        for c in 0..2 {
            let (a, b) = (one[c].clone().unwrap(), none_[c].clone().unwrap());
            assert!(Arc::ptr_eq(&a.value, &b.value), "C point {c}");
            let splits = a
                .value
                .downcast_ref::<Vec<mkc_rmkc::InitialSplit>>()
                .unwrap();
            assert_eq!(splits.len(), 2, "two restarts of seed 1");
        }
        assert!(!Arc::ptr_eq(
            &one[0].as_ref().unwrap().value,
            &one[1].as_ref().unwrap().value
        ));
        assert!(of("rmkc-l2").iter().all(Option::is_none));
        // LKAM: one structure per τ, shared by its three λ (two values, three jobs each).
        let lkam: Vec<SharedWork> = of("lkam").into_iter().flatten().collect();
        assert_eq!(lkam.len(), 6);
        let users = |v: &SharedWork| {
            lkam.iter()
                .filter(|s| Arc::ptr_eq(&s.value, &v.value))
                .count()
        };
        assert!(lkam.iter().all(|s| users(s) == 3));
        assert!(lkam[0]
            .value
            .downcast_ref::<mkc_mkkm::LocalStructure>()
            .is_some());
        // It is the start a fit computes for itself.
        let start = global[0].value.downcast_ref::<Vec<usize>>().unwrap();
        let own = mkc_gumkl::MvkkmParams::new()
            .check()
            .unwrap()
            .initial_partition(&input_of(&list[0], &data).kernel_set().unwrap(), 2)
            .unwrap();
        assert_eq!(start, &own);

        // The fast grid with one point on record: its other point computes its own.
        let mut recorded = none.clone();
        let first_fast = list.iter().position(|j| j.col.id == "fast").unwrap();
        recorded[first_fast] = Some(Vec::new());
        let again = prepare(&plan, &list, &recorded, &data);
        assert!(again[first_fast].is_none() && again[first_fast + 1].is_none());
        assert_eq!(again.iter().flatten().count(), 4 + 8 + 8 + 4 + 6);
    }
}
