"""The bad-value table of the command line.

For every option of --help, values that must be refused, chosen from the
option's unit (<count>, <size>, <time>, ...): each row expects exit status 2
and exactly one stderr line that names the option. A few extra rows cover
what is not one option's value: unknown and abbreviated option names, a
stray positional argument, --config of a directory, combinations that break
a rule between options, and two rows that must be ACCEPTED (exit 0).
Options the table has no values for are reported as not covered.
"""
import concurrent.futures
import os
import subprocess
import tempfile
from dataclasses import dataclass

# A drive and workload small enough that an accepted row finishes at once.
BASE = {"nand.channels": "1", "nand.dies_per_channel": "1", "nand.planes_per_die": "1",
        "nand.blocks_per_plane": "64", "nand.pages_per_block": "16", "workload.number_ios": "4",
        "precondition": "none"}
HUGE_TIMES = ["1e30s", "1e9s"]        # beyond what a simulated time can hold
BY_UNIT = {
    "count": ["-1", "abc", "1.5", "", "18446744073709551616", "1e3", "10k"],
    "cycles": ["-1", "abc", "1.5", "", "18446744073709551616", "100cycles"],
    "blocks": ["-1", "abc", "0", "", "18446744073709551616", "2k"],
    "size": ["-4k", "abc", "4", "4q", "", "18446744073709551616B", "1.5B", "4kk"],
    "time": ["-1us", "abc", "5", "5parsecs", "", "nan", *HUGE_TIMES],
    "rate": ["-1MB/s", "0MB/s", "40", "40MB", "", "abc", "1e400MB/s"],
    "freq": ["-1MHz", "0Hz", "200", "200MB/s", "", "1e400GHz"],
    "fraction": ["-0.1", "abc", "", "11", "2000%", "nan", "inf", "0.07x", "-5%"],
    "percent": ["-1", "101", "abc", "", "50.5", "18446744073709551616"],
    "bool": ["maybe", "", "2", "truee"],
    "pattern": ["bogus", "", "randomread", "read,write"],
    "name": ["bogus", ""],
    "dev": ["-1", "abc", "7,", "7,0,1", "4096,0", "-7,0"],
    "list": ["bogus", "read,bogus", "", ",", "read,"],
    "level": ["bogus", "", "verbose"],
    "factor": ["0", "-1", "abc", "", "1e30", "nan", "inf", "2x"],
    "recipe": ["bogus", "fill:0", "fill:abc", "randwrite:4k", "randwrite:4k:0x", "image:2000x", "idle:5", "idle:-1s",
               "trim:half", "trace:x", ",", "secure-erase:now", "/nonexistent-dir/state.ini", "fill,,trim:all", "fill,",
               "fill:"],
}
EXTRA = {  # values that are bad for one option only
    "nand.channels": ["0", "65"], "nand.dies_per_channel": ["0"], "nand.planes_per_die": ["0"],
    "nand.blocks_per_plane": ["0"], "nand.pages_per_block": ["0"],
    "nand.page_size": ["0", "1000B", "2m"], "workload.bs": ["0", "1000B"], "workload.offset": ["1000B"],
    "dram.map_entry": ["0", "4g", "4194305k"], "trace.sector_size": ["0", "4g", "4194305k"], "cpu.cores": ["0"], "sata.ncq_depth": ["0", "33"],
    "workload.iodepth": ["0", "1025"], "trace.iodepth": ["0", "1025"], "ftl.op": ["0", "0%"],
    "timeseries.interval": ["0", "0.1ns", "0.5ps"],
    "sata.gen": ["0", "4", "-1", "2.0"],
}
TRACE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                     "traces", "samples", "generated", "fio_mix.iolog")
WRITTEN_PATHS = ("report", "latency-log", "timeseries", "export-trace", "output")


@dataclass
class Row:
    args: list          # the arguments under test (added to BASE, whose same keys are dropped)
    names: str          # what the error line must contain ("a|b": either)
    expect: int = 2     # exit status expected
    note: str = ""
    result: str = ""
    verdict: str = ""


def _values_for(spec, workdir):
    unit = spec.unit
    if spec.choices:
        values = ["bogus", ""]
    elif spec.key in WRITTEN_PATHS:
        values = [workdir, "/nonexistent-dir/out"]        # a directory; a missing parent
    elif unit == "path":
        values = ["/nonexistent-dir/trace", workdir + "/empty-dir"]
    else:
        values = list(BY_UNIT.get(unit, []))
    if spec.default == "none" and "" in values:           # empty = unset for these: valid
        values.remove("")
    return values + EXTRA.get(spec.key, [])


def build_rows(specs, workdir):
    """The table's rows and the options it has no bad values for."""
    rows, uncovered = [], []
    for s in specs:
        values = _values_for(s, workdir)
        if not values:
            uncovered.append(s.key)
        for v in values:
            rows.append(Row([f"--{s.key}={v}"], s.key))
        if s.unit != "bool":
            rows.append(Row([f"--{s.key}"], s.key, note="no value"))
    with open(os.path.join(workdir, "bad-value.ini"), "w") as f:
        f.write("[nand]\nchannels = -1\n")
    with open(os.path.join(workdir, "good.ini"), "w") as f:
        f.write("[workload]\nnumber_ios = 10\n")
    os.makedirs(os.path.join(workdir, "empty-dir"), exist_ok=True)
    rows += [
        Row(["--nand.bogus=1"], "nand.bogus", note="unknown option"),
        Row(["--bogus"], "bogus", note="unknown option"),
        Row(["--NAND.channels=2"], "NAND.channels", note="unknown option (case)"),
        Row(["--workload.number=10"], "workload.number", note="abbreviated option"),
        Row(["--nand.chan=2"], "nand.chan", note="abbreviated option"),
        Row(["--rw=randread"], "did you mean '--workload.rw'", note="fio's name: the key is suggested"),
        Row(["--report=-"], "'-' would be a file named '-'", note="'-' is not stdout"),
        Row(["--timeseries=-"], "'-' would be a file named '-'", note="'-' is not stdout"),
        Row(["--check=true"], "check", note="abbreviated option"),
        Row(["--see=5"], "see", note="abbreviated option"),
        Row(["stray"], "stray", note="positional argument"),
        Row(["--seed=1", "stray"], "stray", note="positional argument"),
        Row([f"--config={workdir}"], workdir, note="--config of a directory"),
        Row(["--config=/nonexistent-dir/x.ini"], "/nonexistent-dir/x.ini", note="missing --config"),
        Row(["--config=/dev/zero"], "/dev/zero", note="endless --config"),
        Row([f"--config={workdir}/bad-value.ini"], "nand.channels", note="bad value in a config file"),
        Row(["--seed=1", "--seed=2"], "", expect=0, note="repeated option: the later one wins (--help)"),
        Row([f"--report={workdir}/same", f"--latency-log={workdir}/same"], "latency-log|report",
            note="report and latency log on one path"),
        Row([f"--report={workdir}/same2", f"--output={workdir}/./same2"], "output|report",
            note="report and output on one path (two spellings)"),
        Row([f"--config={workdir}/good.ini", f"--timeseries={workdir}/good.ini"], "timeseries",
            note="an output over the config file read"),
        Row(["--dram.size=1k"], "dram.size", note="DRAM smaller than the mapping table"),
        Row(["--controller.sram_write_buffer=64k"], "controller.sram_write_buffer",
            note="an SRAM write buffer on a controller with DRAM"),
        Row(["--workload.bs=8k", "--workload.size=4k"], "workload.size", note="span smaller than bs"),
        Row(["--workload.offset=18446744073709551104B"], "workload.offset", note="offset + bs overflows"),
        Row(["--workload.offset=4k", "--workload.size=18446744073709547520B"], "workload.size",
            note="offset + size overflows"),
        Row(["--nand.channels=64", "--nand.dies_per_channel=64", "--nand.planes_per_die=16",
             "--nand.blocks_per_plane=1048576", "--nand.pages_per_block=4096"], "nand.", note="geometry overflow"),
        Row(["--nand.channels=64", "--nand.dies_per_channel=64", "--nand.planes_per_die=16",
             "--nand.blocks_per_plane=65536", "--nand.pages_per_block=1"], "nand.", note="2^32 one-page blocks"),
        Row(["--ftl.op=0.001"], "ftl.op", note="spare area below gc_threshold + 2"),
        Row(["--workload.number_ios=0"], "workload.number_ios", note="unbounded without runtime"),
        Row(["--raid.member_queue=1"], "raid.member_queue", note="a RAID option for a single SSD"),
        Row(["--sata.ncq_depth=4", "--workload.iodepth=4"], "", expect=0,
            note="trace.iodepth is not checked without --trace"),
        Row(["--check.content"], "", expect=0, note="bare boolean flag"),
    ]
    return rows, uncovered


def _run_row(binary, row, workdir, timeout):
    keys = {a[2:].split("=", 1)[0] for a in row.args if a.startswith("--")}
    base = [f"--{k}={v}" for k, v in BASE.items() if k not in keys]
    if any(a.startswith("--config") for a in row.args):
        base = [b for b in base if not b.startswith("--nand.channels=")]
    if any(a.startswith("--timeseries.interval=") for a in row.args):  # used only with a timeseries
        base.append(f"--timeseries={workdir}/timeseries.csv")
    if any(a.startswith("--state=") for a in row.args):  # --state and --precondition are exclusive
        base = [b for b in base if not b.startswith("--precondition=")]
    if any(a.startswith("--trace.iodepth=") for a in row.args):  # checked only with a trace
        base.append(f"--trace={TRACE}")
    argv = [binary, *base, *row.args]
    try:
        p = subprocess.run(argv, cwd=workdir, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        row.result, row.verdict = "hang", "FAIL"
        return row
    lines = [ln for ln in p.stderr.decode(errors="replace").splitlines() if ln.strip()]
    code = p.returncode
    row.result = f"exit {code}" if code >= 0 else f"signal {-code}"
    if row.expect == 0:
        ok = code == 0
        why = "" if ok else f": {lines[-1] if lines else ''}"
    else:
        named = bool(lines) and any(n in lines[0] for n in row.names.split("|"))
        ok = code == 2 and len(lines) == 1 and named
        why = "" if ok else (f", {len(lines)} stderr lines" if len(lines) != 1 else "") + (
            "" if named or not lines else ", option not named") + (f": {lines[-1][:100]}" if lines else "")
    row.result += why
    row.verdict = "ok" if ok else "FAIL"
    return row


def run_table(binary, specs, jobs=1, timeout=20, verbose=True):
    """Runs the table; prints it (every row if verbose, else the failing ones); returns the failing rows."""
    with tempfile.TemporaryDirectory(prefix="ssdsim-cli-") as workdir:
        rows, uncovered = build_rows(specs, workdir)
        with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as pool:
            rows = list(pool.map(lambda r: _run_row(binary, r, workdir, timeout), rows))
    failing = [r for r in rows if r.verdict != "ok"]
    print(f"== CLI bad-value table: {len(rows)} rows, {len(rows) - len(failing)} ok, {len(failing)} failing"
          + (f"; options without bad values: {', '.join(uncovered)}" if uncovered else ""))
    for r in rows if verbose else failing:
        args = " ".join(a.replace(workdir, "DIR") for a in r.args)
        expect = "refused" if r.expect == 2 else "accepted"
        note = f" ({r.note})" if r.note else ""
        print(f"  {r.verdict:4}  {args[:70]:70}  expect {expect:8}  got {r.result.replace(workdir, 'DIR')}{note}")
    return failing, uncovered
