"""How much the Python call adds to a SimpleMKKM fit on Digit (Multiple Features views
fac, fou, kar; n = 2000, 10 clusters, 3 kernels), compared with the Rust call.

Two comparisons, both on the same kernels with the same seed (the script checks that
Python and the CLI find the same labels):

- in-process: ``SimpleMKKM(...).fit(kernels)`` timed around the whole call from Python
  (argument conversion, borrowing the numpy buffers, releasing the GIL, building the
  result) against the Rust call inside it (``timings_["validate"]`` + ``timings_["wall"]``:
  checking the kernel set once, then the method's fit), call by call;
- against the command line: the same Python call against ``mkc cluster`` on the kernels
  saved as .npy (its run record's ``wall_time_s``: the kernel set's checks and the fit,
  after the files are read). The runs alternate, so load from other processes hits both.

Medians and minima over the repeats. Not a test: run it by hand.

    python crates/mkc-python/bench/digit_overhead.py --cli target/release/mkc \
        [--data-dir DIR] [--repeats 7]
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
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()

    ds = mkc.datasets.load("digit", data_dir=a.data_dir, recipe=DIGIT_RECIPE)
    kernels, k = ds.kernels, ds.n_clusters
    print(f"Digit: n = {kernels[0].shape[0]}, {len(kernels)} kernels, {k} clusters")

    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for p, kern in enumerate(kernels, 1):
            paths.append(Path(tmp) / f"K{p}.npy")
            np.save(paths[-1], kern)
        out, report = Path(tmp) / "labels.txt", Path(tmp) / "run.json"
        cli_cmd = [a.cli, "cluster", "--method", "simplemkkm", "--kernel", *map(str, paths),
                   "--clusters", str(k), "--seed", str(a.seed), "--out", str(out),
                   "--report", str(report)]
        py_wall, rust_call, cli_wall, py_labels = [], [], [], None
        for _ in range(a.repeats):
            est = mkc.SimpleMKKM(n_clusters=k, random_state=a.seed)
            t0 = time.perf_counter()
            est.fit(kernels)
            py_wall.append(time.perf_counter() - t0)
            rust_call.append(est.timings_["validate"] + est.timings_["wall"])
            py_labels = est.labels_
            subprocess.run(cli_cmd, check=True, capture_output=True)
            cli_wall.append(json.loads(report.read_text())["wall_time_s"])
        cli_labels = np.array([int(t) for t in out.read_text().split()])

    same = bool(np.array_equal(py_labels, cli_labels))
    med = statistics.median
    per_call = [100 * (p / r - 1) for p, r in zip(py_wall, rust_call)]
    outside = [1000 * (p - r) for p, r in zip(py_wall, rust_call)]
    print(f"repeats: {a.repeats}")
    print(f"Python call (SimpleMKKM.fit):          median {med(py_wall):.4f} s, min {min(py_wall):.4f} s")
    print(f"Rust call inside it (validate + fit):  median {med(rust_call):.4f} s, min {min(rust_call):.4f} s")
    print(f"  Python adds, call by call: median {med(per_call):+.2f} % ({med(outside):.2f} ms),"
          f" max {max(per_call):+.2f} % ({max(outside):.2f} ms)")
    print(f"mkc cluster (validate + fit):          median {med(cli_wall):.4f} s, min {min(cli_wall):.4f} s")
    pairs = [100 * (p / c - 1) for p, c in zip(py_wall, cli_wall)]
    print(f"  Python vs CLI: medians {100 * (med(py_wall) / med(cli_wall) - 1):+.2f} %,"
          f" minima {100 * (min(py_wall) / min(cli_wall) - 1):+.2f} %,"
          f" median of the paired runs {med(pairs):+.2f} %")
    print(f"accuracy {mkc.metrics.accuracy(ds.labels, py_labels):.4f}; same labels as the CLI: {same}")


if __name__ == "__main__":
    main()
