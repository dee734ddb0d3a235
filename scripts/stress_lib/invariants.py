"""Invariants of an accepted run (exit 0): the JSON report (docs/report.md)
and the latency log, checked against each other and against the options.

Every expectation comes from the effective options the report echoes
("options") and from counts in other parts of the report, never from a
second run: a broken invariant is a defect whatever the values are.
check_report() returns a list of (name, message); empty means all hold.
"""
import csv
import math

_SIZE = {"B": 1, "b": 1, "k": 1024, "K": 1024, "KB": 1024, "KiB": 1024, "kB": 1024,
         "m": 1 << 20, "M": 1 << 20, "MB": 1 << 20, "MiB": 1 << 20,
         "g": 1 << 30, "G": 1 << 30, "GB": 1 << 30, "GiB": 1 << 30,
         "t": 1 << 40, "T": 1 << 40, "TB": 1 << 40, "TiB": 1 << 40}
_TIME = {"ps": 1e-12, "ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0}
OPS = ("read", "write", "trim")
EPS = 1e-9


def _split(text):
    text = text.strip()
    i = len(text)
    while i and not (text[i - 1].isdigit() or text[i - 1] == "."):
        i -= 1
    return float(text[:i]), text[i:].strip()


def parse_size(text):
    if text.strip() == "0":
        return 0
    n, unit = _split(text)
    return int(n * _SIZE[unit])


def parse_seconds(text):
    if text.strip() == "0":
        return 0.0
    n, unit = _split(text)
    return n * _TIME[unit]


def parse_op(text):
    return float(text[:-1]) / 100.0 if text.endswith("%") else float(text)


class Checker:
    def __init__(self):
        self.problems = []

    def __call__(self, ok, name, message):
        if not ok:
            self.problems.append((name, message))
        return ok


def _numbers(node, path=""):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _numbers(v, f"{path}.{k}" if path else k)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _numbers(v, f"{path}[{i}]")
    elif node is None or (isinstance(node, (int, float)) and not isinstance(node, bool)):
        yield path, node


def _close(a, b, rel=1e-9, abs_=1e-6):
    return abs(a - b) <= max(abs_, rel * max(abs(a), abs(b)))


def _carry(whole, parts, n):
    """Whether `whole` - `parts` is in [0, 1] ns up to float noise: two means of N values
    that differ, IO by IO, by a carry of 0 or 1 ns.

    The simulator takes each latency as whole ns truncated from picosecond times
    (ssdtlm::to_ns, a floor): lat = floor(done - arrival), clat = floor(done - start) and
    slat = floor(start - arrival), so lat = clat + slat + (0 or 1) for every IO; the latency
    log's floor(done) - floor(arrival) is likewise lat + (0 or 1). Each report mean is
    sum / N in doubles (LatencyStats), written with full precision, so the means differ by
    0 .. 1 ns exactly, plus rounding: a few ulps (2^-52 relative) of the means and of the sum
    taken here, and, once a sum of whole ns passes 2^53, up to N half-ulps of it (one per add).
    A difference of exactly 1 ns (every IO carried) plus those ulps is seen (seed 2026112626:
    26718027.666666668 vs 21836238.333333332 + 4881788.333333333, three writes); a symmetric
    1 ns tolerance failed it."""
    noise = (16 + n) * 2.0 ** -52 * max(abs(whole), abs(parts), 1.0)
    return -noise <= whole - parts <= 1.0 + noise


def _latency(check, op, name, lat, n):
    where = f"{op}.{name}"
    check(lat.get("N") == n, "lat-N", f"{where}.N = {lat.get('N')}, total_ios = {n}")
    if n == 0:
        return
    lo, hi, mean = lat["min"], lat["max"], lat["mean"]
    if name == "lat_ns" and op in ("read", "write"):  # data crosses the link: never instantaneous
        check(lo > 0, "lat-min-positive", f"{where}.min = {lo}")
    check(lo <= mean * (1 + EPS) + EPS and mean <= hi * (1 + EPS) + EPS, "lat-min-mean-max",
          f"{where}: min {lo}, mean {mean}, max {hi}")
    pct = sorted(((float(k), v) for k, v in lat.get("percentile", {}).items()))
    if not check(len(pct) > 0, "lat-percentiles", f"{where} has no percentiles"):
        return
    values = [v for _, v in pct]
    check(all(x <= y for x, y in zip(values, values[1:])), "lat-percentiles-monotone", f"{where}: {values}")
    check(all(lo <= v <= hi for v in values), "lat-percentiles-in-range",
          f"{where}: percentiles {values[0]}..{values[-1]} outside [{lo}, {hi}]")


def check_report(report, latency_rows=None, expect=None, timeseries_rows=None):
    """Problems with one report; latency_rows, timeseries_rows: the parsed CSV files or None.

    expect: optional dict with "records" (a replayed export: records the
    trace must hold) and "trace_bytes" (size of the replayed trace file)."""
    check = Checker()
    for key in ("read", "write", "trim", "flush", "device", "options"):
        if not check(key in report, "schema", f"report has no '{key}'"):
            return check.problems
    for path, v in _numbers(report):
        check(v is not None and not (isinstance(v, float) and math.isnan(v)), "nan", f"{path} is {v}")
        check(v is None or v >= 0, "negative", f"{path} = {v}")
    if check.problems:
        return check.problems
    o, dev = report["options"], report["device"]
    trace = report.get("trace")
    ios = {op: report[op]["total_ios"] for op in OPS}
    total = sum(ios.values()) + report["flush"]["total_ios"]
    number_ios = int(o["workload.number_ios"])
    runtime = parse_seconds(o["workload.runtime"])
    # A power cut (powerfail.at) ends the run where it falls: what completed before it counts.
    cut = o.get("powerfail.at", "0") not in ("0", "", None)
    if cut:
        pf = report.get("powerfail")
        if check(pf is not None, "powerfail", "powerfail.at set, the report has no 'powerfail'"):
            check(pf.get("check") == "passed", "powerfail-check", f"powerfail.check = {pf.get('check')}")
            check(dev["stop_reason"] in ("power cut", "workload done", "workload.runtime reached"), "stop-reason",
                  f"device.stop_reason '{dev['stop_reason']}' after a power cut at {o['powerfail.at']}")

    # -- IO counts
    if trace is not None:
        check(trace["records_read"] == trace["replayed"] + trace["filtered"], "trace-records",
              f"records_read {trace['records_read']} != replayed {trace['replayed']} + filtered {trace['filtered']}")
        check(trace["filtered"] == sum(trace["filtered_by"].values()), "trace-filtered-by",
              f"filtered {trace['filtered']} != sum of filtered_by {trace['filtered_by']}")
        check(trace["skipped_bad"] == sum(trace["skipped_by"].values()), "trace-skipped-by",
              f"skipped_bad {trace['skipped_bad']} != sum of skipped_by {trace['skipped_by']}")
        check(trace["remapped"] <= trace["replayed"], "trace-remapped",
              f"remapped {trace['remapped']} > replayed {trace['replayed']}")
        if runtime == 0 and not cut:
            check(total == trace["replayed"], "total-ios", f"completed {total} != replayed {trace['replayed']}")
        else:
            check(total <= trace["replayed"], "total-ios", f"completed {total} > replayed {trace['replayed']}")
        if expect and "trace_bytes" in expect and trace["format"] == "blktrace":
            most = -(-expect["trace_bytes"] // 48)   # a blktrace record takes at least 48 bytes
            check(trace["skipped_bad"] <= most, "trace-skipped-bad",
                  f"skipped_bad {trace['skipped_bad']} > {most} records in {expect['trace_bytes']} bytes")
        if expect and "records" in expect:
            check(trace["records_read"] == expect["records"], "export-roundtrip",
                  f"exported {expect['records']} requests, replay read {trace['records_read']}")
    elif o.get("job"):
        pass  # an fio job file: its own sizes, runtimes and FLUSHes; the drive-level checks below apply
    else:
        if runtime == 0 and (not cut or dev["stop_reason"] == "workload done"):
            check(total == number_ios, "total-ios", f"completed {total} != workload.number_ios {number_ios}"
                  + (f" (stop_reason '{dev['stop_reason']}')" if cut else ""))
        elif number_ios:
            check(total <= number_ios, "total-ios", f"completed {total} > workload.number_ios {number_ios}")
        bs = parse_size(o["workload.bs"])
        for op in ("read", "write"):
            check(report[op]["io_bytes"] == ios[op] * bs, "io-bytes",
                  f"{op}.io_bytes {report[op]['io_bytes']} != {ios[op]} IOs x bs {bs}")
        check(ios["trim"] == 0 and report["flush"]["total_ios"] == 0, "synthetic-ops",
              f"synthetic workload completed {ios['trim']} trims, {report['flush']['total_ios']} flushes")
        rw = o["workload.rw"]
        if rw in ("read", "randread"):
            check(ios["write"] == 0, "rw-pattern", f"rw={rw} completed {ios['write']} writes")
        if rw in ("write", "randwrite"):
            check(ios["read"] == 0, "rw-pattern", f"rw={rw} completed {ios['read']} reads")
    # (commands in flight at a power cut never complete)
    check(dev["sata"]["commands"] == total or (cut and dev["sata"]["commands"] > total), "sata-commands",
          f"device.sata.commands {dev['sata']['commands']} != completed IOs {total}")

    if dev.get("type") == "hdd":
        _check_hdd(check, o, dev, ios)
    else:
        # (TRIM in the drive state's phases frees a block FTL's blocks, erased when reused:
        # erases in the timed phase with no merge of its own.)
        state_trims = sum(p.get("trimmed_pages", 0) for p in (report.get("state") or {}).get("phases", []))
        # (A power cut during idle-time work: the FTL counted the slice it planned, whose NAND ops
        # the idle loop issues one at a time; those after the cut never ran. The cut may also land
        # after the host's last completion, in the idle work that follows it: stop_reason then says
        # why the host stopped, "workload done", and the cut is known from the powerfail section.)
        pf_at = (report.get("powerfail") or {}).get("at_ns")
        landed = pf_at is not None and pf_at <= dev["simulated_time_ns"] + dev["drain_ns"]
        cut_idle = (cut and (dev.get("stop_reason") == "power cut" or landed)
                    and o.get("ftl.idle_after", "0") not in ("0", ""))
        _check_ssd(check, o, dev, ios, state_trims, cut_idle)

    # -- latencies
    for op in OPS:
        for name in ("lat_ns", "clat_ns", "slat_ns"):
            _latency(check, op, name, report[op][name], ios[op])
        if ios[op]:
            lat, c, s = (report[op][k]["mean"] for k in ("lat_ns", "clat_ns", "slat_ns"))
            check(_carry(lat, c + s, ios[op]), "lat-sum",
                  f"{op}: lat.mean {lat} != clat.mean {c} + slat.mean {s} (+ 0 .. 1 ns)")
    fl = report["flush"]
    if fl["total_ios"]:
        check(fl["lat_ns"]["mean"] <= fl["lat_ns"]["max"] * (1 + EPS), "lat-min-mean-max", f"flush: {fl['lat_ns']}")

    if latency_rows is not None:
        _check_latency_log(check, latency_rows, report, ios, total, trace is None and not o.get("job"))
    if timeseries_rows is not None:
        _check_timeseries(check, timeseries_rows, report, ios)
    return check.problems


def _check_hdd(check, o, dev, ios):
    """A hard disk (docs/hdd.md): every read and write is served once, from the media or the
    read buffer, and every write through the write cache is destaged by the end of the run."""
    h = dev["hdd"]
    check(h["commands"] == dev["sata"]["commands"], "hdd-commands",
          f"hdd.commands {h['commands']} != sata.commands {dev['sata']['commands']}")
    served = ios["read"] + ios["write"]
    check(h["media_ops"] + h["buffer_hits"] == served, "hdd-served",
          f"hdd.media_ops {h['media_ops']} + buffer_hits {h['buffer_hits']} != reads + writes {served}")
    cached = o.get("hdd.write_cache", "true") in ("true", "1", "yes", "on")
    check(h["destaged_writes"] == (ios["write"] if cached else 0), "hdd-destaged",
          f"hdd.destaged_writes {h['destaged_writes']}, {ios['write']} writes, write cache {cached}")
    check(h["seeks"] <= h["media_ops"], "hdd-seeks", f"hdd.seeks {h['seeks']} > media_ops {h['media_ops']}")
    check(h["mean_seek_distance"] <= 1 + EPS, "hdd-seek-distance",
          f"hdd.mean_seek_distance {h['mean_seek_distance']} beyond the stroke")
    check(dev["user_capacity_bytes"] == parse_size(o.get("hdd.capacity", "500000000000B")), "capacity",
          f"user_capacity_bytes {dev['user_capacity_bytes']} != hdd.capacity {o.get('hdd.capacity')}")
    for name, u in (("sata", dev["sata"]["utilisation"]), ("hdd", h["utilisation"])):
        check(0 <= u <= 1 + EPS, "utilisation", f"{name}.utilisation = {u}")


def _check_ssd(check, o, dev, ios, state_trims=0, cut_idle=False):
    """cut_idle: NAND ops may fall short of the FTL's counts (a power cut during idle-time work)."""
    # -- flash accounting, by FTL (docs/ftl.md): what each FTL programs beyond host pages and GC copies
    host, flash, moved = dev["host_pages_written"], dev["flash_pages_written"], dev["gc_pages_moved"]
    # (RAID-0: each member's FTL keeps its own statistics, so each member is checked alone.)
    for member in dev.get("members", [dev]):
        _flash_accounting(check, o, member, ios, state_trims, cut_idle)
    if host > 0:
        wa = dev["write_amplification"]
        check(wa >= 1 - EPS or o.get("ftl.name") == "block", "write-amplification", f"write_amplification {wa} < 1")
        check(_close(wa, flash / host), "write-amplification", f"write_amplification {wa} != {flash}/{host}")
    chans = dev["channels"]
    programs = sum(c["programs"] + c["gc_programs"] for c in chans)
    packed = dev.get("compression")
    if packed is None:
        check(programs == flash or (cut_idle and programs <= flash), "channel-programs",
              f"sum of channel programs + gc_programs {programs} != {flash}")
    elif cut_idle:
        check(programs * parse_size(o["nand.page_size"]) <= packed["physical_bytes_written"], "channel-programs",
              f"sum of channel programs + gc_programs {programs} beyond compression.physical_bytes_written")
    else:
        # Host pages packed into flash pages (controller.compression, controller.map_unit): the FTL
        # counts its pages, the channels the flash pages programmed (docs/report.md, compression).
        page = parse_size(o["nand.page_size"])
        check(programs * page == packed["physical_bytes_written"], "channel-programs",
              f"sum of channel programs + gc_programs {programs} x page {page} != compression."
              f"physical_bytes_written {packed['physical_bytes_written']}")
    ec = dev["erase_count"]
    check(ec["min"] <= ec["mean"] + EPS and ec["mean"] <= ec["max"] + EPS, "erase-count", f"erase_count {ec}")

    # -- geometry and capacity, computed here from the options
    # (RAID-0: the top-level fields are the members' totals, each member a whole drive whose
    # user capacity is cut to whole stripes.)
    members = int(o.get("raid.members", "1"))
    ch, dpc = int(o["nand.channels"]) * members, int(o["nand.dies_per_channel"])
    pages = ch * dpc * int(o["nand.planes_per_die"]) * int(o["nand.blocks_per_plane"]) * int(o["nand.pages_per_block"])
    page = parse_size(o["nand.page_size"])
    check(len(chans) == ch, "geometry", f"{len(chans)} channels reported, nand.channels x raid.members = {ch}")
    check(len(dev["dies"]) == ch * dpc, "geometry", f"{len(dev['dies'])} dies reported, expected {ch * dpc}")
    check(dev["raw_capacity_bytes"] == pages * page, "capacity",
          f"raw_capacity_bytes {dev['raw_capacity_bytes']} != {pages} pages x {page}")
    user = int(float(pages // members) / (1.0 + parse_op(o["ftl.op"]))) * page
    if members > 1:
        stripe = parse_size(o["raid.stripe"])
        user = user // stripe * stripe * members
    check(dev["user_capacity_bytes"] == user, "capacity", f"user_capacity_bytes {dev['user_capacity_bytes']} != {user}")

    # -- utilisation
    utils = [("sata", dev["sata"]["utilisation"]), ("cpu", dev["cpu"]["utilisation"]),
             ("dram", dev["dram"]["utilisation"])]
    utils += [(f"channels[{i}]", c["utilisation"]) for i, c in enumerate(chans)]
    utils += [(f"dies[{i}]", d["utilisation"]) for i, d in enumerate(dev["dies"])]
    for name, u in utils:
        check(0 <= u <= 1 + EPS, "utilisation", f"{name}.utilisation = {u}")


def _stat(dev, name, default=0):
    """A statistic of device.ftl.stats (an int), or default when the FTL does not report it."""
    v = dev.get("ftl", {}).get("stats", {}).get(name)
    return int(v["value"]) if v is not None else default


def _flash_accounting(check, o, dev, ios, state_trims=0, short=False):
    """Flash pages, GC reads and GC erases against the FTL's counters.

    page: GC and static wear levelling (its copies are flash writes and GC-flagged reads, its
    erases GC erases). dftl: the page FTL's GC plus translation-page write-backs (flash writes);
    the translation reads of a read of an unmapped LPN are GC-flagged. bast/fast: merge copies,
    pad pages (flash writes, not moved pages), and 1 or 2 erases a merge (old data block, log)
    of a stripe's dies each. block: host pages wait in the SRAM buffer (overwritten there, or
    still there at the end) so flash = host pages programmed + copies + filler, and each merge
    erases a block on every die of its stripe (blocks freed by TRIM too, also by a TRIM in the
    drive state's phases: erased when reused). A multi-plane FTL block
    is erased on each plane. `short`: NAND ops may fall short of the FTL's counts (a power cut
    during idle-time work)."""
    ftl = o.get("ftl.name", "page")
    host, flash, moved = dev["host_pages_written"], dev["flash_pages_written"], dev["gc_pages_moved"]
    chans = dev["channels"]
    gc_erases = sum(c["gc_erases"] for c in chans)
    gc_reads = sum(c["gc_reads"] for c in chans)
    runs = dev["gc_runs"]
    planes = int(o["nand.planes_per_die"]) if o.get("nand.multiplane") in ("true", True) else 1
    check(dev.get("ftl", {}).get("name", ftl) == ftl, "ftl-name",
          f"device.ftl.name {dev.get('ftl', {}).get('name')} != ftl.name {ftl}")
    if ftl in ("page", "dftl"):
        wl_pages, wl_moves = _stat(dev, "wl_pages_moved"), _stat(dev, "wl_moves")
        tpages = _stat(dev, "translation_page_writes")
        check(flash == host + moved + wl_pages + tpages, "flash-pages",
              f"flash_pages_written {flash} != host {host} + gc moved {moved} + wear-levelling moved {wl_pages}"
              f" + translation pages written {tpages}")
        # (A GC run erases one FTL block: with nand.multiplane, one block on each plane of its die.)
        full = (runs + wl_moves) * planes
        check(gc_erases == full or (short and gc_erases <= full), "gc-erases",
              f"sum of gc_erases {gc_erases} != (gc_runs {runs} + wear-levelling moves {wl_moves}) x {planes} planes")
        if ftl == "page":
            # (GC and wear levelling copy from sealed blocks: none of their pages is still buffered.)
            _check_gc_reads(check, o, dev, gc_reads, moved + wl_pages, 0, short)
        else:
            treads = _stat(dev, "translation_page_reads")
            most = (moved + treads) * (2 if dev.get("compression") else 1)
            check(moved <= gc_reads <= most, "gc-reads",
                  f"sum of gc_reads {gc_reads} not in [gc_pages_moved {moved}, {most}] (translation reads {treads})")
            entry = parse_size(o.get("dram.map_entry", "4B"))
            check(_stat(dev, "map_cache_entries") <= parse_size(o.get("ftl.map_cache", "256k")) // entry,
                  "dftl-cache", f"map_cache_entries {_stat(dev, 'map_cache_entries')} > ftl.map_cache / {entry} B")
            check(_stat(dev, "gc_translation_pages_moved") <= moved, "dftl-gc",
                  f"gc_translation_pages_moved {_stat(dev, 'gc_translation_pages_moved')} > gc_pages_moved {moved}")
    elif ftl in ("bast", "fast"):
        padded = _stat(dev, "merge_pages_padded")
        stripe = int(o.get("ftl.hybrid.stripe", "1"))
        check(flash == host + moved + padded, "flash-pages",
              f"flash_pages_written {flash} != host {host} + merge copies {moved} + pad pages {padded}")
        # (a merge copies from its data block and a log block, each maybe with a last page unwritten)
        _check_gc_reads(check, o, dev, gc_reads, moved, 2 * int(o.get("ftl.hybrid.stripe", "1")), short)
        check(_stat(dev, "merge_pages_copied", moved) == moved, "merge-copies",
              f"merge_pages_copied {_stat(dev, 'merge_pages_copied')} != gc_pages_moved {moved}")
        merges = sum(_stat(dev, k) for k in ("switch_merges", "partial_merges", "full_merges"))
        check(merges == runs, "merge-count", f"switch + partial + full merges {merges} != gc_runs {runs}")
        check(gc_erases % (stripe * planes) == 0 or short, "gc-erases",
              f"sum of gc_erases {gc_erases} is not a multiple of stripe {stripe} x {planes} planes")
        dies = int(o["nand.channels"]) * int(o["nand.dies_per_channel"])
        pool = int(o.get("ftl.log_blocks", "4")) * (dies // stripe)
        check(_stat(dev, "log_blocks_in_use") <= pool, "log-blocks",
              f"log_blocks_in_use {_stat(dev, 'log_blocks_in_use')} > ftl.log_blocks x {dies // stripe} groups")
    elif ftl == "block":
        filler, overwrites = _stat(dev, "filler_pages"), _stat(dev, "buffer_overwrites")
        stripe, buffer = int(o.get("ftl.block.stripe", "1")), int(o.get("ftl.block.buffer", "4"))
        programmed = flash - moved - filler        # host pages that reached flash
        check(programmed >= 0, "flash-pages",
              f"flash_pages_written {flash} < gc moved {moved} + filler {filler}")
        # What the host wrote, less what the buffer coalesced, is on flash or (at most a
        # buffer's worth, maybe from before the timed phase) still in the buffer; trimmed
        # pages are dropped from the buffer.
        left = host - overwrites - programmed
        check(left >= -buffer and (left <= buffer or ios["trim"] > 0), "flash-pages",
              f"host {host} - buffer overwrites {overwrites} - host pages programmed {programmed} "
              f"(flash {flash} - moved {moved} - filler {filler}) = {left}, beyond the {buffer}-page buffer")
        _check_gc_reads(check, o, dev, gc_reads, moved, int(o.get("ftl.block.stripe", "1")), short)
        check(_stat(dev, "rmw_pages_copied", moved) == moved, "merge-copies",
              f"rmw_pages_copied {_stat(dev, 'rmw_pages_copied')} != gc_pages_moved {moved}")
        unit = stripe * planes
        trimmed = ios["trim"] > 0 or state_trims > 0 or _stat(dev, "blocks_freed_by_trim") > 0
        check(gc_erases == runs * unit or (trimmed and gc_erases >= runs * unit and gc_erases % unit == 0)
              or (short and gc_erases <= runs * unit),
              "gc-erases", f"sum of gc_erases {gc_erases} != gc_runs {runs} x stripe {stripe} x {planes} planes")
    else:   # a plug-in: only what holds for any FTL
        check(flash >= moved, "flash-pages", f"flash_pages_written {flash} < gc_pages_moved {moved}")


def _check_gc_reads(check, o, dev, gc_reads, moved, partial_blocks, short=False):
    """A copied page was read once. A packed one (compression, map unit) lies in one or two flash
    pages, or, in a block whose last flash page is not yet written, still in the controller's
    buffer: at most a flash page's worth of slots for each of the `partial_blocks` blocks a GC
    run or merge copies from. `short`: a power cut may have stopped the reads of a planned copy."""
    packed = dev.get("compression")
    if packed is None:
        check(gc_reads == moved or (short and gc_reads <= moved), "gc-reads",
              f"sum of gc_reads {gc_reads} != gc_pages_moved {moved}")
        return
    if short:
        check(gc_reads <= 2 * moved, "gc-reads", f"sum of gc_reads {gc_reads} > 2 x gc_pages_moved {moved}")
        return
    per_page = -(-parse_size(o["nand.page_size"]) // int(packed["compressed_page_bytes"]))
    least = moved - dev["gc_runs"] * partial_blocks * per_page
    check(least <= gc_reads <= 2 * moved, "gc-reads",
          f"sum of gc_reads {gc_reads} not in [{least}, 2 x gc_pages_moved {moved}] (packed pages, "
          f"{dev['gc_runs']} GC runs or merges)")


def _check_timeseries(check, rows, report, ios):
    """Each interval's IOPS x its length is a count of completions: per op they sum to total_ios.

    The length is the row's interval_s where the file has that column (the last row covers a
    partial interval), else timeseries.interval. Latency columns are empty in an interval
    without IOs of their kind."""
    interval = parse_seconds(report["options"]["timeseries.interval"])
    sums = {"read": 0.0, "write": 0.0, "trim": 0.0, "flush": 0.0}
    last = -1.0
    for r in rows:
        try:
            values = {k: float(v) for k, v in r.items() if not (v == "" and "_lat_" in k)}
        except (TypeError, ValueError):
            check(False, "timeseries-row", f"unparsable row {r}")
            return
        if not check(all(math.isfinite(v) and v >= 0 for v in values.values()), "timeseries-row",
                     f"NaN, infinite or negative value in {r}"):
            return
        check(values["time_s"] > last, "timeseries-time", f"time_s {values['time_s']} after {last}")
        last = values["time_s"]
        for op in sums:
            sums[op] += values[f"{op}_iops"] * values.get("interval_s", interval)
        for op in ("read", "write", "trim"):
            # Percentiles (where the file has them) are ordered and within [0, max].
            chain = [values.get(f"{op}_lat_{p}_us") for p in ("p50", "p99", "p99.9", "max")]
            if None not in chain:
                check(chain == sorted(chain), "timeseries-percentiles",
                      f"{op}: p50/p99/p99.9/max {chain} not ordered at time_s {values['time_s']}")
    counts = dict(ios, flush=report["flush"]["total_ios"])
    for op, n in counts.items():
        check(abs(sums[op] - n) <= 0.5 + 1e-6 * n, "timeseries-iops",
              f"{op}: sum of {op}_iops x interval = {sums[op]:.3f}, total_ios {n}")


def _check_latency_log(check, rows, report, ios, total, synthetic):
    if not check(len(rows) == total, "latency-log-rows", f"latency log has {len(rows)} rows, report {total} IOs"):
        return
    by_op, bad = {}, None
    bs = parse_size(report["options"]["workload.bs"]) if synthetic else None
    for r in rows:
        try:
            arrival, start, done = int(r["arrival_ns"]), int(r["start_ns"]), int(r["completion_ns"])
            ok = (arrival <= start <= done and int(r["host_wait_ns"]) == start - arrival
                  and int(r["device_latency_ns"]) == done - start and (bs is None or int(r["bytes"]) == bs))
        except (KeyError, TypeError, ValueError):
            ok = False
        if not ok and bad is None:
            bad = r
        if ok:
            by_op.setdefault(r["op"], []).append(done - arrival)
    if not check(bad is None, "latency-log-row", f"inconsistent row {bad}"):
        return
    names = {"read": "read", "write": "write", "trim": "trim", "discard": "trim", "flush": "flush"}
    for name, lats in by_op.items():
        op = names.get(name)
        if not check(op is not None, "latency-log-op", f"unknown op '{name}'"):
            continue
        if op == "flush":
            check(len(lats) == report["flush"]["total_ios"], "latency-log-count",
                  f"{len(lats)} flush rows, report {report['flush']['total_ios']}")
            continue
        lat = report[op]["lat_ns"]
        check(len(lats) == ios[op], "latency-log-count", f"{len(lats)} {name} rows, report {ios[op]}")
        # The log's timestamps are each truncated to whole ns, the report's latencies are
        # truncated exact differences: one row may be 1 ns off (0 .. 1 ns above, see _carry).
        check(abs(min(lats) - lat["min"]) <= 1 and abs(max(lats) - lat["max"]) <= 1, "latency-log-minmax",
              f"{op}: log min/max {min(lats)}/{max(lats)}, report {lat['min']}/{lat['max']}")
        check(_carry(sum(lats) / len(lats), lat["mean"], len(lats)), "latency-log-mean",
              f"{op}: log mean {sum(lats) / len(lats)}, report {lat['mean']} (+ 0 .. 1 ns)")


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def comparable(report):
    """The report without what may differ between two identical runs:
    wall-clock seconds and the output paths."""
    r = dict(report)
    r["device"] = {k: v for k, v in report.get("device", {}).items() if k != "wall_clock_s"}
    r["options"] = {k: v for k, v in report.get("options", {}).items()
                    if k not in ("report", "latency-log", "timeseries", "export-trace", "output", "config", "vcd",
                                 "activity", "powerfail.lost", "save-state", "load-state", "ftl.plugin")}
    return r
