"""Runs the points on Dask: a LocalCluster (one single-threaded worker per
core) or an existing scheduler, with a per-point cache and a
plain-text progress bar on stderr."""
import json
import os
import sys
import time
import uuid

from . import task
from .points import point_dir


class Outcome:
    """What happened to one point."""

    def __init__(self, point, status, cached):
        self.point, self.cached = point, cached
        self.returncode = status["returncode"]
        self.error = status.get("stderr_first_line", "") if self.returncode != 0 else ""
        self.elapsed_s = status.get("elapsed_s", 0.0)
        self.ok = self.returncode == 0


def files(out, p, latency):
    d = point_dir(out, p)
    return d, os.path.join(d, "report.json"), os.path.join(d, "latency.csv") if latency else None


def cached_status(out, p, latency):
    """The status of an earlier successful run of this point, or None."""
    d, report, lat = files(out, p, latency)
    try:
        with open(os.path.join(d, "status.json")) as f:
            status = json.load(f)
    except (OSError, ValueError):
        return None
    if status.get("returncode") != 0 or not os.path.exists(report) or (lat and not os.path.exists(lat)):
        return None
    return status


def _shippable_run_point():
    """task.run_point, compiled as if defined in __main__.

    Dask pickles functions by reference (module + name) unless they come from
    __main__, which it ships by value with cloudpickle. The scheduler and the
    workers of an existing cluster do not have sweeplib on their path, so the
    task (standard library only) goes by value.
    """
    namespace = {"__name__": "__main__"}
    with open(task.__file__) as f:
        exec(compile(f.read(), task.__file__, "exec"), namespace)
    return namespace["run_point"]


def start_client(workers=None, scheduler=None):
    """A Dask client: on `scheduler`, or on a new LocalCluster."""
    from dask.distributed import Client, LocalCluster
    if scheduler:
        return Client(scheduler, timeout="30s"), None
    # Each task only waits for its ssdsim process, so in-process (thread)
    # workers suffice; they start in milliseconds where worker processes take
    # seconds. One worker with one thread per core: one simulation per core.
    cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1,
                           processes=False, dashboard_address=None)
    return Client(cluster), cluster


def run(points, out, binary, client, latency=False, timeout=None, use_cache=True, quiet=False):
    """Run every point not in the cache; return [Outcome] in point order."""
    from dask.distributed import as_completed
    outcomes, todo = {}, []
    for p in points:
        status = cached_status(out, p, latency) if use_cache else None
        if status is not None:
            outcomes[p.index] = Outcome(p, status, cached=True)
        else:
            todo.append(p)
    bar = Progress(len(points), cached=len(outcomes), quiet=quiet)
    futures = {}
    run_point = _shippable_run_point()
    for p in todo:
        d, report, lat = files(out, p, latency)
        cmd = p.command(binary.path, report, lat)
        # pure=False: a failed point is run again, not served from Dask's memory.
        key = f"point-{p.key[:16]}-{uuid.uuid4().hex[:8]}"  # unique on a shared scheduler
        futures[client.submit(run_point, cmd, d, timeout, pure=False, key=key)] = p
    for future in as_completed(futures):
        p = futures[future]
        try:
            status = future.result()
        except Exception as e:  # a worker died or the cluster went away
            status = {"returncode": -1, "stderr_first_line": f"dask: {type(e).__name__}: {e}"}
        o = Outcome(p, status, cached=False)
        outcomes[p.index] = o
        bar.update(o.ok)
        if not o.ok:
            d, report, lat = files(out, p, latency)
            cmd = " ".join(task._quote(a) for a in p.command(binary.path, report, lat))
            bar.message(f"sweep: point {p.index} failed (exit {o.returncode}): {o.error}\n  command: {cmd}")
    bar.close()
    return [outcomes[p.index] for p in points]


class Progress:
    """`[#####.....] 12/40 cached 4 failed 1  0:12 elapsed, ETA 0:30` on stderr.

    On a terminal the line is redrawn in place; otherwise a line is printed
    at most every 5 s and at the end. The ETA scales the time spent so far by
    the points still to run (cached points take no time).
    """

    def __init__(self, total, cached=0, quiet=False, stream=None):
        self.total, self.cached, self.done, self.failed = total, cached, cached, 0
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.quiet = quiet
        self.start = time.monotonic()
        self.last = 0.0
        self.draw(force=True)

    def update(self, ok):
        self.done += 1
        self.failed += 0 if ok else 1
        self.draw(force=self.done == self.total)

    def message(self, text):
        if self.tty and not self.quiet:
            self.stream.write("\r\033[K")
        self.stream.write(text + "\n")
        self.draw(force=True)

    def draw(self, force=False):
        now = time.monotonic()
        if self.quiet or (not force and not self.tty and now - self.last < 5):
            return
        self.last = now
        width = 30
        filled = width * self.done // max(self.total, 1)
        elapsed = now - self.start
        ran = self.done - self.cached
        left = self.total - self.done
        eta = _clock(elapsed / ran * left) if ran and left else ("0:00" if not left else "?")
        line = (f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} "
                f"cached {self.cached} failed {self.failed}  {_clock(elapsed)} elapsed, ETA {eta}")
        self.stream.write(("\r\033[K" + line) if self.tty else line + "\n")
        self.stream.flush()

    def close(self):
        if self.tty and not self.quiet:
            self.stream.write("\n")
            self.stream.flush()


def _clock(seconds):
    s = int(round(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"
