"""``mkc.sweep``: experiment configs run by the local runner and on a Dask
``LocalCluster`` of two worker processes on 127.0.0.1 that the tests start. The
cluster's tables are the local runner's (the quick profile of the GUMKL paper, and the
example own-data config); a worker killed mid-sweep loses no finished record and the
re-run finishes the rest. The cluster tests skip, saying why, without dask."""

import json
import logging
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import mkc
from conftest import REPO

DATA = Path(os.environ.get("MKC_DATA_DIR") or REPO / "data")
EXAMPLE = REPO / "configs" / "example-own-data.toml"
PAPER = REPO / "configs" / "gumkl.toml"
TIMEOUT = 900  # seconds any one sweep on the cluster may take


@pytest.fixture(scope="module")
def client():
    """A client of a LocalCluster: two worker processes of one thread on 127.0.0.1.
    A task on a worker that dies fails at once (no retry elsewhere), so that a killed
    worker leaves jobs for the re-run."""
    try:
        import dask
        import dask.distributed as distributed
    except ImportError as e:
        pytest.skip(
            f"dask[distributed] cannot be imported ({e}; .ci/python installs it from PyPI): "
            "the Dask sweep tests do not run"
        )

    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        cluster = distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address="127.0.0.1:0",
            silence_logs=logging.CRITICAL,
        )
        c = distributed.Client(cluster, timeout=60)
        try:
            c.wait_for_workers(2, timeout=120)
            yield c
        finally:
            c.close()
            cluster.close(timeout=60)


def lines(p):
    return Path(p).read_text().splitlines() if Path(p).exists() else []


def runs(p):
    """The runs of a records file without their clock readings, in a fixed order."""
    out = []
    for line in lines(p):
        r = json.loads(line)
        r["wall_time_s"], r["phases"] = 0, []
        r["diagnostics"] = [d for d in r["diagnostics"] if "second" not in d[0]]
        if r["metrics"]:
            r["metrics"]["time"] = 0
        out.append(json.dumps(r, sort_keys=True))
    return sorted(out)


def all_jobs(config, profile, records=None):
    """Every job of the config (each dataset prepared here, with each recipe its
    columns use, to count its kernels)."""
    out = []
    for name, recipe in mkc._mkc.sweep.plan(str(config), profile, str(DATA))["units"]:
        key = (str(config), profile, str(DATA), _hash(config, profile))
        n_kernels, why = mkc._mkc.sweep.prepare(key, name, recipe)
        if n_kernels is not None:
            out += mkc.sweep.jobs(config, profile, dataset=name, n_kernels=n_kernels,
                                  data_dir=DATA, records=records, recipe=recipe)
    return out


def _hash(config, profile):
    return mkc._mkc.sweep.plan(str(config), profile, str(DATA))["config_hash"]


def test_the_local_runner_is_mkc_run(tmp_path, cli):
    rec = tmp_path / "runs.jsonl"
    r = mkc.sweep.run(EXAMPLE, profile="quick", records=rec, data_dir=DATA, out=tmp_path / "t.md")
    c = cli("run", EXAMPLE, "--profile", "quick", "--data-dir", DATA)
    assert c.returncode == 0, c.stderr
    assert c.stdout == r.markdown + "\n" == (tmp_path / "t.md").read_text()
    assert r.jobs_run is None and r.recorded_runs == 0 and Path(r.records) == rec
    n = len(lines(rec))
    assert n == sum(j.runs for j in all_jobs(EXAMPLE, "quick"))
    # resumed: every job from the records, nothing appended
    again = mkc.sweep.run(EXAMPLE, profile="quick", records=rec, data_dir=DATA)
    assert again.markdown == r.markdown and again.recorded_runs >= n and len(lines(rec)) == n


def test_jobs_follow_the_runner_and_workers_check_the_config(tmp_path):
    jobs = mkc.sweep.jobs(EXAMPLE, "quick", dataset="shapes", n_kernels=6)
    # kkm (two grid points, shared by two columns) on each of the 6 kernels, then the
    # multiple kernel methods once each (GUMKL's quick grid has one p)
    assert [(j.method, j.kernel) for j in jobs[:12]] == [
        ("kkm", k) for _ in range(2) for k in range(6)
    ]
    assert [j.method for j in jobs[12:]] == ["avg-kkm", "mkkm", "simplemkkm", "gumkl"]
    assert [j.index for j in jobs] == list(range(16))
    assert all(j.runs == 2 and not j.recorded and j.dataset == "shapes" for j in jobs)
    assert mkc.sweep.jobs(EXAMPLE, "quick", dataset="nope", n_kernels=6) == []
    key = (str(EXAMPLE), "quick", str(DATA), _hash(EXAMPLE, "quick"))
    with pytest.raises(ValueError, match="changed since the sweep began"):
        mkc._mkc.sweep.run_job(key[:3] + ("0123456789abcdef",), "shapes", 0)
    with pytest.raises(ValueError, match="`job`"):
        mkc._mkc.sweep.run_job(key, "shapes", 16)
    recs = mkc._mkc.sweep.run_job(key, "shapes", 15).splitlines()
    assert len(recs) == 2 and all(json.loads(r)["method"] == "gumkl" for r in recs)
    assert mkc._mkc.sweep.prepare(key, "shapes") == (6, None)
    n_kernels, why = mkc._mkc.sweep.prepare(key[:2] + (str(tmp_path), key[3]), "shapes")
    assert n_kernels == 6, "own data comes from the config's folder, not the data directory"
    n_kernels, why = mkc._mkc.sweep.prepare(key, "nope")
    assert n_kernels is None and "`nope`" in why
    with pytest.raises(FileNotFoundError):
        mkc.sweep.run(tmp_path / "none.toml")
    with pytest.raises(ValueError, match="profile"):
        mkc.sweep.run(EXAMPLE, profile="nope", records=tmp_path / "r.jsonl")


def test_the_command_line_runs_a_config(tmp_path):
    rec = tmp_path / "runs.jsonl"
    r = subprocess.run(
        [sys.executable, "-m", "mkc.sweep", str(EXAMPLE), "--profile", "quick",
         "--records", str(rec), "--data-dir", str(DATA)],
        capture_output=True, text=True, timeout=600,
    )
    assert r.returncode == 0, r.stderr
    local = mkc.sweep.run(EXAMPLE, profile="quick", records=tmp_path / "x.jsonl", data_dir=DATA)
    assert r.stdout == local.markdown + "\n"


def test_a_paper_quick_profile_on_two_workers_gives_the_local_tables(client, tmp_path):
    local = mkc.sweep.run(PAPER, profile="quick", records=tmp_path / "local.jsonl", data_dir=DATA)
    from dask.distributed import get_task_stream

    rec = tmp_path / "dask.jsonl"
    with get_task_stream(client) as stream:
        dist = mkc.sweep.run(PAPER, client, profile="quick", records=rec, data_dir=DATA,
                             timeout=TIMEOUT)
    assert dist.markdown == local.markdown
    jobs = all_jobs(PAPER, "quick")
    assert dist.jobs_run == len(jobs) > 1
    assert runs(rec) == runs(tmp_path / "local.jsonl")
    assert len({t["worker"] for t in stream.data}) == 2, "both workers ran jobs"
    # a local run resumed after the cluster run runs nothing again
    n = len(lines(rec))
    again = mkc.sweep.run(PAPER, profile="quick", records=rec, data_dir=DATA)
    assert again.markdown == local.markdown and len(lines(rec)) == n
    assert again.recorded_runs >= n
    # and the cluster run resumed: no job submitted
    assert mkc.sweep.run(PAPER, client, profile="quick", records=rec, data_dir=DATA,
                         timeout=TIMEOUT).jobs_run == 0


def example_with_row_recipe(tmp_path):
    """The example config with a second recipe (one Gaussian kernel per view) that the
    best-kernel KKM column uses on Shapes, its files found from its own folder."""
    text = EXAMPLE.read_text().replace(
        "[recipes.normalized]",
        '[recipes.gauss1]\nscale = "zscore"\n'
        'kernels = [{ kind = "gaussian", sigma_median_ratio = [1.0] }]\n\n[recipes.normalized]',
    )
    kkm = 'method = "kkm", grid = { n_init = [1, 5] } }'
    assert text.count(kkm) == 1  # the best-kernel column (the average one has `summary`)
    text = text.replace(kkm, 'method = "kkm", grid = { n_init = [1, 5] }, '
                             'row_recipes = { shapes = "gauss1" } }', 1)
    return write_example(tmp_path / "row-recipes.toml", text)


def write_example(path, text):
    """Write an edited copy of the example config to ``path``, its data files found from
    the example's own folder."""
    path.write_text(text.replace('"example-data/', f'"{EXAMPLE.parent.as_posix()}/example-data/'))
    return path


def test_jobs_of_a_recipe_no_column_uses_is_an_error(tmp_path):
    cfg = example_with_row_recipe(tmp_path)
    assert len(mkc.sweep.jobs(cfg, "quick", dataset="shapes", n_kernels=2, data_dir=DATA,
                              recipe="gauss1")) == 4  # KKM: 2 kernels x 2 grid points
    with pytest.raises(ValueError, match="recipe `gauss3`"):
        mkc.sweep.jobs(cfg, "quick", dataset="rings", n_kernels=2, data_dir=DATA,
                       recipe="gauss3")


def test_a_column_on_another_recipe_runs_on_the_cluster_as_locally(client, tmp_path):
    cfg = example_with_row_recipe(tmp_path)
    units = mkc._mkc.sweep.plan(str(cfg), "quick", str(DATA))["units"]
    assert units == [("shapes", None), ("shapes", "gauss1"), ("rings", None)]
    local = mkc.sweep.run(cfg, profile="quick", records=tmp_path / "local.jsonl", data_dir=DATA)
    rec = tmp_path / "dask.jsonl"
    dist = mkc.sweep.run(cfg, client, profile="quick", records=rec, data_dir=DATA,
                         timeout=TIMEOUT)
    assert dist.markdown == local.markdown
    assert dist.jobs_run == len(all_jobs(cfg, "quick"))
    assert runs(rec) == runs(tmp_path / "local.jsonl")
    on_gauss1 = [json.loads(x) for x in lines(rec) if '"recipe":"gauss1"' in x]
    # two views x one width, two grid points, two restarts of the quick profile
    assert len(on_gauss1) == 2 * 2 * 2
    assert {r["column"] for r in on_gauss1} == {"kkm"}


def slow_example(tmp_path):
    """The example config with enough restarts that a job takes a while, its files
    found from its own folder."""
    return write_example(tmp_path / "slow.toml",
                         EXAMPLE.read_text().replace("restarts = 5", "restarts = 60"))


def test_a_worker_killed_mid_sweep_loses_no_record_and_the_rerun_finishes(client, tmp_path):
    cfg = slow_example(tmp_path)
    rec = tmp_path / "runs.jsonl"
    pids = client.run(os.getpid)
    seen = {}

    def kill_a_busy_worker(job, n_records):
        if "killed" in seen:
            return
        busy = [w for w, keys in client.processing().items() if keys]
        if not busy:
            return
        seen["before"] = rec.read_bytes()
        seen["killed"] = busy[0]
        os.kill(pids[busy[0]], signal.SIGKILL)

    with pytest.raises(mkc.sweep.SweepIncomplete) as e:
        mkc.sweep.run(cfg, client, records=rec, data_dir=DATA, on_job=kill_a_busy_worker,
                      timeout=TIMEOUT)
    assert "killed" in seen, "no worker was busy when a job finished"
    failed = e.value.failed
    assert failed and all("Killed" in type(err).__name__ for _, _, err in failed), failed
    assert "no records yet" in e.value.result.markdown
    # every record on file when the worker died is still there, whole
    after = rec.read_bytes()
    assert after.startswith(seen["before"]) and after.endswith(b"\n")
    jobs = all_jobs(cfg, "full", records=rec)
    missing = [j for j in jobs if not j.recorded]
    lost = {(name, j.index) for name, j, _ in failed if j is not None}
    assert lost <= {(j.dataset, j.index) for j in missing}
    assert len(lines(rec)) == sum(j.runs for j in jobs if j.recorded)
    # the re-run (the nanny has restarted the worker) runs only what is missing
    client.wait_for_workers(2, timeout=120)
    r = mkc.sweep.run(cfg, client, records=rec, data_dir=DATA, timeout=TIMEOUT)
    assert r.jobs_run == len(missing) > 0
    assert all(j.recorded for j in all_jobs(cfg, "full", records=rec))
    local = mkc.sweep.run(cfg, records=tmp_path / "local.jsonl", data_dir=DATA)
    assert r.markdown == local.markdown
    assert runs(rec) == runs(tmp_path / "local.jsonl")


def test_mkc_run_dask_runs_the_config_on_the_cluster(client, cli, tmp_path, monkeypatch):
    monkeypatch.setenv("MKC_PYTHON", sys.executable)
    out, rec = tmp_path / "t.md", tmp_path / "r.jsonl"
    address = client.scheduler.address
    args = ["run", EXAMPLE, "--profile", "quick", "--data-dir", DATA, "--records", rec]
    r = cli(*args, "--out", out, "--dask", address)
    assert r.returncode == 0, r.stderr
    assert "jobs on the cluster" in r.stderr
    local = mkc.sweep.run(EXAMPLE, profile="quick", records=tmp_path / "l.jsonl", data_dir=DATA)
    assert out.read_text() == local.markdown + "\n"
    assert runs(rec) == runs(tmp_path / "l.jsonl")
    # --resume: nothing runs again
    r = cli(*args, "--resume", "--dask", address)
    assert r.returncode == 0 and r.stdout == local.markdown + "\n", r.stderr
    assert "0 jobs on the cluster" in r.stderr
    monkeypatch.setenv("MKC_PYTHON", str(tmp_path / "no-python"))
    r = cli(*args, "--dask", address)
    assert r.returncode == 1 and "MKC_PYTHON" in r.stderr, r.stderr
