#!/usr/bin/env python3
"""CI smoke test of scripts/experiments (ctest label experiments): every
script runs with --quick on small drives into a temporary directory, and
its CSV, markdown table and PNG plots exist, are not empty, and hold the
rows the experiment promises."""
import csv
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXP = os.path.join(ROOT, "scripts", "experiments")
SMALL = os.path.join(ROOT, "configs", "generic-mlc-32g.ini")
DISK = "hdd-caviar-se16-640g"
# name -> (drives, expected CSV rows)
CASES = {
    "new-vs-used": (f"{SMALL},{DISK}", 2 * 2 * 3),
    "write-size": (f"{SMALL},{DISK}", 2 * 6),
    "seq-random-mix": (f"{SMALL},{DISK}", 2 * 4),
    "queue-depth": (f"{SMALL},{DISK}", 2 * 2 * 7),
    "consistency": (f"{SMALL},{DISK}", 2),  # the disk is left out: SSDs only
    "trim": (SMALL, 1),
    "g1-vs-g2": (None, 2 * 3),
}
failures = []
with tempfile.TemporaryDirectory() as tmp:
    for name, (drives, rows) in CASES.items():
        out = os.path.join(tmp, name)
        argv = [sys.executable, os.path.join(EXP, name), "--quick", "--out", out]
        if drives:
            argv += ["--drives", drives]
        p = subprocess.run(argv, capture_output=True, text=True)
        if p.returncode != 0:
            failures.append(f"{name}: exit {p.returncode}: {p.stderr.strip()[-400:]}")
            continue
        files = os.listdir(out)
        for ext in (".csv", ".md", ".png"):
            hits = [f for f in files if f.endswith(ext) and os.path.getsize(os.path.join(out, f)) > 0]
            if not hits:
                failures.append(f"{name}: no non-empty {ext} in {files}")
        with open(os.path.join(out, f"{name}.csv")) as f:
            n = sum(1 for _ in csv.DictReader(f))
        if n != rows:
            failures.append(f"{name}: {n} rows in {name}.csv, expected {rows}")
        print(f"{name}: ok ({n} rows)")
    # Bad input: one line and exit 2, no traceback; a missing preset is not skipped.
    bad_ini = os.path.join(tmp, "bad.ini")
    with open(bad_ini, "w") as f:
        f.write("nand.channels = 0\n")
    out = ["--out", os.path.join(tmp, "bad")]
    for what, extra in (("missing preset", out + ["--drives", "no-such-drive"]),
                        ("preset ssdsim refuses", out + ["--drives", bad_ini]),
                        ("--out it cannot make", ["--out", "/proc/no-such-dir"]),
                        ("--binary that is not one", out + ["--binary", tmp])):
        p = subprocess.run([sys.executable, os.path.join(EXP, "trim"), "--quick", *extra],
                           capture_output=True, text=True)
        lines = [l for l in p.stderr.splitlines() if l.strip() and not l.endswith(" runs")]
        if p.returncode != 2 or len(lines) != 1 or "Traceback" in p.stderr:
            failures.append(f"{what}: exit {p.returncode}, stderr {p.stderr.strip()[-300:]!r}")
        else:
            print(f"{what}: exit 2: {lines[0]}")
if failures:
    print("\n".join(failures))
    sys.exit(1)
