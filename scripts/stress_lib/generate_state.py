"""The stress generator's drive states (--state phase lists) and the threads
that apply them (--state.threads): a mixin of generate.Generator.

A state is drawn as a short list of the phases of docs/states.md in place of
--precondition, with amounts kept within the run's budget: a random page
write of a block- or log-mapped FTL may merge a logical block, and a drive
with almost no spare moves a block's worth of pages per write, so their
overwrites stay short. The runner's repeated runs apply the state on another
number of threads (runner.run_spec): the report must not change.
"""
from .values import fmt_size

# Bounded on every FTL: no merges past a logical block per write.
FIXED_PHASES = ["secure-erase", "trim:all", "fill", "fill:128k", "fill:64k:0.5x", "fill:16k:0.25x"]
IDLE_PHASES = ["idle:1ms", "idle:100ms", "idle:1s"]


class StateOptions:
    def _state_recipe(self, a, user_pages, geo):
        """--state as a list of 1-4 phases (instead of any --precondition); True if set."""
        rng = self.rng
        if not self.has("state") or self.starved:
            return False
        # Overwrites in capacities: a used drive's budget (generate.Generator.spec).
        if self.merge_pages > 1:
            top = min(1.0, self._merge_budget(user_pages, geo))
        elif self.spare < 0.05:
            top = 0.05
        else:
            top = 2.0
        if self.ftl == "dftl" and self.map_cache // self.entry < user_pages // 64:
            top = min(top, 0.5)  # a map cache of a few entries: a translation page's work per write
        phases = []
        for _ in range(rng.choice([1, 2, 2, 3, 4])):
            kind = rng.choices(["fixed", "randwrite", "image", "idle", "trace"], [0.35, 0.3, 0.15, 0.1, 0.1])[0]
            if kind == "trace" and self.merge_pages > 64:
                kind = "fixed"  # its small random writes, each merging a large logical block: too slow
            if kind == "fixed":
                phases.append(rng.choice(FIXED_PHASES))
            elif kind == "randwrite":
                amount = rng.choice([0.01, 0.1, 0.5, 1.0, 2.0])
                amount = min(amount, top)
                bs = rng.choice(["4k", "4k", "8k", "64k"]) if self.merge_pages == 1 else "4k"
                phases.append(f"randwrite:{bs}:{amount:g}x" if rng.random() < 0.8
                              else f"randwrite:{bs}:{fmt_size(rng, rng.choice([64 << 10, 1 << 20]))}")
            elif kind == "image":
                phases.append(f"image:{min(rng.choice([0.05, 0.25, 0.5]), top):g}x")
            elif kind == "idle":
                phases.append(rng.choice(IDLE_PHASES))
            else:
                # A captured trace's writes and TRIMs (not on a RAID-0 set: refused; _extras then
                # leaves RAID out).
                phases.append("trace:" + rng.choice(["traces/samples/generated/loop0_q.msr.csv",
                                                     "traces/samples/generated/fio_mix.iolog",
                                                     "traces/samples/generated/loop0.blktrace.0"]))
                self.state_trace = True
        a[:] = [(k, v) for k, v in a if not k.startswith("precondition")]
        self._set(a, "state", ", ".join(phases))
        return True

    def _state_threads(self, a):
        """--state.threads on some runs that prepare a state (the answer must not depend on it)."""
        if self.has("state.threads") and self.rng.random() < 0.3:
            self._set(a, "state.threads", str(self.rng.choice([1, 2, 3])))
