"""Turning what a scikit-learn user passes (kernels, features, ``random_state``,
``n_clusters``) into what the Rust side takes, without copying arrays that are already
float64 and contiguous."""

import numbers

import numpy as np

__all__ = ["as_float_array", "split_input", "to_seed", "to_n_clusters"]

_U64 = 2**64


def as_float_array(a, what):
    """``a`` as a float64 array, the same object when it already is one and is C- or
    Fortran-contiguous (the Rust side then reads it in place); otherwise one copy."""
    if hasattr(a, "toarray") and hasattr(a, "nnz"):
        raise TypeError(f"{what}: sparse matrices are not supported; pass a dense array")
    try:
        arr = np.asarray(a)
        if arr.dtype != np.float64:
            arr = arr.astype(np.float64)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{what}: expected an array of numbers ({e})") from None
    if not (arr.flags.c_contiguous or arr.flags.f_contiguous):
        arr = np.ascontiguousarray(arr)
    return arr


def _kernels(X):
    """The kernels of ``X``: an (m, n, n) array, one n x n array, or a list of them."""
    if X is None:
        return None
    if isinstance(X, (list, tuple)):
        return [as_float_array(k, f"kernels[{p}]") for p, k in enumerate(X)]
    return as_float_array(X, "kernels")


def split_input(X, features=None):
    """``(kernels, features)`` from ``fit``'s arguments.

    ``X`` is a list of n x n kernels, an (m, n, n) array, a single n x n kernel, ``None``
    (features only), or a dict with the keys ``"kernels"`` and/or ``"features"`` (what
    :class:`mkc.kernels.KernelTransformer` returns with ``keep_features=True``).
    """
    if isinstance(X, dict):
        unknown = set(X) - {"kernels", "features"}
        if unknown:
            raise ValueError(
                f"X: unknown keys {sorted(unknown)} (expected 'kernels' and/or 'features')"
            )
        if features is not None and X.get("features") is not None:
            raise ValueError("features given twice: in X['features'] and as features=")
        features = X.get("features", features)
        X = X.get("kernels")
    kernels = _kernels(X)
    if features is not None:
        features = as_float_array(features, "features")
    if kernels is None and features is None:
        raise ValueError(
            "X: no kernels and no features: pass a list of n x n kernels, an (m, n, n) "
            "array, or features=..."
        )
    return kernels, features


def _is_int(v):
    return isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_))


def to_seed(random_state):
    """The u64 seed of the Rust methods from a scikit-learn ``random_state``.

    - an int in [0, 2**64): that seed itself (``random_state=3`` is ``mkc cluster
      --seed 3``, so Python and CLI runs agree label for label);
    - ``None``: 64 bits drawn from numpy's global RandomState (so ``np.random.seed``
      makes it reproducible, as in scikit-learn);
    - a ``numpy.random.RandomState`` or ``numpy.random.Generator``: 64 bits drawn from it.
    """
    if _is_int(random_state):
        seed = int(random_state)
        if not 0 <= seed < _U64:
            raise ValueError(f"random_state: an int seed must be in [0, 2**64), got {seed}")
        return seed
    if random_state is None:
        random_state = np.random.mtrand._rand
    if isinstance(random_state, np.random.RandomState):
        hi, lo = random_state.randint(0, 2**32, size=2, dtype=np.uint64)
        return (int(hi) << 32) | int(lo)
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(0, _U64 - 1, dtype=np.uint64, endpoint=True))
    raise TypeError(
        "random_state: expected None, an int, a numpy RandomState or Generator, got "
        f"{type(random_state).__name__}"
    )


def to_n_clusters(n_clusters):
    """``n_clusters`` as a Python int (range checked by the Rust side against n)."""
    if not _is_int(n_clusters):
        raise TypeError(f"n_clusters: expected an int, got {type(n_clusters).__name__}")
    n = int(n_clusters)
    if n < 1:
        raise ValueError(f"invalid parameter `n_clusters` = {n}: must be at least 1")
    return n
