#!/usr/bin/env python3
"""Self-test of scripts/stress_lib/invariants.py: every invariant can fail.

Takes a real report, latency log and timeseries from the ssdsim under test
(a small drive and workload away from the known-fragile corners), checks
that they pass, then breaks one field at a time and checks that the
matching invariant reports it. Run: tests/stress/test_invariants.py BINARY
(ctest: stress_invariants).
"""
import copy
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from stress_lib import invariants, runner  # noqa: E402
from stress_lib.generate import RunSpec  # noqa: E402

BINARY = os.path.join(ROOT, "build", "ssdsim")
DRIVE = ["--nand.channels=2", "--nand.dies_per_channel=2", "--nand.blocks_per_plane=64", "--nand.pages_per_block=32"]


def simulate(*args, drive=DRIVE):
    """(report, latency rows, timeseries rows) of one run."""
    with tempfile.TemporaryDirectory() as d:
        files = {n: os.path.join(d, n) for n in ("r.json", "l.csv", "t.csv")}
        subprocess.run([BINARY, *drive, *args, f"--report={files['r.json']}", f"--latency-log={files['l.csv']}",
                        f"--timeseries={files['t.csv']}", "--timeseries.interval=1ms"],
                       cwd=ROOT, check=True, capture_output=True, timeout=60)
        with open(files["r.json"]) as f:
            report = json.load(f)
        return report, invariants.read_csv(files["l.csv"]), invariants.read_csv(files["t.csv"])


class Invariants(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.synthetic = simulate("--workload.number_ios=2000", "--workload.rw=randrw")
        cls.trace = simulate("--trace=traces/samples/generated/loop0.blktrace.0", "--trace.mode=afap")
        cls.hdd = simulate("--device=hdd", "--workload.number_ios=300", "--workload.rw=randrw", drive=[])
        cls.raid = simulate("--raid.members=3", "--raid.stripe=12k", "--workload.number_ios=600",
                            "--workload.rw=randrw")
        cls.cut = simulate("--workload.number_ios=2000", "--workload.rw=randwrite", "--powerfail.at=3ms")
        cls.packed = simulate("--ftl.name=bast", "--controller.compression=true", "--workload.compressibility=50",
                              "--workload.number_ios=400", "--workload.rw=randwrite")

    def names(self, run, mutate):
        report, rows, series = copy.deepcopy(run)
        mutate(report, rows, series)
        return {name for name, _ in invariants.check_report(report, rows, None, series)}

    def assertBreaks(self, name, mutate, run=None):
        self.assertIn(name, self.names(run or self.synthetic, mutate))

    def test_real_runs_pass(self):
        for run in (self.synthetic, self.trace, self.hdd, self.raid, self.cut, self.packed):
            self.assertEqual(invariants.check_report(run[0], run[1], None, run[2]), [])
        self.assertGreater(self.synthetic[0]["device"]["gc_runs"], 0)  # GC ran: its sums are exercised

    def test_counts(self):
        self.assertBreaks("total-ios", lambda r, *_: r["write"].update(total_ios=r["write"]["total_ios"] + 1))
        self.assertBreaks("sata-commands", lambda r, *_: r["device"]["sata"].update(commands=1))
        self.assertBreaks("io-bytes", lambda r, *_: r["read"].update(io_bytes=r["read"]["io_bytes"] + 512))
        self.assertBreaks("synthetic-ops", lambda r, *_: r["flush"].update(total_ios=1))

    def test_flash(self):
        d = "device"
        self.assertBreaks("flash-pages", lambda r, *_: r[d].update(flash_pages_written=r[d]["flash_pages_written"] + 1))
        self.assertBreaks("write-amplification", lambda r, *_: r[d].update(write_amplification=0.9))
        self.assertBreaks("channel-programs", lambda r, *_: r[d]["channels"][0].update(programs=0))
        self.assertBreaks("gc-erases", lambda r, *_: r[d]["channels"][1].update(gc_erases=10**6))
        self.assertBreaks("gc-reads", lambda r, *_: r[d]["channels"][1].update(gc_reads=10**6))
        self.assertBreaks("capacity", lambda r, *_: r[d].update(user_capacity_bytes=r[d]["user_capacity_bytes"] + 4096))
        self.assertBreaks("geometry", lambda r, *_: r[d]["dies"].pop())

    def test_hdd(self):
        def hdd(**kw):
            return lambda r, *_: r["device"]["hdd"].update(**kw)
        h = self.hdd[0]["device"]["hdd"]
        self.assertGreater(h["destaged_writes"], 0)
        self.assertBreaks("hdd-commands", hdd(commands=h["commands"] + 1), self.hdd)
        self.assertBreaks("hdd-served", hdd(media_ops=h["media_ops"] + 1), self.hdd)
        self.assertBreaks("hdd-destaged", hdd(destaged_writes=h["destaged_writes"] - 1), self.hdd)
        self.assertBreaks("hdd-seeks", hdd(seeks=h["media_ops"] + 1), self.hdd)
        self.assertBreaks("hdd-seek-distance", hdd(mean_seek_distance=1.01), self.hdd)
        self.assertBreaks("utilisation", hdd(utilisation=1.01), self.hdd)
        self.assertBreaks("capacity", lambda r, *_: r["device"].update(user_capacity_bytes=512), self.hdd)

    def test_raid(self):
        d = self.raid[0]["device"]
        self.assertEqual(d["raid"]["members"], 3)
        self.assertBreaks("capacity", lambda r, *_: r["device"].update(
            user_capacity_bytes=d["user_capacity_bytes"] + 12 * 1024), self.raid)
        self.assertBreaks("geometry", lambda r, *_: r["device"]["channels"].pop(), self.raid)
        # each member's own FTL accounting
        self.assertBreaks("gc-erases", lambda r, *_: r["device"]["members"][1]["channels"][0].update(gc_erases=10**6),
                          self.raid)

    def test_packed(self):
        d = self.packed[0]["device"]
        self.assertGreater(d["gc_pages_moved"], 0)
        c0 = d["channels"][0]
        # merges' copies are read from flash (0 was the defect), at most twice each
        self.assertBreaks("gc-reads", lambda r, *_: [c.update(gc_reads=0) for c in r["device"]["channels"]],
                          self.packed)
        self.assertBreaks("gc-reads", lambda r, *_: r["device"]["channels"][0].update(
            gc_reads=c0["gc_reads"] + 2 * d["gc_pages_moved"]), self.packed)
        self.assertBreaks("channel-programs", lambda r, *_: r["device"]["compression"].update(
            physical_bytes_written=d["compression"]["physical_bytes_written"] + 4096), self.packed)

    def test_power_cut(self):
        r0 = self.cut[0]
        self.assertEqual(r0["device"]["stop_reason"], "power cut")
        self.assertLess(r0["write"]["total_ios"], 2000)
        self.assertBreaks("stop-reason", lambda r, *_: r["device"].update(stop_reason="error"), self.cut)
        self.assertBreaks("powerfail-check", lambda r, *_: r["powerfail"].update(check="failed"), self.cut)
        self.assertBreaks("powerfail", lambda r, *_: r.pop("powerfail"), self.cut)
        # "workload done" is only true of a workload that completed
        self.assertBreaks("total-ios", lambda r, *_: r["device"].update(stop_reason="workload done"), self.cut)

    def test_numbers_and_utilisation(self):
        self.assertBreaks("nan", lambda r, *_: r["device"].update(gc_runs=None))
        self.assertBreaks("nan", lambda r, *_: r["read"]["lat_ns"].update(stddev=float("nan")))
        self.assertBreaks("negative", lambda r, *_: r["device"].update(trimmed_pages=-1))
        self.assertBreaks("utilisation", lambda r, *_: r["device"]["dies"][3].update(utilisation=1.2))
        self.assertBreaks("utilisation", lambda r, *_: r["device"]["cpu"].update(utilisation=1.0001))

    def test_latencies(self):
        def lat(op, **kw):
            return lambda r, *_: r[op]["lat_ns"].update(**kw)
        mx = self.synthetic[0]["read"]["lat_ns"]["max"]
        self.assertBreaks("lat-N", lambda r, *_: r["write"]["clat_ns"].update(N=1))
        self.assertBreaks("lat-min-positive", lat("read", min=0))
        self.assertBreaks("lat-min-mean-max", lat("read", mean=mx + 1))
        self.assertBreaks("lat-sum", lambda r, *_: r["write"]["slat_ns"].update(mean=r["write"]["slat_ns"]["mean"] + 10))

        # lat = clat + slat + 0 .. 1 ns, IO by IO (truncated to whole ns): 1 ns above passes,
        # 1.5 above or 0.5 below does not.
        def lat_sum(extra):
            def mutate(r, *_):
                w = r["write"]
                w["lat_ns"]["mean"] = w["clat_ns"]["mean"] + w["slat_ns"]["mean"] + extra
            return mutate
        self.assertNotIn("lat-sum", self.names(self.synthetic, lat_sum(1.0)))
        self.assertNotIn("lat-sum", self.names(self.synthetic, lat_sum(0.0)))
        self.assertBreaks("lat-sum", lat_sum(1.5))
        self.assertBreaks("lat-sum", lat_sum(-0.5))

        self.assertBreaks("lat-percentiles-in-range", lambda r, *_: r["read"]["lat_ns"]["percentile"].update(
            {"99.990000": mx + 1}))
        self.assertBreaks("lat-percentiles-monotone", lambda r, *_: r["read"]["lat_ns"]["percentile"].update(
            {"1.000000": r["read"]["lat_ns"]["percentile"]["50.000000"] + 1}))

    def test_carry_bound(self):
        # seed 2026112626: three writes, each lat = clat + slat + 1, and the means' float rounding on top
        self.assertTrue(invariants._carry(26718027.666666668, 21836238.333333332 + 4881788.333333333, 3))
        self.assertTrue(invariants._carry(5.0, 5.0, 1))
        self.assertFalse(invariants._carry(26718028.7, 21836238.333333332 + 4881788.333333333, 3))
        self.assertFalse(invariants._carry(26718026.6, 21836238.333333332 + 4881788.333333333, 3))

    def test_latency_log(self):
        self.assertBreaks("latency-log-rows", lambda r, rows, s: rows.pop())
        self.assertBreaks("latency-log-row", lambda r, rows, s: rows[5].update(host_wait_ns="7"))
        self.assertBreaks("latency-log-minmax", lambda r, rows, s: r["read"]["lat_ns"].update(
            max=r["read"]["lat_ns"]["max"] + 5))
        self.assertBreaks("lat-percentiles", lambda r, *_: r["read"]["lat_ns"].update(percentile={}))
        # the log's mean is 0 .. 1 ns above the report's: 2 ns either way is broken
        for d in (2, -2):
            self.assertBreaks("latency-log-mean", lambda r, rows, s, d=d: r["read"]["lat_ns"].update(
                mean=r["read"]["lat_ns"]["mean"] + d))

    def test_timeseries(self):
        self.assertBreaks("timeseries-iops", lambda r, rows, s: s[0].update(read_iops="2000"))
        self.assertBreaks("timeseries-row", lambda r, rows, s: s[1].update(write_MBps="nan"))

    def test_trace(self):
        t = "trace"
        self.assertBreaks("trace-remapped", lambda r, *_: r[t].update(remapped=r[t]["replayed"] + 1), self.trace)
        self.assertBreaks("trace-records", lambda r, *_: r[t].update(records_read=r[t]["records_read"] + 1), self.trace)
        self.assertBreaks("trace-filtered-by", lambda r, *_: r[t].update(filtered_by={"device": 3}), self.trace)
        self.assertBreaks("trace-skipped-by", lambda r, *_: r[t].update(skipped_bad=2), self.trace)
        self.assertBreaks("total-ios", lambda r, *_: r[t].update(replayed=r[t]["replayed"] - 1,
                                                                 filtered=r[t]["filtered"] + 1), self.trace)

    def test_determinism_ignores_only_wall_clock_and_paths(self):
        a, b = copy.deepcopy(self.synthetic[0]), copy.deepcopy(self.synthetic[0])
        b["device"]["wall_clock_s"]["timed"] += 1
        b["options"]["report"] = "/elsewhere.json"
        self.assertEqual(invariants.comparable(a), invariants.comparable(b))
        b["device"]["simulated_time_ns"] += 1
        self.assertNotEqual(invariants.comparable(a), invariants.comparable(b))


class SavedStateRoundTrip(unittest.TestCase):
    """The runner's --save-state check: the run again from the saved state must give the same
    report; a difference (here: planted in the second report) is the failure load-state."""
    SPEC = RunSpec([(k[2:], v) for k, v in (o.split("=", 1) for o in DRIVE)]
                   + [("precondition", "used"), ("save-state", "@state.bin"), ("workload.number_ios", "300"),
                      ("latency-log", "@latency.csv")])

    def test_same_report_passes(self):
        with tempfile.TemporaryDirectory() as work:
            self.assertEqual(runner.run_spec(self.SPEC, BINARY, work, 60).kind, "ok")

    def test_a_difference_fails(self):
        real, calls = runner._read_outputs, []

        def planted(run_dir):
            report, *rest = real(run_dir)
            calls.append(1)
            if len(calls) == 2:   # the run from the saved state
                report["device"]["simulated_time_ns"] += 1
            return (report, *rest)
        runner._read_outputs = planted
        try:
            with tempfile.TemporaryDirectory() as work:
                out = runner.run_spec(self.SPEC, BINARY, work, 60)
        finally:
            runner._read_outputs = real
        self.assertEqual(out.kind, "load-state")
        self.assertIn("simulated_time_ns", out.detail)


class ShrinkKeepsTheInvalidOption(unittest.TestCase):
    """Shrinking an accepted-invalid failure keeps the option that should have been refused: without
    it the run is valid, exits 0 and is still called accepted-invalid (the spec expects a refusal),
    so it would be dropped and the saved case would reproduce nothing."""

    def test_the_invalid_option_survives(self):
        spec = RunSpec([("nand.channels", "2"), ("raid.members", "2"), ("raid.stripe", "768B"),
                        ("workload.number_ios", "9")], expect_refusal="--raid.stripe=768B")
        real, seen = runner.run_spec, []

        def accepted(candidate, *args, **kwargs):   # what the real run_spec says of any run that exits 0
            seen.append(candidate.keys())
            return runner.Outcome("accepted-invalid", "accepted", "--raid.stripe")
        runner.run_spec = accepted
        try:
            shrunk = runner.shrink(spec, accepted(spec), BINARY, "/nonexistent", 60, float("inf"))
        finally:
            runner.run_spec = real
        self.assertEqual(shrunk.keys(), ["raid.stripe", "workload.number_ios"])
        self.assertTrue(all("raid.stripe" in keys for keys in seen))


class HangSaysHowFarItGot(unittest.TestCase):
    """A run past the timeout gets SIGTERM and reports what it did: a slow run is told from a stuck
    one in the failure's detail (same failure key, so one defect is still one failure)."""

    def test_a_slow_run_reports_its_ios(self):
        spec = RunSpec([(k[2:], v) for k, v in (o.split("=", 1) for o in DRIVE)]
                       + [("workload.number_ios", "0"), ("workload.runtime", "100000s")])
        with tempfile.TemporaryDirectory() as work:
            out = runner.run_spec(spec, BINARY, work, 1.5)
        self.assertEqual((out.kind, out.key), ("hang", "timeout"))
        self.assertRegex(out.detail, r"no exit within 1.5 s; at SIGTERM [1-9]\d* IOs had completed in .* s simulated, "
                                     r"write amplification .* \(slow, not stuck\)")

    def test_a_stuck_run_says_nothing_completed(self):
        with tempfile.TemporaryDirectory() as d:   # (no report: the simulator ended by the signal)
            out = runner._hang(["ssdsim"], 30, d)
        self.assertEqual((out.kind, out.key), ("hang", "timeout"))
        self.assertIn("nothing completed within the grace after SIGTERM", out.detail)

    def test_a_run_writing_a_huge_trace_says_so(self):
        # (Seed 29001's one hang: --activity over 690 s simulated of merges, 4.2 GB of JSON.)
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "activity.json"), "wb") as f:
                f.truncate(150 << 20)   # (sparse: no 150 MB written)
            with open(os.path.join(d, "latency.csv"), "wb") as f:
                f.write(b"x" * 1000)    # small: not named
            out = runner._hang(["ssdsim"], 30, d)
        self.assertTrue(out.detail.endswith(", writing activity.json (0.157 GB)"), out.detail)


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        BINARY = os.path.abspath(sys.argv.pop(1))
    unittest.main()
