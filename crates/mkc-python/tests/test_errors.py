"""Bad input raises ValueError (TypeError for wrong types) naming the problem, with
the Rust message; nothing crashes."""

import numpy as np
import pytest

import mkc

ESTIMATORS = mkc.estimators()


def _fit(kernels, k=3, **kw):
    return mkc.AvgKKM(n_clusters=k, random_state=0, **kw).fit(kernels)


def test_nan_in_a_kernel(data):
    _, _, kernels = data
    bad = [k.copy() for k in kernels]
    bad[1][2, 5] = np.nan
    with pytest.raises(ValueError, match=r"kernels\[1\]: non-finite value NaN at row 2, column 5"):
        _fit(bad)


def test_infinite_feature(data):
    X, _, _ = data
    bad = X.copy()
    bad[3, 1] = np.inf
    with pytest.raises(ValueError, match="features: non-finite value inf at row 3, column 1"):
        mkc.KMeans(3, random_state=0).fit(None, features=bad)
    with pytest.raises(ValueError, match="features: non-finite"):
        mkc.kernels.build(bad, "linear")


def test_non_symmetric_kernel(data):
    _, _, kernels = data
    bad = [k.copy() for k in kernels]
    bad[0][1, 4] += 0.5
    with pytest.raises(ValueError, match=r"kernels\[0\]: not symmetric: entry \(4, 1\)"):
        _fit(bad)


@pytest.mark.parametrize(
    "shape, pattern",
    [
        ((36, 30), r"kernels\[0\]: expected a square matrix, got 36 x 30"),
        ((2, 36, 30), r"kernels\[0\]: expected a square matrix, got 36 x 30"),
        ((2, 2, 36, 36), r"kernels\[0\]: expected an n × n array .* got shape \[2, 2, 36, 36\]"),
        ((36,), r"kernels\[0\]: expected an n × n array .* got shape \[36\]"),
    ],
)
def test_wrong_kernel_shapes(shape, pattern):
    with pytest.raises(ValueError, match=pattern):
        _fit(np.ones(shape))


def test_kernels_of_different_sizes(data):
    _, _, kernels = data
    with pytest.raises(ValueError, match=r"kernels\[1\]: expected 36 x 36 like kernels\[0\], got 35 x 35"):
        _fit([kernels[0], kernels[1][:35, :35].copy()])


def test_features_with_the_wrong_number_of_rows(data):
    X, _, kernels = data
    with pytest.raises(ValueError, match="features: expected 36 rows"):
        mkc.KMeans(3, random_state=0).fit(kernels, features=X[:30])


def test_empty_input():
    with pytest.raises(ValueError, match="no kernels and no features"):
        _fit(None)
    with pytest.raises(ValueError, match="kernels"):
        _fit([])


@pytest.mark.parametrize("method", sorted(ESTIMATORS))
def test_more_clusters_than_samples(method, data):
    _, _, kernels = data
    with pytest.raises(ValueError) as e:
        ESTIMATORS[method](n_clusters=37, random_state=0).fit(kernels, features=data[0])
    assert "invalid parameter `n_clusters` = 37" in str(e.value)


@pytest.mark.parametrize(
    "error, match, params",
    [
        (ValueError, "`n_clusters` = 0", {"k": 0}),
        (TypeError, "n_clusters", {"k": 2.5}),
        (ValueError, "`n_init` = 0", {"n_init": 0}),
        (TypeError, "invalid parameter `n_init` = 1.5: expected a non-negative integer", {"n_init": 1.5}),
        (TypeError, "invalid parameter `n_init`: expected a bool, int, float or str, got list", {"n_init": [1]}),
    ],
)
def test_bad_values_are_named(data, error, match, params):
    _, _, kernels = data
    with pytest.raises(error, match=match):
        _fit(kernels, **params)


def test_unknown_parameters_and_methods(data):
    _, _, kernels = data
    with pytest.raises(TypeError, match="`bogus`.*unknown parameter"):
        mkc.Clusterer("avg-kkm", 3, bogus=1).fit(kernels)
    with pytest.raises(ValueError, match="unknown method"):
        mkc.Clusterer("no-such-method", 3).fit(kernels)


def test_wrong_array_types(data):
    _, _, kernels = data
    with pytest.raises(TypeError, match=r"kernels\[1\]: expected an array of numbers"):
        _fit([kernels[0], np.array([["a", "b"], ["c", "d"]])])
    with pytest.raises(TypeError, match="kernels: expected a numpy array of float64, got str"):
        mkc._mkc.fit("avg-kkm", {}, "not an array", None, 3, 0)
    import scipy.sparse

    with pytest.raises(TypeError, match="sparse"):
        _fit([scipy.sparse.eye(36)])


def test_numpy_scalars_are_accepted_as_parameters(data):
    _, _, kernels = data
    a = _fit(kernels, n_init=np.int64(2)).labels_
    b = _fit(kernels, n_init=2).labels_
    np.testing.assert_array_equal(a, b)
