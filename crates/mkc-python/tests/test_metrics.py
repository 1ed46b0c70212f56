"""mkc.metrics against scikit-learn (NMI, ARI to 1e-12) and brute force (accuracy,
purity) on random labelings."""

import itertools

import numpy as np
import pytest
from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score

from mkc import metrics


def _labelings(count=60, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n = int(rng.integers(1, 40))
        a = rng.integers(0, int(rng.integers(1, 6)), size=n)
        b = rng.integers(0, int(rng.integers(1, 6)), size=n)
        yield a, b


def _brute_accuracy(a, b):
    """Best one-to-one matching of clusters to classes, by trying every injection."""
    classes, clusters = np.unique(a), np.unique(b)
    best = 0
    small, large = (clusters, classes) if len(clusters) <= len(classes) else (classes, clusters)
    for image in itertools.permutations(large, len(small)):
        pairs = dict(zip(small, image))
        if len(clusters) <= len(classes):
            hits = sum(int(pairs[q] == t) for t, q in zip(a, b))
        else:
            hits = sum(int(pairs[t] == q) for t, q in zip(a, b))
        best = max(best, hits)
    return best / len(a)


def _brute_purity(a, b):
    return sum(np.bincount(a[b == q]).max() for q in np.unique(b)) / len(a)


@pytest.mark.parametrize("method", ["arithmetic", "max", "geometric", "min"])
def test_nmi_equals_sklearn(method):
    for a, b in _labelings():
        want = normalized_mutual_info_score(a, b, average_method=method)
        assert abs(metrics.nmi(a, b, average_method=method) - want) <= 1e-12, (a, b)


def test_ari_equals_sklearn():
    for a, b in _labelings(seed=1):
        assert abs(metrics.ari(a, b) - adjusted_rand_score(a, b)) <= 1e-12, (a, b)


def test_accuracy_and_purity_equal_brute_force():
    for a, b in _labelings(seed=2):
        assert abs(metrics.accuracy(a, b) - _brute_accuracy(a, b)) <= 1e-12, (a, b)
        assert abs(metrics.purity(a, b) - _brute_purity(a, b)) <= 1e-12, (a, b)


def test_scores_are_the_single_metrics():
    a, b = next(_labelings(seed=3))
    s = metrics.scores(a, b)
    assert s == {
        "acc": metrics.accuracy(a, b),
        "nmi_max": metrics.nmi(a, b, "max"),
        "nmi_arithmetic": metrics.nmi(a, b, "arithmetic"),
        "purity": metrics.purity(a, b),
        "ari": metrics.ari(a, b),
    }


def test_any_label_values_and_relabelling_invariance():
    truth = np.array(["x", "x", "y", "z", "z", "z"])
    pred = np.array([-5, -5, 7, 3, 3, 7])
    assert metrics.accuracy(truth, pred) == pytest.approx(5 / 6, abs=1e-15)
    assert metrics.accuracy(truth, pred + 100) == metrics.accuracy(truth, pred)
    assert metrics.nmi(truth, truth) == 1.0 and metrics.ari(pred, pred) == 1.0


def test_bad_labelings():
    with pytest.raises(ValueError, match="length|expected"):
        metrics.accuracy([0, 1, 1], [0, 1])
    with pytest.raises(ValueError, match="labels_true: expected a 1-D array"):
        metrics.nmi(np.zeros((2, 2)), [0, 1])
    with pytest.raises(ValueError, match="average_method"):
        metrics.nmi([0, 1], [0, 1], average_method="mean")
