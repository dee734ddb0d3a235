"""Reads a sweep file (INI, or YAML when PyYAML is installed) into a Spec.

Both syntaxes have the same sections (docs/sweeps.md):
  sweep    configs, constant_raw_capacity, metrics
  options  fixed ssdsim options for every point
  grid     KEY = values: the cartesian product of all keys
  points   an explicit list of points (crossed with the grid if both exist)
  plot     [plot NAME] sections (INI) or a `plots:` mapping (YAML)
Every value keeps its line so errors can point at it.
"""
import csv
import os
import shlex

from .errors import SweepError

PSEUDO = {"config": "config files appended to 'configs' for this point",
          "capacity_gb": "raw capacity in GiB; sets nand.blocks_per_plane"}
PLOT_TYPES = ("line", "heatmap", "cdf")
DEFAULT_METRICS = ["write.iops", "read.iops", "write.lat_ns.mean", "read.lat_ns.mean",
                   "write.lat_ns.percentile.99.000000", "read.lat_ns.percentile.99.000000",
                   "device.write_amplification", "device.gc_runs"]


class Item:
    """One `key = value` of the file: raw is a str (INI) or a YAML object."""

    def __init__(self, key, raw, line):
        self.key, self.raw, self.line = key, raw, line


class Plot:
    def __init__(self, name, line, fields):
        self.name, self.line, self.fields = name, line, fields  # fields: key -> Item

    def get(self, key, default=None):
        return self.fields[key].raw if key in self.fields else default


class Spec:
    """A parsed sweep file; `points.expand` turns it into points."""

    def __init__(self, path):
        self.path = path
        self.configs = []          # [(path as written, line)]
        self.constant_raw_capacity = None  # Item or None
        self.metrics = []          # [(json path, line)]
        self.options = []          # [Item] with str values
        self.grid = []             # [(key, [values], line)]
        self.points = []           # [(label, {key: value}, line)]
        self.plots = []            # [Plot]

    def error(self, what, line=None, key=None):
        return SweepError(what, file=self.path, line=line, key=key)


def load(path):
    """Parse the sweep file at `path`; raises SweepError."""
    # A sweep file is a few KiB: the bound refuses a device named by mistake
    # (/dev/zero) instead of reading it forever, as ssdsim does its files.
    limit = 4 << 20
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise SweepError(f"cannot read: {e.strerror}", file=path)
    if len(data) > limit:
        raise SweepError("larger than 4 MiB: not a sweep file", file=path)
    try:
        text = data.decode("utf-8-sig")  # (a byte-order mark from a Windows editor is dropped)
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise SweepError(f"not UTF-8 text (byte 0x{data[e.start]:02x})", file=path, line=line)
    if path.endswith((".yaml", ".yml")):
        sections = _yaml_sections(path, text)
    else:
        sections = _ini_sections(path, text)
    return _interpret(path, sections)


# ---- syntax: both readers give {section: [Item]} plus plot sections

def _ini_sections(path, text):
    sections, current = {}, None
    for n, line in enumerate(text.splitlines(), 1):
        stripped = _strip_comment(line).strip()
        if not stripped:
            continue
        if stripped.startswith("[") and stripped.endswith("]"):
            name = " ".join(stripped[1:-1].split())
            if name.startswith("plot.") or name.startswith("plot "):
                name = "plot " + name[5:].strip()
            if name in sections:  # (merging the two would hide which one a key came from)
                raise SweepError(f"section again (first on line {sections[name][0].line})", file=path, line=n,
                                 key=f"[{name}]")
            current = sections[name] = [Item("", None, n)]  # marks the section's line
            continue
        # An indented line continues the previous value when that value ends
        # with a comma or the line is not itself `key = value`.
        if line[:1] in (" ", "\t") and current and current[-1].key and (
                current[-1].raw.endswith(",") or "=" not in stripped):
            current[-1].raw += " " + stripped
            continue
        if "=" not in stripped:
            raise SweepError("expected 'key = value' or '[section]'", file=path, line=n, key=stripped)
        if current is None:
            raise SweepError("key outside a section (start with [sweep])", file=path, line=n,
                             key=stripped.split("=")[0].strip())
        key, value = stripped.split("=", 1)
        current.append(Item(key.strip(), value.strip(), n))
    return sections


def _strip_comment(line):
    """Drop a '#' or ';' comment unless it is inside double quotes."""
    quoted = False
    for i, c in enumerate(line):
        if c == '"':
            quoted = not quoted
        elif c in "#;" and not quoted and (i == 0 or line[i - 1] in " \t"):
            return line[:i]
    return line


def _yaml_sections(path, text):
    try:
        import yaml
    except ImportError:
        raise SweepError("YAML sweep files need PyYAML (run scripts/setup-python)", file=path)
    try:
        loader = yaml.SafeLoader(text)
        try:
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise SweepError(f"not valid YAML: {getattr(e, 'problem', e)}", file=path,
                         line=mark.line + 1 if mark else None)
    if not isinstance(data, dict):
        raise SweepError("the top level must be a mapping (sweep:, options:, grid:, ...)", file=path)
    sections = {}
    for knode, vnode in node.value:
        name, line = str(knode.value), knode.start_mark.line + 1
        value = data[knode.value] if knode.value in data else data.get(name)
        if name == "plots":
            if not isinstance(value, dict):
                raise SweepError("must map plot names to plot settings", file=path, line=line, key="plots")
            for (pk, pvnode), pvalue in zip(vnode.value, value.values()):
                items = _yaml_items(path, f"plots: {pk.value}", pvalue, _lines_of(pvnode))
                sections["plot " + str(pk.value)] = [Item("", None, pk.start_mark.line + 1)] + items
            continue
        if name == "points" and isinstance(value, list):
            items = [Item(str(i + 1), v, child.start_mark.line + 1)
                     for i, (child, v) in enumerate(zip(vnode.value, value))]
            sections[name] = [Item("", None, line)] + items
            continue
        if not isinstance(value, dict):
            raise SweepError("must be a mapping of keys to values", file=path, line=line, key=name)
        sections[name] = [Item("", None, line)] + _yaml_items(path, name, value, _lines_of(vnode))
    return sections


def _lines_of(node):
    """Line of each key of a YAML mapping node ({} for other nodes)."""
    if type(node).__name__ != "MappingNode":
        return {}
    return {str(k.value): k.start_mark.line + 1 for k, _ in node.value}


def _yaml_items(path, section, value, lines):
    if not isinstance(value, dict):
        raise SweepError("must be a mapping of keys to values", file=path, key=str(section))
    return [Item(str(k), v, lines.get(str(k))) for k, v in value.items()]


# ---- meaning: the same for both syntaxes

def _interpret(path, sections):
    spec = Spec(path)
    known = {"sweep", "options", "grid", "points"}
    for name, items in sections.items():
        seen = {}
        for it in items[1:]:
            if it.key in seen:
                raise SweepError(f"set twice in [{name}] (also line {seen[it.key]})", file=path, line=it.line,
                                 key=it.key)
            seen[it.key] = it.line
        if name not in known and not name.startswith("plot "):
            raise SweepError("unknown section (sweep, options, grid, points, plot NAME)",
                             file=path, line=items[0].line, key=f"[{name}]")
    if "sweep" not in sections:
        raise SweepError("no [sweep] section (it names the configs)", file=path)
    for it in sections["sweep"][1:]:
        if it.key == "configs":
            spec.configs = [(c, it.line) for c in _words(spec, it)]
        elif it.key == "constant_raw_capacity":
            if _boolean(spec, it):
                spec.constant_raw_capacity = it
        elif it.key == "metrics":
            spec.metrics = [(m, it.line) for m in _list(spec, it)]
        else:
            raise spec.error("unknown key in [sweep] (configs, constant_raw_capacity, metrics)",
                             it.line, it.key)
    if not spec.metrics:
        spec.metrics = [(m, None) for m in DEFAULT_METRICS]
    for it in sections.get("options", [])[1:]:
        spec.options.append(Item(it.key, _scalar(spec, it, it.raw), it.line))
    for it in sections.get("grid", [])[1:]:
        values = _list(spec, it)
        if not values:
            raise spec.error("no values", it.line, it.key)
        if len(set(values)) != len(values):
            raise spec.error("a value is repeated", it.line, it.key)
        spec.grid.append((it.key, values, it.line))
    for it in sections.get("points", [])[1:]:
        spec.points.append((it.key, _point(spec, it), it.line))
    if "points" in sections and not spec.points:
        raise spec.error("[points] lists no point", sections["points"][0].line, "[points]")
    for name, items in sections.items():
        if name.startswith("plot "):
            spec.plots.append(_plot(spec, name[5:], items))
    return spec


def _scalar(spec, it, raw):
    if isinstance(raw, (list, dict)) or raw is None:
        raise spec.error("expected a single value", it.line, it.key)
    if isinstance(raw, bool):
        return "true" if raw else "false"
    text = str(raw).strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1]
    return text


def _list(spec, it):
    """Comma-separated values (INI; quote a value that has commas) or a YAML list."""
    if isinstance(it.raw, list):
        return [_scalar(spec, it, v) for v in it.raw]
    if not isinstance(it.raw, str):
        return [_scalar(spec, it, it.raw)]
    if it.raw.count('"') % 2:
        raise spec.error("a quote is not closed", it.line, it.key)
    try:
        row = next(csv.reader([it.raw], skipinitialspace=True))
    except (csv.Error, StopIteration):
        raise spec.error("cannot split the comma-separated values", it.line, it.key)
    values = [v.strip() for v in row]
    if len(values) > 1 and not all(values):  # ',,' or a comma at an end: a value left out, not one to skip
        raise spec.error("an empty value in the list", it.line, it.key)
    return [v for v in values if v]


def _words(spec, it):
    """A list of file names: YAML list, or INI separated by spaces or commas."""
    if isinstance(it.raw, list):
        return [_scalar(spec, it, v) for v in it.raw]
    return [w for w in str(it.raw).replace(",", " ").split() if w]


def _boolean(spec, it):
    value = _scalar(spec, it, it.raw).lower()
    if value in ("true", "yes", "on", "1"):
        return True
    if value in ("false", "no", "off", "0"):
        return False
    raise spec.error(f"'{it.raw}' is not true or false", it.line, it.key)


def _point(spec, it):
    """INI: `label = key=value key=value`; YAML: a mapping."""
    if isinstance(it.raw, dict):
        return {str(k): _scalar(spec, it, v) for k, v in it.raw.items()}
    try:
        words = shlex.split(str(it.raw))
    except ValueError as e:
        raise spec.error(f"cannot split the point: {e}", it.line, it.key)
    point = {}
    for w in words:
        if "=" not in w:
            raise spec.error(f"'{w}' is not key=value", it.line, it.key)
        k, v = w.split("=", 1)
        point[k.strip().lstrip("-")] = v.strip()
    if not point:
        raise spec.error("an empty point", it.line, it.key)
    return point


_PLOT_KEYS = {"line": {"type", "x", "y", "logx", "logy"},
              "heatmap": {"type", "x", "y", "z"},
              "cdf": {"type", "op", "points"}}


def _plot(spec, name, items):
    line = items[0].line
    if not name or any(c in name for c in "/\\ "):
        raise spec.error("a plot name is one word (it names the PNG)", line, f"[plot {name}]")
    fields = {it.key: it for it in items[1:]}
    kind = _scalar(spec, fields["type"], fields["type"].raw) if "type" in fields else None
    if kind not in PLOT_TYPES:
        raise spec.error(f"type must be one of {', '.join(PLOT_TYPES)}",
                         fields["type"].line if "type" in fields else line, f"[plot {name}] type")
    for key, it in fields.items():
        if key not in _PLOT_KEYS[kind]:
            raise spec.error(f"not a key of a {kind} plot ({', '.join(sorted(_PLOT_KEYS[kind]))})",
                             it.line, f"[plot {name}] {key}")
    values = {"type": kind}
    for key, it in fields.items():
        if key in ("y",) and kind == "line":
            values[key] = _list(spec, it)
        elif key in ("logx", "logy"):
            values[key] = _boolean(spec, it)
        elif key != "type":
            values[key] = _scalar(spec, it, it.raw)
    if kind == "heatmap" and not ("x" in values and "y" in values):
        raise spec.error("a heatmap needs x and y (two swept parameters)", line, f"[plot {name}]")
    if kind == "cdf" and values.get("op", "all") not in ("read", "write", "trim", "all"):
        raise spec.error("op must be read, write, trim or all", fields["op"].line, f"[plot {name}] op")
    plot = Plot(name, line, fields)
    plot.values = values
    return plot


def resolve_file(spec, name, line, key, root):
    """A config file named in the sweep file: absolute, else relative to the
    sweep file's directory, else to the repository root."""
    candidates = [name] if os.path.isabs(name) else [
        os.path.join(os.path.dirname(os.path.abspath(spec.path)), name), os.path.join(root, name)]
    for c in candidates:
        if os.path.isfile(c):
            return os.path.abspath(c)
    raise spec.error(f"config file '{name}' not found (relative to the sweep file or the repository)",
                     line, key)
