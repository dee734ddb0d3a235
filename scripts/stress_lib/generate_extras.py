"""The stress generator's less common options: the hard-disk device, RAID-0,
the controller's compression, sub-page mapping and TRIM switch, the SATA
link's FIS cost, power cuts, the VCD and activity traces, drive-state
checkpoints and FTL plug-ins (a mixin of generate.Generator).

Each is off in most runs and set where the simulator's rules allow it (a
RAID-0 stripe is a multiple of the host page, a power cut is not taken with
RAID-0, ...), so most runs are accepted; a few set one deliberately invalid
value (self._invalid) that must be refused with one error line.
"""
from .values import edge_int, fmt_size, fmt_time_ns

MAX_PAGES = 1 << 18   # as generate.py's: FTL pages per drive

# The example circular-log FTL plug-in built beside the binary (runner.render resolves it).
PLUGIN = "%plugin"


class ExtraOptions:
    # ---- a hard disk instead of the SSD (device = hdd): no nand/dram/cpu/ftl/controller options

    def _hdd(self, a):
        """device=hdd and its options; returns the disk's user bytes."""
        rng = self.rng
        self._set(a, "device", "hdd")
        cap = rng.choice([1 << 20, 512 * edge_int(rng, 2048, 1 << 31), 640 * 10**9, 8 * 10**12, 10**9 + 512])
        if cap != 500 * 10**9 or rng.random() < 0.3:
            self._set(a, "hdd.capacity", fmt_size(rng, cap))
        if rng.random() < 0.5:
            self._set(a, "hdd.rpm", str(rng.choice([1000, 4200, 5400, 7200, 10000, 15000, 30000])))
        if rng.random() < 0.4:
            # track-to-track <= average <= full, on a rising curve: the average between
            # settle + full/3 and settle + full/sqrt(3) (options_hdd.cpp)
            settle = edge_int(rng, 0, 3000)  # us
            full = settle + edge_int(rng, 1, 40000)
            avg = settle + int((full - settle) * rng.uniform(1 / 3 + 1e-3, 0.577))
            for key, us in (("hdd.track_to_track", settle), ("hdd.avg_seek", avg), ("hdd.full_seek", full)):
                self._set(a, key, fmt_time_ns(rng, us * 1000))
        if rng.random() < 0.4:
            # (At least 4 MB/s: the largest command at 3.4 MB/s takes over a device step's 10 s, refused.)
            outer = rng.choice([4, 50, 100, 200, 1000])
            self._set(a, "hdd.rate_outer", f"{outer}MB/s")
            self._set(a, "hdd.rate_inner", f"{max(4, outer * rng.choice([1, 2, 5]) // 10)}MB/s")
        write_cache = rng.random() < 0.8
        if not write_cache or rng.random() < 0.2:
            self._set(a, "hdd.write_cache", "true" if write_cache else "false")
        if rng.random() < 0.4:
            cache = rng.choice([0, 4096, 512 << 10, 16 << 20, 64 << 20]) if not write_cache else \
                rng.choice([4096, 512 << 10, 16 << 20, 64 << 20])
            self._set(a, "hdd.cache", fmt_size(rng, cache))
        if rng.random() < 0.3:
            self._set(a, "hdd.read_ahead", fmt_size(rng, rng.choice([0, 4096, 512 << 10, 8 << 20, 1 << 30])))
        if write_cache and rng.random() < 0.3:
            self._set(a, "hdd.write_segments", str(edge_int(rng, 1, 1024)))
        if write_cache and rng.random() < 0.3:
            self._set(a, "hdd.write_flush", rng.choice(["continuous", "batch"]))
        sptf = rng.random() < 0.8
        if not sptf or rng.random() < 0.2:
            self._set(a, "hdd.ncq_reorder", "sptf" if sptf else "fifo")
        if sptf and rng.random() < 0.3:
            self._set(a, "hdd.max_wait", rng.choice(["0", "1us", "50ms", "500ms", "10s"]))
        if rng.random() < 0.3:
            self._set(a, "hdd.cmd_overhead", rng.choice(["0", "1ns", "300us", "5ms"]))
        if rng.random() < 0.04:
            self._invalid(a, rng.choice([("hdd.capacity", "1000001B"), ("hdd.rpm", "999"),
                                         ("hdd.rate_inner", "10GB/s"), ("nand.channels", "2"),
                                         ("precondition", "used"), ("raid.members", "2"),
                                         ("hdd.write_segments", "0"), ("hdd.write_flush", "lazy")]))
        return cap

    # ---- before the DRAM is sized: the host page (controller.map_unit) changes the table

    def _map_unit(self, a, g):
        """controller.map_unit: a host page smaller than the flash page (the table grows with it)."""
        rng = self.rng
        self.host_page = g["page"]
        # The FTL then works in host pages: the drive's page budget (MAX_PAGES) counts them.
        pages = g["channels"] * g["dies_per_channel"] * g["planes_per_die"] * g["blocks_per_plane"] \
            * g["pages_per_block"]
        units = [u for u in (512, 1024, 2048, 4096, 8192) if u < g["page"] and pages * (g["page"] // u) <= MAX_PAGES]
        # (Not with a deliberately invalid FTL option: a block FTL's buffer of more pages than a
        # flash block holds is valid in the smaller pages.)
        if rng.random() < 0.06 and units and self.has("controller.map_unit") and not self.expect_refusal:
            unit = rng.choice(units)
            self._set(a, "controller.map_unit", fmt_size(rng, unit))
            self.map_bytes = self.map_bytes * (g["page"] // unit)
            self.host_page = unit

    # ---- after the drive: RAID-0, controller features, the link, power cuts, traces, checkpoints

    def _extras(self, a, g, content, kind):
        rng = self.rng
        self.raid = 1
        if rng.random() < 0.07 and self.has("raid.members") and self.ftl != "plugin" and not self.state_trace:
            # members x the page budget: a few members mostly, 16 on small drives only
            pages = g["channels"] * g["dies_per_channel"] * g["planes_per_die"] * g["blocks_per_plane"] \
                * g["pages_per_block"]
            self.raid = rng.choice([2, 2, 3, 4] + ([16] if pages <= 1 << 14 else []))
            self._set(a, "raid.members", str(self.raid))
            if rng.random() < 0.7:
                self._set(a, "raid.stripe", fmt_size(rng, self.host_page * rng.choice([1, 2, 3, 32])))
            elif rng.random() < 0.2:
                # Not a multiple of the host page (a multiple of 512 B, see nand.page_size and
                # controller.map_unit): 1.5 pages never is. (One page + 512 B is two 512 B pages.)
                self._invalid(a, ("raid.stripe", f"{self.host_page + self.host_page // 2}B"))
            if rng.random() < 0.3:
                self._set(a, "raid.cmd_overhead", rng.choice(["0", "1us", "20us"]))
            if rng.random() < 0.3:
                self._set(a, "raid.member_queue", rng.choice(["1", "2", "32"]))
        # A block- or log-mapped FTL's logical block holds 1 / (1 - compressibility) times more of the
        # smaller pages, and a merge copies all of them: with a used drive's overwrites or a map unit
        # on top, a run's merges multiply past its budget (75 % and 512 B units: a 30 s hang).
        merge_ok = self.merge_pages == 1 or (self.host_page == g["page"] and not any(
            k == "precondition.overwrite" and v != "0" for k, v in a))
        if rng.random() < 0.07 and self.has("controller.compression") and not self.expect_refusal and merge_ok:
            self._set(a, "controller.compression", "true")
            self._set(a, "workload.compressibility",
                      str(rng.choice([0, 1, 50, 75, 90] if self.merge_pages == 1 else [0, 1, 50])))
            if rng.random() < 0.05:
                self._invalid(a, ("workload.compressibility", "91"))
        elif rng.random() < 0.02 and not self.expect_refusal:  # without compression: refused (no effect)
            self._invalid(a, ("workload.compressibility", "50"))
        if rng.random() < 0.08:
            self._set(a, "controller.trim", rng.choice(["true", "false"]))
        if rng.random() < 0.1:
            self._set(a, "sata.fis_overhead", rng.choice(["0", "1ns", "4us", "100us"]))
        if rng.random() < 0.15:
            self._set(a, "sata.flow_control", rng.choice(["true", "false"]))
        if content and self.raid == 1 and kind != "export" and rng.random() < 0.3 and self.has("powerfail.at"):
            self._set(a, "powerfail.at", fmt_time_ns(rng, edge_int(rng, 1, 50_000_000)))
            if rng.random() < 0.5:
                self._set(a, "powerfail.lost", "@lost.csv")
            if rng.random() < 0.4:
                self._set(a, "dram.plp", rng.choice(["0", "1us", "100us", "10ms"]))
        if self.raid == 1 and rng.random() < 0.04:
            self._set(a, "vcd", "@run.vcd")
            self._window(a, "vcd")
        if self.raid == 1 and rng.random() < 0.04:
            self._set(a, "activity", "@activity.json")
            self._window(a, "activity")
        if rng.random() < 0.06 and self.has("save-state"):
            # The runner runs it again from the saved state (--load-state): the same report.
            self._set(a, "save-state", "@state.bin")

    def _window(self, a, name):
        rng = self.rng
        if rng.random() < 0.4:
            start = rng.choice([0, 1_000, 1_000_000, 100_000_000])
            self._set(a, f"{name}.start", fmt_time_ns(rng, start) if start else "0")
            if rng.random() < 0.6:
                self._set(a, f"{name}.end", fmt_time_ns(rng, start + rng.choice([1, 10_000, 5_000_000])))

    def _plugin(self, a):
        """ftl.plugin with its circular FTL (refused where the tests' plug-in is not built): True if chosen."""
        if self.rng.random() < 0.03 and self.has("ftl.plugin"):
            self._set(a, "ftl.plugin", PLUGIN)
            return True
        return False
