"""Random valid ssdsim configurations, biased to the edges of every option.

A configuration is a RunSpec: an ordered list of (key, value) pairs, the
command-line options without the leading "--". Values starting with "@" name
an output file in the run's own directory (the runner resolves them); trace
paths are relative to the repository root, where every run is started.

"Valid" means the generator applies the simulator's documented rules itself
(spare area, write cache within DRAM, span within the user capacity, iodepth
within the NCQ depth, ...), so most runs are accepted; a refusal (exit 2) is
counted apart. A few configurations are deliberately at or just past a rule
(size < bs, a tight spare area): they are where defects hide.
"""
import math
from dataclasses import dataclass, field

from .generate_extras import ExtraOptions
from .generate_ftl import FtlOptions
from .generate_state import StateOptions
from .values import edge_int, fmt_size, fmt_time_ns, min_op_text, op_value, spare_ok

PAGE_SIZES = [2048, 4096, 8192, 16384]
RW = ["read", "write", "randread", "randwrite", "randrw", "rw", "readwrite"]
TRACE_FORMATS = ["blktrace", "blkparse", "msr", "spc", "fio", "disksim", "alibaba"]
# Sample traces: (path from the repository root, format, device numbers seen in it).
SAMPLES = [
    ("traces/samples/generated/loop0.blktrace.0", "blktrace", ["7,0", "8,0"]),
    ("traces/samples/generated/loop0", "blktrace", ["7,0"]),            # NAME prefix form
    ("traces/samples/generated/loop0be.blktrace.0", "blktrace", ["7,0"]),
    ("traces/samples/generated/loop0.merged.bin", "blktrace", ["7,0"]),
    ("traces/samples/generated/loop0.blkparse.txt", "blkparse", ["7,0", "7,1"]),
    ("traces/samples/generated/loop0_q.spc", "spc", ["0", "1"]),
    ("traces/samples/generated/loop0_q.msr.csv", "msr", ["0", "1"]),
    ("traces/samples/generated/loop0_q.disksim.trace", "disksim", ["0", "1"]),
    ("traces/samples/generated/loop0_q.alibaba.csv", "alibaba", ["0", "1"]),
    ("traces/samples/generated/fio_mix.iolog", "fio", ["0"]),
    ("traces/samples/apps/build.blktrace.0", "blktrace", ["8,0", "259,0"]),
    ("traces/samples/apps/build.blkparse.txt", "blkparse", ["8,0", "259,0"]),
    ("traces/samples/apps/fstrim-desktop.blktrace.0", "blktrace", ["8,0", "259,0"]),
    ("traces/samples/mqsim/tpcc-small.trace", "disksim", ["0", "1"]),
    ("traces/samples/mqsim/wsrch-small.trace", "disksim", ["0", "1"]),
]
# Malformed inputs (tests/traces/regressions): replayed with trace.skip-bad most of the time.
BAD_SAMPLES = [
    ("tests/traces/regressions/blktrace-huge-pdu.bin", "blktrace", ["8,0"]),
    ("tests/traces/regressions/text-nul-cr.txt", "blkparse", ["8,0"]),
    ("tests/traces/regressions/msr-time-overflow.csv", "msr", ["0"]),
    ("tests/traces/regressions/fio-wait-overflow.iolog", "fio", ["0"]),
]
# An option only each FTL has: a binary whose --help lacks it does not have that FTL.
FTL_PROBE = {"block": "ftl.block.buffer", "bast": "ftl.log_blocks", "fast": "ftl.log_blocks", "dftl": "ftl.map_cache"}
JOB_FILES = ["configs/workloads/oltp-mixed.fio"]   # fio job files (--job)
MAX_PAGES = 1 << 18          # flash pages per drive: keeps preconditioning well under a second
MAX_PAGE_OPS = 200_000       # page reads/writes caused by the timed phase


@dataclass
class RunSpec:
    args: list                              # [(key, value)], in command-line order
    ini: list = field(default_factory=list)  # keys passed through a --config file instead
    expect_refusal: str = ""                 # the deliberately invalid option: the run must exit 2
    repeat: bool = False                     # always run twice (determinism, thread counts: runner.run_spec)

    def get(self, key, default=None):
        for k, v in self.args:
            if k == key:
                return v
        return default

    def without(self, index):
        return RunSpec([a for i, a in enumerate(self.args) if i != index], [k for k in self.ini],
                       self.expect_refusal)

    def keys(self):
        return [k for k, _ in self.args]


# ---- value helpers

class Generator(FtlOptions, ExtraOptions, StateOptions):
    def __init__(self, rng, covered=None, keys=None):
        """keys: the options of the binary's --help; options it lacks are never set."""
        self.rng = rng
        self.covered = covered if covered is not None else {}
        self.keys = keys

    def has(self, key):
        return self.keys is None or key in self.keys

    def _set(self, args, key, value):
        if not self.has(key):
            return
        args.append((key, value))
        self.covered[key] = self.covered.get(key, 0) + 1

    def spec(self):
        rng, a = self.rng, []
        kind = rng.choices(["synthetic", "trace", "export", "job"], [0.74, 0.2, 0.04, 0.02])[0]
        if kind == "job" and not self.has("job"):
            kind = "synthetic"
        self.expect_refusal = ""
        self.state_trace = False   # a `trace:` phase in --state (not with RAID-0)
        self.hdd = self.has("device") and rng.random() < 0.06
        if self.hdd:
            return self._hdd_spec(a, kind)
        content = rng.random() < 0.15
        plugin = self._plugin(a)
        geo = self._geometry(a, content)
        user_pages = self._ftl(a, geo)
        if plugin:
            # The example plug-in's FTL, where the page FTL was chosen without its own options.
            if self.ftl == "page" and not any(k.startswith(("ftl.gc.", "ftl.wl.")) for k, _ in a):
                a[:] = [(k, v) for k, v in a if k != "ftl.name"] + [("ftl.name", "circular")]
                self.ftl = "plugin"
                # Its idle-time GC target: at most the spare blocks of a die (its default, 4,
                # becomes the spare on a drive with fewer).
                if rng.random() < 0.3:
                    a.append(("ftl.circular_idle_free", str(rng.choice([0, 1, min(4, self.spare_blocks),
                                                                         self.spare_blocks]))))
            else:
                a[:] = [(k, v) for k, v in a if k != "ftl.plugin"]
        self._map_unit(a, geo)
        if self.merge_pages > 64 and kind in ("trace", "job") and (self.starved or rng.random() < 0.7):
            # thousands of small random writes, each merging a logical block: mostly too slow
            kind = "synthetic"
        self._dram(a, geo, user_pages)
        self._cpu_sata(a)
        pre = "none" if self.no_fill else rng.choice(["none", "seq-fill", "used"])
        if pre != "seq-fill" or rng.random() < 0.3:
            self._set(a, "precondition", pre)
        if pre == "used" and self.starved:
            self._set(a, "precondition.overwrite", "0")   # the fill alone (see _ftl)
        elif pre == "used" and self.merge_pages > 1:
            # random page writes, each merging up to a logical block: keep the copies in budget
            budget = self._merge_budget(user_pages, geo)
            fits = [o for o in ["0", "0.01", "0.05", "0.5", "1.0", "2"] if float(o) <= budget]
            self._set(a, "precondition.overwrite", rng.choice(fits[-2:]))
        elif pre == "used" and self.spare < 0.05 and user_pages > 4096:
            # almost no spare: each overwrite moves a block's worth of pages (WA ~100): keep it short
            self._set(a, "precondition.overwrite", rng.choice(["0", "0.01", "0.05"]))
        elif pre == "used":   # (with another precondition it would do nothing: refused)
            self._set(a, "precondition.overwrite", rng.choice(["0", "0.5", "1.0", "2", "30%", "0.01"]))
        tiny_cache = self.ftl == "dftl" and self.map_cache // self.entry < user_pages // 64
        if self.has("state") and self.spare >= 0.05 and self.merge_pages <= 64 and not tiny_cache \
                and rng.random() < 0.08:
            # The modelled steady state instead (every FTL's own; refused, one line, for a GC policy
            # or plug-in without a model). It is a full overwrite: as for `used` above, not with
            # almost no spare or a dftl map cache of a few entries (a deep queue of GC work behind
            # each die, whose calendars then hold many small gaps that their searches walk one by
            # one: minutes) nor with large merges (block/bast/fast write it short, merge by merge).
            a[:] = [(k, v) for k, v in a if not k.startswith("precondition")]
            self._set(a, "state", "steady")
        elif rng.random() < 0.12:
            self._state_recipe(a, user_pages, geo)  # a list of phases instead (generate_state.py)
        if any(k == "state" or (k == "precondition" and v != "none") for k, v in a):
            self._state_threads(a)
        if kind == "trace":
            self._trace(a)
            if any(k == "trace" and "fstrim" in v for k, v in a):
                # its 4662 discards span the whole drive: 3 s alone, ~30x that through a write cache
                a[:] = [(k, v) for k, v in a if k != "dram.write_cache"]
        elif kind == "job":
            self._set(a, "job", rng.choice(JOB_FILES))
        else:
            self._workload(a, geo, user_pages * geo["page"], content, kind == "export")
        self._extras(a, geo, content, kind)
        return self._finish(a, content, kind)

    def _merge_budget(self, user_pages, geo):
        """Random overwrites, in capacities, whose merges stay within budget: a block- or
        log-mapped FTL's page write may merge a logical block. Counted in host pages: with
        controller.map_unit both the writes and each merge's copies are page / unit times more."""
        units = geo["page"] // self.host_page
        return 20_000_000 / max(1, user_pages * self.merge_pages * units * units)

    def _hdd_spec(self, a, kind):
        """A hard disk behind the link: its options, the link's and the host's, a workload."""
        rng = self.rng
        user_bytes = self._hdd(a)
        self.ftl, self.merge_pages, self.spare, self.raid, self.starved = "hdd", 1, 1.0, 1, False
        self.host_page = 4096
        self._cpu_sata(a, ssd=False)
        if rng.random() < 0.1:
            self._set(a, "sata.fis_overhead", rng.choice(["0", "4us", "100us"]))
        if rng.random() < 0.1:
            self._set(a, "sata.flow_control", "true")  # a disk takes the data as it comes
        if kind == "trace":
            self._trace(a)
        elif kind == "job":
            self._set(a, "job", rng.choice(JOB_FILES))
        else:
            self._workload(a, {"page": 4096}, user_bytes, False, kind == "export")
        return self._finish(a, False, kind)

    def _finish(self, a, content, kind):
        rng = self.rng
        if kind == "export":
            self._set(a, "export-trace", "@export.trace")
            self._set(a, "export-trace.format", rng.choice(TRACE_FORMATS))
        self._outputs(a, content, kind)
        # Idle-time options are drawn before the idle time: without idle-time work they are refused.
        opts = dict(a)
        for key in ("ftl.hybrid.idle_merge", "ftl.circular_idle_free"):
            if key in opts and opts.get("ftl.idle_after", "0") == "0" and not self.expect_refusal:
                self.expect_refusal = f"--{key}={opts[key]}"
        spec = RunSpec(a, expect_refusal=self.expect_refusal)
        if rng.random() < 0.1:  # some options through an INI file: the --config path
            # (ftl.plugin is command line only: it adds options the file may set)
            spec.ini = [k for k in spec.keys() if k.split(".")[0] in ("nand", "dram", "cpu", "ftl", "hdd")
                        and k != "ftl.plugin" and rng.random() < 0.7]
            if spec.ini:
                self.covered["config"] = self.covered.get("config", 0) + 1
        return spec

    def _geometry(self, a, content):
        rng = self.rng
        g = {"channels": edge_int(rng, 1, 16), "dies_per_channel": edge_int(rng, 1, 8),
             "planes_per_die": edge_int(rng, 1, 4), "blocks_per_plane": edge_int(rng, 8, 4096),
             "pages_per_block": edge_int(rng, 4, 512)}
        page = rng.choice(PAGE_SIZES)
        cap = MAX_PAGES // (8 if content else 1)
        floor = {"channels": 1, "dies_per_channel": 1, "planes_per_die": 1, "blocks_per_plane": 8,
                 "pages_per_block": 4}
        while math.prod(g.values()) > cap:  # shrink a random dimension that can still shrink
            k = rng.choice([k for k in g if g[k] > floor[k]])
            g[k] = max(floor[k], g[k] // 2)
        for k, v in g.items():
            if rng.random() < 0.9:
                self._set(a, "nand." + k, str(v))
            else:  # left at its default: only where the default fits the page budget
                g[k] = {"channels": 8, "dies_per_channel": 4, "planes_per_die": 2,
                        "blocks_per_plane": 1024, "pages_per_block": 128}[k]
                if math.prod(g.values()) > cap:
                    g[k] = v
                    self._set(a, "nand." + k, str(v))
        if page != 4096 or rng.random() < 0.5:
            self._set(a, "nand.page_size", fmt_size(rng, page))
        g["page"] = page
        for key, lo, hi in (("nand.t_read", 1_000, 200_000), ("nand.t_prog", 20_000, 5_000_000),
                            ("nand.t_erase", 100_000, 10_000_000)):
            if rng.random() < 0.4:
                self._set(a, key, fmt_time_ns(rng, edge_int(rng, lo, hi)))
        if rng.random() < 0.4:
            self._set(a, "nand.channel_rate", rng.choice(["10MB/s", "40MB/s", "200MB/s", "1GB/s", "33MiB/s",
                                                           "400000KB/s", "1.5GB/s"]))
        if rng.random() < 0.2:  # MLC LSB/MSB page times; 0 = the uniform time
            self._set(a, "nand.page_types", "lsb-msb")
            for key in ("nand.t_prog_lsb", "nand.t_prog_msb", "nand.t_read_lsb", "nand.t_read_msb"):
                if rng.random() < 0.6:
                    self._set(a, key, rng.choice(["0", "20us", "300us", "1500us", "1ms", "40us"]))
        elif rng.random() < 0.05:
            self._set(a, "nand.page_types", "uniform")
        for key in ("nand.partial_read", "nand.copyback", "nand.cache_program", "nand.cache_read",
                    "nand.multiplane", "nand.suspend"):
            if rng.random() < 0.15:
                self._set(a, key, rng.choice(["true", "false"]))
        if rng.random() < 0.05:
            self._set(a, "nand.t_suspend", rng.choice(["0", "1us", "20us", "100us", "2ms"]))
        if ("nand.suspend", "true") in a and rng.random() < 0.3:
            self._set(a, "nand.max_suspends", rng.choice(["0", "1", "3", "50"]))
        g["multiplane"] = ("nand.multiplane", "true") in a
        return g

    def _ftl(self, a, g):
        """ftl.name (page 60 %, block/bast/fast/dftl 10 % each), ftl.op and ftl.gc_threshold at the
        spare-area rule, and the chosen FTL's own options over their ranges; sometimes
        (self.expect_refusal) one deliberately invalid FTL option or combination."""
        rng = self.rng
        name = "page"
        if rng.random() < 0.4:
            name = rng.choice(["block", "bast", "fast", "dftl"])
            if not self.has(FTL_PROBE[name]):   # an older binary without that FTL
                name = "page"
        self.ftl = name
        self.starved = False   # dftl with a small map cache and almost no spare (below)
        self.no_fill = False   # ... and so little room left that even a fill thrashes
        self.merge_pages = 1   # pages one merge of a block-mapped FTL copies (sizes the run's budget)
        # The FTL's geometry: with nand.multiplane its blocks are multi-plane blocks (options.cpp,
        # SimConfig::ftl_geometry), so the spare-area rule counts blocks_per_plane per die.
        mp = g.get("multiplane", False)
        fpb = g["pages_per_block"] * (g["planes_per_die"] if mp else 1)
        bpd = g["blocks_per_plane"] * (1 if mp else g["planes_per_die"])
        dies = g["channels"] * g["dies_per_channel"]
        g.update(ftl_pages_per_block=fpb, ftl_blocks_per_die=bpd, dies=dies)
        r = rng.random()
        gc = 1 if r < 0.35 else 2 if r < 0.55 else edge_int(rng, 1, max(1, min(64, bpd - 3)))
        mode = rng.choice(["min", "min", "near", "max", "typical"])
        op = None
        if mode == "max":
            op = rng.choice(["10", "1000%", "9.99"])
            if not spare_ok(bpd, op_value(op), gc):
                gc = bpd - 2 - math.ceil(bpd / (1.0 + op_value(op)))  # the largest threshold that fits
        elif mode == "typical":
            op = rng.choice(["0.07", "7%", "0.28", "25%", "0.5"])
        elif mode == "near":
            t = min_op_text(rng, bpd, gc)
            op = f"{op_value(t) * rng.uniform(1.0, 1.3):.4f}" if t else None
        if mode == "typical" and op and spare_ok(bpd, op_value(op), gc) and rng.random() < 0.3:
            # the largest gc_threshold the spare allows at this op
            gc = bpd - 2 - math.ceil(float(bpd) / (1.0 + op_value(op)))
        if op is None or op_value(op) > 10 or not spare_ok(bpd, op_value(op), gc):
            op = min_op_text(rng, bpd, gc)
        while op is None:  # the threshold is too large for any op <= 10: lower it
            gc = max(1, gc // 2)
            op = min_op_text(rng, bpd, gc)
        pages = g["channels"] * g["dies_per_channel"] * g["planes_per_die"] * g["blocks_per_plane"] \
            * g["pages_per_block"]
        # dftl: the mapping-entry size sets the translation pages, which need flash room too.
        self.entry = 4
        if rng.random() < (0.2 if name != "dftl" else 0.35):
            self.entry = rng.choice([1, 2, 4, 8, 16])
            self._set(a, "dram.map_entry", f"{self.entry}B")
        if name == "dftl":
            op = self._dftl_op(rng, g, pages, bpd, fpb, dies, gc, op)
        if op != "0.07" or rng.random() < 0.5:
            self._set(a, "ftl.op", op)
        if gc != 2 or rng.random() < 0.5:
            self._set(a, "ftl.gc_threshold", str(gc))
        self.op = op_value(op)
        # The spare GC can use: a die's spare blocks less the threshold's and the two open ones. A
        # large ftl.gc_threshold leaves little of a moderate ftl.op (a run of 0.0523 with threshold 41
        # had 3 %, and its dftl preconditioning took minutes): the budgets below go by this.
        user_blocks = math.ceil(bpd / (1.0 + self.op))
        self.spare_blocks = bpd - user_blocks   # per die
        self.spare = max(0.0, (bpd - user_blocks - gc - 2) / user_blocks)
        user_pages = int(float(pages) / (1.0 + self.op))
        if name != "page" or rng.random() < 0.2:
            self._set(a, "ftl.name", name)
        self.map_bytes = user_pages * self.entry   # the page FTL's table; the others below
        self.map_cache = None
        if name == "page":
            self._page_options(a)
        elif name == "block":
            self._block_options(a, g, user_pages)
        elif name in ("bast", "fast"):
            self._hybrid_options(a, g, user_pages)
        else:
            self._dftl_options(a, g, user_pages)
            entries = self.map_cache // self.entry
            if (self.spare < 0.05 and entries < user_pages // 8) or entries < user_pages // 1024:
                # Almost no spare and a small map cache: each page GC moves evicts a dirty entry,
                # a translation-page write that uses up what GC frees (a write amplification in
                # the 10^4-10^5, tens of seconds, not a hang): budget it like a large merge, and
                # write only a few pages (a 1-entry cache with 0.1 % spare: one 3.4 MB write after
                # a 1 % overwrite ran past 30 s). A cache of under 0.1 % of the map does the same
                # with ordinary spare: a 1-entry cache, 7 % spare, 7-page blocks, 4 MiB writes
                # after a `used` state: WA 130, 6 IOs 7.7 s, 20 past 60 s (seed 25003 run 4069).
                self.merge_pages = fpb * 64
                self.starved = True
                # What the dies hold beyond the GC reserve, the open blocks, the user pages and
                # the translation pages (_dftl_op makes it as small as the rule allows). Under
                # about 1 % a fill alone thrashes too: its translation writes use up what GC frees
                # (a 1-entry cache, 40 pages of slack on a 4096-block die: the fill took 29 s,
                # some blocks erased 10^5 times; seed 20261204 run 1162).
                tpages = -(-user_pages // (g["page"] // self.entry))
                slack = dies * (bpd - gc - 2) * fpb - user_pages - tpages
                self.no_fill = slack < user_pages // 100
        if rng.random() < 0.1:   # applies to every FTL: one GC or merge at a time
            self._set(a, "controller.serial_gc", rng.choice(["true", "false"]))
        if name != "page" and rng.random() < 0.03:
            # A page-only option with another FTL: refused (the --help tag [ftl.name=page]).
            self._invalid(a, rng.choice([("ftl.gc.policy", rng.choice(["fifo", "greedy"])),
                                         ("ftl.wl.threshold", "10"), ("ftl.gc.separate", "false"),
                                         ("ftl.gc.bg_threshold", "2")]))
        return user_pages

    def _dram(self, a, g, user_pages):
        rng = self.rng
        cache = 0
        if rng.random() < 0.4:
            page = g["page"]
            cache = rng.choice([page, page * rng.randint(2, 64), page * 3 + 512, 1 << 20, 32 << 20])
            self._set(a, "dram.write_cache", fmt_size(rng, cache))
        need = self.map_bytes + cache   # the FTL's mapping table (or map cache) and the write cache fit in DRAM
        # DRAM-less: the tables live in controller SRAM (dftl: at most 512 KiB of it).
        sram_ok = self.ftl != "dftl" or self.map_bytes <= 512 << 10
        if cache == 0 and sram_ok and rng.random() < (0.2 if self.ftl == "page" else 0.35):
            self._set(a, "dram.size", "0")
            page = g["page"]
            buf = rng.choice([page, page * rng.randint(2, 64), page * 3 + 512, 512 << 10])
            # A DRAM-less controller's write buffer in SRAM: a DFTL's tables share that SRAM.
            # (At most the SRAM's 512 KiB: more is refused.)
            if rng.random() < 0.4 and buf <= 512 << 10 and (self.ftl != "dftl" or self.map_bytes + buf <= 512 << 10):
                self._set(a, "controller.sram_write_buffer", fmt_size(rng, buf))
        elif rng.random() < 0.5 or need > 64 << 20:
            size = rng.choice([need, -(-need // 1024) * 1024, max(need, 64 << 20), need + (1 << 20)])
            self._set(a, "dram.size", fmt_size(rng, size))
        if rng.random() < 0.3:
            self._set(a, "dram.bandwidth", rng.choice(["100MB/s", "666MB/s", "3.2GB/s", "1GiB/s", "50MB/s"]))
        if rng.random() < 0.3:
            self._set(a, "dram.latency", rng.choice(["0", "1ns", "60ns", "200ns", "0.1us"]))

    def _cpu_sata(self, a, ssd=True):
        """The controller's CPU (ssd), the SATA link, the host's queue and costs, idle-time work (ssd)."""
        rng = self.rng
        if ssd and rng.random() < 0.3:
            self._set(a, "cpu.cores", str(edge_int(rng, 1, 64)))
        if ssd and rng.random() < 0.3:
            self._set(a, "cpu.clock", rng.choice(["1MHz", "50MHz", "200MHz", "1GHz", "2.5GHz", "175000kHz"]))
        for name in ("decode", "complete", "flash_op", "ftl_lookup", "map_update", "gc_page", "gc_victim"):
            if ssd and rng.random() < 0.15:
                self._set(a, "cpu.cycles." + name, str(rng.choice([0, 1, 100, 5000, 100_000])))
        self.ncq = 32
        if rng.random() < 0.4:
            self._set(a, "sata.gen", rng.choice(["1", "2", "3"]))
        if rng.random() < 0.3:
            self._set(a, "sata.cmd_overhead", rng.choice(["0", "100ns", "2us", "10us", "0.5us"]))
        if rng.random() < 0.3:
            self.ncq = edge_int(rng, 1, 32)
            self._set(a, "sata.ncq_depth", str(self.ncq))
        # A binary with a host queue takes up to 1024 outstanding IOs whatever the NCQ depth.
        self.depth = 1024 if self.has("host.cmd_overhead") and rng.random() < 0.15 else self.ncq
        for key in ("host.cmd_overhead", "host.irq_overhead"):
            if rng.random() < 0.15:
                self._set(a, key, rng.choice(["0", "1us", "5us", "20us", "500ns"]))
        if ssd and rng.random() < 0.1:
            idle = rng.choice(["0", "100us", "1ms", "10ms"])
            self._set(a, "ftl.idle_after", idle)
            if rng.random() < 0.3:
                self._set(a, "ftl.idle_dies", str(rng.choice([1, 2, 4, 1000])))
            if self.ftl == "page" and rng.random() < 0.3:
                # (with no idle-time work, ftl.idle_after=0, it would do nothing: refused)
                if idle != "0":
                    self._set(a, "ftl.gc.bg_threshold", str(rng.choice([1, 2, 8, 100])))
                else:
                    self._invalid(a, ("ftl.gc.bg_threshold", str(rng.choice([1, 2, 8, 100]))))

    def _gc_factor(self):
        """Flash pages a host page written costs a page-mapped drive with almost no spare (1 if it
        has enough, or is block-mapped: merges are counted apart). Once the free blocks are used,
        GC copies about 1 / (2 x spare) pages a write (greedy; FIFO, as the example plug-in's, twice
        that). A 0.4 % spare took the plug-in past 30 s with 4000 writes of 18 host pages."""
        if self.merge_pages > 1 or self.spare >= 0.05:
            return 1
        return int(min(5000, 1 / max(self.spare, 0.0002)))

    def _workload(self, a, g, user_bytes, content, export):
        rng = self.rng
        page = g["page"]
        rw = rng.choice(RW)
        self._set(a, "workload.rw", rw)
        bs = rng.choice([512, 4096, page, page * rng.randint(2, 16), 512 * rng.randint(1, 8192),
                         4 << 20, rng.randint(1, 64) * 512])
        bs = min(bs, 4 << 20, user_bytes, 4 * page if self.starved else 4 << 20)
        if self._gc_factor() > 1:
            # Even one IO must fit the budget: a block of the default up to 4 MiB on a drive with
            # 0.04 % spare made the plug-in copy ~2500 pages a page (seed 2026112650 run 3721).
            bs = min(bs, max(1, MAX_PAGE_OPS // self._gc_factor()) * self.host_page)
        bs -= bs % 512
        if bs != 4096 or rng.random() < 0.5:
            self._set(a, "workload.bs", fmt_size(rng, bs))
        mode = rng.choices(["whole", "offset", "size", "both", "tiny"], [0.35, 0.2, 0.2, 0.22, 0.03])[0]
        offset = size = 0
        if mode == "offset":   # span = the rest of the drive, at least one block
            offset = rng.choice([user_bytes - bs, 512 * rng.randint(0, (user_bytes - bs) // 512)])
        elif mode == "size":
            size = min(user_bytes, rng.choice([user_bytes, bs, rng.randint(bs, user_bytes), bs * 3 + 512]))
        elif mode == "both":
            size = rng.choice([bs, rng.randint(bs, user_bytes), bs + 512])
            size = min(size, user_bytes)
            offset = rng.choice([user_bytes - size, 0, 512 * rng.randint(0, (user_bytes - size) // 512)])
            offset -= offset % 512
        elif mode == "tiny":   # a span smaller than one block: must be refused, not crash
            size = rng.randint(1, max(1, bs - 1))
        if size:
            self._set(a, "workload.size", fmt_size(rng, size))
        if offset or (mode in ("offset", "both") and rng.random() < 0.3):
            self._set(a, "workload.offset", fmt_size(rng, offset))
        # The FTL's pages are the host pages: with controller.map_unit, several to a flash page.
        page_ops = -(-bs // self.host_page) + 1
        if self.merge_pages > 1:   # block-mapped: a write may merge (read + program) whole logical blocks
            page_ops = 3 * page_ops + 2 * self.merge_pages
        else:
            page_ops *= self._gc_factor()
        cap = max(1, min(4000 if not content else 500, MAX_PAGE_OPS // page_ops, 8 if self.starved else 4000))
        ios = edge_int(rng, 1, cap)
        runtime = None
        if not export and rng.random() < 0.15:
            runtime = fmt_time_ns(rng, edge_int(rng, 1_000, 20_000_000))
            # Runtime alone (number_ios=0) issues IOs until the simulated time is up: on a starved
            # drive a write costs up to ~10^5 flash pages a host page, so there the count (cap, at
            # most 8) stays as well and the run ends at whichever comes first (a 1-entry map cache,
            # 0.9 % spare, randrw for 0.66 ms: 10 IOs, 7 writes, 5 min; seed 2026112626 run 55).
            # So it does on a page-mapped drive with almost no spare (_gc_factor). The draw is made
            # either way: the same configurations as before for every other drive.
            if rng.random() < 0.5 and not self.starved and self._gc_factor() == 1:
                ios = 0
        self._set(a, "workload.number_ios", str(ios))
        if runtime:
            self._set(a, "workload.runtime", runtime)
        if rng.random() < 0.6 or self.ncq < 32:
            self._set(a, "workload.iodepth", str(edge_int(rng, 1, self.depth)))
        # (Drawn for every pattern, set for those it applies to: ssdsim refuses the others.)
        if rng.random() < 0.4:
            mix = str(rng.choice([0, 100, rng.randint(0, 100)]))
            if rw in ("randrw", "rw", "readwrite"):
                self._set(a, "workload.rwmixread", mix)
        if rng.random() < 0.4:
            share = str(rng.choice([0, 100, rng.randint(0, 100)]))
            if rw.startswith("rand"):
                self._set(a, "workload.percentage_random", share)
        if rng.random() < 0.3:
            self._set(a, "workload.randseed", str(rng.choice([0, 1, 2**64 - 1, rng.getrandbits(64)])))
        if rng.random() < 0.05 and ios and ios <= 20:
            self._set(a, "log-level", rng.choice(["trace", "debug"]))

    def _trace(self, a):
        rng = self.rng
        bad = rng.random() < 0.1
        path, fmt, devices = rng.choice(BAD_SAMPLES if bad else SAMPLES)
        self._set(a, "trace", path)
        if bad and rng.random() < 0.8:
            self._set(a, "trace.skip-bad", "true")
        if rng.random() < 0.4:
            self._set(a, "trace.format", fmt)
        timed = rng.random() < 0.5
        self._set(a, "trace.mode", "timed" if timed else "afap")
        if timed and rng.random() < 0.6:
            self._set(a, "trace.speed", rng.choice(["0.5", "1", "10", "1000", "1e6", "2.5"]))
        if rng.random() < 0.5 or self.ncq < 32:
            self._set(a, "trace.iodepth", str(edge_int(rng, 1, self.depth)))
        if fmt in ("blkparse", "spc", "disksim") and rng.random() < 0.2:  # the formats that count sectors
            self._set(a, "trace.sector_size", rng.choice(["512B", "4k", "1k"]))
        if rng.random() < 0.15:
            self._set(a, "trace.offset", rng.choice(["0", "512B", "1m", "1g"]))
        if rng.random() < 0.1:
            self._set(a, "trace.beyond", rng.choice(["wrap", "error"]))
        if fmt in ("blktrace", "blkparse") and rng.random() < 0.4:
            self._set(a, "trace.arrival", rng.choice(["Q", "D"]))
        if not bad and rng.random() < 0.3:
            self._set(a, "trace.skip-bad", rng.choice(["true", "false", "1", "off"]))
        if rng.random() < 0.15:
            self._set(a, "trace.device", rng.choice(devices))
        big = "/apps/" in path or "/mqsim/" in path
        if (big and (self.spare < 0.05 or self.merge_pages > 1)) or self.merge_pages > 64:
            # (or a block-mapped FTL whose random writes each merge a logical block)
            # thousands of writes into a drive with almost no spare: a write amplification in the
            # tens, 30 s and more of wall time. A short window keeps the run within budget.
            self._set(a, "trace.end", rng.choice(["10ms", "100ms"]))
        elif "fstrim" in path and rng.random() < 0.8:   # its discards come after 1 s: keep the run short
            self._set(a, "trace.end", rng.choice(["100ms", "1s", "1100ms", "1.2s"]))
        elif rng.random() < 0.2:
            start = rng.choice([0, 1_000_000, 50_000_000, 500_000_000])
            if start or rng.random() < 0.5:
                self._set(a, "trace.start", fmt_time_ns(rng, start) if start else "0")
            if rng.random() < 0.7:
                self._set(a, "trace.end", fmt_time_ns(rng, start + rng.choice([1_000, 10_000_000, 2_000_000_000])))
        if rng.random() < 0.2:
            ops = [o for o in ["read", "write", rng.choice(["discard", "trim"]), "flush"] if rng.random() < 0.6]
            self._set(a, "trace.ops", ",".join(ops or ["write"]))
        if rng.random() < 0.05:
            # Never the only bound: a trace's records end the run, a runtime only cuts it shorter
            # (and a starved drive replays no trace, see spec()).
            self._set(a, "workload.runtime", rng.choice(["1ms", "100ms", "2s"]))

    def _outputs(self, a, content, kind):
        rng = self.rng
        if kind != "export" and rng.random() < 0.5:
            if self.has("latency-log.format") and rng.random() < 0.2:  # fio's format: not parsed here
                self._set(a, "latency-log", "@latency-fio.log")
                self._set(a, "latency-log.format", "fio")
            else:
                self._set(a, "latency-log", "@latency.csv")
                if rng.random() < 0.1:
                    self._set(a, "latency-log.format", "csv")
        if rng.random() < 0.1:
            self._set(a, "output-format", rng.choice(["normal", "json", "json+", "normal,json"]))
            if rng.random() < 0.5:
                self._set(a, "output", "@output.txt")
        if rng.random() < 0.1:
            self._set(a, "report.avgtime", rng.choice(["10ms", "100ms", "500ms", "1s"]))
        if not self.hdd and rng.random() < 0.1:
            self._set(a, "store-data", rng.choice(["true", "false"]))
        if kind != "export" and rng.random() < 0.15:
            self._set(a, "timeseries", "@timeseries.csv")
            # A row per interval up to the last completion: a GC-bound replay can simulate hours,
            # and so can slow firmware (a 1 MHz core, or 5000+ cycles a step: 20000 s simulated for
            # 325 IOs of 2.5 MB, seed 303), so those get coarse intervals (else millions of rows and
            # a "hang").
            opts = dict(a)
            slow = opts.get("cpu.clock") == "1MHz" or any(
                int(opts.get("cpu.cycles." + n, "0")) >= 5000
                for n in ("decode", "complete", "flash_op", "ftl_lookup", "map_update", "gc_page", "gc_victim"))
            coarse = kind == "trace" or slow
            choices = ["1s", "5s", "2500ms"] if coarse else ["1ms", "10ms", "100ms", "1s", "0.5ms"]
            if rng.random() < 0.7 or coarse:
                self._set(a, "timeseries.interval", rng.choice(choices))
        if content:
            self._set(a, "check.content", rng.choice(["true", "1", "yes", "on"]))
        elif rng.random() < 0.05:
            self._set(a, "check.content", "false")
        if rng.random() < 0.6:
            self._set(a, "seed", str(rng.choice([0, 1, 2**64 - 1, rng.getrandbits(64), rng.randint(2, 1000)])))
        if rng.random() < 0.1 and not any(k == "log-level" for k, _ in a):
            self._set(a, "log-level", rng.choice(["info", "warn", "error", "off"]))
