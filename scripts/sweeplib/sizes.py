"""ssdsim's size syntax, for the derived parameters that need byte counts.

Sizes are powers of 1024 (B, k, m, g, t), as in `ssdsim --help`. A bare
number is accepted only where ssdsim accepts it: 0, or a count.
"""
import re

_UNITS = {"": 1, "b": 1, "k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mb": 1 << 20,
          "mib": 1 << 20, "g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30, "t": 1 << 40, "tb": 1 << 40,
          "tib": 1 << 40}
_SIZE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*([a-zA-Z]*)\s*$")


def parse_size(text):
    """Bytes of a size such as '4k' or '4096B'; ValueError if malformed."""
    m = _SIZE.match(str(text))
    if not m or m.group(2).lower() not in _UNITS:
        raise ValueError(f"not a size: '{text}' (use B, k, m, g, t)")
    value = float(m.group(1)) * _UNITS[m.group(2).lower()]
    if value != int(value):
        raise ValueError(f"'{text}' is not a whole number of bytes")
    return int(value)


def parse_count(text):
    """A whole number (ssdsim's <count>); ValueError otherwise."""
    t = str(text).strip()
    if not t.isdigit():
        raise ValueError(f"not a whole number: '{text}'")
    return int(t)
