"""End-to-end test of scripts/sweep with the real ssdsim binary.

Run by ctest (label `sweep`) with the repository's .venv Python; needs
SSDSIM_BIN and SSDSIM_SOURCE_DIR in the environment. Expected values are
computed here from the sweep's parameters, never copied from the tool.
"""
import itertools
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

BIN = os.environ.get("SSDSIM_BIN", "")
SRC = os.environ.get("SSDSIM_SOURCE_DIR", "")
SWEEP = os.path.join(SRC, "scripts", "sweep")

# The tiny base drive, written as a config preset the sweep names.
BASE = {"channels": 2, "dies_per_channel": 2, "planes_per_die": 2, "blocks_per_plane": 128,
        "pages_per_block": 32, "page_size": 4096}
CHANNELS = [1, 4]
DIES = [1, 2]
IOS = 2000


def raw_bytes(g):
    return (g["channels"] * g["dies_per_channel"] * g["planes_per_die"] * g["blocks_per_plane"] *
            g["pages_per_block"] * g["page_size"])


class SweepTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="sweep-test-")
        cls.dir = cls.tmp.name
        with open(os.path.join(cls.dir, "tiny.ini"), "w") as f:
            f.write("[nand]\n" + "".join(f"{k} = {v}\n" for k, v in BASE.items() if k != "page_size") +
                    "page_size = 4k\n")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(textwrap.dedent(text))
        return path

    def sweep(self, *args, workers=("--workers", "2")):
        p = subprocess.run([sys.executable, SWEEP, *args, "--binary", BIN, *workers],
                           capture_output=True, text=True, timeout=300)
        return p.returncode, p.stdout, p.stderr

    def grid_file(self, dies=DIES, ios=IOS):
        return self.write("grid.ini", f"""\
            [sweep]
            configs = tiny.ini
            constant_raw_capacity = true
            metrics = write.iops, device.write_amplification, device.raw_capacity_bytes

            [options]
            precondition = seq-fill
            workload.rw = randwrite
            workload.number_ios = {ios}

            [grid]
            nand.channels = {", ".join(map(str, CHANNELS))}
            nand.dies_per_channel = {", ".join(map(str, dies))}

            [plot iops]
            type = line
            x = nand.channels
            y = write.iops

            [plot heat]
            type = heatmap
            x = nand.channels
            y = nand.dies_per_channel
            z = write.iops
            """)

    def test_grid_cache_and_derivation(self):
        import pandas as pd
        out = os.path.join(self.dir, "out-grid")
        rc, stdout, stderr = self.sweep(self.grid_file(), "--out", out)
        self.assertEqual(rc, 0, stderr)
        self.assertIn("ran=4 cached=0 failed=0", stdout)
        df = pd.read_csv(os.path.join(out, "results.csv"))
        pq = pd.read_parquet(os.path.join(out, "results.parquet"))
        self.assertEqual(list(df.columns), list(pq.columns))
        self.assertEqual(len(df), len(CHANNELS) * len(DIES))
        self.assertEqual(set(zip(df["nand.channels"], df["nand.dies_per_channel"])),
                         set(itertools.product(CHANNELS, DIES)))
        for col in ("status", "nand.blocks_per_plane", "write.iops", "read.lat_ns.mean",
                    "device.write_amplification", "write.lat_ns.percentile.99.000000"):
            self.assertIn(col, df.columns)
        self.assertTrue((df["status"] == "ok").all())
        # Constant raw capacity: blocks_per_plane scales inversely with channels x dies.
        raw = raw_bytes(BASE)
        for _, row in df.iterrows():
            g = dict(BASE, channels=row["nand.channels"], dies_per_channel=row["nand.dies_per_channel"])
            g["blocks_per_plane"] = 1
            self.assertEqual(row["nand.blocks_per_plane"], raw // raw_bytes(g))
            self.assertEqual(row["device.raw_capacity_bytes"], raw)  # what the simulator built
            self.assertEqual(row["write.total_ios"], IOS)
        for png in ("iops.png", "heat.png"):
            self.assertGreater(os.path.getsize(os.path.join(out, png)), 1000)
        # One simulation per core: each preconditions on one thread.
        for d in os.listdir(os.path.join(out, "points")):
            with open(os.path.join(out, "points", d, "report.json")) as f:
                self.assertEqual(json.load(f)["options"]["state.threads"], "1")

        # Second run: everything cached, no ssdsim started (status files untouched).
        stamps = {d: os.stat(os.path.join(out, "points", d, "status.json")).st_mtime_ns
                  for d in os.listdir(os.path.join(out, "points"))}
        rc, stdout, stderr = self.sweep(self.grid_file(), "--out", out)
        self.assertEqual(rc, 0, stderr)
        self.assertIn("ran=0 cached=4 failed=0", stdout)
        self.assertEqual(stamps, {d: os.stat(os.path.join(out, "points", d, "status.json")).st_mtime_ns
                                  for d in stamps})
        self.assertTrue(pd.read_csv(os.path.join(out, "results.csv"))["cached"].all())

        # A grid that grows runs only the new points.
        rc, stdout, stderr = self.sweep(self.grid_file(dies=DIES + [4]), "--out", out)
        self.assertEqual(rc, 0, stderr)
        self.assertIn(f"ran={len(CHANNELS)} cached=4 failed=0", stdout)

    def test_failed_point_does_not_stop_the_sweep(self):
        import pandas as pd
        path = self.write("bad.ini", """\
            [sweep]
            configs = tiny.ini
            metrics = write.iops

            [options]
            workload.number_ios = 500

            [points]
            good = workload.rw=randwrite
            bad = workload.rw=sideways
            also_good = workload.rw=randread
            """)
        out = os.path.join(self.dir, "out-bad")
        rc, stdout, stderr = self.sweep(path, "--out", out)
        self.assertEqual(rc, 1, stderr)
        self.assertIn("ran=3 cached=0 failed=1", stdout)
        self.assertIn("point 1 failed", stderr)
        self.assertIn("--workload.rw=sideways", stderr)  # the full command line
        self.assertIn("workload.rw", stderr.split("point 1 failed")[1].splitlines()[0])  # ssdsim's message
        df = pd.read_csv(os.path.join(out, "results.csv"))
        self.assertEqual(list(df["status"]), ["ok", "failed", "ok"])
        self.assertEqual(list(df["label"]), ["good", "bad", "also_good"])
        self.assertEqual(df["write.total_ios"][0], 500)
        self.assertEqual(df["read.total_ios"][2], 500)

    def test_points_precondition_on_one_thread_where_the_option_applies(self):
        # A hard disk refuses --state.threads, and a point that sets it keeps
        # its own value: the sweep adds it only to the SSD points without one.
        path = self.write("threads.ini", """\
            [sweep]
            metrics = write.iops

            [options]
            workload.number_ios = 200
            workload.rw = randwrite

            [points]
            ssd = device=ssd
            mine = state.threads=2
            disk = device=hdd
            """)
        out = os.path.join(self.dir, "out-threads")
        rc, stdout, stderr = self.sweep(path, "--out", out)
        self.assertEqual(rc, 0, stderr)
        self.assertIn("ran=3 cached=0 failed=0", stdout)
        options = {}
        for d in os.listdir(os.path.join(out, "points")):
            with open(os.path.join(out, "points", d, "report.json")) as f:
                o = json.load(f)["options"]
            options[(o.get("device", "ssd"), o.get("state.threads"))] = o
        self.assertEqual(set(options), {("ssd", "1"), ("ssd", "2"), ("hdd", "0")})  # (0: the default, unused)

    def test_timeout_stops_a_point_with_its_report(self):
        # A point past --timeout gets SIGTERM: ssdsim writes the report of
        # the IOs it completed, and the point still counts as failed.
        path = self.write("slow.ini", """\
            [sweep]
            configs = tiny.ini
            metrics = write.iops

            [options]
            precondition = none
            workload.rw = randwrite
            workload.number_ios = 2000000000

            [points]
            slow = workload.iodepth=4
            """)
        out = os.path.join(self.dir, "out-slow")
        rc, stdout, stderr = self.sweep(path, "--out", out, "--timeout", "3", workers=("--workers", "1"))
        self.assertEqual(rc, 1, stderr)
        self.assertIn("ran=1 cached=0 failed=1", stdout)
        self.assertIn("timed out after 3.0 s: stopped by SIGTERM; report.json covers", stderr)
        (point,) = os.listdir(os.path.join(out, "points"))
        with open(os.path.join(out, "points", point, "report.json")) as f:
            report = json.load(f)
        self.assertEqual(report["device"]["stop_reason"], "interrupted")
        self.assertGreater(report["write"]["total_ios"], 0)
        self.assertLess(report["write"]["total_ios"], 2000000000)
        with open(os.path.join(out, "points", point, "status.json")) as f:
            self.assertEqual(json.load(f)["returncode"], -1)

    def test_not_whole_blocks_per_plane_is_a_sweep_file_error(self):
        path = self.write("odd.ini", """\
            [sweep]
            configs = tiny.ini
            constant_raw_capacity = true
            [grid]
            nand.channels = 2, 3
            """)
        rc, stdout, stderr = self.sweep(path, "--dry-run")
        self.assertEqual(rc, 2)
        self.assertEqual(len(stderr.strip().splitlines()), 1, stderr)
        self.assertIn(f"{path}: line 3: nand.blocks_per_plane:", stderr)

    def test_capacity_gb_sets_blocks_per_plane(self):
        path = self.write("cap.ini", """\
            [sweep]
            configs = tiny.ini
            [grid]
            capacity_gb = 0.125, 0.25
            """)
        rc, stdout, stderr = self.sweep(path, "--dry-run")
        self.assertEqual(rc, 0, stderr)
        for gib in (0.125, 0.25):
            g = dict(BASE, blocks_per_plane=1)
            self.assertIn(f"--nand.blocks_per_plane={int(gib * 2**30) // raw_bytes(g)} ", stdout)

    def test_bad_sweep_files(self):
        cases = [("[sweep]\nconfigs = tiny.ini\n[grid]\nnand.chanels = 1, 2\n", 4, "nand.chanels"),
                 ("[sweep]\nconfigs = missing.ini\n", 2, "configs"),
                 ("[sweep]\nconfigs = tiny.ini\nmetrics = write.iopz\n", 3, "metrics"),
                 ("[sweep]\nconfigs = tiny.ini\n[options]\nreport = x.json\n", 4, "report"),
                 ("[sweep]\nconfigs = tiny.ini\n[plot p]\ntype = pie\n", 4, "type"),
                 # A value left out, a quote not closed, a section given twice: refused, not guessed at.
                 ("[sweep]\nconfigs = tiny.ini\n[grid]\nnand.channels = 1,,2\n", 4, "an empty value"),
                 ("[sweep]\nconfigs = tiny.ini\n[grid]\nnand.channels = 1, 2,\n", 4, "an empty value"),
                 ("[sweep]\nconfigs = tiny.ini\nmetrics = write.iops,\n", 3, "an empty value"),
                 ("[sweep]\nconfigs = tiny.ini\n[grid]\ntrace.ops = \"read,write, write\n", 4, "not closed"),
                 ("[sweep]\nconfigs = tiny.ini\n[grid]\nnand.channels = 1\n[grid]\nnand.dies_per_channel = 1\n",
                  5, "[grid]: section again (first on line 3)"),
                 # A grid too large to build (counted first, not built for minutes).
                 ("[sweep]\nconfigs = tiny.ini\n[grid]\nnand.channels = " + ", ".join(map(str, range(1, 401)))
                  + "\nnand.dies_per_channel = " + ", ".join(map(str, range(1, 401))) + "\n",
                  4, "160000 points (nand.channels 400 x nand.dies_per_channel 400): more than 100000"),
                 # Not text: refused as a sweep file error, not an internal error.
                 ("[sweep]\nconfigs = tiny.ini\n\udcff\n", 3, "not UTF-8 text (byte 0xff)")]
        for i, (text, line, key) in enumerate(cases):
            path = os.path.join(self.dir, f"broken{i}.ini")
            with open(path, "wb") as f:  # (bytes: the lone surrogate is the raw byte 0xff)
                f.write(text.encode("utf-8", "surrogateescape"))
            rc, stdout, stderr = self.sweep(path, "--dry-run")
            self.assertEqual(rc, 2, stderr)
            self.assertEqual(len(stderr.strip().splitlines()), 1, stderr)
            self.assertIn(f"{path}: line {line}: ", stderr)
            self.assertIn(key, stderr)

    def test_bad_arguments_are_refused_before_any_point_runs(self):
        path = self.grid_file()
        for args, says in ((["--out", os.path.join(self.dir, "o1"), "--timeout", "-1"], "--timeout -1: must be"),
                           (["--out", os.path.join(self.dir, "o2"), "--timeout", "0"], "--timeout 0: must be"),
                           (["--out", "/proc/no-such-dir"], "--out /proc/no-such-dir: No such file or directory")):
            rc, _, stderr = self.sweep(path, *args)
            self.assertEqual(rc, 2, stderr)
            last = stderr.strip().splitlines()[-1]  # (argparse prints its usage first)
            self.assertTrue(last.startswith("sweep: error: ") and says in last, stderr)
            self.assertFalse(os.path.exists(os.path.join(self.dir, "o1", "results.csv")))

    def test_byte_order_mark_is_dropped(self):
        path = os.path.join(self.dir, "bom.ini")
        with open(path, "wb") as f:
            f.write(b"\xef\xbb\xbf[sweep]\nconfigs = tiny.ini\n[grid]\nnand.channels = 1, 2\n")
        rc, stdout, stderr = self.sweep(path, "--dry-run")
        self.assertEqual(rc, 0, stderr)
        self.assertIn("2 points", stdout)

    def test_endless_file_is_refused(self):
        # /dev/zero has no end: a bounded read refuses it instead of hanging.
        rc, _, stderr = self.sweep("/dev/zero", "--dry-run")
        self.assertEqual(rc, 2, stderr)
        self.assertIn("/dev/zero: larger than 4 MiB: not a sweep file", stderr)

    def test_existing_scheduler(self):
        """--scheduler: a cluster whose workers do not have the sweep's code."""
        import time
        sched_file = os.path.join(self.dir, "scheduler.json")
        dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
        procs = [subprocess.Popen([*dask, "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                   "--scheduler-file", sched_file], stderr=subprocess.DEVNULL, cwd="/")]
        try:
            deadline = time.monotonic() + 60
            while not os.path.exists(sched_file) and time.monotonic() < deadline:
                time.sleep(0.2)
            procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", "--nthreads", "1",
                                           "--host", "127.0.0.1",
                                           "--no-dashboard", "--scheduler-file", sched_file],
                                          stderr=subprocess.DEVNULL, cwd="/"))
            with open(sched_file) as f:
                address = json.load(f)["address"]
            out = os.path.join(self.dir, "out-scheduler")
            rc, stdout, stderr = self.sweep(self.grid_file(), "--out", out, workers=("--scheduler", address))
            self.assertEqual(rc, 0, stderr)
            self.assertIn("ran=4 cached=0 failed=0", stdout)
        finally:
            for p in reversed(procs):
                p.terminate()
                p.wait(timeout=30)

    def test_yaml_gives_the_same_points_as_ini(self):
        ini = self.grid_file()
        yml = self.write("grid.yaml", f"""\
            sweep:
              configs: [tiny.ini]
              constant_raw_capacity: true
              metrics: [write.iops, device.write_amplification, device.raw_capacity_bytes]
            options:
              precondition: seq-fill
              workload.rw: randwrite
              workload.number_ios: {IOS}
            grid:
              nand.channels: {CHANNELS}
              nand.dies_per_channel: {DIES}
            plots:
              iops: {{type: line, x: nand.channels, y: [write.iops]}}
              heat: {{type: heatmap, x: nand.channels, y: nand.dies_per_channel, z: write.iops}}
            """)
        a = self.sweep(ini, "--dry-run")
        b = self.sweep(yml, "--dry-run")
        self.assertEqual(a[0], 0, a[2])
        self.assertEqual(a[1], b[1])
        self.assertEqual(a[1].count("\npoint "), len(CHANNELS) * len(DIES))
        bad = self.write("bad.yaml", "sweep:\n  configs: [tiny.ini]\ngrid:\n  nand.dies: [1, 2]\n")
        rc, _, stderr = self.sweep(bad, "--dry-run")
        self.assertEqual(rc, 2)
        self.assertIn(f"{bad}: line 4: nand.dies", stderr)


if __name__ == "__main__":
    if not (BIN and SRC):
        sys.exit("test_sweep.py: set SSDSIM_BIN and SSDSIM_SOURCE_DIR (ctest does)")
    unittest.main(verbosity=2)
