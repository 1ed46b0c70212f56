"""libsvm side of `cargo xtask compare svm`.

usage: compare_svm.py DIR REPEATS CASE...   with CASE = "n:C"
Reads DIR/K_{n}.bin (n*n float64, symmetric) and DIR/y_{n}.bin (n float64), fits
sklearn.svm.SVC(kernel='precomputed', C=C) (libsvm; tol 1e-3, shrinking, default cache)
REPEATS times, keeps the best wall-clock and thread-CPU fit times, writes the decision values of the training points
to DIR/f_{n}_{C}.bin and prints one line per case:
    case n=<n> C=<C> time_ms=<best wall> cpu_ms=<best thread CPU time> obj=<dual objective> n_iter=<iterations> n_sv=<#SV>
The dual objective is sum(alpha) - 1/2 (alpha*y)^T K (alpha*y), computed from dual_coef_.
"""
import sys
import time

import numpy as np
from sklearn.svm import SVC


def main():
    d, repeats, cases = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    cache = {}
    for case in cases:
        n_s, c_s = case.split(":")
        n, c = int(n_s), float(c_s)
        if n not in cache:
            k = np.fromfile(f"{d}/K_{n}.bin", dtype="<f8").reshape(n, n)
            y = np.fromfile(f"{d}/y_{n}.bin", dtype="<f8")
            cache = {n: (k, y)}
        k, y = cache[n]
        best = float("inf")
        best_cpu = float("inf")
        clf = None
        for _ in range(repeats):
            clf = SVC(kernel="precomputed", C=c, tol=1e-3, shrinking=True)
            c0 = time.thread_time()
            t0 = time.perf_counter()
            clf.fit(k, y)
            best = min(best, time.perf_counter() - t0)
            best_cpu = min(best_cpu, time.thread_time() - c0)
        sv = clf.support_
        dc = clf.dual_coef_[0]
        obj = np.abs(dc).sum() - 0.5 * dc @ k[np.ix_(sv, sv)] @ dc
        f = clf.decision_function(k)
        f.astype("<f8").tofile(f"{d}/f_{n}_{c_s}.bin")
        n_iter = int(np.sum(clf.n_iter_)) if hasattr(clf, "n_iter_") else -1
        print(f"case n={n} C={c_s} time_ms={best * 1e3:.4f} cpu_ms={best_cpu * 1e3:.4f} obj={obj:.17g} n_iter={n_iter} n_sv={len(sv)}", flush=True)


if __name__ == "__main__":
    main()
