"""Run one configuration, classify the outcome, shrink a failure, save it.

Outcomes: "ok" (exit 0, every invariant holds), "refused" (exit 2 with an
"ssdsim: error:" line: the configuration broke a rule; counted, not a
failure) and failures: "hang" (the per-run timeout), "crash" (a signal),
"exit-3" (internal error), "exit-N", "refused-silently" (exit 2 without the
error line), "no-report", "invariant", "nondeterministic", "export", "load-state"
(a run that saved its drive state, run again from it, fails or differs).
"""
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field

from . import invariants
from .generate import RunSpec

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@dataclass
class Outcome:
    kind: str                    # ok, refused, or a failure kind
    detail: str = ""             # first problem or stderr line
    key: str = ""                # what identifies the failure: invariant name, signal, normalised message
    problems: list = field(default_factory=list)
    argv: list = field(default_factory=list)
    seconds: float = 0.0         # wall time of the run(s)
    lines: int = 0               # non-empty stderr lines of a refusal

    @property
    def failed(self):
        return self.kind not in ("ok", "refused")

    @property
    def signature(self):
        return (self.kind, self.key)

    @property
    def shrink_signature(self):
        """What must persist while shrinking: a crash's message (heap corruption reports vary) may change."""
        return (self.kind, self.key.split(" ")[0]) if self.kind == "crash" else self.signature


def _normalise(line):
    """An error line without its numbers and paths, so one defect is one signature."""
    line = re.sub(r"/\S+", "PATH", line)
    return re.sub(r"\d+(\.\d+)?", "N", line)[:120]


# "%plugin": the example FTL plug-in built beside the binary under test (tests/plugin).
PLUGIN = "%plugin"


def _value(v, run_dir, binary):
    if v == PLUGIN:
        return os.path.join(os.path.dirname(binary), "tests", "plugin", "libcircular_ftl.so")
    return os.path.join(run_dir, v[1:]) if v.startswith("@") else v


def render(spec, run_dir, binary):
    """The argv of a spec: "@name" values become files in run_dir, "%plugin" the plug-in built with
    the binary, ini keys go to a --config file."""
    argv = [binary]
    cli = [(k, v) for k, v in spec.args if k not in spec.ini]
    ini = [(k, v) for k, v in spec.args if k in spec.ini]
    for k, v in cli:
        argv.append(f"--{k}={_value(v, run_dir, binary)}")
    if ini:
        path = os.path.join(run_dir, "options.ini")
        with open(path, "w") as f:
            section = None
            for k, v in sorted(ini, key=lambda kv: kv[0].split(".")[0]):
                sec, name = k.split(".", 1)
                if sec != section:
                    f.write(f"[{sec}]\n")
                    section = sec
                f.write(f"{name} = {v}\n")
        argv += ["--config", path]
    return argv + [f"--report={os.path.join(run_dir, 'report.json')}"]


# After SIGTERM the simulator stops at its next completed IO and writes its report, or ends by the
# signal after a grace of 5 s with nothing completed (model/sim/interrupt.h); then SIGKILL.
AFTER_SIGTERM = 15


def _exec(argv, timeout):
    """(exit status, or None if the run outlived `timeout`; stderr). A run past its time gets SIGTERM,
    as a user's Ctrl-C would: its report then says how far it got (_hang says slow or stuck)."""
    for attempt in range(5):
        try:
            p = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        except OSError as e:  # the binary is being relinked: wait for it, then give up
            if attempt == 4:
                raise SystemExit(f"stress: cannot run {argv[0]}: {e}")
            time.sleep(2)
            continue
        try:
            _, err = p.communicate(timeout=timeout)
            return p.returncode, err.decode(errors="replace")
        except subprocess.TimeoutExpired:
            p.send_signal(signal.SIGTERM)
            try:
                p.communicate(timeout=AFTER_SIGTERM)
            except subprocess.TimeoutExpired:
                p.kill()
                p.communicate()
            return None, ""


def _hang(argv, timeout, run_dir):
    """A run that outlived its time, with what its report (written on SIGTERM) says it had done: a
    slow run completed IOs, a stuck one none (the simulator then ends by the signal, no report)."""
    seen = "nothing completed within the grace after SIGTERM (stuck, or one IO slower than that)"
    try:
        with open(os.path.join(run_dir, "report.json")) as f:
            report = json.load(f)
        dev = report["device"]
        ios = sum(report[op]["total_ios"] for op in ("read", "write", "trim"))
        seen = f"at SIGTERM {ios} IOs had completed in {dev['simulated_time_ns'] / 1e9:.6g} s simulated"
        if "write_amplification" in dev:
            seen += f", write amplification {dev['write_amplification']:.4g}"
        seen += " (slow, not stuck)" if ios else ""
    except (OSError, ValueError, KeyError, TypeError):
        pass
    seen += _large_outputs(run_dir)
    return Outcome("hang", f"no exit within {timeout} s; {seen}", "timeout", argv=argv)


def _large_outputs(run_dir, at_least=100 << 20):
    """', writing activity.json (4.2 GB)': the run's output files of `at_least` bytes or more. A run
    asked for a trace of every reservation (--activity, --vcd) over a long simulated time can spend
    its time writing gigabytes: slow for a reason the command line gives, not the model's."""
    try:
        sizes = [(os.path.getsize(os.path.join(run_dir, n)), n) for n in sorted(os.listdir(run_dir))]
    except OSError:
        return ""
    big = [f"{n} ({size / 1e9:.3g} GB)" for size, n in sizes if size >= at_least]
    return ", writing " + ", ".join(big) if big else ""


def _exit_outcome(code, stderr, argv, timeout, run_dir):
    """The outcome of an exit status that is not 0 (None: no exit in time, see _hang), or None for exit 0."""
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    if code is None:
        return _hang(argv, timeout, run_dir)
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        last = lines[-1] if lines else ""
        return Outcome("crash", f"{name}: {last}", name + " " + _normalise(last), argv=argv)
    if code == 2:
        err = [ln for ln in lines if ln.startswith("ssdsim: error:")]
        if err:
            return Outcome("refused", err[0], _normalise(err[0]), argv=argv, lines=len(lines))
        return Outcome("refused-silently", lines[-1] if lines else "(no stderr)", "exit 2", argv=argv)
    if code == 3:
        last = lines[-1] if lines else "(no stderr)"
        return Outcome("exit-3", last, _normalise(last), argv=argv)
    if code != 0:  # a sanitizer's report names the error on its "ERROR:" / "runtime error:" line
        sanitizer = [ln for ln in lines if "ERROR: " in ln or "runtime error:" in ln]
        last = sanitizer[0] if sanitizer else lines[-1] if lines else "(no stderr)"
        return Outcome("exit-N", f"exit {code}: {last}", f"exit {code}", argv=argv)
    return None


def _read_outputs(run_dir):
    with open(os.path.join(run_dir, "report.json")) as f:
        report = json.load(f)
    csvs = []
    for name in ("latency.csv", "timeseries.csv"):
        path = os.path.join(run_dir, name)
        # A fine timeseries of a long simulated time can have millions of rows: parsing them
        # would take longer than the run, so only the smaller ones are checked.
        small = name == "latency.csv" or (os.path.exists(path) and os.path.getsize(path) < 8 << 20)
        csvs.append(invariants.read_csv(path) if os.path.exists(path) and small else None)
    return report, *csvs


def _latency_log(run_dir, rows):
    """The latency log's bytes (for the determinism checks), or None if the run wrote none."""
    if rows is None:
        return None
    with open(os.path.join(run_dir, "latency.csv"), "rb") as f:
        return f.read()


# What ssdsim refuses beside --export-trace (model/sim/options.cpp), and what
# needs one of them (a power cut's settings).
SIMULATION_ONLY = ("trace", "vcd", "activity", "report", "report.avgtime", "output", "output-format", "latency-log",
                   "timeseries", "save-state", "load-state", "state", "precondition", "precondition.overwrite",
                   "state.threads", "powerfail.at", "powerfail.lost", "dram.plp", "check.content", "store-data",
                   "vcd.start", "vcd.end", "activity.start", "activity.end", "timeseries.interval",
                   "latency-log.format")


def run_once(spec, binary, work, timeout):
    """(Outcome, report or None, latency log bytes or None) of one run in a fresh directory under work."""
    run_dir = tempfile.mkdtemp(prefix="run-", dir=work)
    try:
        expect = None
        if spec.get("export-trace"):
            # The export simulates nothing: what only a simulation uses is
            # refused with it, and goes to the replay instead.
            export = RunSpec([(k, v) for k, v in spec.args if k not in SIMULATION_ONLY],
                             [k for k in spec.ini if k not in SIMULATION_ONLY], spec.expect_refusal)
            argv = render(export, run_dir, binary)
            code, err = _exec(argv, timeout)
            bad = _exit_outcome(code, err, argv, timeout, run_dir)
            if bad:
                return bad, None, None
            fmt = spec.get("export-trace.format", "disksim")
            if not os.path.exists(os.path.join(run_dir, "export.trace")) and not os.path.exists(
                    os.path.join(run_dir, f"export.trace.{fmt}.0")):
                return Outcome("export", "exit 0 but no exported trace file", "no file", argv=argv), None, None
            expect = {"records": int(spec.get("workload.number_ios", "200000"))}
            # The replay keeps the drive and the queue depth (workload options do not apply to it).
            keep = [("trace.iodepth" if k == "workload.iodepth" else k, v) for k, v in spec.args
                    if not k.startswith(("export-trace", "workload.")) or k == "workload.iodepth"]
            spec = RunSpec(keep
                           + [("trace", "@export.trace"), ("trace.format", fmt), ("trace.mode", "afap"),
                              ("latency-log", "@latency.csv")], list(spec.ini))
        trace = spec.get("trace", "")
        if trace and not trace.startswith("@") and os.path.isfile(os.path.join(ROOT, trace)):
            expect = {"trace_bytes": os.path.getsize(os.path.join(ROOT, trace))}
        argv = render(spec, run_dir, binary)
        code, err = _exec(argv, timeout)
        bad = _exit_outcome(code, err, argv, timeout, run_dir)
        if bad:
            return bad, None, None
        try:
            report, rows, series = _read_outputs(run_dir)
        except (OSError, ValueError) as e:
            return Outcome("no-report", f"exit 0 but the report or a CSV file is unreadable: {e}", "unreadable",
                           argv=argv), None, None
        problems = invariants.check_report(report, rows, expect, series)
        log = _latency_log(run_dir, rows)
        if problems:
            name, msg = problems[0]
            return Outcome("invariant", f"{name}: {msg}", name, problems, argv), report, log
        if spec.get("save-state") == "@state.bin":
            bad = _from_saved_state(spec, run_dir, binary, timeout, report, log)
            if bad:
                return bad, report, log
        return Outcome("ok", argv=argv), report, log
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)


def _from_saved_state(spec, run_dir, binary, timeout, report, log):
    """The run again from the drive state it saved (--load-state instead of --precondition or
    --state): the same report and latency log, but for the state's name. None if so, else the
    failure."""
    again = RunSpec([(k, v) for k, v in spec.args if not k.startswith(("precondition", "state", "save-state"))]
                    + [("load-state", "@state.bin")], list(spec.ini))
    os.rename(os.path.join(run_dir, "report.json"), os.path.join(run_dir, "saved-run.json"))
    argv = render(again, run_dir, binary)
    code, err = _exec(argv, timeout)
    bad = _exit_outcome(code, err, argv, timeout, run_dir)
    if bad:   # the state it saved must load into the drive it was saved from
        bad.kind, bad.detail = "load-state", f"{bad.kind}: {bad.detail}"
        return bad
    try:
        loaded, rows, _ = _read_outputs(run_dir)
    except (OSError, ValueError) as e:
        return Outcome("no-report", f"--load-state run: report or CSV unreadable: {e}", "unreadable", argv=argv)
    log2 = _latency_log(run_dir, rows)
    a, b = (dict(invariants.comparable(r), state=None, drive=None) for r in (report, loaded))
    for r in (a, b):
        r["options"] = {k: v for k, v in r["options"].items()
                        if not k.startswith(("precondition", "state", "save-state", "load-state"))}
    if a != b:
        return Outcome("load-state", f"differs from the run that saved it at {_first_difference(a, b)}", "report",
                       argv=argv)
    if log != log2:
        return Outcome("load-state", "latency log differs from the run that saved it", "latency log", argv=argv)
    return None


def run_spec(spec, binary, work, timeout, repeat=False):
    """Outcome of a spec; with repeat, a second identical run must give the same report and log."""
    t0 = time.monotonic()
    out, report, log = run_once(spec, binary, work, timeout)
    out.seconds = time.monotonic() - t0
    if spec.expect_refusal:
        # A deliberately invalid option: exit 2 with exactly one error line, never a run.
        if out.kind == "ok":
            return Outcome("accepted-invalid", f"{spec.expect_refusal} was accepted (exit 0)",
                           spec.expect_refusal.split("=")[0], argv=out.argv, seconds=out.seconds)
        if out.kind == "refused" and out.lines != 1:
            return Outcome("refused-multiline", f"{out.lines} stderr lines: {out.detail}", out.key,
                           argv=out.argv, seconds=out.seconds)
    if repeat and out.kind == "ok" and not spec.get("export-trace"):
        # A drive state is applied again on another number of threads (--state.threads; absent:
        # every core): the same state, so the same report.
        threads = spec.get("state.threads")
        prepared = spec.get("state") is not None or spec.get("precondition", "seq-fill") != "none"
        spec2, what = spec, "two runs"
        if prepared and threads is not None:
            other = "1" if threads != "1" else "3"
            spec2 = RunSpec([(k, other if k == "state.threads" else v) for k, v in spec.args], list(spec.ini))
            what = f"two runs (state.threads {threads} and {other})"
        again, report2, log2 = run_once(spec2, binary, work, timeout)
        if again.kind != "ok":
            return again
        a, b = (invariants.comparable(r) for r in (report, report2))
        for r in (a, b):
            r["options"] = {k: v for k, v in r["options"].items() if k != "state.threads"}
        if a != b:
            return Outcome("nondeterministic", f"{what} differ at {_first_difference(a, b)}", "report",
                           argv=out.argv)
        if log != log2:
            return Outcome("nondeterministic", "two runs wrote different latency logs", "latency log", argv=out.argv)
    return out


def _first_difference(a, b, path=""):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                return _first_difference(a.get(k), b.get(k), f"{path}.{k}" if path else k)
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path}: {a!r} vs {b!r}"


def shrink(spec, outcome, binary, work, timeout, deadline, repeat=False):
    """Drop options while the same failure (signature) persists, until deadline (time.monotonic()).

    First whole groups (nand.*, cpu.*, ...), then one option at a time."""
    def same(candidate):
        keys = candidate.keys()
        if not {"trace", "workload.number_ios", "workload.runtime"} & set(keys):
            return False   # a synthetic run of the default 200000 IOs: too slow to shrink with
        return run_spec(candidate, binary, work, timeout, repeat).shrink_signature == outcome.shrink_signature

    # Kept throughout: the IO count (without it a run does 200000 IOs), and the deliberately invalid
    # option of an accepted-invalid failure (without it the run is valid and reproduces nothing).
    refused = spec.expect_refusal[2:].split("=")[0] if spec.expect_refusal else None

    def kept(key):
        return key in ("workload.number_ios", refused)

    flat = RunSpec(list(spec.args), [], spec.expect_refusal)   # --config content inlined first
    if time.monotonic() >= deadline or not same(flat):
        return spec
    spec = flat
    groups = sorted({k.split(".")[0] for k in spec.keys()})
    for g in groups:
        if time.monotonic() >= deadline:
            return spec
        candidate = RunSpec([(k, v) for k, v in spec.args if k.split(".")[0] != g or kept(k)],
                            [], spec.expect_refusal)
        if len(candidate.args) < len(spec.args) and same(candidate):
            spec = candidate
    changed = True
    while changed and time.monotonic() < deadline:
        changed = False
        for i in reversed(range(len(spec.args))):
            if i >= len(spec.args) or time.monotonic() >= deadline:
                continue
            if kept(spec.args[i][0]):
                continue
            candidate = spec.without(i)
            if same(candidate):
                spec, changed = candidate, True
    return spec


def command_line(spec, binary):
    """A shell command reproducing spec from the repository root (outputs in /tmp/ssdsim-repro)."""
    argv = render(RunSpec(list(spec.args), []), "/tmp/ssdsim-repro", binary)
    return "mkdir -p /tmp/ssdsim-repro && " + shlex.join(argv)


def save_case(spec, outcome, cases_dir, note):
    """Write spec as tests/stress/cases/NAME.args (one argument per line); returns the path."""
    digest = hashlib.sha1(repr(spec.args).encode()).hexdigest()[:8]
    name = re.sub(r"[^a-z0-9]+", "-", f"{outcome.kind}-{outcome.key}".lower()).strip("-")[:48] + "-" + digest
    os.makedirs(cases_dir, exist_ok=True)
    path = os.path.join(cases_dir, name + ".args")
    with open(path, "w") as f:
        f.write(f"# {note}\n# failure: {outcome.kind}: {outcome.detail[:200]}\n")
        if spec.expect_refusal:
            f.write(f"# expect: refused ({spec.expect_refusal})\n")
        for k, v in spec.args:
            f.write(f"--{k}={v}\n")
    return path


def load_case(path):
    """A RunSpec from an .args file: one --key=value per line; # comments and blank lines ignored."""
    args, expect = [], ""
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if line.startswith("# expect: refused"):   # a deliberately invalid configuration
                expect = line[len("# expect: refused"):].strip(" ()") or "refused"
            if not line or line.startswith("#"):
                continue
            if not line.startswith("--") or "=" not in line:
                raise SystemExit(f"stress: {path}: line {n}: expected --KEY=VALUE, got '{line}'")
            k, v = line[2:].split("=", 1)
            args.append((k, v))
    return RunSpec(args, expect_refusal=expect)
