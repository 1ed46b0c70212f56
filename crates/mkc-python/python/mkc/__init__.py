"""mkc: multiple kernel clustering and maximum margin clustering, in Rust.

- One scikit-learn estimator per method of the workspace's registry, generated at
  import (``mkc.SimpleMKKM``, ``mkc.RMKC``, ``mkc.LGMMC``, ``mkc.KKM``, ...; see
  :func:`estimators`), and :class:`Clusterer` (any method by name). ``fit(X)`` takes a
  list of (n, n) kernels or an (m, n, n) array (and ``features=`` for the methods
  that read features).
- :mod:`mkc.metrics`: accuracy (Hungarian), NMI (max / arithmetic), purity, ARI.
- :mod:`mkc.kernels`: the kernel recipes of the experiments and
  :class:`mkc.kernels.KernelTransformer` for pipelines.
- :mod:`mkc.datasets`: ``load(name)`` over the dataset registry and data directory,
  ``fetch(names)`` to download what is missing (``mkc datasets fetch``).
- :mod:`mkc.sweep`: ``run(config)`` runs an experiment config (``mkc run``), locally
  or, given a ``dask.distributed.Client``, job by job on a Dask cluster.

Rust errors are raised as ``ValueError`` (``TypeError`` for values of the wrong type,
``FileNotFoundError`` for missing data) with the Rust message.
"""

from . import _mkc, datasets, kernels, metrics, sweep
from ._estimators import _ESTIMATORS, Clusterer, class_name, estimators, methods

globals().update(_ESTIMATORS)

__version__ = _mkc.__version__
__all__ = [
    "Clusterer",
    "class_name",
    "datasets",
    "estimators",
    "kernels",
    "methods",
    "metrics",
    "sweep",
    *sorted(_ESTIMATORS),
]
