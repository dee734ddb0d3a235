"""The FTL families' options for the stress generator (generate.py): each
FTL's options drawn over their valid ranges and edges, the spare-area and
memory rules each FTL checks applied here so most runs are valid, and a few
deliberately invalid combinations (the run must be refused)."""
from .values import edge_int, fmt_size, op_value


class FtlOptions:
    """Mixed into Generator (which provides rng, has(), _set())."""

    def _invalid(self, a, kv):
        """Sets one option that makes the configuration invalid: the run must be refused."""
        if self.has(kv[0]):
            self.expect_refusal = f"--{kv[0]}={kv[1]}"
            self._set(a, *kv)

    def _page_options(self, a):
        rng = self.rng
        # The page FTL's GC and wear-levelling policies.
        if rng.random() < 0.15:
            policy = rng.choice(["greedy", "cost-benefit", "fifo", "random", "d-choice"])
            self._set(a, "ftl.gc.policy", policy)
            if policy == "d-choice" and rng.random() < 0.5:
                self._set(a, "ftl.gc.d", str(edge_int(rng, 1, 64)))
        for key in ("ftl.gc.separate", "ftl.wl.dynamic"):
            if rng.random() < 0.1:
                self._set(a, key, rng.choice(["true", "false"]))
        if rng.random() < 0.05:
            self._set(a, "ftl.wl.threshold", str(rng.choice([0, 1, 2, 10, 1000])))
        if rng.random() < 0.01:   # another FTL's option with the page FTL: refused
            self._invalid(a, rng.choice([("ftl.block.buffer", "4"), ("ftl.log_blocks", "2"),
                                         ("ftl.map_cache", "64k"), ("ftl.hybrid.stripe", "1")]))

    def _stripe(self, dies, ok=lambda s: True):
        """A divisor of the dies (1, all of them, or one between) for which ok(s) holds."""
        divisors = [d for d in range(1, dies + 1) if dies % d == 0 and ok(d)] or [1]
        return self.rng.choice([1, 1, divisors[-1], self.rng.choice(divisors)])

    def _bad_stripe(self, dies):
        """A stripe that is not a divisor of the dies: 0, dies + 1, a non-divisor, a fraction."""
        bad = [0, dies + 1] + [d for d in range(2, dies) if dies % d]
        return self.rng.choice([str(self.rng.choice(bad)), "1.5"])

    def _block_options(self, a, g, user_pages):
        rng = self.rng
        dies, fpb = g["dies"], g["ftl_pages_per_block"]
        invalid = rng.random() < 0.08
        what = rng.choice(["stripe", "buffer", "buffer_blocks", "hybrid-option"]) if invalid else ""
        stripe = self._stripe(dies, lambda s: s * fpb <= 65536)
        if what == "stripe":
            self._invalid(a, ("ftl.block.stripe", self._bad_stripe(dies)))
        elif stripe != 1 or rng.random() < 0.2:
            self._set(a, "ftl.block.stripe", str(stripe))
        lpb = stripe * fpb
        buffer = edge_int(rng, 1, lpb) if rng.random() < 0.7 else min(4, lpb)
        if what == "buffer":
            self._invalid(a, ("ftl.block.buffer", str(rng.choice([0, lpb + 1]))))
        elif buffer != 4 or rng.random() < 0.3:
            self._set(a, "ftl.block.buffer", str(buffer))
        if what == "buffer_blocks":
            self._invalid(a, ("ftl.block.buffer_blocks", str(rng.choice([0, buffer + 1]))))
        elif rng.random() < 0.5:
            self._set(a, "ftl.block.buffer_blocks", str(edge_int(rng, 1, buffer)))
        if what == "hybrid-option":
            self._invalid(a, rng.choice([("ftl.log_blocks", "2"), ("ftl.hybrid.interleave", "true"),
                                         ("ftl.map_cache", "64k")]))
        # map_bytes: one entry per logical block
        self.map_bytes = -(-user_pages // lpb) * self.entry
        self.merge_pages = lpb

    def _hybrid_options(self, a, g, user_pages):
        rng = self.rng
        fast = self.ftl == "fast"
        dies, fpb, bpd = g["dies"], g["ftl_pages_per_block"], g["ftl_blocks_per_die"]
        invalid = rng.random() < 0.08
        what = rng.choice(["stripe", "stripe-pages", "log_blocks", "block-option"]) if invalid else ""
        stripe = self._stripe(dies, lambda s: s * fpb <= 65535)
        if what == "stripe-pages" and dies * fpb <= 65535:
            what = "stripe"
        if what == "stripe":
            self._invalid(a, ("ftl.hybrid.stripe", self._bad_stripe(dies)))
            stripe = 1
        elif what == "stripe-pages":   # a divisor, but stripe x pages_per_block over 65535
            stripe = min(d for d in range(1, dies + 1) if dies % d == 0 and d * fpb > 65535)
            self._invalid(a, ("ftl.hybrid.stripe", str(stripe)))
        elif stripe != 1 or rng.random() < 0.2:
            self._set(a, "ftl.hybrid.stripe", str(stripe))
        interleave = rng.random() < 0.4
        if interleave or rng.random() < 0.1:
            self._set(a, "ftl.hybrid.interleave", "true" if interleave else rng.choice(["false", "0"]))
        # The engine: dies / stripe groups of stripe x pages_per_block-page blocks; die 0 holds the
        # most logical blocks; log_blocks <= its spare - 1 (hybrid_ftl.cpp).
        groups, ppb = dies // stripe, stripe * fpb
        engine = -(-user_pages // (ppb * groups)) * ppb * groups if interleave else user_pages
        lbs = -(-engine // ppb)
        spare = bpd - -(-lbs // groups)
        least = 2 if fast else 1
        top = spare - 1
        if what == "log_blocks" or top < least:
            self._invalid(a, ("ftl.log_blocks", str(rng.choice([least - 1, max(top + 1, least)]))))
            k = 4
        else:
            k = edge_int(rng, least, top) if rng.random() < 0.8 else 4
            if k > top:
                k = top
            if k != 4 or rng.random() < 0.3:
                self._set(a, "ftl.log_blocks", str(k))
        if rng.random() < 0.15:
            self._set(a, "ftl.hybrid.idle_merge", rng.choice(["true", "false"]))
        if what == "block-option":
            self._invalid(a, rng.choice([("ftl.block.stripe", "1"), ("ftl.map_cache", "1m"),
                                         ("ftl.gc.d", "4")]))
        self.map_bytes = (lbs + groups * k * (ppb + 1)) * self.entry
        self.merge_pages = ppb

    def _dftl_op(self, rng, g, pages, bpd, fpb, dies, gc, op):
        """Raises ftl.op until the dies hold the user pages and their translation pages too:
        dies x (blocks per die - gc_threshold - 2) x pages_per_block >= user + translation pages."""
        per_tpage = g["page"] // self.entry
        for _ in range(200):
            user = int(float(pages) / (1.0 + op_value(op)))
            if dies * (bpd - gc - 2) * fpb >= user + -(-user // per_tpage):
                return op
            op = f"{op_value(op) * 1.02 + 0.0001:.4f}"
        return op   # cannot fit: refused (counted, not a failure)

    def _dftl_options(self, a, g, user_pages):
        rng = self.rng
        gtd = -(-user_pages // (g["page"] // self.entry)) * self.entry
        table = user_pages * self.entry
        # Where the cache must fit: the DRAM left after the write cache, or 512 KiB of SRAM
        # with dram.size=0; _dram() sizes the DRAM for it.
        choices = [self.entry, self.entry * rng.randint(2, 300), 4096, 64 << 10, table, table * 2,
                   max(self.entry, (512 << 10) - gtd), 1 << 20, None]
        cache = rng.choice(choices)
        if rng.random() < 0.06:
            self._invalid(a, ("ftl.map_cache", rng.choice([f"{max(self.entry - 1, 1)}B" if self.entry > 1
                                                           else "0", "2g"])))
            cache = None
        elif cache is not None:
            self._set(a, "ftl.map_cache", fmt_size(rng, cache))
        self.map_cache = cache if cache is not None else 256 << 10
        self.map_bytes = self.map_cache + gtd
