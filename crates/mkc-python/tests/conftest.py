"""Shared fixtures: small data sets the tests make, and the `mkc` command line (the
Rust binary the Python results are compared with)."""

import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[3]


def _find_cli():
    """The `mkc` binary: $MKC_CLI, else target/release/mkc, else target/debug/mkc."""
    env = os.environ.get("MKC_CLI")
    if env:
        if not Path(env).is_file():
            raise RuntimeError(f"MKC_CLI={env} is not a file")
        return Path(env)
    for profile in ("release", "debug"):
        p = REPO / "target" / profile / "mkc"
        if p.is_file():
            return p
    found = shutil.which("mkc")
    return Path(found) if found else None


@pytest.fixture(scope="session")
def cli():
    """Run the mkc CLI: ``cli(args...)`` -> CompletedProcess (text, not checked)."""
    exe = _find_cli()
    if exe is None:
        pytest.skip("the mkc CLI is not built (set MKC_CLI or cargo build -p mkc-cli)")

    def run(*args):
        return subprocess.run(
            [str(exe), *map(str, args)], capture_output=True, text=True, timeout=600
        )

    return run


def blobs(n_per=12, d=4, centers=3, seed=0):
    """``centers`` Gaussian blobs of ``n_per`` points in ``d`` dimensions, and their
    classes."""
    rng = np.random.default_rng(seed)
    means = rng.normal(scale=4.0, size=(centers, d))
    X = np.vstack([m + rng.normal(size=(n_per, d)) for m in means])
    y = np.repeat(np.arange(centers), n_per)
    return X, y


def gaussian(X, sigma):
    sq = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    return np.exp(-sq / (2 * sigma**2))


def kernel_list(X):
    """Three kernels on X: linear, Gaussians of width 2 and 5 (symmetric exactly)."""
    lin = X @ X.T
    lin = (lin + lin.T) / 2
    return [lin / np.abs(lin).max(), gaussian(X, 2.0), gaussian(X, 5.0)]


@pytest.fixture(scope="session")
def data():
    X, y = blobs()
    return X, y, kernel_list(X)


def read_labels(path):
    return np.array([int(t) for t in Path(path).read_text().split()])


@pytest.fixture()
def write_npy(tmp_path):
    """Save arrays as K1.npy, K2.npy, ... in a temporary directory; return the paths."""

    def write(arrays, stem="K"):
        paths = []
        for p, a in enumerate(arrays, 1):
            path = tmp_path / f"{stem}{p}.npy"
            np.save(path, np.ascontiguousarray(a, dtype=np.float64))
            paths.append(path)
        return paths

    return write
