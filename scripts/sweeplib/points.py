"""Expands a Spec into points: the grid's cartesian product crossed with the
explicit list, the derived parameters, each point's command line and its
cache key.

Options of a point are applied in this order (later wins, as in ssdsim):
ssdsim's defaults, the config files (`configs`, then the point's `config`),
[options], the point's own values, then the derived nand.blocks_per_plane.
"""
import hashlib
import itertools
import json
import math
import os

from .binary import MANAGED
from .sizes import parse_count, parse_size
from .spec import PSEUDO, resolve_file

GEOMETRY = ("nand.channels", "nand.dies_per_channel", "nand.planes_per_die", "nand.pages_per_block",
            "nand.page_size")
BPP = "nand.blocks_per_plane"


class Point:
    def __init__(self, index, label, params, line):
        self.index = index
        self.label = label          # name of the explicit list entry ("" for grid-only)
        self.params = params        # {key: value} the point varies (grid + list)
        self.line = line            # line of the list entry or first grid key, for errors
        self.lines = {}             # {key: line} where each of params is set
        self.configs = []           # absolute config paths, in order
        self.options = []           # [(key, value)] after the configs, in order
        self.derived = {}           # {key: value} computed by the sweep
        self.key = None             # cache key (hex)

    def command(self, binary, report, latency_log=None):
        cmd = [binary]
        for c in self.configs:
            cmd += ["--config", c]
        cmd += [f"--{k}={v}" for k, v in self.options]
        cmd += ["--report", report]
        if latency_log:
            cmd += ["--latency-log", latency_log]
        return cmd

    def describe(self):
        shown = dict(self.params)
        shown.update(self.derived)
        return ", ".join(f"{k}={v}" for k, v in shown.items()) or "(base)"


# The most points one sweep file may make (each is a simulator run).
MAX_POINTS = 100_000


def expand(spec, binary, root):
    """All points of the sweep, checked; raises SweepError."""
    _check_keys(spec, binary)
    base_configs = [resolve_file(spec, name, line, "configs", root) for name, line in spec.configs]
    file_cache = {}
    grid_keys = [k for k, _, _ in spec.grid]
    # The count first: a grid of thousands of values per key (a typo, a
    # pasted range) would otherwise be built point by point for minutes
    # and gigabytes before anything is said.
    count = max(1, len(spec.points)) * math.prod(len(v) for _, v, _ in spec.grid)
    if count > MAX_POINTS:
        sizes = " x ".join(f"{k} {len(v)}" for k, v, _ in spec.grid)
        raise spec.error(f"{count} points ({sizes}" + (f" x {len(spec.points)} listed points" if spec.points else "")
                         + f"): more than {MAX_POINTS}; split the sweep",
                         spec.grid[0][2] if spec.grid else None, "grid")
    grid = list(itertools.product(*[values for _, values, _ in spec.grid])) if spec.grid else [()]
    listed = spec.points or [("", {}, None)]
    points = []
    for (label, lparams, lline), combo in itertools.product(listed, grid):
        params = dict(lparams)
        for key, value in zip(grid_keys, combo):
            if key in params:
                raise spec.error(f"set both by the grid and by point '{label}'", lline, key)
            params[key] = value
        line = lline or (spec.grid[0][2] if spec.grid else None)
        p = Point(len(points), label, params, line)
        p.lines = {k: lline for k in lparams}
        p.lines.update({k: gline for k, _, gline in spec.grid})
        p.configs = list(base_configs)
        if "config" in params:
            p.configs += [resolve_file(spec, c, line, "config", root) for c in params["config"].split()]
        fixed = [(it.key, it.raw) for it in spec.options if it.key not in PSEUDO]
        p.options = fixed + [(k, v) for k, v in params.items() if k not in PSEUDO]
        _derive(spec, binary, p, file_cache)
        p.options += list(p.derived.items())
        _one_thread(binary, p, file_cache)
        # Later values win in ssdsim too; keep only the last one of each key.
        last = {k: i for i, (k, _) in enumerate(p.options)}
        p.options = [kv for i, kv in enumerate(p.options) if last[kv[0]] == i]
        p.key = _cache_key(binary, p, file_cache)
        points.append(p)
    return points


def _check_keys(spec, binary):
    def check(key, line, where):
        if key in MANAGED and not (key == "config" and where != "[options]"):
            raise spec.error(f"cannot be set by a sweep: {MANAGED[key]}", line, key)
        if key not in binary.defaults and key not in PSEUDO:
            raise spec.error(f"not an ssdsim option (see ssdsim --help) in {where}", line, key)
    for it in spec.options:
        if it.key == "config":
            raise spec.error("name base configs in [sweep] configs", it.line, it.key)
        check(it.key, it.line, "[options]")
    for key, _, line in spec.grid:
        check(key, line, "[grid]")
    for label, params, line in spec.points:
        for key in params:
            check(key, line, f"point '{label}'")
    if spec.constant_raw_capacity and BPP in {k for k, _, _ in spec.grid} | _listed_keys(spec):
        raise spec.error(f"{BPP} is derived by constant_raw_capacity and cannot be swept too",
                         spec.constant_raw_capacity.line, "constant_raw_capacity")


def _listed_keys(spec):
    return {k for _, params, _ in spec.points for k in params}


def _one_thread(binary, p, file_cache):
    """The sweep runs one simulation per core, so each keeps to one thread
    while it preconditions (ssdsim's default, every core it may run on,
    would oversubscribe them): --state.threads=1 unless the sweep or a
    config sets state.threads, or the point loads a saved state or is a
    hard disk (both refuse the option)."""
    given = {k for k, _ in p.options}
    for path in p.configs:
        given |= set(_ini_values(path, file_cache))
    values = _resolved(binary, p, file_cache)
    values.update(dict(p.options))
    if "state.threads" not in given and not values.get("load-state") and values.get("device") != "hdd":
        p.options.append(("state.threads", "1"))


# ---- derived parameters

def _resolved(binary, p, file_cache):
    """The option values ssdsim will see, as far as the derivations need them."""
    values = dict(binary.defaults)
    for path in p.configs:
        values.update(_ini_values(path, file_cache))
    return values


def _derive(spec, binary, p, file_cache):
    base = _resolved(binary, p, file_cache)
    fixed = {it.key: (it.raw, it.line) for it in spec.options}
    for key, (value, _) in fixed.items():
        base[key] = value
    point = dict(base)
    point.update(p.params)
    capacity = p.params.get("capacity_gb", fixed.get("capacity_gb", (None,))[0])
    cap_line = p.lines["capacity_gb"] if "capacity_gb" in p.params else fixed.get("capacity_gb", (None, None))[1]
    if capacity is not None:
        if BPP in p.params or BPP in fixed:
            raise spec.error(f"capacity_gb sets {BPP}; do not set both", cap_line, "capacity_gb")
        try:
            gib = float(capacity)
        except ValueError:
            raise spec.error(f"'{capacity}' is not a number of GiB", cap_line, "capacity_gb")
        raw = gib * (1 << 30)
        p.derived[BPP] = _blocks(spec, p, point, raw, cap_line, f"capacity_gb={capacity}")
    elif spec.constant_raw_capacity:
        raw = _raw_bytes(spec, base, spec.constant_raw_capacity.line, "the base drive")
        # Set even where it equals the base value, so the table's column is full.
        p.derived[BPP] = _blocks(spec, p, point, raw, spec.constant_raw_capacity.line, "constant raw capacity")


def _geometry(spec, values, line, what):
    try:
        g = {k: parse_count(values[k]) for k in GEOMETRY if k != "nand.page_size"}
        g["nand.page_size"] = parse_size(values["nand.page_size"])
    except ValueError as e:
        raise spec.error(f"{what}: {e}", line, "nand geometry")
    return g


def _raw_bytes(spec, values, line, what):
    g = _geometry(spec, values, line, what)
    try:
        bpp = parse_count(values[BPP])
    except ValueError as e:
        raise spec.error(f"{what}: {e}", line, BPP)
    return bpp * _block_row(g)


def _block_row(g):
    """Bytes of one block in every plane of the drive (raw bytes per unit of blocks_per_plane)."""
    return (g["nand.channels"] * g["nand.dies_per_channel"] * g["nand.planes_per_die"] *
            g["nand.pages_per_block"] * g["nand.page_size"])


def _blocks(spec, p, values, raw, line, why):
    g = _geometry(spec, values, line, f"point {p.index}")
    row = _block_row(g)
    bpp = raw / row
    if bpp != int(bpp) or bpp < 1:
        shape = " x ".join(f"{g[k]}" for k in GEOMETRY)
        raise spec.error(f"point {p.index} ({p.describe()}): {why} gives {raw:.0f} B / "
                         f"({shape} B per block row) = {bpp:g} blocks per plane, not a whole number >= 1",
                         line, BPP)
    return int(bpp)


def _ini_values(path, cache):
    """key -> value of an ssdsim INI preset ([nand] channels = 8 -> nand.channels)."""
    if path not in cache:
        values, section = {}, ""
        with open(path, "rb") as f:
            data = f.read()
        for line in data.decode("utf-8", "replace").splitlines():
            for mark in "#;":
                line = line.split(mark, 1)[0]
            line = line.strip()
            if len(line) > 1 and line[0] == "[" and line[-1] == "]":
                section = line[1:-1].strip()
            elif "=" in line:
                k, v = line.split("=", 1)
                values[(section + "." if section else "") + k.strip()] = v.strip()
        cache[path] = (values, hashlib.sha256(data).hexdigest())
    return cache[path][0]


def _cache_key(binary, p, file_cache):
    """Hash of everything that determines the point's report: the binary's
    identity, the config files' contents (in order) and the option list."""
    for path in p.configs:
        _ini_values(path, file_cache)
    blob = json.dumps({"binary": binary.identity,
                       "configs": [file_cache[c][1] for c in p.configs],
                       "options": p.options}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()


def point_dir(out, p):
    return os.path.join(out, "points", p.key[:16])
