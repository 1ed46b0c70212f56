"""Experiment sweeps (the configs of ``configs/``, schema in ``docs/config.md``) run
locally or on a Dask cluster.

``run(config)`` is the local runner, what ``mkc run`` does: every job on this
machine's cores. ``run(config, client=...)`` hands the runner's own jobs to a
``dask.distributed.Client``:

1. each dataset is prepared on a worker (kernels built once per worker process and
   kept there for the jobs that follow) and its job list, the local runner's, is taken
   apart; jobs already in the records file are skipped (``resume``);
2. every other job (one grid point of one method on one kernel or on all, all its
   restarts) runs on a worker and returns the run records the local runner writes for
   it; the client appends them to the records file as each job finishes, so a job that
   finished is never lost, whatever happens to the workers or this process later;
3. the tables are rendered from the records file exactly as a local run renders them.

The records file is ``results/runs/<config name>.jsonl`` unless given: the one
``cargo xtask reproduce`` and ``mkc run --records ... --resume`` read, so a sweep
resumed locally after a cluster run (or on the cluster after a local one) reuses every
recorded job. A sweep with failed jobs (a worker lost, a job that raised) renders what
is on record, then raises :class:`SweepIncomplete`; running it again runs only the
missing jobs.

The workers need this package and the data: they read the config file and the data
directory at the paths the client resolves (a shared file system, or the same paths
on every machine). From a shell: ``python -m mkc.sweep CONFIG --scheduler ADDRESS``,
or ``mkc run CONFIG --dask ADDRESS``, which runs this module.
"""

import os
import sys
import time
from pathlib import Path

from sklearn.utils import Bunch

from . import _mkc

__all__ = ["run", "jobs", "SweepIncomplete", "main"]


class SweepIncomplete(RuntimeError):
    """Some jobs of a Dask sweep did not finish. ``failed`` lists ``(dataset, job,
    error)``; ``result`` is what :func:`run` would have returned (the tables rendered
    from the records on file, whose unfinished rows say so). The records of every
    finished job are in the records file: running the sweep again finishes the rest."""

    def __init__(self, message, failed, result):
        super().__init__(message)
        self.failed = failed
        self.result = result


def _paths(config, records, data_dir, profile):
    cfg = Path(config).resolve()
    if not cfg.is_file():
        raise FileNotFoundError(f"{config}: no such config file")
    info = _mkc.sweep.plan(str(cfg), profile, None if data_dir is None else str(data_dir))
    # the workers get the directory this process resolves, whatever their cwd or env
    info["data_dir"] = str(Path(info["data_dir"]).resolve())
    rec = Path(records) if records is not None else Path("results") / "runs" / f"{info['name']}.jsonl"
    return cfg, info, rec.resolve()


def jobs(config, profile="full", *, dataset, n_kernels, data_dir=None, records=None, recipe=None):
    """The local runner's jobs of ``dataset`` (a key of the config's tables) on
    ``n_kernels`` kernels of ``recipe`` (None: the dataset's own; else a recipe that a
    column's ``row_recipes`` gives the dataset), in its order: one dict per job with
    ``dataset``, ``index``, ``method``, ``params``, ``kernel`` (of a single-kernel
    method's job), ``runs`` and ``recorded`` (all its runs are in ``records``)."""
    import json

    cfg = Path(config).resolve()
    text = _mkc.sweep.jobs(
        str(cfg),
        profile,
        dataset,
        int(n_kernels),
        data_dir=None if data_dir is None else str(data_dir),
        records=None if records is None else str(records),
        recipe=recipe,
    )
    return [Bunch(**j) for j in json.loads(text)]


def _append(path, text):
    """Append whole record lines and push them to the disk before going on."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())


def _prepare_task(key, name, recipe):
    """On a worker: the number of kernels of dataset ``name`` with ``recipe``'s kernels
    (None: its own), or why it has none. ``key``: (config file, profile, data
    directory, config hash)."""
    return _mkc.sweep.prepare(key, name, recipe)


def _job_task(key, name, index, recipe):
    """On a worker: the run records of one job, as JSON lines."""
    return _mkc.sweep.run_job(key, name, index, recipe)


def _on_dask(client, cfg, info, records, resume, on_job, timeout):
    """Run every job not on record on the cluster; append the records as jobs finish.
    Returns (jobs run, failed list)."""
    from dask.distributed import as_completed

    common = (str(cfg), info["profile"], info["data_dir"], info["config_hash"])
    meta = {}
    preps = []
    # one unit per kernel set the local runner builds: each dataset with its own recipe,
    # and with every other recipe a column's ``row_recipes`` gives it
    for name, recipe in info["units"]:
        f = client.submit(_prepare_task, common, name, recipe, pure=False)
        meta[f.key] = ("prepare", (name, recipe), None)
        preps.append(f)
    done = as_completed(preps, timeout=timeout)
    ran, failed = 0, []
    for fut in done:
        kind, (name, recipe), job = meta.pop(fut.key)
        try:
            out = fut.result()
        except Exception as e:  # a lost worker, a job that raised: the rest goes on
            failed.append((name, job, e))
            continue
        finally:
            fut.release()
        if kind == "prepare":
            n_kernels, why = out
            if n_kernels is None:  # missing data: the rows say so when rendered
                continue
            listed = jobs(
                cfg,
                info["profile"],
                dataset=name,
                n_kernels=n_kernels,
                data_dir=info["data_dir"],
                records=records if resume else None,
                recipe=recipe,
            )
            for j in listed:
                if not j.recorded:
                    f = client.submit(_job_task, common, name, j.index, recipe, pure=False)
                    meta[f.key] = ("job", (name, recipe), j)
                    done.add(f)
        else:
            _append(records, out)
            ran += 1
            if on_job is not None:
                on_job(job, out.count("\n"))
    return ran, failed


def run(
    config,
    client=None,
    *,
    profile="full",
    records=None,
    out=None,
    data_dir=None,
    resume=True,
    timings=False,
    progress=False,
    on_job=None,
    timeout=None,
):
    """Run the experiment config ``config`` (a TOML file) with ``profile`` (``"full"``,
    the paper's protocol, or one the config defines such as ``"quick"``).

    ``client``: None runs the local runner in this process (what ``mkc run`` does,
    with ``progress`` as its progress bar); a ``dask.distributed.Client`` runs the
    runner's jobs on its cluster (see the module docs). ``records``: the JSON-lines
    file of run records (default ``results/runs/<config name>.jsonl``); ``resume``:
    jobs whose runs are all on record there are not run again. ``data_dir``: the data
    directory (default ``$MKC_DATA_DIR``, else ``./data``), the same for the workers.
    ``out``: also write the Markdown there. ``timings``: wall-clock times in the
    tables. ``on_job(job, n_records)`` is called on the client after each cluster
    job's records are on disk. ``timeout``: seconds the cluster part may take, after
    which ``TimeoutError`` is raised (the records of the jobs done are on file).

    Returns a :class:`sklearn.utils.Bunch`: ``markdown`` (the tables, as
    ``mkc run`` prints them), ``records`` (the records file), ``jobs_run`` (jobs run
    on the cluster; None locally), ``recorded_runs`` (runs taken from the records when
    rendering) and ``seconds``. Raises :class:`SweepIncomplete` when cluster jobs
    failed, ``ValueError``/``FileNotFoundError`` for a bad config or file.
    """
    t0 = time.perf_counter()
    cfg, info, rec = _paths(config, records, data_dir, profile)
    common = dict(data_dir=info["data_dir"], records=str(rec), timings=timings)
    failed, ran = [], None
    if client is None:
        r = _mkc.sweep.run_local(str(cfg), profile, resume=resume, progress=progress, **common)
    else:
        ran, failed = _on_dask(client, cfg, info, rec, resume, on_job, timeout)
        r = _mkc.sweep.run_local(str(cfg), profile, recorded_only=True, **common)
    result = Bunch(
        markdown=r["markdown"],
        records=str(rec),
        jobs_run=ran,
        recorded_runs=r["recorded_runs"],
        seconds=time.perf_counter() - t0,
    )
    if out is not None:
        Path(out).write_text(result.markdown + "\n", encoding="utf-8")
    if failed:
        name, job, e = failed[0]
        what = f"job {job.index} ({job.method})" if job is not None else "its preparation"
        raise SweepIncomplete(
            f"{len(failed)} task(s) of the sweep failed, the first on dataset `{name}`, "
            f"{what}: {type(e).__name__}: {e}. The records of the {ran} jobs that finished "
            f"are in {rec}; run the sweep again to finish the rest.",
            failed,
            result,
        )
    return result


def main(argv=None):
    """``python -m mkc.sweep CONFIG [--scheduler ADDRESS] ...``: run a config locally
    or on the Dask scheduler at ADDRESS and print its tables (or write them to
    ``--out``)."""
    import argparse

    p = argparse.ArgumentParser(prog="python -m mkc.sweep", description=main.__doc__)
    p.add_argument("config", help="the experiment config (e.g. configs/rmkc.toml)")
    p.add_argument("--scheduler", help="address of a Dask scheduler (tcp://host:8786); "
                   "without it the local runner runs the jobs")
    p.add_argument("--profile", default="full", help="full (default) or one the config defines")
    p.add_argument("--records", help="run records file (default results/runs/NAME.jsonl)")
    p.add_argument("--out", help="write the Markdown here instead of printing it")
    p.add_argument("--data-dir", help="data directory (default $MKC_DATA_DIR, else ./data)")
    p.add_argument("--no-resume", action="store_true", help="run jobs already on record again")
    p.add_argument("--timings", action="store_true", help="wall-clock times in the tables")
    a = p.parse_args(argv)
    client = None
    if a.scheduler:
        from dask.distributed import Client

        client = Client(a.scheduler)
    try:
        r = run(
            a.config,
            client,
            profile=a.profile,
            records=a.records,
            out=a.out,
            data_dir=a.data_dir,
            resume=not a.no_resume,
            timings=a.timings,
            progress=client is None,
        )
    except SweepIncomplete as e:
        print(e, file=sys.stderr)
        return 1
    finally:
        if client is not None:
            client.close()
    if a.out is None:
        print(r.markdown)
    else:
        print(f"wrote {a.out}", file=sys.stderr)
    ran = "" if r.jobs_run is None else f"{r.jobs_run} jobs on the cluster, "
    print(f"{ran}{r.recorded_runs} runs from {r.records}; {r.seconds:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
