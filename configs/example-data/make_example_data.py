"""Writes the example data of configs/example-own-data.toml (standard library only).

    python3 configs/example-data/make_example_data.py

shapes: 90 samples of three classes (red, green, blue; 30 each) seen through two views.
  View a (2 features): red and green overlap, blue is apart.
  View b (3 features): green and blue overlap, red is apart.
  No single view separates the three classes; the two together do.
rings: 30 samples of two classes (inner, outer) on concentric circles of radius 1 and 3,
  given as two precomputed 30 x 30 kernels (.npy): a Gaussian with sigma = 1 on the
  2-D points (K1) and the linear kernel of the squared radius (K2).
"""

import math
import random
import struct
from pathlib import Path

HERE = Path(__file__).resolve().parent
rng = random.Random(20240601)


def write_csv(path, rows):
    with open(path, "w") as f:
        for r in rows:
            f.write(",".join(f"{v:.4f}" for v in r) + "\n")


def write_lines(path, items):
    with open(path, "w") as f:
        for s in items:
            f.write(f"{s}\n")


def write_npy(path, m):
    n, d = len(m), len(m[0])
    header = f"{{'descr': '<f8', 'fortran_order': False, 'shape': ({n}, {d}), }}"
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * pad + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        for row in m:
            f.write(struct.pack(f"<{d}d", *row))


def shapes():
    centres_a = {"red": (0.0, 0.0), "green": (0.6, 0.3), "blue": (4.0, 3.0)}
    centres_b = {"red": (-3.0, 2.0, 0.0), "green": (1.0, 0.0, 1.0), "blue": (1.4, 0.4, 0.6)}
    a, b, labels = [], [], []
    for i in range(90):
        c = ["red", "green", "blue"][i % 3]
        a.append([x + rng.gauss(0, 0.5) for x in centres_a[c]])
        b.append([x + rng.gauss(0, 0.5) for x in centres_b[c]])
        labels.append(c)
    write_csv(HERE / "shapes-a.csv", a)
    write_csv(HERE / "shapes-b.csv", b)
    write_lines(HERE / "shapes-labels.txt", labels)


def rings():
    pts, labels = [], []
    for i in range(30):
        inner = i % 2 == 0
        r = (1.0 if inner else 3.0) + rng.gauss(0, 0.1)
        t = rng.uniform(0, 2 * math.pi)
        pts.append((r * math.cos(t), r * math.sin(t)))
        labels.append("inner" if inner else "outer")
    sq = [x * x + y * y for x, y in pts]
    k1 = [[math.exp(-((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2) / 2.0) for q in pts] for p in pts]
    k2 = [[s * t for t in sq] for s in sq]
    write_npy(HERE / "rings-K1.npy", k1)
    write_npy(HERE / "rings-K2.npy", k2)
    write_lines(HERE / "rings-labels.txt", labels)


shapes()
rings()
