#!/usr/bin/env python3
"""scripts/plot-timeseries (ctest label experiments): a time series of a
short run plots, with and without the latency CDF, into a non-empty PNG;
what is not an ssdsim time series or latency log, and a PNG that cannot be
written, are one-line errors with exit 2."""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLOT = os.path.join(ROOT, "scripts", "plot-timeseries")
SSDSIM = os.environ["SSDSIM_BIN"]
DRIVE = ["--nand.channels=2", "--nand.dies_per_channel=2", "--nand.blocks_per_plane=64", "--nand.pages_per_block=64",
         "--workload.rw=randrw", "--workload.number_ios=3000", "--log-level=off"]
failures = []


def plot(*args):
    return subprocess.run([sys.executable, PLOT, *args], capture_output=True, text=True)


with tempfile.TemporaryDirectory() as tmp:
    ts, lat = os.path.join(tmp, "ts.csv"), os.path.join(tmp, "lat.csv")
    subprocess.run([SSDSIM, *DRIVE, "--timeseries", ts, "--timeseries.interval", "5ms", "--latency-log", lat],
                   check=True, capture_output=True)
    for extra in ([], ["--cdf"], ["--latency-log", lat]):
        png = os.path.join(tmp, f"plot{len(extra)}.png")
        p = plot(ts, png, *extra)
        if p.returncode != 0 or not os.path.getsize(png):
            failures.append(f"{extra}: exit {p.returncode}, {p.stderr.strip()[-300:]}")
    other = os.path.join(tmp, "other.csv")
    with open(other, "w") as f:
        f.write("a,b\n1,2\n")
    empty = os.path.join(tmp, "empty.csv")
    open(empty, "w").close()
    for args, says in (([os.path.join(tmp, "missing.csv")], "missing.csv: no such file"),
                       ([other], "other.csv: not an ssdsim --timeseries CSV (no column time_s)"),
                       ([empty], "empty.csv: cannot read it as CSV"),
                       ([ts, os.path.join(tmp, "no", "dir.png")], "dir.png: cannot write"),
                       ([ts, os.path.join(tmp, "p.png"), "--latency-log", other], "not an ssdsim --latency-log CSV")):
        p = plot(*args)
        lines = p.stderr.strip().splitlines()
        if p.returncode != 2 or len(lines) != 1 or says not in lines[0]:
            failures.append(f"{args}: exit {p.returncode} (want 2), stderr {p.stderr.strip()[-300:]!r} (want '{says}')")
for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
