"""scikit-learn estimators generated from the Rust method registry.

One class per registered method (``mkc._mkc.describe()``), built when the package is
imported: its ``__init__`` has an explicit signature (``n_clusters``, then every
parameter of the method as a keyword with the Rust default, then ``random_state``), so
``get_params``/``set_params``/``clone`` work as for any scikit-learn estimator, and its
docstring lists the parameters with their help. A method added to the registry appears
here with no Python code. :class:`Clusterer` is the generic form,
``Clusterer(method="simplemkkm", **params)``.
"""

import keyword

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin

from . import _mkc
from ._inputs import split_input, to_n_clusters, to_seed

__all__ = ["Clusterer", "methods", "estimators", "class_name"]

#: Registry entries (name, about, kernels, params), in registry order.
_REGISTRY = {m["name"]: m for m in _mkc.describe()}

#: Casing of word prefixes in class names; every other part is upper-cased.
_WORDS = (
    ("simple", "Simple"),
    ("avg", "Avg"),
    ("iter", "Iter"),
    ("spectral", "Spectral"),
    ("kmeans", "KMeans"),
    ("mir", "MiR"),
)

#: Constructor arguments every estimator has besides the method's parameters.
_COMMON = ("n_clusters", "random_state")


def class_name(method):
    """The estimator class name of a registry name: dash-separated parts upper-cased,
    known word prefixes kept readable (``simplemkkm`` -> ``SimpleMKKM``, ``avg-kkm`` ->
    ``AvgKKM``, ``mkkm-mir`` -> ``MKKMMiR``, ``kmeans`` -> ``KMeans``)."""
    out = []
    for part in method.replace("_", "-").split("-"):
        for prefix, cased in _WORDS:
            if part.startswith(prefix):
                out.append(cased + part[len(prefix):].upper())
                break
        else:
            out.append(part.upper())
    return "".join(out)


def _py_name(param):
    """A registry parameter name as a Python keyword (``kernel-type`` -> ``kernel_type``,
    ``lambda`` -> ``lambda_``, and a trailing ``_`` on a clash with ``n_clusters``,
    ``random_state`` or ``method``)."""
    name = param.replace("-", "_")
    if keyword.iskeyword(name) or name in _COMMON + ("method",):
        name += "_"
    return name


def _param_map(entry):
    """``{python name: registry name}`` of a method's parameters."""
    return {_py_name(p["name"]): p["name"] for p in entry["params"]}


def _plain(v):
    """numpy scalars as Python scalars (what the Rust side takes)."""
    return v.item() if isinstance(v, np.generic) else v


class _Fitted:
    """Fitting through ``mkc._mkc.fit`` and the fitted attributes, shared by every
    estimator (the generated classes and :class:`Clusterer`)."""

    def _method_name(self):
        raise NotImplementedError

    def _rust_params(self):
        raise NotImplementedError

    def fit(self, X, y=None, features=None):
        """Cluster the samples.

        Parameters
        ----------
        X : list of (n, n) arrays, (m, n, n) array, (n, n) array, dict or None
            The kernels. A dict may hold ``"kernels"`` and ``"features"`` (the output
            of ``KernelTransformer(keep_features=True)``); ``None`` for feature-only
            methods given ``features``. Single-kernel methods given several kernels
            use their equal-weight mean (pass one kernel to use only that one).
            float64 arrays that are C- or Fortran-contiguous are read in place; a
            C-ordered kernel is read column by column, i.e. as its transpose, which is
            the kernel itself when it is exactly symmetric (kernels must be symmetric
            to 1e-8 relative; errors name entries as you index them).
        y : ignored
        features : (n, d) array, optional
            Sample features, for the methods that work in feature space (k-means, the
            linear paths of the maximum margin methods).

        Returns
        -------
        self
        """
        kernels, feats = split_input(X, features)
        seed = to_seed(self.random_state)
        out = _mkc.fit(
            self._method_name(),
            self._rust_params(),
            kernels,
            feats,
            to_n_clusters(self.n_clusters),
            seed,
        )
        self.labels_ = out["labels"]
        self.kernel_weights_ = out["kernel_weights"]
        self.kernel_weight_constraint_ = out["weight_constraint"]
        self.objective_ = out["objective"]
        self.n_iter_ = out["n_iter"]
        self.converged_ = out["converged"]
        self.diagnostics_ = out["diagnostics"]
        self.timings_ = out["timings"]
        self.seed_ = seed
        return self

    def fit_predict(self, X, y=None, features=None):
        """:meth:`fit`, then the cluster label of every sample (``labels_``)."""
        return self.fit(X, y, features=features).labels_


def _fitted_doc():
    return """
    Attributes
    ----------
    labels_ : ndarray of shape (n,)
        Cluster of each sample, in ``0..n_clusters``.
    kernel_weights_ : ndarray of shape (m,) or None
        Learned kernel weights (None for methods that learn none).
    kernel_weight_constraint_ : str or None
        The set the weights live on (``"simplex"``, ``"p-norm(p=2)"``, ...).
    objective_ : ndarray
        Objective value per outer iteration (empty for methods without one).
    n_iter_ : int
        Outer iterations performed.
    converged_ : bool
        Whether the stopping rule was met (False: stopped at the iteration cap).
    diagnostics_ : dict
        Method-specific counts and values (name -> float).
    timings_ : dict
        Wall-clock seconds of the Rust fit: ``"wall"``, one entry per phase, and
        ``"validate"`` (checking the kernels and features once, before the fit).
    seed_ : int
        The u64 seed the fit used (see ``random_state``).
    """


def _class_doc(entry, pmap):
    kernels = (
        "all kernels together"
        if entry["kernels"] == "combined"
        else "one kernel (several are averaged with equal weights)"
    )
    lines = [
        f"{entry['about']}.",
        "",
        f"Registry method ``{entry['name']}`` (``mkc cluster --method {entry['name']}``);"
        f" uses {kernels}.",
        "",
        "Parameters",
        "----------",
        "n_clusters : int, default=8",
        "    Number of clusters.",
    ]
    by_rust = {p["name"]: p for p in entry["params"]}
    for py, rust in pmap.items():
        p = by_rust[rust]
        kind = p["kind"] if p["choices"] is None else "{" + ", ".join(map(repr, p["choices"])) + "}"
        default = "required" if p["required"] else f"default={p['default']!r}"
        lines.append(f"{py} : {kind}, {default}")
        lines.append(f"    {p['help']}" + ("" if py == rust else f" (registry name ``{rust}``)."))
    lines += [
        "random_state : None, int, RandomState or Generator, default=None",
        "    The seed of the Rust method: an int is the seed itself (the CLI's --seed);",
        "    None draws 64 bits from numpy's global RandomState, a RandomState or",
        "    Generator draws them from it.",
    ]
    return "\n    ".join(lines) + "\n" + _fitted_doc()


def _make_init(pmap, defaults):
    """An ``__init__`` with the explicit signature scikit-learn inspects."""
    args = ", ".join(f"{py}=_defaults[{py!r}]" for py in pmap)
    body = "".join(f"    self.{py} = {py}\n" for py in pmap)
    star = f"*, {args}, " if args else "*, "
    src = (
        f"def __init__(self, n_clusters=8, {star}random_state=None):\n"
        "    self.n_clusters = n_clusters\n"
        f"{body}"
        "    self.random_state = random_state\n"
    )
    namespace = {"_defaults": defaults}
    exec(src, namespace)  # noqa: S102 - generated from identifiers only
    return namespace["__init__"]


class _MethodEstimator(_Fitted, ClusterMixin, BaseEstimator):
    """Base of the generated classes: ``_method`` and ``_params`` are class attributes."""

    _method = None
    _params = {}

    def _method_name(self):
        return self._method

    def _rust_params(self):
        values = {}
        for py, rust in self._params.items():
            v = getattr(self, py)
            if v is not None:  # None: the method's default
                values[rust] = _plain(v)
        return values


def _make_class(entry):
    pmap = _param_map(entry)
    by_rust = {p["name"]: p for p in entry["params"]}
    defaults = {py: by_rust[rust]["default"] for py, rust in pmap.items()}
    name = class_name(entry["name"])
    cls = type(
        name,
        (_MethodEstimator,),
        {
            "__init__": _make_init(pmap, defaults),
            "__doc__": _class_doc(entry, pmap),
            "__module__": "mkc",
            "_method": entry["name"],
            "_params": pmap,
        },
    )
    cls.__init__.__qualname__ = f"{name}.__init__"
    return cls


def _build_all():
    out = {}
    for entry in _REGISTRY.values():
        cls = _make_class(entry)
        if cls.__name__ in out:
            raise ImportError(
                f"methods {out[cls.__name__]._method!r} and {entry['name']!r} both "
                f"map to the class name {cls.__name__}"
            )
        out[cls.__name__] = cls
    return out


_ESTIMATORS = _build_all()


def methods():
    """The registry: one dict per method (``name``, ``about``, ``kernels``, ``params``
    with ``name``, ``kind``, ``choices``, ``default``, ``required``, ``help``)."""
    return [dict(m) for m in _REGISTRY.values()]


def estimators():
    """``{registry name: estimator class}`` for every registered method."""
    return {cls._method: cls for cls in _ESTIMATORS.values()}


class Clusterer(_Fitted, ClusterMixin, BaseEstimator):
    """Any registered method by name: ``Clusterer(method="simplemkkm", tol=1e-6)``.

    The same as the method's own class (``mkc.SimpleMKKM(tol=1e-6)``), for code that
    chooses the method at run time (or grid-searches over ``method``). Method
    parameters not given take the Rust defaults; an unknown one is a ``TypeError`` at
    ``fit``. ``get_params`` returns ``method``, ``n_clusters``, ``random_state`` and
    the method parameters that were given.
    """

    def __init__(self, method="kkm", n_clusters=8, *, random_state=None, **params):
        self.method = method
        self.n_clusters = n_clusters
        self.random_state = random_state
        self._given = dict(params)

    def __getattr__(self, name):
        given = self.__dict__.get("_given", {})
        if name in given:
            return given[name]
        raise AttributeError(name)

    def get_params(self, deep=True):
        return {
            "method": self.method,
            "n_clusters": self.n_clusters,
            "random_state": self.random_state,
            **self._given,
        }

    def set_params(self, **params):
        for k, v in params.items():
            if k in ("method",) + _COMMON:
                setattr(self, k, v)
            else:
                self._given[k] = v
        return self

    def _method_name(self):
        return self.method

    def _rust_params(self):
        entry = _REGISTRY.get(self.method)
        pmap = _param_map(entry) if entry else {}
        return {pmap.get(k, k): _plain(v) for k, v in self._given.items() if v is not None}
