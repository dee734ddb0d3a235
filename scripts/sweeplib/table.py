"""The tidy table of a sweep: one row per point, the swept and derived
options as columns, then every numeric metric of the report flattened to a
column named by its JSON path (`write.lat_ns.percentile.99.000000`,
`device.channels.0.utilisation`). The metrics the sweep file names come
first."""
import json
import os
import re

from .errors import SweepError

# Leading columns, before the options and the metrics.
META = ["point", "label", "status", "cached", "returncode", "error", "elapsed_s", "dir", "command"]


def flatten(report, prefix=""):
    """{json.path: number} of every numeric leaf; the `options` section (all
    strings, and already columns) is left out."""
    out = {}
    items = report.items() if isinstance(report, dict) else enumerate(report)
    for k, v in items:
        if not prefix and k == "options":
            continue
        path = f"{prefix}{k}"
        if isinstance(v, bool):
            out[path] = int(v)
        elif isinstance(v, (int, float)):
            out[path] = v
        elif isinstance(v, (dict, list)):
            out.update(flatten(v, path + "."))
    return out


def _schema(report, prefix=""):
    """Flattened numeric paths with each list index written as '#'."""
    out = set()
    items = report.items() if isinstance(report, dict) else (("#", v) for v in report)
    for k, v in items:
        path = f"{prefix}{k}"
        if isinstance(v, (dict, list)):
            out |= _schema(v, path + ".")
        elif isinstance(v, (int, float)):
            out.add(path)
    return out


def check_metrics(spec, probe):
    """Every metric the sweep names must exist in a report (checked against
    the probe run's report; list indices such as channel numbers may differ)."""
    patterns = [re.compile("^" + ".".join(r"\d+" if part == "#" else re.escape(part)
                                          for part in path.split(".")) + "$")
                for path in _schema({k: v for k, v in probe.items() if k != "options"})]
    flat = flatten(probe)
    for metric, line in spec.metrics:
        if any(p.match(metric) for p in patterns):
            continue
        if metric.startswith("trace."):  # only replays have it; the probe is synthetic
            continue
        near = sorted(k for k in flat if k.split(".")[0] == metric.split(".")[0])[:5]
        hint = f" (e.g. {', '.join(near)})" if near else ""
        raise SweepError(f"'{metric}' is not a numeric value of the report{hint}", file=spec.path,
                         line=line, key="metrics")


def build(spec, points, outcomes, out, binary, latency):
    """The results as a pandas DataFrame, in point order."""
    import pandas as pd
    from .runner import files
    from .task import _quote
    rows = []
    option_cols = []
    for p in points:
        for k in list(p.params) + list(p.derived):
            if k not in option_cols:
                option_cols.append(k)
    metric_cols = [m for m, _ in spec.metrics]
    others = set()
    for p, o in zip(points, outcomes):
        d, report, lat = files(out, p, latency)
        row = {"point": p.index, "label": p.label, "status": "ok" if o.ok else "failed",
               "cached": o.cached, "returncode": o.returncode, "error": o.error,
               "elapsed_s": o.elapsed_s, "dir": os.path.relpath(d, out),
               "command": " ".join(_quote(a) for a in p.command(binary.path, report, lat))}
        row.update(p.params)
        row.update({k: str(v) for k, v in p.derived.items()})
        if o.ok:
            try:
                with open(report) as f:
                    metrics = flatten(json.load(f))
            except (OSError, ValueError) as e:  # e.g. the disk filled up
                row.update(status="failed", error=f"report unreadable: {e}")
                metrics = {}
            row.update(metrics)
            others.update(metrics)
        rows.append(row)
    rest = sorted(others - set(metric_cols) - set(option_cols))
    columns = META + option_cols + metric_cols + rest
    df = pd.DataFrame(rows, columns=columns)
    if not spec.points:
        df = df.drop(columns=["label"])
    for c in option_cols:  # numbers become numeric columns; sizes such as 64m stay text
        try:
            df[c] = pd.to_numeric(df[c])
        except (ValueError, TypeError):
            df[c] = df[c].where(df[c].notna(), "").astype(str)  # a key only some points set
    return df


def write(df, out):
    """results.csv and results.parquet in `out`; returns their paths."""
    csv_path, pq_path = os.path.join(out, "results.csv"), os.path.join(out, "results.parquet")
    df.to_csv(csv_path, index=False)
    df.to_parquet(pq_path, index=False)
    return csv_path, pq_path
