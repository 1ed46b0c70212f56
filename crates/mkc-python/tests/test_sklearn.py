"""scikit-learn conventions: signatures and defaults from the registry, clone,
get_params/set_params, GridSearchCV, Pipeline, random_state."""

import inspect
import math
import pickle

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline

import mkc
from mkc.kernels import KernelTransformer

ESTIMATORS = mkc.estimators()


def _same(a, b):
    return a == b or (isinstance(a, float) and math.isnan(a) and math.isnan(b))


def test_one_class_per_registered_method():
    names = [m["name"] for m in mkc.methods()]
    assert sorted(ESTIMATORS) == sorted(names)
    for name, cls in ESTIMATORS.items():
        assert cls.__name__ == mkc.class_name(name)
        assert getattr(mkc, cls.__name__) is cls
        assert name in cls.__doc__
    assert mkc.class_name("simplemkkm") == "SimpleMKKM"
    assert mkc.class_name("avg-kkm") == "AvgKKM"
    assert mkc.class_name("mkkm-mir") == "MKKMMiR"
    assert mkc.class_name("kmeans") == "KMeans"


@pytest.mark.parametrize("method", sorted(ESTIMATORS))
def test_signature_and_defaults_are_the_registry(method):
    cls = ESTIMATORS[method]
    entry = {m["name"]: m for m in mkc.methods()}[method]
    sig = inspect.signature(cls.__init__)
    names = list(sig.parameters)[1:]
    assert names[0] == "n_clusters" and names[-1] == "random_state"
    assert len(names) == len(entry["params"]) + 2
    params = cls().get_params()
    for spec, py in zip(entry["params"], names[1:-1]):
        assert py.rstrip("_").replace("_", "-") == spec["name"].replace("_", "-"), (py, spec)
        assert _same(params[py], spec["default"]), (py, params[py], spec["default"])
        assert sig.parameters[py].kind is inspect.Parameter.KEYWORD_ONLY
        assert spec["help"] and spec["help"] in cls.__doc__


@pytest.mark.parametrize("method", sorted(ESTIMATORS))
def test_clone_and_params_round_trip(method):
    cls = ESTIMATORS[method]
    est = cls(n_clusters=4, random_state=11)
    params = est.get_params()
    twin = clone(est)
    assert twin is not est and type(twin) is cls
    assert all(_same(twin.get_params()[k], v) for k, v in params.items())
    fresh = cls().set_params(**params)
    assert all(_same(fresh.get_params()[k], v) for k, v in params.items())
    assert fresh.set_params(n_clusters=7).n_clusters == 7
    assert pickle.loads(pickle.dumps(est)).get_params()["random_state"] == 11
    assert cls.__name__ in repr(cls(n_clusters=5))


def test_generic_clusterer_params_round_trip():
    est = mkc.Clusterer(method="kkm", n_clusters=3, n_init=4, random_state=2)
    assert est.get_params() == {"method": "kkm", "n_clusters": 3, "random_state": 2, "n_init": 4}
    twin = clone(est)
    assert twin.get_params() == est.get_params() and twin.n_init == 4
    twin.set_params(method="avg-kkm", max_iter=50)
    assert twin.get_params()["max_iter"] == 50 and twin.method == "avg-kkm"
    assert "Clusterer" in repr(est)


def test_fitted_attributes(data):
    _, y, kernels = data
    est = mkc.AvgKKM(n_clusters=3, random_state=0).fit(np.stack(kernels))
    assert est.labels_.shape == y.shape and set(est.labels_) <= {0, 1, 2}
    assert isinstance(est.n_iter_, int) and isinstance(est.converged_, bool)
    assert isinstance(est.diagnostics_, dict) and est.timings_["wall"] > 0
    assert est.objective_.ndim == 1 and est.seed_ == 0
    assert est.kernel_weights_ is None or est.kernel_weights_.shape == (3,)
    np.testing.assert_array_equal(est.fit_predict(kernels), est.labels_)


@pytest.mark.parametrize("method", ["avg-kkm", "simplemkkm", "rmkc"])
def test_list_stack_and_fortran_order_agree(method, data):
    """Exactly symmetric kernels give the same fit, bit for bit, whatever their layout."""
    _, _, kernels = data

    def fit(ks):
        est = ESTIMATORS[method](n_clusters=2, random_state=4).fit(ks)
        return est.labels_, est.objective_

    a = fit(kernels)
    for other in (
        np.stack(kernels),
        [np.asfortranarray(k) for k in kernels],
        np.asfortranarray(np.stack(kernels)),  # strided blocks: copied
    ):
        b = fit(other)
        np.testing.assert_array_equal(a[0], b[0])
        np.testing.assert_array_equal(a[1], b[1])


def test_float32_kernels_are_converted(data):
    _, _, kernels = data
    est = mkc.AvgKKM(n_clusters=3, random_state=4)
    a = est.fit_predict([k.astype(np.float32) for k in kernels])
    b = est.fit_predict([k.astype(np.float32).astype(np.float64) for k in kernels])
    np.testing.assert_array_equal(a, b)


def test_arrays_are_read_in_place(data):
    """C- and Fortran-contiguous float64 kernels are views; only strided ones are
    copied (counted by the Rust side)."""
    _, _, kernels = data
    fit = mkc._mkc.fit
    assert fit("avg-kkm", {}, kernels, None, 3, 0)["copied_arrays"] == 0
    assert fit("avg-kkm", {}, np.stack(kernels), None, 3, 0)["copied_arrays"] == 0
    fortran = [np.asfortranarray(k) for k in kernels]
    assert fit("avg-kkm", {}, fortran, None, 3, 0)["copied_arrays"] == 0
    n = kernels[0].shape[0]
    big = np.zeros((n + 1, n + 1))
    big[:n, :n] = kernels[0]
    strided = [big[:n, :n], kernels[1]]
    out = fit("avg-kkm", {}, strided, None, 3, 0)
    assert out["copied_arrays"] == 1
    np.testing.assert_array_equal(
        out["labels"], fit("avg-kkm", {}, [kernels[0], kernels[1]], None, 3, 0)["labels"]
    )


def test_random_state_forms(data):
    _, _, kernels = data
    est = mkc.AvgKKM(n_clusters=3)
    assert est.set_params(random_state=5).fit(kernels).seed_ == 5
    a = est.set_params(random_state=np.random.RandomState(1)).fit(kernels).seed_
    b = est.set_params(random_state=np.random.RandomState(1)).fit(kernels).seed_
    assert a == b and 0 <= a < 2**64
    g = est.set_params(random_state=np.random.default_rng(2)).fit(kernels).seed_
    assert g == est.set_params(random_state=np.random.default_rng(2)).fit(kernels).seed_
    np.random.seed(3)
    s1 = est.set_params(random_state=None).fit(kernels).seed_
    np.random.seed(3)
    assert est.fit(kernels).seed_ == s1
    assert est.set_params(random_state=2**64 - 1).fit(kernels).seed_ == 2**64 - 1
    with pytest.raises(ValueError, match="random_state"):
        est.set_params(random_state=-1).fit(kernels)
    with pytest.raises(TypeError, match="random_state"):
        est.set_params(random_state="seed").fit(kernels)


def _acc(est, X, y):
    """Custom scorer: clustering accuracy of the labels of the fit."""
    final = est[-1] if isinstance(est, Pipeline) else est
    return mkc.metrics.accuracy(y, final.labels_)


def test_grid_search_over_one_parameter_with_custom_scorer(data):
    X, y, _ = data
    pipe = Pipeline([
        ("kernels", KernelTransformer("lgmmc-gauss5")),
        ("cluster", mkc.AvgKKM(n_clusters=3, random_state=0)),
    ])
    everything = np.arange(len(y))
    grid = {"cluster__n_init": [1, 2, 5]}
    search = GridSearchCV(pipe, grid, scoring=_acc, cv=[(everything, everything)])
    search.fit(X, y)
    built = mkc.kernels.build(X, "lgmmc-gauss5").kernels
    by_hand = [
        mkc.metrics.accuracy(y, mkc.AvgKKM(3, n_init=v, random_state=0).fit_predict(built))
        for v in grid["cluster__n_init"]
    ]
    np.testing.assert_allclose(search.cv_results_["mean_test_score"], by_hand, rtol=0, atol=0)
    assert search.best_params_["cluster__n_init"] == grid["cluster__n_init"][int(np.argmax(by_hand))]


def test_pipeline_after_the_kernel_transformer(data):
    X, _, _ = data
    pipe = Pipeline([
        ("kernels", KernelTransformer("gauss10-range")),
        ("cluster", mkc.AvgKKM(n_clusters=3, random_state=9)),
    ])
    labels = pipe.fit_predict(X)
    direct = mkc.AvgKKM(n_clusters=3, random_state=9).fit_predict(
        mkc.kernels.build(X, "gauss10-range").kernels
    )
    np.testing.assert_array_equal(labels, direct)
    assert len(pipe["kernels"].kernel_names_) == 10
    assert pipe["kernels"].n_features_in_ == X.shape[1]


def test_pipeline_with_features_for_feature_methods(data):
    X, _, _ = data
    pipe = Pipeline([
        ("kernels", KernelTransformer("linear", keep_features=True)),
        ("cluster", mkc.KMeans(n_clusters=3, random_state=1)),
    ])
    labels = pipe.fit_predict(X)
    built = mkc.kernels.build(X, "linear")
    direct = mkc.KMeans(n_clusters=3, random_state=1).fit_predict(
        {"kernels": built.kernels, "features": built.features}
    )
    np.testing.assert_array_equal(labels, direct)


def test_concurrent_fits_match_sequential(data):
    """Fits release the GIL; two threads fitting at once get the sequential labels."""
    from concurrent.futures import ThreadPoolExecutor

    _, _, kernels = data
    seeds = list(range(6))
    seq = [mkc.AvgKKM(3, random_state=s).fit_predict(kernels) for s in seeds]
    with ThreadPoolExecutor(2) as pool:
        par = list(pool.map(lambda s: mkc.AvgKKM(3, random_state=s).fit_predict(kernels), seeds))
    for a, b in zip(seq, par):
        np.testing.assert_array_equal(a, b)
