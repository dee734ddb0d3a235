"""Shared code of the experiment scripts (docs/experiments.md).

Each experiment runs ssdsim on drive presets (configs/drives/*.ini) in
named states, two runs at a time, caches every run's report under
OUT/runs/ (keyed on the binary, the preset's contents and the arguments),
and writes OUT/NAME.csv, OUT/NAME.md and PNG plots.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VENV_PYTHON = os.path.join(ROOT, ".venv", "bin", "python")
BINARY = os.environ.get("SSDSIM_BIN", os.path.join(ROOT, "build", "ssdsim"))
DRIVES = os.path.join(ROOT, "configs", "drives")


def ensure_packages():
    """Re-exec under the repository's .venv when pandas/matplotlib are missing."""
    import importlib.util
    if all(importlib.util.find_spec(m) for m in ("pandas", "matplotlib")):
        return
    if os.path.exists(VENV_PYTHON) and os.environ.get("SSDSIM_EXP_REEXEC") != "1":
        os.environ["SSDSIM_EXP_REEXEC"] = "1"
        os.execv(VENV_PYTHON, [VENV_PYTHON, *sys.argv])
    fail(3, "pandas and matplotlib are missing; run scripts/setup-python")


def fail(code, msg):
    """One line on stderr and the project's exit codes: 2 bad input, 3 internal error."""
    print(f"experiments: {msg}", file=sys.stderr)
    raise SystemExit(code)


def _internal_error(kind, value, tb):
    if issubclass(kind, KeyboardInterrupt):
        sys.__excepthook__(kind, value, tb)
        return
    print(f"experiments: internal error: {kind.__name__}: {value}", file=sys.stderr)
    sys.stderr.flush()
    os._exit(3)


def _at_least_one(text):
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"'{text}': a whole number, at least 1")
    return int(text)


def parser(name, doc):
    sys.excepthook = _internal_error  # no traceback: one line, exit 3
    ap = argparse.ArgumentParser(prog=name, description=doc)
    ap.add_argument("--quick", action="store_true", help="short runs and spans (minutes in all; the CI smoke test)")
    ap.add_argument("--drives", help="comma-separated preset names or .ini paths (default: every configs/drives preset)")
    ap.add_argument("--out", help=f"output directory (default results/experiments/{name})")
    ap.add_argument("--jobs", type=_at_least_one, default=2, help="runs at once (default 2)")
    ap.add_argument("--binary", default=BINARY)
    return ap


def drives(arg, ssd_only=False):
    """(name, path) of the chosen presets; a missing one is reported, not skipped silently."""
    names = arg.split(",") if arg is not None else sorted(f[:-4] for f in os.listdir(DRIVES) if f.endswith(".ini"))
    out = []
    for i, n in enumerate(names):
        if n in names[:i]:
            fail(2, f"--drives: {n}: given twice")
        path = n if n.endswith(".ini") else os.path.join(DRIVES, n + ".ini")
        if not os.path.exists(path):
            fail(2, f"--drives: {n}: no such preset ({path})")
        name = os.path.basename(path)[:-4]
        if ssd_only and is_hdd(path):
            print(f"experiments: {name} is a hard disk: left out of this SSD-only experiment")
            continue
        out.append((name, path))
    if not out:
        fail(2, f"--drives: {arg or 'configs/drives'}: no drive this experiment can run")
    return out


def is_hdd(path):
    with open(path) as f:
        return any(line.split("#")[0].replace(" ", "").strip() == "device=hdd" for line in f)


def state(path, name):
    """ssdsim's options for a drive state (docs/states.md); hard disks have none."""
    if is_hdd(path):
        return []
    return ["--state", {"used": "used-anthology"}.get(name, name)]


class RunFailed(Exception):
    def __init__(self, code, msg):
        super().__init__(msg)
        self.code, self.msg = code, msg


class Runner:
    def __init__(self, args, name):
        self.binary = args.binary
        self.out = args.out or os.path.join(ROOT, "results", "experiments", name)
        self.jobs = args.jobs
        try:
            os.makedirs(os.path.join(self.out, "runs"), exist_ok=True)
        except OSError as e:
            fail(2, f"--out {self.out}: {e.strerror}")
        if not os.path.exists(self.binary) and os.path.abspath(self.binary) == os.path.abspath(BINARY):
            subprocess.run([os.path.join(ROOT, "scripts", "build")], check=True, stdout=subprocess.DEVNULL)
        if not os.path.isfile(self.binary) or not os.access(self.binary, os.X_OK):
            fail(2, f"--binary {self.binary}: not an executable (build it: scripts/build)")
        with open(self.binary, "rb") as f:
            self.binary_hash = hashlib.sha256(f.read()).hexdigest()[:16]

    def _key(self, path, argv):
        with open(path, "rb") as f:
            h = hashlib.sha256(self.binary_hash.encode() + f.read() + json.dumps(argv).encode()).hexdigest()
        return os.path.join(self.out, "runs", h[:24])

    def run_one(self, path, argv, timeseries=False):
        """The report (and the per-second CSV if asked) of one run, cached."""
        base = self._key(path, argv + (["ts"] if timeseries else []))
        report, ts = base + ".json", base + ".ts.csv"
        if not os.path.exists(report):
            cmd = [self.binary, "--config", path, *argv, "--log-level=off", "--report", report + ".tmp"]
            if timeseries:
                cmd += ["--timeseries", ts, "--timeseries.interval=1s"]
            p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if p.returncode != 0:
                # ssdsim's own one-line error (exit 2: bad input), with the run it came from.
                why = (p.stderr.strip().splitlines() or ["no message"])[-1]
                raise RunFailed(2 if p.returncode == 2 else 3,
                                f"{os.path.basename(path)}: ssdsim exit {p.returncode}: {why} (run: {' '.join(argv)})")
            os.replace(report + ".tmp", report)
        with open(report) as f:
            r = json.load(f)
        return (r, ts) if timeseries else r

    def run_all(self, jobs):
        """jobs: [(key, path, argv[, timeseries])] -> {key: result}, two at a time.

        Jobs that are the same run (the same cached report) run once: two at
        once would also race on the report's temporary file."""
        runs = {}  # the run's cache file -> (path, argv, timeseries), [job keys]
        for j in jobs:
            timeseries = bool(j[3]) if len(j) > 3 else False
            base = self._key(j[1], j[2] + (["ts"] if timeseries else []))
            runs.setdefault(base, ((j[1], j[2], timeseries), []))[1].append(j[0])
        results, done = {}, 0
        with concurrent.futures.ThreadPoolExecutor(self.jobs) as pool:
            futures = {pool.submit(self.run_one, *run): keys for run, keys in runs.values()}
            for fut in concurrent.futures.as_completed(futures):
                try:
                    result = fut.result()
                except RunFailed as e:  # the first failure only: one line
                    pool.shutdown(wait=False, cancel_futures=True)
                    print(file=sys.stderr)
                    fail(e.code, e.msg)
                for key in futures[fut]:
                    results[key] = result
                done += 1
                print(f"\r{done}/{len(runs)} runs", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        return results


def metrics(r, op):
    s = r[op]
    return {"iops": s["iops"], "mb_s": s["bw_bytes"] / 1e6, "lat_mean_ms": s["lat_ns"]["mean"] / 1e6,
            "lat_max_ms": s["lat_ns"]["max"] / 1e6}


def write_outputs(out, name, df, title, note=""):
    """NAME.csv and NAME.md (a markdown table) in `out`."""
    df.to_csv(os.path.join(out, f"{name}.csv"), index=False)
    with open(os.path.join(out, f"{name}.md"), "w") as f:
        f.write(f"# {title}\n\n")
        if note:
            f.write(note.strip() + "\n\n")
        cols = list(df.columns)
        f.write("| " + " | ".join(cols) + " |\n|" + "---|" * len(cols) + "\n")
        for _, row in df.iterrows():
            f.write("| " + " | ".join(f"{v:.3g}" if isinstance(v, float) else str(v) for v in row) + " |\n")
    print(f"wrote {out}/{name}.csv, {name}.md")


def plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as p
    return p
