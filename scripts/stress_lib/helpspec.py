"""The options ssdsim lists in --help: key, unit (the <...> text) and default.

The campaign reads the option list from the binary under test instead of
keeping its own copy, so an option added to the simulator shows up at once
as "not covered" by the generator and the bad-value table.
"""
import re
import subprocess
from dataclasses import dataclass

_LINE = re.compile(r"^\s+--(?P<key>[A-Za-z0-9_.-]+) <(?P<unit>[^>]+)>\s+(?P<help>.*?)\s*\(default: (?P<default>.*)\)$")


@dataclass(frozen=True)
class OptionSpec:
    key: str
    unit: str       # count, size, time, rate, freq, cycles, fraction, percent, blocks,
                    # bool, path, name, dev, list, factor, pattern, level, or "a|b|c"
    help: str
    default: str    # as --help prints it ("none" for an empty default)

    @property
    def choices(self):
        return self.unit.split("|") if "|" in self.unit else None


def parse_help(text):
    """Option specs from the text of `ssdsim --help`, in the order listed."""
    specs = []
    for line in text.splitlines():
        m = _LINE.match(line)
        if m:
            specs.append(OptionSpec(m["key"], m["unit"], m["help"], m["default"]))
    return specs


def read_help(binary):
    out = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=30)
    if out.returncode != 0:
        raise SystemExit(f"stress: {binary} --help exited {out.returncode}: {out.stderr.strip()}")
    specs = parse_help(out.stdout)
    if not specs:
        raise SystemExit(f"stress: no options found in the --help of {binary}")
    return specs
