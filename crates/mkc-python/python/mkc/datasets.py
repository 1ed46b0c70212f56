"""Datasets of the mkc registry (``configs/datasets.toml``), read from the data
directory: ``data_dir`` if given, else ``$MKC_DATA_DIR``, else ``./data``. Small public
sets are committed under the repository's ``data/``; a missing file raises
``FileNotFoundError`` naming the file, its checksum and where to put it, and
:func:`fetch` downloads it (what ``mkc datasets fetch`` does).
"""

from sklearn.utils import Bunch

from . import _mkc
from .kernels import _recipe_args

__all__ = ["names", "summaries", "load", "fetch"]


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


_ERRORS = ("raise", "report")


def fetch(
    names,
    data_dir=None,
    *,
    errors="raise",
    verbose=False,
    attempts=4,
    timeout=30.0,
    backoff=1.0,
    max_backoff=30.0,
    lock_wait=600.0,
    local_copies=(),
    registry=None,
):
    """Download the files of the registered datasets ``names`` (one name or a list;
    a derived dataset fetches its base's files) into the data directory, as
    ``mkc datasets fetch NAME...`` does, and return one
    :class:`sklearn.utils.Bunch` per file.

    Each file is taken from the data directory when it is already there with its
    registered size and sha256 (no request is made), else from a verified copy under
    one of ``local_copies`` (folders laid out like the data directory; the checkout the
    package was built from is searched too), else downloaded from its recorded URLs
    (pinned to a commit, then a mirror). A download is written to ``<file>.part`` and
    takes its final name only once its size and sha256 match, so no partial file is
    ever left under the final name; an interrupted download is resumed with an HTTP
    range request; failures that may pass (connection lost, timeout, HTTP 5xx) are
    retried ``attempts`` times per URL after a back-off that starts at ``backoff``
    seconds and doubles up to ``max_backoff``; ``timeout`` bounds every connect, read
    and write. Two fetches of one file (threads or processes) download it once: the
    later waits up to ``lock_wait`` seconds for the first.

    Each report has ``file`` (relative to the data directory), ``dataset``, ``path``,
    ``size``, ``sha256``, ``status`` (``"fetched"``, ``"copied"``, ``"present"``,
    ``"manual"`` for a file without a public download, whose ``manual`` says what it
    is and where to put it, or ``"failed"``), ``source`` (the URL or folder it came
    from), ``resumed_from`` (bytes kept from an interrupted download), ``summary``
    (the command's line) and ``error`` (the exception of a failed or manual file,
    else None).

    Every file is tried even when one fails. Then, with ``errors="raise"`` (the
    default), the first failed file's error is raised: ``ValueError`` for a checksum
    mismatch (naming the file, the expected and the received sha256) or a response
    that is not the file, ``OSError`` for a download that failed, with the message of
    the Rust library (``mkc_data::fetch``). ``errors="report"`` returns the reports
    without raising. Manual files are never raised (as the command, they are not a
    failure of the fetch). No names, an unknown name or a bad option raise
    ``ValueError`` before anything is fetched. ``verbose=True`` prints each file's
    line to standard error when it is done; ``registry`` is the path of another
    registry file (the format of ``configs/datasets.toml``).
    """
    import sys

    if errors not in _ERRORS:
        raise ValueError(f"errors = {errors!r}: must be one of {', '.join(_ERRORS)}")
    if isinstance(names, str):
        names = [names]
    names = list(names)
    if isinstance(local_copies, str):
        local_copies = [local_copies]
    progress = (lambda line: print(line, file=sys.stderr, flush=True)) if verbose else None
    options = dict(
        attempts=attempts,
        timeout=timeout,
        backoff=backoff,
        max_backoff=max_backoff,
        lock_wait=lock_wait,
        local_copies=[str(p) for p in local_copies],
    )
    reports = _mkc.datasets.fetch(
        [str(n) for n in names],
        options,
        None if data_dir is None else str(data_dir),
        registry=None if registry is None else str(registry),
        progress=progress,
    )
    out = [Bunch(**r) for r in reports]
    failed = [r for r in out if r.status == "failed"]
    if failed and errors == "raise":
        raise failed[0].error
    return out
