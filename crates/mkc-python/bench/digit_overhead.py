"""How much the Python call adds to a SimpleMKKM fit on Digit (Multiple Features views
fac, fou, kar; n = 2000, 10 clusters, 3 kernels), compared with the Rust call.

The Rust call is timed by the `mkc cluster` command line itself (its run record's
`wall_time_s`: validating the kernel set and the fit, after the .npy files are read);
the Python call is `SimpleMKKM(...).fit(kernels)` timed around the whole call from
Python (argument conversion, borrowing the numpy buffers, the same validation and fit,
building the result). Both read the same kernels and use the same seed, and the script
checks that they find the same labels. Not a test: run it by hand.

    python crates/mkc-python/bench/digit_overhead.py --cli target/release/mkc \
        [--data-dir DIR] [--repeats 5]
"""

import argparse
import json
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

import mkc

# The Digit recipe of configs/simplemkkm.toml (`digit-gauss-median`).
DIGIT_RECIPE = {
    "scale": "zscore",
    "kernels": [{"kind": "gaussian", "sigma_median_ratio": [1.0]}],
    "normalize": ["center", "unit-diagonal"],
    "per_view": True,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", required=True, help="the mkc binary (a release build)")
    ap.add_argument("--data-dir", default=None, help="data directory (default: $MKC_DATA_DIR, ./data)")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()

    ds = mkc.datasets.load("digit", data_dir=a.data_dir, recipe=DIGIT_RECIPE)
    kernels, k = ds.kernels, ds.n_clusters
    print(f"Digit: n = {kernels[0].shape[0]}, {len(kernels)} kernels, {k} clusters")

    py_wall, rust_inside, py_labels = [], [], None
    for _ in range(a.repeats):
        est = mkc.SimpleMKKM(n_clusters=k, random_state=a.seed)
        t0 = time.perf_counter()
        est.fit(kernels)
        py_wall.append(time.perf_counter() - t0)
        rust_inside.append(est.timings_["wall"])
        py_labels = est.labels_

    cli_wall = []
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for p, kern in enumerate(kernels, 1):
            paths.append(Path(tmp) / f"K{p}.npy")
            np.save(paths[-1], kern)
        out, report = Path(tmp) / "labels.txt", Path(tmp) / "run.json"
        for _ in range(a.repeats):
            subprocess.run(
                [a.cli, "cluster", "--method", "simplemkkm", "--kernel", *map(str, paths),
                 "--clusters", str(k), "--seed", str(a.seed), "--out", str(out),
                 "--report", str(report)],
                check=True, capture_output=True,
            )
            cli_wall.append(json.loads(report.read_text())["wall_time_s"])
        cli_labels = np.array([int(t) for t in out.read_text().split()])

    same = bool(np.array_equal(py_labels, cli_labels))
    med = statistics.median
    py, rust, inside = med(py_wall), med(cli_wall), med(rust_inside)
    print(f"repeats: {a.repeats} (medians below; all runs: python {py_wall}, cli {cli_wall})")
    print(f"Rust call (mkc cluster, validation + fit): {rust:.4f} s")
    print(f"Python call (SimpleMKKM.fit, whole call):  {py:.4f} s")
    print(f"  of which the fit inside Rust:           {inside:.4f} s")
    print(f"Python overhead vs the Rust call: {100 * (py / rust - 1):+.2f} %")
    print(f"Python call outside the Rust fit: {1000 * (py - inside):.2f} ms")
    print(f"accuracy {mkc.metrics.accuracy(ds.labels, py_labels):.4f}; same labels as the CLI: {same}")


if __name__ == "__main__":
    main()
