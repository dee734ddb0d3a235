"""What an ssdsim binary offers: its option keys and defaults (from --help),
its identity for the cache (--version and the file's hash), and the shape of
its JSON report (from a tiny probe run), so a sweep file is checked before
any point runs."""
import hashlib
import json
import os
import re
import subprocess
import tempfile

from .errors import SweepError

_OPTION = re.compile(r"^\s+--([A-Za-z0-9_.\-]+) <[^>]*>\s.*\(default: (.*)\)\s*$")

# Options the sweep sets itself for every point; a sweep file may not.
MANAGED = {"report": "the sweep writes each point's report into its own directory",
           "latency-log": "the sweep writes it when a 'cdf' plot asks for it",
           "config": "name presets in 'configs' (or as a grid/list value of 'config')",
           "help": "not a simulation option", "version": "not a simulation option",
           "list-ftls": "not a simulation option"}

# A drive small enough that the probe run takes milliseconds.
_PROBE = ["--nand.channels=1", "--nand.dies_per_channel=1", "--nand.planes_per_die=1",
          "--nand.blocks_per_plane=128", "--nand.pages_per_block=16", "--dram.size=1m",
          "--precondition=none", "--workload.number_ios=8"]


class Binary:
    """An ssdsim executable, introspected once."""

    def __init__(self, path):
        self.path = os.path.abspath(path)
        if not (os.path.isfile(self.path) and os.access(self.path, os.X_OK)):
            raise SweepError(f"'{path}' is not an executable file (build it: scripts/build)", key="--binary")
        self.defaults = self._defaults()
        self.version = self._run(["--version"]).strip()
        self.identity = self.version + "\nsha256:" + _file_hash(self.path)

    def _run(self, args):
        p = subprocess.run([self.path, *args], capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            first = (p.stderr.strip().splitlines() or ["(no message)"])[0]
            raise SweepError(f"'{self.path} {' '.join(args)}' failed (exit {p.returncode}): {first}",
                             key="--binary")
        return p.stdout

    def _defaults(self):
        defaults = {}
        for line in self._run(["--help"]).splitlines():
            m = _OPTION.match(line)
            if m:
                value = m.group(2).strip()
                defaults[m.group(1)] = "" if value == "none" else value
        if "nand.channels" not in defaults:
            raise SweepError(f"'{self.path} --help' lists no options: is it ssdsim?", key="--binary")
        return defaults

    def probe_report(self):
        """Flattened numeric keys of the report of a tiny run (the schema)."""
        with tempfile.TemporaryDirectory(prefix="sweep-probe-") as tmp:
            report = os.path.join(tmp, "report.json")
            self._run([*_PROBE, "--report", report])
            with open(report) as f:
                return json.load(f)


def _file_hash(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()
