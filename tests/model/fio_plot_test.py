#!/usr/bin/env python3
"""fio-plot (PyPI `fio-plot`), a real consumer of fio's output, reads
ssdsim's JSON report and its fio-format latency log as it reads fio's.

Usage: fio_plot_test.py SSDSIM
Exits 77 (ctest's skip code) when fio_plot cannot be imported.
"""
import json
import os
import subprocess
import sys
import tempfile

try:
    from fio_plot.fiolib import dataimport, jsonimport, jsonparsing
except ImportError as e:
    print(f"SKIP: fio-plot is not importable from {sys.executable} ({e}); scripts/setup-python installs it")
    sys.exit(77)

SMALL = ["--nand.channels=4", "--nand.dies_per_channel=2", "--nand.blocks_per_plane=64", "--nand.pages_per_block=64"]
JOB = """; two clones of one random-read job, as fio-plot's benchmarks run them
[global]
ioengine=libaio
direct=1
iopsavgtime=20

[randread-qd4]
rw=randread
bs=4k
iodepth=4
numjobs=2
size=16m
number_ios=3000
"""

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"FAIL: {what}")


def close(a, b, tol, what):
    check(abs(a - b) <= tol, f"{what}: {a} vs {b} (tolerance {tol})")


def main():
    ssdsim = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        job = os.path.join(d, "randread.fio")
        with open(job, "w") as f:
            f.write(JOB)
        report = os.path.join(d, "randread.json")
        log = os.path.join(d, "randread_lat.1.log")
        # --output-format=json to stdout alone: the file is what `fio --output-format=json > x.json` would give.
        with open(report, "w") as out:
            subprocess.run([ssdsim, *SMALL, "--job", job, "--output-format=json", "--latency-log", log,
                            "--latency-log.format=fio"], stdout=out, check=True)
        with open(report) as f:
            ours = json.load(f)

        # fio-plot's JSON path: find the matching result files, load and flatten them.
        settings = {"input_directory": [d], "rw": "randread", "iodepth": [4], "numjobs": [2],
                    "filter": ["read", "write"], "include_hosts": None, "exclude_hosts": None,
                    "compare_graph": False}
        dataset = jsonimport.list_json_files(settings)
        check(dataset[0]["files"] == [report], f"fio-plot selects the report: {dataset[0]['files']}")
        dataset = jsonimport.import_json_dataset(settings, dataset)
        parsed = jsonparsing.parse_json_data(settings, dataset)
        rows = parsed[0]["data"]
        check(len(rows) == 1, f"one merged row per file: {len(rows)}")
        row = rows[0]
        jobs = ours["jobs"]
        check(len(jobs) == 2, "numjobs=2 gives two jobs")
        # fio-plot sums the jobs' IOPS and bandwidth and averages their mean latency.
        close(row["iops"], sum(j["read"]["iops"] for j in jobs), 1e-6, "iops")
        close(row["bw"], sum(j["read"]["bw"] for j in jobs), 0, "bw")
        close(row["lat"], sum(j["read"]["lat_ns"]["mean"] for j in jobs) / 2, 1e-6, "lat")
        check(row["fio_version"].startswith("ssdsim-"), "fio version")
        check(row["iodepth"] == "4" and row["numjobs"] == "2" and row["bs"] == "4k", "job options")
        check(row["iops_stddev"] > 0, "iops_stddev from per-interval samples")
        check(row["cpu_usr"] == 0 and row["cpu_sys"] == 0, "cpu figures are 0 in a simulation")
        for buckets in row["latency_us"] + row["latency_ms"]:
            check(all(isinstance(v, float) for v in buckets.values()), "bucket maps of percentages")
        total = sum(sum(b.values()) for b in row["latency_us"] + row["latency_ms"] + row["latency_ns"])
        close(total, 200.0, 0.1, "each job's buckets add up to 100 %")

        # fio-plot's log path: the fio-format latency log, one record per IO.
        records = dataimport.readLogData(settings, {"filename": log})
        check(len(records) == 2 * 3000, f"one log record per IO: {len(records)}")
        check(all(r["rwt"] == "0" for r in records), "reads are ddir 0")
        check(all(r["blocksize"] == "4096" for r in records), "block size in bytes")
        mean = sum(int(r["value"]) for r in records) / len(records)
        close(mean, (ours["read"]["lat_ns"]["mean"]), 1.0, "log latency (ns) mean = report lat_ns mean")
        check(int(records[-1]["timestamp"]) == ours["device"]["simulated_time_ns"] // 1000000, "timestamps in ms")

    print(f"{len(failures)} checks failed" if failures else "fio-plot reads ssdsim's output: ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
