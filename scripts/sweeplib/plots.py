"""The plots a sweep file asks for, as PNG files in the output directory.

  line     a metric against one parameter; one line per combination of the
           other swept parameters; without `x`, one PNG per swept parameter
  heatmap  a metric over two parameters; one PNG per combination of the rest
  cdf      latency CDFs (completion - arrival, from each point's latency
           log) overlaid, one curve per point
Only points that ran successfully are drawn.
"""
import numbers
import os
import re

from .errors import SweepError


def needs_latency_log(spec):
    return any(p.values["type"] == "cdf" for p in spec.plots)


def check(spec, params):
    """Plot settings must name swept parameters and the sweep's metrics."""
    metrics = {m for m, _ in spec.metrics}
    for plot in spec.plots:
        v = plot.values
        for key in ("x", "y") if v["type"] == "heatmap" else ("x",) if v["type"] == "line" else ():
            if key in v and v[key] not in params:
                raise SweepError(f"'{v[key]}' is not a swept parameter ({', '.join(params) or 'none'})",
                                 file=spec.path, line=plot.fields[key].line, key=f"[plot {plot.name}] {key}")
        wanted = v.get("y", []) if v["type"] == "line" else [v["z"]] if "z" in v else []
        for m in wanted:
            if m not in metrics:
                raise SweepError(f"'{m}' is not one of the sweep's metrics (add it to [sweep] metrics)",
                                 file=spec.path, line=plot.fields["y" if v["type"] == "line" else "z"].line,
                                 key=f"[plot {plot.name}]")


def draw_all(spec, df, points, out, params, latency_files):
    """Draw every plot; returns the PNG paths."""
    import matplotlib
    matplotlib.use("Agg")
    ok = df[df["status"] == "ok"]
    written = []
    for plot in spec.plots:
        v = plot.values
        if ok.empty:
            break
        if v["type"] == "line":
            for x in [v["x"]] if "x" in v else params:
                name = plot.name if "x" in v else f"{plot.name}-{_slug(x)}"
                written.append(_line(ok, x, v.get("y") or [m for m, _ in spec.metrics], params,
                                     os.path.join(out, name + ".png"), v.get("logx"), v.get("logy")))
        elif v["type"] == "heatmap":
            z = v.get("z") or spec.metrics[0][0]
            written += _heatmaps(ok, v["x"], v["y"], z, params, os.path.join(out, plot.name))
        else:
            written.append(_cdf(ok, points, latency_files, v.get("op", "all"), v.get("points"), params,
                                os.path.join(out, plot.name + ".png")))
    return written


def _slug(text):
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", str(text))


def _axis(series):
    """Sorted numeric values, or text values in the order of the sweep."""
    values = list(dict.fromkeys(series))
    numeric = all(isinstance(x, numbers.Number) and not isinstance(x, bool) for x in values)
    return (sorted(values), True) if numeric else (values, False)


def _groups(df, others):
    if not others:
        return [("", df)]
    return [(", ".join(f"{k}={v}" for k, v in zip(others, key if isinstance(key, tuple) else (key,))), g)
            for key, g in df.groupby(others, sort=False)]


def _line(df, x, ys, params, path, logx, logy):
    import matplotlib.pyplot as plt
    others = [p for p in params if p != x and df[p].nunique() > 1]
    xs, numeric = _axis(df[x])
    fig, axes = plt.subplots(len(ys), 1, figsize=(8, 2.6 * len(ys) + 0.6), sharex=True, squeeze=False)
    for ax, y in zip(axes[:, 0], ys):
        for label, g in _groups(df, others):
            g = g.groupby(x, sort=False)[y].mean()
            order = [v for v in xs if v in g.index]
            pos = order if numeric else [xs.index(v) for v in order]
            ax.plot(pos, [g[v] for v in order], marker="o", label=label or None)
        ax.set_ylabel(y, fontsize=8)
        ax.grid(True, alpha=0.3)
        if logy:
            ax.set_yscale("log")
        if others:
            ax.legend(fontsize=7)
    ax = axes[-1, 0]
    ax.set_xlabel(x)
    if logx and numeric:
        ax.set_xscale("log")
    if not numeric:
        ax.set_xticks(range(len(xs)), [str(v) for v in xs])
    elif len(xs) <= 12:
        ax.set_xticks(xs, [str(v) for v in xs])
        ax.minorticks_off()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _heatmaps(df, x, y, z, params, stem):
    import matplotlib.pyplot as plt
    others = [p for p in params if p not in (x, y) and df[p].nunique() > 1]
    written = []
    for label, g in _groups(df, others):
        xs, _ = _axis(g[x])
        ys, _ = _axis(g[y])
        table = g.groupby([y, x])[z].mean()
        grid = [[table.get((yv, xv), float("nan")) for xv in xs] for yv in ys]
        fig, ax = plt.subplots(figsize=(1.2 * len(xs) + 3, 0.8 * len(ys) + 2))
        im = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis")
        ax.set_xticks(range(len(xs)), [str(v) for v in xs])
        ax.set_yticks(range(len(ys)), [str(v) for v in ys])
        ax.set_xlabel(x)
        ax.set_ylabel(y)
        for i, row in enumerate(grid):
            for j, val in enumerate(row):
                if val == val:  # not NaN
                    ax.text(j, i, f"{val:.4g}", ha="center", va="center", color="w", fontsize=8)
        fig.colorbar(im, ax=ax, label=z)
        ax.set_title(f"{z}" + (f"\n{label}" if label else ""), fontsize=9)
        fig.tight_layout()
        path = stem + (f"-{_slug(label)}" if label else "") + ".png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written


def _cdf(df, points, latency_files, op, only, params, path):
    import matplotlib.pyplot as plt
    import numpy as np
    import pandas as pd
    wanted = {int(i) for i in str(only).replace(",", " ").split()} if only else None
    varying = [p for p in params if df[p].nunique() > 1]
    fig, ax = plt.subplots(figsize=(8, 5))
    for _, row in df.iterrows():
        i = int(row["point"])
        if wanted is not None and i not in wanted:
            continue
        log = pd.read_csv(latency_files[i], usecols=["op", "arrival_ns", "completion_ns"])
        if op != "all":
            log = log[log["op"] == op]
        if log.empty:
            continue
        lat_us = np.sort((log["completion_ns"] - log["arrival_ns"]).to_numpy()) / 1000.0
        frac = np.arange(1, len(lat_us) + 1) / len(lat_us)
        label = ", ".join(f"{p}={row[p]}" for p in varying) or f"point {i}"
        ax.step(lat_us, frac, where="post", label=label)
    ax.set_xscale("log")
    ax.set_xlabel(f"{op} latency, arrival to completion (us)")
    ax.set_ylabel("fraction of IOs")
    ax.grid(True, alpha=0.3, which="both")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
