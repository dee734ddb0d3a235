"""Option values for the stress generator: integers biased to the edges of their
range, sizes and times in the simulator's varied spellings, and the spare-area
rule of the page FTL (generate.py, generate_ftl.py)."""
import math


def edge_int(rng, lo, hi):
    """lo a quarter of the time, hi a fifth, else log-uniform in between."""
    r = rng.random()
    if r < 0.25:
        return lo
    if r < 0.45:
        return hi
    return int(round(math.exp(rng.uniform(math.log(max(lo, 1)), math.log(hi)))))


def fmt_size(rng, n):
    """A size with a unit; the unit varies so every spelling gets exercised."""
    forms = [f"{n}B"]
    if n % 1024 == 0:
        forms += [f"{n // 1024}k", f"{n // 1024}KiB"]
    if n % (1 << 20) == 0:
        forms += [f"{n >> 20}m", f"{n >> 20}MB"]
    return rng.choice(forms)


def fmt_time_ns(rng, ns):
    forms = [f"{ns}ns"]
    if ns % 1000 == 0:
        forms.append(f"{ns // 1000}us")
    if ns % 1_000_000 == 0:
        forms.append(f"{ns // 1_000_000}ms")
    if ns % 1_000_000_000 == 0:
        forms.append(f"{ns // 1_000_000_000}s")
    forms.append(f"{ns / 1e6:g}ms")
    return rng.choice(forms)


def op_value(text):
    """ftl.op as the simulator reads it: a fraction or a percentage."""
    return float(text[:-1]) / 100.0 if text.endswith("%") else float(text)


def spare_ok(blocks_per_die, op, gc_threshold):
    """The spare-area rule: spare blocks per die >= gc_threshold + 2."""
    return blocks_per_die - math.ceil(float(blocks_per_die) / (1.0 + op)) >= gc_threshold + 2


def min_op_text(rng, bpd, gc):
    """The smallest ftl.op (4 decimals, or a percentage) that satisfies the rule, or None."""
    users = bpd - gc - 2
    if users < 1:
        return None
    op = math.ceil((bpd / users - 1.0) * 10000) / 10000
    for _ in range(20):
        text = f"{op * 100:.2f}%" if rng.random() < 0.3 else f"{op:.4f}"
        if op_value(text) > 10:
            return None
        if spare_ok(bpd, op_value(text), gc):
            return text
        op += 0.0001
    return None


# ---- the generator
