"""The campaign loop: generate, run, tally, shrink and report failures."""
import collections
import concurrent.futures
import os
import random
import time

from . import runner
from .generate import Generator


class Tally:
    def __init__(self):
        self.runs = 0
        self.kinds = collections.Counter()
        self.refusals = collections.Counter()   # refusal message (normalised) -> count
        self.failures = {}                      # signature -> [count, spec, outcome, label]
        self.failed_runs = []                   # (label, spec, outcome) of every failure
        self.covered = {}
        self.slow = 0                           # runs over 2 s
        self.slowest = (0.0, "", None)          # seconds, label, spec: a slow run is a lead too
        self.by_ftl = collections.defaultdict(collections.Counter)   # ftl.name -> ok/refused/failed

    def add(self, label, spec, out):
        self.runs += 1
        if out.seconds > 2:
            self.slow += 1
        if out.seconds > self.slowest[0]:
            self.slowest = (out.seconds, label, spec)
        self.kinds[out.kind] += 1
        self.by_ftl[spec.get("ftl.name", "page")]["failed" if out.failed else out.kind] += 1
        if out.kind == "refused":
            self.refusals[out.key] += 1
        elif out.failed:
            self.failed_runs.append((label, spec, out))
            entry = self.failures.setdefault(out.signature, [0, spec, out, label])
            entry[0] += 1

    @property
    def failed(self):
        return sum(n for n, *_ in self.failures.values())

    def print(self, title, binary=None):
        ok, refused = self.kinds["ok"], self.kinds["refused"]
        print(f"== {title}: {self.runs} runs, {ok} ok, {refused} refused, {self.failed} failures")
        by_kind = collections.Counter()
        for (kind, _), (n, *_rest) in self.failures.items():
            by_kind[kind] += n
        if by_kind:
            print("   failures by kind: " + ", ".join(f"{k} {n}" for k, n in sorted(by_kind.items())))
        if self.by_ftl:
            print("   by FTL: " + ", ".join(
                f"{name} {sum(c.values())} ({c['ok']} ok, {c['refused']} refused, {c['failed']} failed)"
                for name, c in sorted(self.by_ftl.items())))
        print(f"   runs over 2 s: {self.slow}; slowest {self.slowest[0]:.1f} s ({self.slowest[1]})")
        # (The run's configuration depends on the coverage before it, so its
        # label alone does not reproduce it: the command line does.)
        if binary and self.slowest[0] > 2:
            print("   slowest: " + runner.command_line(self.slowest[2], binary))
        for key, n in self.refusals.most_common(5):
            print(f"   refused {n}x: {key}")


def _spec_for(seed, index, covered, keys):
    return Generator(random.Random(f"{seed}:{index}"), covered, keys).spec()


def stress(binary, minutes, seed, jobs, work, timeout, keys, repeat_every=7):
    """Random configurations until the time budget is spent; returns the Tally."""
    tally = Tally()
    deadline = time.monotonic() + minutes * 60
    index = 0

    def job(i):
        spec = _spec_for(seed, i, tally.covered, keys)
        return f"seed {seed} run {i}", spec, runner.run_spec(spec, binary, work, timeout, repeat=i % repeat_every == 0)

    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        pending = set()
        last_print = time.monotonic()
        while True:
            while len(pending) < jobs * 2 and time.monotonic() < deadline:
                pending.add(pool.submit(job, index))
                index += 1
            if not pending:
                break
            done, pending = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for f in done:
                tally.add(*f.result())
            if time.monotonic() - last_print > 30:
                last_print = time.monotonic()
                print(f"   ... {tally.runs} runs, {tally.kinds['ok']} ok, {tally.kinds['refused']} refused, "
                      f"{tally.failed} failures", flush=True)
    return tally


def run_fixed(binary, labelled_specs, jobs, work, timeout, repeat_every=3):
    """Runs a fixed list of (label, spec); every repeat_every-th also checks determinism."""
    tally = Tally()

    def job(item):
        i, (label, spec) = item
        return label, spec, runner.run_spec(spec, binary, work, timeout, repeat=spec.repeat or i % repeat_every == 0)

    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for result in pool.map(job, enumerate(labelled_specs)):
            tally.add(*result)
    return tally


def report_failures(tally, binary, work, timeout, shrink_seconds, keep_dir=None, note=""):
    """Prints each distinct failure with a minimal command line; optionally saves it as a case file."""
    if not tally.failures:
        return
    print("== distinct failures (minimal command lines, run from the repository root)")
    stop = time.monotonic() + shrink_seconds
    failures = sorted(tally.failures.items(), key=lambda kv: -kv[1][0])
    for n, (sig, (count, spec, out, label)) in enumerate(failures):
        share = (stop - time.monotonic()) / (len(failures) - n)   # time left, shared by those left
        small = runner.shrink(spec, out, binary, work, timeout, time.monotonic() + share,
                              repeat=out.kind == "nondeterministic")
        print(f"-- [{n + 1}] {out.kind}: {out.detail[:300]}")
        print(f"   {count} run(s), first: {label}; {len(spec.args)} options, shrunk to {len(small.args)}")
        print("   " + runner.command_line(small, binary))
        if keep_dir:
            print("   saved " + os.path.relpath(runner.save_case(small, out, keep_dir, f"{label} {note}".strip()),
                                                 runner.ROOT))


def coverage_line(specs, covered):
    covered = dict(covered, report=1)  # every run writes a report
    missing = [s.key for s in specs if s.key not in covered]
    used = len([s for s in specs if s.key in covered])
    text = f"   options exercised: {used} of {len(specs)} from --help, plus --config {covered.get('config', 0)} times"
    if missing:
        text += f"; never set: {', '.join(missing)}"
    return text
