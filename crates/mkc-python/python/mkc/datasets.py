"""Datasets of the mkc registry (``configs/datasets.toml``), read from the data
directory: ``data_dir`` if given, else ``$MKC_DATA_DIR``, else ``./data``. Small public
sets are committed under the repository's ``data/``; a missing file raises
``FileNotFoundError`` naming the file, its checksum and where to put it.
"""

from sklearn.utils import Bunch

from . import _mkc
from .kernels import _recipe_args

__all__ = ["names", "summaries", "load"]


def names():
    """Names of the registered datasets."""
    return _mkc.datasets.names()


def summaries(data_dir=None):
    """One dict per dataset: ``name``, ``description``, ``n``, ``d``, ``n_classes``,
    ``base`` and ``present`` (whether its files are in the data directory)."""
    return _mkc.datasets.summaries(None if data_dir is None else str(data_dir))


def _sparse(csr):
    import scipy.sparse

    data, indices, indptr, shape = csr
    return scipy.sparse.csr_matrix((data, indices, indptr), shape=shape)


def load(name, data_dir=None, recipe=None):
    """Load the registered dataset ``name``.

    Without ``recipe`` the raw form, a :class:`sklearn.utils.Bunch` with ``labels``
    (class index per sample), ``class_names`` and exactly one of ``features`` (dense
    (n, d) array), ``views`` (list of ``(view name, (n, d_v) array)``), ``sparse``
    (a ``scipy.sparse.csr_matrix``) or ``kernels`` (list of (n, n) arrays).

    With ``recipe`` (a built-in recipe name or a recipe dict, see :mod:`mkc.kernels`)
    the dataset as ``mkc cluster --dataset NAME --recipe R`` prepares it: ``kernels``,
    ``kernel_names``, ``features`` (scaled, views side by side; None for kernel
    files), ``labels``, ``class_names`` and ``n_clusters``.
    """
    d = None if data_dir is None else str(data_dir)
    if recipe is None:
        out = _mkc.datasets.load(name, d)
        if out["sparse"] is not None:
            out["sparse"] = _sparse(out["sparse"])
    else:
        args = _recipe_args(recipe)
        out = _mkc.datasets.load(
            name, d, recipe=args.get("name"), recipe_json=args.get("spec_json")
        )
    return Bunch(**out)
