"""Reference for `cargo xtask compare eigen`: scipy's symmetric top-k eigensolvers.

Usage: compare_eigen.py FILE N K REPEATS WITH_EIGH

Reads FILE (N x N float64, little-endian, symmetric so the order does not matter) and
times scipy.sparse.linalg.eigsh(K, K, which="LA") (default tolerance: machine
precision) and, when WITH_EIGH is 1, scipy.linalg.eigh(K, subset_by_index=[N-K, N-1])
(LAPACK syevr), each the best of REPEATS runs after one warm-up. Prints
"eigsh SECONDS", optionally "eigh SECONDS", and "values V1 ... VK" (descending, from
the last eigsh run).
"""
import sys
import time

import numpy as np
import scipy.linalg
import scipy.sparse.linalg


def best_of(f, repeats):
    f()
    best = float("inf")
    out = None
    for _ in range(repeats):
        t = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t)
    return best, out


def main():
    path, n, k, repeats, with_eigh = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"
    K = np.fromfile(path, dtype="<f8").reshape(n, n)
    t, (w, _) = best_of(lambda: scipy.sparse.linalg.eigsh(K, k, which="LA"), repeats)
    print(f"eigsh {t:.6f}")
    if with_eigh:
        t2, _ = best_of(lambda: scipy.linalg.eigh(K, subset_by_index=[n - k, n - 1]), repeats)
        print(f"eigh {t2:.6f}")
    print("values " + " ".join(f"{v:.17e}" for v in np.sort(w)[::-1]))


if __name__ == "__main__":
    main()
