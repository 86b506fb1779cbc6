"""Running a task over many files: in this process, in worker processes (``--jobs``), or on a
Ray or Dask cluster (``--engine``), with a progress bar on a terminal.

Every engine calls the same function, :func:`sigkern.cli._tasks.run`, on each file, and the
results come back in input order, so the output of a run does not depend on the engine.
"""

from __future__ import annotations

import importlib
import os
import sys
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Iterator, List, Optional, Sequence, Set, Tuple

from ._io import UsageError
from ._tasks import Opts, Result, run

ENGINES = ("local", "ray", "dask")


def default_jobs() -> int:
    """All cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class Progress:
    """A tqdm bar (files, files/s, ETA) on a terminal; nothing in a pipe, in CI or with
    ``--quiet``."""

    def __init__(self, total: int, desc: str, enabled: bool) -> None:
        self._bar: Any = None
        if enabled and sys.stderr.isatty() and not os.environ.get("CI"):
            try:
                tqdm = importlib.import_module("tqdm").tqdm
            except ImportError:
                return
            tqdm.monitor_interval = 0  # no monitor thread (worker processes fork)
            self._bar = tqdm(total=total, desc=desc, unit="file", file=sys.stderr,
                             dynamic_ncols=True, leave=False)

    def update(self, res: Result) -> None:
        """One file done (failures are listed once, after the bar)."""
        if self._bar is not None:
            self._bar.update(1)
            if not res.get("ok"):
                self._bar.set_postfix_str("failed: " + os.path.basename(res["path"]))

    def close(self) -> None:
        """Removes the bar."""
        if self._bar is not None:
            self._bar.close()


Job = Tuple[str, Optional[str]]


def execute(task: str, jobs: Sequence[Job], opts: Opts, *, workers: int = 1,
            engine: str = "local", address: Optional[str] = None, progress: bool = True,
            desc: str = "") -> List[Result]:
    """``run(task, path, dest, opts)`` for every ``(path, dest)`` of ``jobs``; results in
    input order."""
    bar = Progress(len(jobs), desc or task, progress)
    out: List[Optional[Result]] = [None] * len(jobs)
    try:
        if engine == "ray":
            stream = _ray(task, jobs, opts, workers, address)
        elif engine == "dask":
            stream = _dask(task, jobs, opts, workers, address)
        elif workers <= 1 or len(jobs) <= 1:
            stream = ((k, run(task, p, d, opts)) for k, (p, d) in enumerate(jobs))
        else:
            stream = _pool(task, jobs, opts, workers)
        for k, res in stream:
            out[k] = res
            bar.update(res)
    finally:
        bar.close()
    return [r for r in out if r is not None]


def _pool(task: str, jobs: Sequence[Job], opts: Opts, workers: int) -> Iterator[Tuple[int, Result]]:
    """Worker processes, at most ``2 × workers`` files in flight (so a huge corpus does not
    queue every task at once)."""
    with ProcessPoolExecutor(max_workers=min(workers, len(jobs))) as ex:
        pending: Set[Future[Result]] = set()
        index = {}
        it = iter(enumerate(jobs))
        for k, (p, d) in it:
            f = ex.submit(run, task, p, d, opts)
            index[f] = k
            pending.add(f)
            if len(pending) >= 2 * workers:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                yield index.pop(f), f.result()
            for k, (p, d) in it:
                f = ex.submit(run, task, p, d, opts)
                index[f] = k
                pending.add(f)
                if len(pending) >= 2 * workers:
                    break


def _need(module: str, extra: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise UsageError(f"--engine {extra} needs the '{extra}' package: "
                         f"pip install 'sigkern[{extra}]'") from None


def _ray(task: str, jobs: Sequence[Job], opts: Opts, workers: int,
         address: Optional[str]) -> Iterator[Tuple[int, Result]]:
    """Ray tasks (one per file, one CPU each) on the cluster at ``address``, or on a local
    Ray of ``workers`` CPUs."""
    ray = _need("ray", "ray")
    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, log_to_driver=False, include_dashboard=False)
    try:
        remote = ray.remote(num_cpus=1, max_retries=1)(run)
        refs = {remote.remote(task, p, d, opts): k for k, (p, d) in enumerate(jobs)}
        pending = list(refs)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield refs[ref], ray.get(ref)
    finally:
        if started:
            ray.shutdown()


def _dask(task: str, jobs: Sequence[Job], opts: Opts, workers: int,
          address: Optional[str]) -> Iterator[Tuple[int, Result]]:
    """Dask futures on the distributed scheduler at ``address``, or on a local cluster of
    ``workers`` single-threaded worker processes."""
    _need("dask", "dask")
    distributed = _need("dask.distributed", "dask")
    cluster = None
    if address:
        client = distributed.Client(address)
    else:
        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                           processes=True, dashboard_address=None)
        client = distributed.Client(cluster)
    try:
        n = len(jobs)
        futures = client.map(run, [task] * n, [p for p, _ in jobs], [d for _, d in jobs],
                             [opts] * n, pure=False)
        index = {f.key: k for k, f in enumerate(futures)}
        for f in distributed.as_completed(futures):
            yield index[f.key], f.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
