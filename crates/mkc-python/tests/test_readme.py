"""The README's Python quick start runs as written and clusters its toy data well."""

import re
import subprocess
import sys

from conftest import REPO


def test_readme_quickstart_runs():
    text = (REPO / "README.md").read_text()
    m = re.search(r"<!-- python-quickstart -->\s*```python\n(.*?)```", text, re.S)
    assert m, "README.md has no python-quickstart block"
    r = subprocess.run([sys.executable, "-c", m.group(1)], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    acc = float(re.search(r"ACC (\S+)", r.stdout).group(1))
    assert acc >= 0.95, r.stdout
    weights = re.search(r"weights \[(.*?)\]", r.stdout, re.S).group(1).split()
    assert len(weights) == 4 and abs(sum(map(float, weights)) - 1) < 2e-3, r.stdout
