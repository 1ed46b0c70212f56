"""Clustering scores, computed in Rust (mkc-metrics).

Labels may be any hashable values numpy can sort (ints, strings); each labeling is
encoded as ``0..k`` first. Both arguments must have the same length.

- :func:`accuracy`: the best one-to-one matching of clusters to classes (Hungarian
  algorithm on the contingency table), matched samples / n.
- :func:`nmi`: normalised mutual information, ``average_method`` as scikit-learn names
  the normaliser: ``"max"`` (what the SimpleMKKM authors' code reports; our default),
  ``"arithmetic"`` (scikit-learn's default), ``"geometric"``, ``"min"``.
- :func:`purity`, :func:`ari` (adjusted Rand index), :func:`scores` (all at once).
"""

import numpy as np

from . import _mkc

__all__ = ["accuracy", "nmi", "purity", "ari", "scores"]


def _codes(y, what):
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"{what}: expected a 1-D array of labels, got shape {y.shape}")
    _, codes = np.unique(y, return_inverse=True)
    return codes.reshape(-1).tolist()


def _pair(labels_true, labels_pred):
    return _codes(labels_true, "labels_true"), _codes(labels_pred, "labels_pred")


def accuracy(labels_true, labels_pred):
    """Clustering accuracy in [0, 1] (Hungarian matching of clusters to classes)."""
    return _mkc.metrics.accuracy(*_pair(labels_true, labels_pred))


def nmi(labels_true, labels_pred, average_method="max"):
    """Normalised mutual information in [0, 1]; ``average_method`` is ``"max"``,
    ``"arithmetic"`` (= ``sklearn.metrics.normalized_mutual_info_score``),
    ``"geometric"`` or ``"min"``."""
    return _mkc.metrics.nmi(*_pair(labels_true, labels_pred), average_method)


def purity(labels_true, labels_pred):
    """Purity in [0, 1]: each cluster counts its largest class."""
    return _mkc.metrics.purity(*_pair(labels_true, labels_pred))


def ari(labels_true, labels_pred):
    """Adjusted Rand index (= ``sklearn.metrics.adjusted_rand_score``)."""
    return _mkc.metrics.ari(*_pair(labels_true, labels_pred))


def scores(labels_true, labels_pred):
    """All scores from one contingency table: a dict with ``acc``, ``nmi_max``,
    ``nmi_arithmetic``, ``purity`` and ``ari``."""
    return _mkc.metrics.scores(*_pair(labels_true, labels_pred))
