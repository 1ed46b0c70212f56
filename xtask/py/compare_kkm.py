"""Reference for `cargo xtask compare kkm`: vectorised numpy kernel k-means.

Usage: compare_kkm.py DIR N K ITERS REPEATS

Reads DIR/kernel.f64 (N x N, float64, little-endian; symmetric so order does not
matter) and DIR/init.u64 (N initial labels), runs kernel k-means with one K @ H
product per iteration (H the N x K normalised indicator), at most ITERS assignment
steps (stopping early if labels stop changing), plus one product for the objective of
the final labels, exactly as mkc's KernelKMeans with max_iter = ITERS does. Times the
best of REPEATS runs, writes DIR/labels_py.u64 and prints one JSON line.
"""
import json
import sys
import time

import numpy as np


def kernel_kmeans(K, labels, k, iters):
    n = K.shape[0]
    diag = np.diag(K)
    rows = np.arange(n)
    n_iter = 0
    while True:
        H = np.zeros((n, k))
        H[rows, labels] = 1.0
        sizes = H.sum(axis=0)
        H /= np.maximum(sizes, 1.0)
        KH = K @ H  # the one product per iteration
        T = np.einsum("ic,ic->c", H, KH)  # h_c' K h_c
        objective = diag.sum() - (sizes * T).sum()
        if n_iter == iters:
            break
        D = T[None, :] - 2.0 * KH
        D[:, sizes == 0] = np.inf
        # Keep the current label unless another cluster is strictly closer (as mkc).
        cur = D[rows, labels]
        best = D.argmin(axis=1)
        new = np.where(D[rows, best] < cur, best, labels)
        n_iter += 1
        if np.array_equal(new, labels):
            break
        labels = new
    return labels, objective, n_iter


def main():
    d, n, k, iters, repeats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    K = np.fromfile(f"{d}/kernel.f64", dtype="<f8").reshape(n, n)
    init = np.fromfile(f"{d}/init.u64", dtype="<u8").astype(np.int64)
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        labels, objective, n_iter = kernel_kmeans(K, init.copy(), k, iters)
        best = min(best, time.perf_counter() - t)
    labels.astype("<u8").tofile(f"{d}/labels_py.u64")
    print(json.dumps({"seconds": best, "objective": float(objective), "n_iter": n_iter}))


if __name__ == "__main__":
    main()
