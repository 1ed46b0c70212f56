//! The method registry: every clustering method the configs and the `mkc` CLI can run.
//!
//! # Adding a method (the adapter contract)
//!
//! 1. Declare the method's parameters once, in its crate, with `mkc_core::params!` (each
//!    field's doc says where its default comes from: the paper, the authors' code, a
//!    grid); option enums get their config words with `mkc_core::param_words!`.
//! 2. Write `src/methods/<method>.rs` with the `adapter!` macro: the config / `--method`
//!    name, one line for `mkc cluster --help`, and `reflect XParams => [setter, …]`, the
//!    setters a config may set (renamed with `= "key"`, a protocol default with `: "…"`).
//!    Their names, kinds, defaults and docs become the config keys of `params`/`grid` and
//!    the `mkc cluster --<name>` flags ([`Method::params`]); the adapter only maps the
//!    [`ParamSet`] to the builder ([`Method::build`]), and `check`, `run` and
//!    `run_restarts` come from the method API ([`mkc_core::Clusterer`]: restarts that
//!    share deterministic work share it there). Mark single-kernel methods with
//!    `; kernels = KernelUse::Single` ([`KernelUse`]).
//! 3. Register it: `mod <method>;` below and one line in [`all`].
//! 4. Add its tables to `configs/<paper>.toml` (columns with `method = "<name>"`), paper
//!    values included; `cargo xtask reproduce <paper>` and the snapshot test pick them up.

use crate::params::{ParamSet, ParamSpec};
use faer::{Mat, MatRef};
use mkc_core::{Clustering, DiagnosticList, DynClusterer, Error, KernelSet, Result};
use serde::Serialize;

/// Declare a method adapter: a unit struct and its [`Method`] impl, which only names the
/// method and maps a [`ParamSet`] to the method's unchecked parameters.
///
/// The usual form reflects the builder ([`mkc_core::params::Reflect`], which
/// `mkc_core::params!` implements): it names the builder type and the setters a config
/// may set; each setter's key (its name, or the one written after `=`), kind, default and
/// help come from the builder's declaration, each setter receives the parameter of its
/// key as the type it takes ([`ParamSet::get`]). A default written after `:` replaces the
/// builder's (a paper's protocol against a library default); `+ EXTRA` appends further
/// [`ParamSpec`]s that an optional `then |b, p| …` reads to finish the builder; an
/// optional `; kernels = KernelUse::Single` follows, and an optional `; extra { … }` with
/// further [`Method`] items (e.g. shared work, [`Method::shared_key`]) comes last. The
/// form also gives the adapter `fn builder(&ParamSet) -> Result<XParams>`, the typed
/// builder that [`Method::build`] boxes, for those items:
///
/// ```ignore
/// adapter! {
///     /// RMKC.
///     Rmkc, "rmkc", "RMKC: ratio-based MKC",
///     reflect RmkcParams => [c = "C", l = "L", balance, norm = "p", max_iter: "50"]
/// }
/// ```
///
/// The short form takes the table as an expression instead, and builds with the setters
/// named (`PARAMS, RmkcParams::new() => [c = "C", …] then |b, p| …`); the closure form
/// takes the table and a closure `|p| builder` (the body may use `?`), with an optional
/// `kernels = KernelUse::Single,` after the table.
macro_rules! adapter {
    (@key $set:ident $key:literal) => {
        $key
    };
    (@key $set:ident) => {
        stringify!($set)
    };
    (@default $default:literal) => {
        Some($default)
    };
    (@default) => {
        None::<&str>
    };
    (
        $(#[$doc:meta])* $ty:ident, $name:literal, $about:literal,
        reflect $pty:ident $(+ $extra:expr)? =>
            [$($set:ident $(= $key:literal)? $(: $default:literal)?),* $(,)?]
        $(then |$b:ident, $q:ident| $post:expr)? $(; kernels = $kernels:expr)?
        $(; extra { $($more:item)* })? $(,)?
    ) => {
        impl $ty {
            /// The method's builder for a parameter set (what [`Method::build`] boxes).
            #[allow(dead_code)]
            pub(crate) fn builder(p: &$crate::params::ParamSet) -> mkc_core::Result<$pty> {
                let built = $pty::new();
                $(let built = built.$set(p.get(adapter!(@key $set $($key)?))?);)*
                $(let ($b, $q) = (built, p); let built = $post;)?
                Ok(built)
            }
        }
        adapter! {
            $(#[$doc])* $ty, $name, $about,
            $crate::params::reflected::<$pty>(&[
                $((stringify!($set), adapter!(@key $set $($key)?), adapter!(@default $($default)?))),*
            ])
            .into_iter()
            $(.chain($extra))?
            .collect::<Vec<_>>(),
            $(kernels = $kernels,)? |p| $ty::builder(p)?;
            extra { $($($more)*)? fn defaults_differing(&self) -> mkc_core::Result<Vec<&'static str>> {
                let p = $crate::params::ParamSet::from_specs(&self.params(), &Default::default())?;
                let d = $pty::new();
                let mut out = Vec::new();
                $(
                    let key = adapter!(@key $set $($key)?);
                    if adapter!(@default $($default)?).is_none() && d.clone().$set(p.get(key)?) != d {
                        out.push(key);
                    }
                )*
                Ok(out)
            } }
        }
    };
    (
        $(#[$doc:meta])* $ty:ident, $name:literal, $about:literal,
        $params:expr, $(kernels = $kernels:expr,)? |$p:ident| $build:expr $(; extra { $($item:item)* })? $(,)?
    ) => {
        $(#[$doc])*
        pub struct $ty;

        impl $crate::methods::Method for $ty {
            fn name(&self) -> &'static str {
                $name
            }
            fn about(&self) -> &'static str {
                $about
            }
            fn params(&self) -> Vec<$crate::params::ParamSpec> {
                // Built once (a reflected table's text is allocated once).
                static SPECS: std::sync::OnceLock<Vec<$crate::params::ParamSpec>> =
                    std::sync::OnceLock::new();
                SPECS.get_or_init(|| $params.to_vec()).clone()
            }
            $(fn kernels(&self) -> $crate::methods::KernelUse {
                $kernels
            })?
            fn build(
                &self,
                $p: &$crate::params::ParamSet,
            ) -> mkc_core::Result<Box<dyn mkc_core::DynClusterer>> {
                // The body may use `?` on the parameter set's typed getters.
                let built = (|| -> mkc_core::Result<_> { Ok($build) })()?;
                Ok(Box::new(built))
            }
            $($($item)*)?
        }
    };
    (
        $(#[$doc:meta])* $ty:ident, $name:literal, $about:literal, $params:expr,
        $new:expr => [$($set:ident $(= $key:literal)?),* $(,)?]
        $(then |$b:ident, $q:ident| $post:expr)? $(; kernels = $kernels:expr)? $(; extra { $($item:item)* })? $(,)?
    ) => {
        adapter! {
            $(#[$doc])* $ty, $name, $about, $params, $(kernels = $kernels,)?
            |p| {
                let built = $new;
                $(let built = built.$set(p.get(adapter!(@key $set $($key)?))?);)*
                $(let ($b, $q) = (built, p); let built = $post;)?
                built
            } $(; extra { $($item)* })?
        }
    };
}

/// [`Method::shared_key`] from the unchecked parameters `b` of an adapter: `key |b| …`
/// gives an `Option` of anything `Debug`, whose text is the key (jobs with equal keys share
/// the work).
macro_rules! shared_key_by {
    ($adapter:ident, |$b:ident| $key:expr) => {
        fn shared_key(&self, params: &$crate::params::ParamSet) -> Option<String> {
            #[allow(unused_imports)]
            use mkc_core::ParamGuard as _;
            let $b = $adapter::builder(params).ok()?;
            let key: Option<_> = $key;
            key.map(|k| format!("{k:?}"))
        }
    };
}

/// The [`Method`] items of work made once for a group of jobs (not per seed) and shared by
/// them, for an adapter's `extra { … }` block: the key `key |b| …` of the unchecked
/// parameters `b` (as in [`shared_per_seed!`]), the work `work |b, set, n_clusters| …` (a
/// `Result<T>`), and a job's runs `runs |b, set, n_clusters, seeds, work: &T| …` (a
/// `Result` of the runs as `Clustering<DiagnosticList>`), charged their share of the work
/// in phase `phase`. Without the work (another type) the job runs on its own.
///
/// ```text
/// extra { shared_per_job! { Lkam, "preprocess", LocalStructure,
///     key |b| Some(b.lambda(1.0)),
///     work |b, set, _k| b.check()?.local_structure(set),
///     runs |b, set, k, seeds, st| Ok(erased(b.check()?.fit_restarts_with(set, k, seeds, st))) } }
/// ```
macro_rules! shared_per_job {
    (
        $adapter:ident, $phase:literal, $work_ty:ty,
        key |$kb:ident| $key:expr,
        work |$wb:ident, $wset:ident, $wk:ident| $work:expr,
        runs |$rb:ident, $rset:ident, $rk:ident, $rseeds:ident, $w:ident| $runs:expr $(,)?
    ) => {
        shared_key_by! { $adapter, |$kb| $key }
        fn shared_work(
            &self,
            input: &$crate::methods::Input<'_>,
            params: &$crate::params::ParamSet,
            _seeds: &[u64],
        ) -> mkc_core::Result<$crate::methods::SharedValue> {
            #[allow(unused_imports)]
            use mkc_core::ParamGuard as _;
            let $wb = $adapter::builder(params)?;
            let set = input.kernel_set()?;
            let ($wset, $wk) = (&set, input.n_clusters);
            let value: $work_ty = $work?;
            Ok(std::sync::Arc::new(value))
        }
        fn run_restarts_shared(
            &self,
            input: &$crate::methods::Input<'_>,
            params: &$crate::params::ParamSet,
            seeds: &[u64],
            shared: &$crate::methods::SharedWork,
        ) -> Vec<mkc_core::Result<$crate::methods::Outcome>> {
            #[allow(unused_imports)]
            use mkc_core::ParamGuard as _;
            let Some($w) = shared.value.downcast_ref::<$work_ty>() else {
                return self.run_restarts(input, params, seeds);
            };
            let fitted = $adapter::builder(params).and_then(|$rb| {
                let set = input.kernel_set()?;
                let ($rset, $rk, $rseeds) = (&set, input.n_clusters, seeds);
                $runs
            });
            let mut runs = $crate::methods::outcomes(self.name(), fitted, seeds.len());
            $crate::methods::charge(&mut runs, shared.share, $phase);
            runs
        }
    };
}

/// The [`Method`] items of work made per seed and shared by the jobs of a grid, for an
/// adapter's `extra { … }` block: the key `key |b| …` of the unchecked parameters `b`
/// (jobs with equal keys share the work), the work of each seed
/// `|m, set, n_clusters, seed| …` on the checked method `m` (a `Result<T>`), and each run
/// `|m, set, n_clusters, seed, work: &T| …` (a fit), its share of the work charged in
/// phase `phase`; or, instead of the runs one by one, all of a job's runs at once,
/// `batch |m, set, n_clusters, seeds, works: &[T]| …` (one fit per seed, in seed order).
/// [`shared_across_c!`] is the form for a C grid.
///
/// ```text
/// extra { shared_per_seed! { Rmkc, "init", InitialSplit,
///     key |b| b.check().map(|m| m.start_params()).ok(),
///     |m, set, k, seed| m.initial_split(set, k, seed),
///     |m, set, k, _seed, split| m.fit_with_split(set, k, split) } }
/// ```
macro_rules! shared_per_seed {
    (
        $adapter:ident, $phase:literal, $work_ty:ty,
        key |$b:ident| $key:expr,
        |$m:ident, $set:ident, $k:ident, $seed:ident| $work:expr,
        |$fm:ident, $fset:ident, $fk:ident, $fseed:ident, $w:ident| $fit:expr $(,)?
    ) => {
        shared_per_seed! {
            $adapter, $phase, $work_ty,
            key |$b| $key,
            |$m, $set, $k, $seed| $work,
            batch |$fm, set, $fk, seeds, works| $crate::methods::each_seed(
                set, seeds, works,
                |$fset: &mkc_core::KernelSet<'_>, $fseed: u64, $w: &$work_ty| $fit,
            ),
        }
    };
    (
        $adapter:ident, $phase:literal, $work_ty:ty,
        key |$b:ident| $key:expr,
        |$m:ident, $set:ident, $k:ident, $seed:ident| $work:expr,
        batch |$fm:ident, $fset:ident, $fk:ident, $fseeds:ident, $ws:ident| $runs:expr $(,)?
    ) => {
        shared_key_by! { $adapter, |$b| $key }
        fn shared_work(
            &self,
            input: &$crate::methods::Input<'_>,
            params: &$crate::params::ParamSet,
            seeds: &[u64],
        ) -> mkc_core::Result<$crate::methods::SharedValue> {
            use mkc_core::ParamGuard as _;
            let $m = $adapter::builder(params)?.check()?;
            let $k = input.n_clusters;
            $crate::methods::per_seed(input, seeds, |$set, $seed| $work)
        }
        fn run_restarts_shared(
            &self,
            input: &$crate::methods::Input<'_>,
            params: &$crate::params::ParamSet,
            seeds: &[u64],
            shared: &$crate::methods::SharedWork,
        ) -> Vec<mkc_core::Result<$crate::methods::Outcome>> {
            use mkc_core::ParamGuard as _;
            let $fk = input.n_clusters;
            $adapter::builder(params)
                .and_then(|b| b.check())
                .ok()
                .and_then(|$fm| {
                    let runs =
                        |$fset: &mkc_core::KernelSet<'_>, $fseeds: &[u64], $ws: &[$work_ty]| $runs;
                    $crate::methods::runs_per_seed(self.name(), input, seeds, shared, $phase, runs)
                })
                .unwrap_or_else(|| self.run_restarts(input, params, seeds))
        }
    };
}

/// [`shared_per_seed!`] for work that does not depend on C, shared by the jobs of a C
/// grid (the key is the parameters with C set to 1; the runs per seed or as a `batch`):
///
/// ```text
/// extra { shared_across_c! { IterSvr, "kmeans", Vec<usize>,
///     |m, set, k, seed| m.start(set, k, seed),
///     |m, set, k, seed, start| m.fit_with_start(set, k, seed, start) } }
/// ```
macro_rules! shared_across_c {
    (
        $adapter:ident, $phase:literal, $work_ty:ty,
        |$m:ident, $set:ident, $k:ident, $seed:ident| $work:expr,
        $($runs:tt)+
    ) => {
        shared_per_seed! {
            $adapter, $phase, $work_ty,
            key |b| Some(b.c(1.0)),
            |$m, $set, $k, $seed| $work,
            $($runs)+
        }
    };
}

/// Read a word parameter as an option enum of a method crate ([`Words`](mkc_core::params::Words), declared with
/// `mkc_core::param_words!`): `by_word!(Norm, ZSolver);` implements [`FromParam`](crate::params::FromParam).
macro_rules! by_word {
    ($($ty:ty),+ $(,)?) => {$(
        impl $crate::params::FromParam for $ty {
            fn from_param(set: &$crate::params::ParamSet, name: &str) -> mkc_core::Result<Self> {
                $crate::params::word::<$ty>(set, name)
            }
        }
    )+};
}

mod aasc;
mod avg_kkm;
mod cpmmc;
mod gmmc;
mod gumkl;
mod itersvr;
mod kamm;
mod kkm;
mod kmeans;
mod lf_mvc;
mod lgmmc;
mod lkam;
mod lmkkm;
mod mkkm;
mod mkkm_mm;
mod mvkkm;
mod mvspec;
mod onkc;
mod rkkm;
mod rmkc;
mod rmkkm;
mod sc;
mod scmk;
mod shared;
mod simplemkkm;

pub use avg_kkm::AvgKkm;
pub use kkm::Kkm;
pub(crate) use shared::{charge, each_seed, per_seed, runs_per_seed};
pub use shared::{SharedValue, SharedWork};

/// All registered methods, in the order `mkc cluster --help` lists them.
pub fn all() -> Vec<&'static dyn Method> {
    vec![
        &Kkm,
        &AvgKkm,
        &gumkl::Gumkl,
        &mvkkm::Mvkkm,
        &mvspec::Mvspec,
        &aasc::Aasc,
        &scmk::Scmk,
        &scmk::Scsk,
        &simplemkkm::SimpleMkkm,
        &mkkm::Mkkm,
        &simplemkkm::AvgKkmSpectral,
        &mkkm::MkkmMir,
        &onkc::Onkc,
        &lkam::Lkam,
        &kamm::KammR,
        &kamm::KammA,
        &lmkkm::Lmkkm,
        &lf_mvc::LfMvc,
        &mkkm_mm::MkkmMm,
        &rkkm::Rkkm,
        &rmkkm::Rmkkm,
        &rmkc::Rmkc,
        &itersvr::IterSvr,
        &lgmmc::Lgmmc,
        &gmmc::Gmmc,
        &cpmmc::Cpmmc,
        &kmeans::KMeans,
        &sc::Spectral,
    ]
}

/// The method registered under `name`.
pub fn find(name: &str) -> Option<&'static dyn Method> {
    all().into_iter().find(|m| m.name() == name)
}

/// The method registered under `name`, or a parameter error on `method` that lists the
/// registered names (what the CLI and the Python package report).
pub fn require(name: &str) -> Result<&'static dyn Method> {
    find(name).ok_or_else(|| {
        Error::param(
            "method",
            name,
            format!("unknown method (available: {})", names().join(", ")),
        )
    })
}

/// Names of all registered methods.
pub fn names() -> Vec<&'static str> {
    all().iter().map(|m| m.name()).collect()
}

/// How a method uses the kernel list of a dataset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum KernelUse {
    /// All kernels together (multiple kernel clustering).
    Combined,
    /// One kernel at a time: the runner calls the method once per kernel (an extra grid
    /// dimension) and tables report the best kernel or the average over kernels.
    Single,
}

/// What a method sees of a dataset.
#[derive(Clone, Copy)]
pub struct Input<'a> {
    /// The kernels (all of them for [`KernelUse::Combined`], one for [`KernelUse::Single`]).
    pub kernels: &'a [Mat<f64>],
    /// Names of those kernels (e.g. `fac/gaussian(σ=0.1·range)`).
    pub kernel_names: &'a [String],
    /// The scaled feature matrix (n x d, rows = samples) when the dataset has features
    /// (multi-view data: the views side by side); `None` for precomputed kernels.
    pub features: Option<MatRef<'a, f64>>,
    /// Number of clusters.
    pub n_clusters: usize,
    /// Number of samples.
    pub n: usize,
}

/// The result of one run.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Outcome {
    /// Cluster label of each sample (0-based).
    pub labels: Vec<usize>,
    /// Learned kernel weights, if the method learns any.
    pub weights: Option<Vec<f64>>,
    /// Objective value per iteration (empty when the method has no iterations).
    pub objective: Vec<f64>,
    /// Iterations of the outer loop.
    pub iterations: usize,
    /// Further diagnostics (name, value), e.g. `("eigensolves", 41.0)`.
    pub diagnostics: Vec<(String, f64)>,
    /// Wall-clock seconds of this run. The default `run_restarts` measures it; an
    /// override that shares work between restarts should charge each run its share.
    /// Left at 0, the runner charges each run an equal share of the batch.
    pub seconds: f64,
    /// Whether the method's stopping rule was met.
    pub converged: bool,
    /// Wall-clock seconds by phase (`Clustering::timings`).
    pub phases: Vec<(String, f64)>,
}

impl From<Clustering<DiagnosticList>> for Outcome {
    fn from(c: Clustering<DiagnosticList>) -> Self {
        Outcome {
            weights: c.weights().map(<[f64]>::to_vec),
            phases: c
                .timings
                .phases()
                .iter()
                .map(|&(p, s)| (p.to_string(), s))
                .collect(),
            seconds: c.timings.wall(),
            converged: c.converged,
            labels: c.labels,
            objective: c.objective,
            iterations: c.iterations,
            diagnostics: c.diagnostics,
        }
    }
}

impl Input<'_> {
    /// The input as a validated [`KernelSet`] (kernels named, features attached).
    pub fn kernel_set(&self) -> Result<KernelSet<'_>> {
        let set = if self.kernels.is_empty() {
            match self.features {
                Some(x) => KernelSet::from_features(x)?,
                None => return Err(Error::input("input", "no kernels and no features")),
            }
        } else {
            let set = KernelSet::new(self.kernels)?.with_names(self.kernel_names.to_vec())?;
            match self.features {
                Some(x) => set.with_features(x)?,
                None => set,
            }
        };
        Ok(set)
    }
}

/// A clustering method as the experiments and the CLI see it. See the module docs.
pub trait Method: Send + Sync {
    /// Registry name (`--method NAME`, `method = "NAME"`).
    fn name(&self) -> &'static str;
    /// One line shown by `mkc cluster --help`.
    fn about(&self) -> &'static str;
    /// Hyperparameters with the paper's defaults.
    fn params(&self) -> Vec<ParamSpec>;
    /// How the method uses the kernels.
    fn kernels(&self) -> KernelUse {
        KernelUse::Combined
    }
    /// The method's parameters (unchecked) built from a parameter set: the adapter's one
    /// job. The returned value fits through the workspace's method API
    /// ([`mkc_core::Clusterer`]).
    fn build(&self, _params: &ParamSet) -> Result<Box<dyn DynClusterer>> {
        Err(Error::input(self.name(), "not yet on the method API"))
    }
    /// The keys whose declared default does not give the method builder's own default
    /// (defaults replaced on purpose excepted): empty for every registered method, which
    /// the registry's tests check. Adapters that do not reflect their builder return an
    /// empty list.
    #[doc(hidden)]
    fn defaults_differing(&self) -> Result<Vec<&'static str>> {
        Ok(Vec::new())
    }
    /// Reject impossible parameter values (called for every grid point when a config is
    /// checked and before every CLI run). The error should be `Error::InvalidParam`
    /// naming the parameter.
    fn check(&self, params: &ParamSet) -> Result<()> {
        self.build(params)?.validate_params_dyn()
    }
    /// One run with one seed.
    fn run(&self, input: &Input<'_>, params: &ParamSet, seed: u64) -> Result<Outcome> {
        self.run_restarts(input, params, &[seed])
            .pop()
            .unwrap_or_else(|| Err(Error::input(self.name(), "no run")))
    }
    /// Deterministic work that runs of this method with other parameters share on the same
    /// input and seeds, such as MVKKM's global kernel k-means start (the same for every p)
    /// or LG-MMC's features (the same for every C): a key naming it, equal for equal work,
    /// or `None` (the default) when `params` need none. The runner computes the work once
    /// per dataset unit, kernel, key and seed list ([`Method::shared_work`]) and hands it
    /// to every job with them ([`Method::run_restarts_shared`]).
    fn shared_key(&self, _params: &ParamSet) -> Option<String> {
        None
    }
    /// Compute the shared work that [`Method::shared_key`] names for `params` on `input`,
    /// for the runs with `seeds`.
    fn shared_work(
        &self,
        _input: &Input<'_>,
        _params: &ParamSet,
        _seeds: &[u64],
    ) -> Result<SharedValue> {
        Err(Error::input(self.name(), "the method shares no work"))
    }
    /// [`Method::run_restarts`] given the shared work: the same outcomes as without it, and
    /// each run charged its part of `shared.share` (the seconds of the work that fall to
    /// this job). The default ignores it.
    fn run_restarts_shared(
        &self,
        input: &Input<'_>,
        params: &ParamSet,
        seeds: &[u64],
        _shared: &SharedWork,
    ) -> Vec<Result<Outcome>> {
        self.run_restarts(input, params, seeds)
    }
    /// Runs for several seeds (restarts), in seed order, through the method API's
    /// `fit_restarts`; results do not depend on the number of threads.
    fn run_restarts(
        &self,
        input: &Input<'_>,
        params: &ParamSet,
        seeds: &[u64],
    ) -> Vec<Result<Outcome>> {
        fit_built(self.name(), self.build(params), input, seeds)
    }
}

/// The runs of a built method for every seed (`fit_restarts`), as outcomes; when the
/// method could not be built or the input is not a valid kernel set, every seed gets
/// that error (on `name`).
pub(crate) fn fit_built(
    name: &str,
    built: Result<Box<dyn DynClusterer>>,
    input: &Input<'_>,
    seeds: &[u64],
) -> Vec<Result<Outcome>> {
    let fitted = built.and_then(|m| {
        let set = input.kernel_set()?;
        Ok(m.fit_restarts_dyn(&set, input.n_clusters, seeds))
    });
    outcomes(name, fitted, seeds.len())
}

/// The outcomes of the runs of `count` seeds, or the error that kept them from running
/// (on `name`) for every seed.
pub(crate) fn outcomes(
    name: &str,
    fitted: Result<Vec<Result<Clustering<DiagnosticList>>>>,
    count: usize,
) -> Vec<Result<Outcome>> {
    match fitted {
        Ok(runs) => runs.into_iter().map(|r| r.map(Outcome::from)).collect(),
        Err(e) => (0..count)
            .map(|_| Err(Error::input(name, e.to_string())))
            .collect(),
    }
}

#[cfg(test)]
mod tests;
