"""Every estimator against the `mkc cluster` command line: the same labels for the same
kernels, parameters and seed, or the same error."""

import numpy as np
import pytest

import mkc
from conftest import read_labels

ESTIMATORS = mkc.estimators()
NOT_MIGRATED = "not yet on the method API"


def _python(cls, X, k, seed, features=None):
    """Labels of a Python fit, or the exception it raised."""
    try:
        return cls(n_clusters=k, random_state=seed).fit_predict(X, features=features)
    except (ValueError, TypeError) as e:
        assert NOT_MIGRATED not in str(e), "every registered method fits through the method API"
        return e


def _compare(cli_result, out, py):
    if cli_result.returncode == 0:
        assert not isinstance(py, Exception), f"CLI ran, Python raised: {py}"
        np.testing.assert_array_equal(py, read_labels(out))
    else:
        assert cli_result.returncode == 1, cli_result.stderr
        assert isinstance(py, Exception), f"CLI failed ({cli_result.stderr}), Python ran"
        assert f"mkc: error: {py}" in cli_result.stderr


def _single(method):
    """Whether the method uses one kernel (the CLI then takes one, or --kernel-index)."""
    return {m["name"]: m["kernels"] for m in mkc.methods()}[method] == "single"


def _kernels_for(method, kernels):
    """All kernels for multiple kernel methods; the second one for single-kernel ones."""
    return kernels[1:2] if _single(method) else kernels


@pytest.mark.parametrize("method", sorted(ESTIMATORS))
@pytest.mark.parametrize("k, seed", [(2, 0), (3, 7)])
def test_kernel_files(method, k, seed, data, cli, write_npy, tmp_path):
    _, _, kernels = data
    ks = _kernels_for(method, kernels)
    out = tmp_path / "labels.txt"
    r = cli("cluster", "--method", method, "--kernel", *write_npy(ks), "--clusters", k,
            "--seed", seed, "--out", out)
    _compare(r, out, _python(ESTIMATORS[method], ks, k, seed))


@pytest.mark.parametrize("method", sorted(ESTIMATORS))
def test_features_and_recipe(method, data, cli, write_npy, tmp_path):
    """`--data X.npy --recipe R` against kernels.build(X, R) + fit(features=...)."""
    X, _, _ = data
    recipe = "gauss-median" if _single(method) else "lgmmc-gauss5"
    out = tmp_path / "labels.txt"
    (path,) = write_npy([X], stem="X")
    r = cli("cluster", "--method", method, "--data", path, "--recipe", recipe,
            "--clusters", 2, "--seed", 3, "--out", out)
    built = mkc.kernels.build(X, recipe)
    _compare(r, out, _python(ESTIMATORS[method], built.kernels, 2, 3, built.features))


def test_generic_clusterer_is_the_class(data):
    _, _, kernels = data
    a = mkc.Clusterer("avg-kkm", 3, random_state=5, n_init=3).fit_predict(kernels)
    b = mkc.AvgKKM(3, n_init=3, random_state=5).fit_predict(kernels)
    np.testing.assert_array_equal(a, b)
