"""The fixed subset of scripts/stress --ci.

RANDOM_RUNS generated configurations from a fixed SEED, plus targeted
configurations that put every area of the simulator in the subset whatever
the generator draws: each trace family in both replay modes, the content
checker, the write cache, a runtime limit, an export round trip, and the
known-fragile corners (a tight spare area with gc_threshold=1, trace
addresses wrapped below trace.offset, skip-bad on a truncated blktrace).
Each must end "ok" (exit 0, every invariant) or "refused" (exit 2, one error
line); tests/stress/cases/*.args are added by scripts/stress itself.
"""
from .generate import RunSpec

SEED = 20261122
RANDOM_RUNS = 30

SMALL = [("nand.channels", "2"), ("nand.dies_per_channel", "2"), ("nand.planes_per_die", "1"),
         ("nand.blocks_per_plane", "64"), ("nand.pages_per_block", "32")]
SAMPLES = "traces/samples/"


def _spec(*pairs, drive=SMALL, refused=""):
    """refused: the option that makes the configuration invalid (the run must exit 2, one line)."""
    args = list(drive)
    for p in pairs:
        k, v = p.split("=", 1)
        args.append((k[2:], v))
    return RunSpec(args, expect_refusal=refused)


def _repeated(spec):
    spec.repeat = True
    return spec


def targeted():
    log = "--latency-log=@latency.csv"
    return [
        # Every trace family, timed and afap, with the latency log.
        ("blktrace timed", _spec(f"--trace={SAMPLES}generated/loop0.blktrace.0", log)),
        ("blktrace prefix afap, issue arrivals", _spec(f"--trace={SAMPLES}generated/loop0", "--trace.mode=afap",
                                                      "--trace.arrival=D", log)),
        ("big-endian blktrace", _spec(f"--trace={SAMPLES}generated/loop0be.blktrace.0", "--trace.mode=afap")),
        ("blkparse afap, device filter", _spec(f"--trace={SAMPLES}generated/loop0.blkparse.txt",
                                               "--trace.mode=afap", "--trace.device=7,0", log)),
        ("spc timed x1000, window, 4k sectors", _spec(f"--trace={SAMPLES}generated/loop0_q.spc",
                                                      "--trace.speed=1000", "--trace.start=1ms",
                                                      "--trace.end=500ms", "--trace.sector_size=4k", log)),
        ("msr afap, writes only", _spec(f"--trace={SAMPLES}generated/loop0_q.msr.csv", "--trace.mode=afap",
                                        "--trace.ops=write", log)),
        ("alibaba timed", _spec(f"--trace={SAMPLES}generated/loop0_q.alibaba.csv", log)),
        ("fio iolog afap, iodepth 1", _spec(f"--trace={SAMPLES}generated/fio_mix.iolog", "--trace.mode=afap",
                                            "--trace.iodepth=1", log)),
        ("disksim (MQSim) afap, forced format", _spec(f"--trace={SAMPLES}mqsim/tpcc-small.trace",
                                                      "--trace.format=disksim", "--trace.mode=afap", log)),
        ("fstrim discards, afap", _spec(f"--trace={SAMPLES}apps/fstrim-desktop.blktrace.0", "--trace.mode=afap",
                                        "--trace.ops=discard,flush")),
        # D14: addresses below trace.offset wrap; each record counts once as remapped.
        ("trace.offset above every address", _spec(f"--trace={SAMPLES}generated/loop0_q.alibaba.csv",
                                                   "--trace.offset=1g", "--trace.mode=afap")),
        # D15: skip-bad on a truncated blktrace counts bad records, not bytes.
        ("skip-bad on a truncated blktrace", _spec("--trace=tests/traces/regressions/blktrace-huge-pdu.bin",
                                                   "--trace.skip-bad=true")),
        # D1: the page FTL with gc_threshold=1 and the least spare the rule allows.
        ("gc_threshold=1, minimum spare, used", _spec("--ftl.op=0.0492", "--ftl.gc_threshold=1",
                                                      "--precondition=used", "--workload.rw=randwrite",
                                                      "--workload.number_ios=4000")),
        ("gc_threshold=1, 4-page blocks", _spec("--nand.pages_per_block=4", "--ftl.gc_threshold=1",
                                                "--workload.number_ios=50000", drive=[])),
        ("gc_threshold=1, 8 blocks per die", _spec("--nand.blocks_per_plane=8", "--ftl.op=0.6",
                                                   "--ftl.gc_threshold=1", "--precondition=used",
                                                   "--workload.rw=randwrite", "--workload.number_ios=3000",
                                                   drive=SMALL[:3])),
        # D16: a read storm under nand.suspend, with and without a limit on suspends.
        ("suspend read storm, write cache", _spec("--nand.suspend=true", "--dram.write_cache=64k",
                                                  "--workload.rw=randrw", "--workload.bs=256k",
                                                  "--workload.iodepth=16", "--workload.number_ios=400")),
        ("suspend read storm, at most 2 per op", _spec("--nand.suspend=true", "--nand.max_suspends=2",
                                                       "--workload.rw=randrw", "--workload.bs=256k",
                                                       "--workload.iodepth=16", "--workload.number_ios=400")),
        # D7: utilisation stays <= 1 with the write cache.
        ("write cache, one IO", _spec("--dram.write_cache=25088B", "--workload.number_ios=1", drive=[])),
        ("write cache, randwrite", _spec("--dram.write_cache=1m", "--workload.rw=randwrite",
                                         "--workload.number_ios=3000", log)),
        # SATA flow control: writes larger than the cache under a read storm
        # that suspends their destages, with content checks.
        ("flow control, small cache, suspend", _spec("--sata.flow_control=true", "--dram.write_cache=24k",
                                                     "--nand.suspend=true", "--check.content=true",
                                                     "--workload.rw=randrw", "--workload.bs=64k",
                                                     "--workload.iodepth=8", "--workload.number_ios=600")),
        # Content checking, runtime, DRAM-less, sizes at the capacity edge, big and odd blocks.
        ("content check, used", _spec("--check.content=true", "--precondition=used", "--workload.number_ios=3000",
                                      "--workload.bs=12k")),
        ("runtime only", _spec("--workload.number_ios=0", "--workload.runtime=20ms", log)),
        ("DRAM-less, seq write 4m", _spec("--dram.size=0", "--workload.rw=write", "--workload.bs=4m",
                                          "--workload.number_ios=40")),
        ("last block of the drive", _spec("--workload.offset=30616k", "--workload.bs=4k",
                                          "--workload.number_ios=100", log)),
        ("timeseries 1ms", _spec("--timeseries=@timeseries.csv", "--timeseries.interval=1ms",
                                 "--workload.number_ios=2000")),
        ("export msr and replay", _spec("--workload.number_ios=300", "--export-trace=@export.trace",
                                        "--export-trace.format=msr")),
        # The other FTL families (the random runs give each about a tenth): each at an edge of its
        # options, and one invalid combination each, which must be refused in one line.
        ("block: stripe 2, buffer of 3 blocks, content", _spec(
            "--ftl.name=block", "--ftl.block.stripe=2", "--ftl.block.buffer=8", "--ftl.block.buffer_blocks=3",
            "--dram.size=0", "--check.content=true", "--workload.rw=randrw", "--workload.number_ios=300", log)),
        ("block: whole-stripe buffer, seq write, idle flush", _spec(
            "--ftl.name=block", "--ftl.block.stripe=4", "--ftl.block.buffer=128", "--ftl.idle_after=100us",
            "--workload.rw=write", "--workload.bs=12k", "--workload.number_ios=400", "--workload.iodepth=4", log)),
        ("block: fstrim discards", _spec("--ftl.name=block", f"--trace={SAMPLES}apps/fstrim-desktop.blktrace.0",
                                         "--trace.mode=afap", "--trace.end=1100ms")),
        ("bast: 20 log blocks (the most at op 0.5), interleave, idle merges", _spec(
            "--ftl.name=bast", "--ftl.op=0.5", "--ftl.log_blocks=20", "--ftl.hybrid.interleave=true",
            "--ftl.idle_after=1ms", "--precondition=used", "--workload.rw=randwrite", "--workload.number_ios=500",
            log)),
        ("fast: 2 log blocks, stripe over 4 dies, content", _spec(
            "--ftl.name=fast", "--ftl.log_blocks=2", "--ftl.hybrid.stripe=4", "--check.content=true",
            "--workload.rw=randrw", "--workload.bs=8k", "--workload.number_ios=400", log)),
        ("dftl: one-entry map cache, used", _spec(
            "--ftl.name=dftl", "--ftl.map_cache=4B", "--ftl.op=0.25", "--precondition=used",
            "--workload.rw=randrw", "--workload.number_ios=1000", log)),
        ("dftl: DRAM-less, cache at the SRAM limit", _spec(
            "--ftl.name=dftl", "--dram.size=0", "--ftl.map_cache=524168B", "--dram.write_cache=0",
            "--workload.rw=randread", "--workload.number_ios=500")),
        # The rarer parts (the random runs set each in a few percent of runs): the hard disk, RAID-0,
        # compression with a sub-page map unit, a power cut, the waveform traces, a drive state saved
        # and run again from (the same report), a plug-in FTL.
        ("hdd: sptf, write cache, randrw QD8", _spec("--device=hdd", "--workload.rw=randrw", "--workload.iodepth=8",
                                                     "--workload.number_ios=500", log, drive=[])),
        ("hdd: fifo, write-through, 4k buffer, trace", _spec(
            "--device=hdd", "--hdd.ncq_reorder=fifo", "--hdd.write_cache=false", "--hdd.cache=4k",
            f"--trace={SAMPLES}generated/loop0_q.msr.csv", "--trace.mode=afap", log, drive=[])),
        ("raid-0: 3 members, 12k stripe, content", _spec("--raid.members=3", "--raid.stripe=12k",
                                                         "--check.content=true", "--workload.rw=randrw",
                                                         "--workload.bs=16k", "--workload.number_ios=600", log)),
        ("compression 50 %, 2k map unit, used", _spec("--controller.compression=true",
                                                      "--workload.compressibility=50", "--controller.map_unit=2k",
                                                      "--precondition=used", "--workload.rw=randwrite",
                                                      "--workload.number_ios=2000", log)),
        ("power cut at 3 ms, write cache, capacitors", _spec(
            "--powerfail.at=3ms", "--powerfail.lost=@lost.csv", "--dram.write_cache=64k", "--dram.plp=10us",
            "--workload.rw=randwrite", "--workload.number_ios=2000", log)),
        ("vcd and activity windows", _spec("--vcd=@run.vcd", "--vcd.start=1ms", "--vcd.end=2ms",
                                           "--activity=@activity.json", "--activity.end=3ms",
                                           "--workload.number_ios=1000")),
        ("save-state after used, run again from it", _spec("--precondition=used", "--save-state=@state.bin",
                                                          "--workload.rw=randrw", "--workload.number_ios=500", log)),
        ("dftl: save-state of its map cache", _spec("--ftl.name=dftl", "--ftl.map_cache=2k", "--precondition=used",
                                                    "--save-state=@state.bin", "--workload.rw=randwrite",
                                                    "--workload.number_ios=500", log)),
        # A drive state of every written phase, applied on 3 threads and again on 1: the same report.
        ("state phases on 3 threads, again on 1", _repeated(_spec(
            "--state=fill:64k, randwrite:4k:1x, image:0.25x, trim:all, randwrite:8k:0.5x, idle:10ms",
            "--state.threads=3", "--workload.rw=randwrite", "--workload.number_ios=1000", log,
            drive=SMALL[:3] + [("nand.blocks_per_plane", "256"), ("nand.pages_per_block", "32")]))),
        ("block FTL state on 2 threads, again on 1", _repeated(_spec(
            "--ftl.name=block", "--state=fill, randwrite:4k:0.2x", "--state.threads=2", "--workload.rw=randrw",
            "--workload.number_ios=300"))),
        ("plug-in FTL (circular)", _spec("--ftl.plugin=%plugin", "--ftl.name=circular", "--precondition=used",
                                         "--workload.rw=randwrite", "--workload.number_ios=1000")),
        ("refused: an SSD option with device=hdd", _spec("--device=hdd", "--nand.channels=2",
                                                         "--workload.number_ios=10", drive=[],
                                                         refused="--nand.channels=2")),
        ("refused: raid stripe off the host page", _spec("--raid.members=2", "--raid.stripe=6k",
                                                         "--workload.number_ios=10", refused="--raid.stripe=6k")),
        ("refused: fast with 1 log block", _spec("--ftl.name=fast", "--ftl.log_blocks=1",
                                                 "--workload.number_ios=10", refused="--ftl.log_blocks=1")),
        ("refused: block buffer over a logical block", _spec("--ftl.name=block", "--ftl.block.buffer=33",
                                                             "--workload.number_ios=10",
                                                             refused="--ftl.block.buffer=33")),
        ("refused: a page-FTL option with dftl", _spec("--ftl.name=dftl", "--ftl.gc.policy=fifo",
                                                       "--workload.number_ios=10", refused="--ftl.gc.policy=fifo")),
        ("refused: dftl cache over the SRAM", _spec("--ftl.name=dftl", "--dram.size=0", "--ftl.map_cache=512k",
                                                    "--workload.number_ios=10", refused="--ftl.map_cache=512k")),
    ]
