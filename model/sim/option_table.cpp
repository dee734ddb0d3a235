// Every core option of the simulator, with its default, unit and help text:
// the one place defaults live (FTL plug-ins add their own, options_ftl.cpp).
// Options::parse (options.cpp) reads them into the SimConfig structs.
#include "model/sim/options.h"

#include <algorithm>

#include "model/sim/text.h"

namespace ssd {

const std::vector<OptionSpec>& core_option_specs() {
  // clang-format off
  static const std::vector<OptionSpec> specs{
    {"nand.channels",          "8",      "count", "NAND channels (independent buses)"},
    {"nand.dies_per_channel",  "4",      "count", "dies sharing each channel bus"},
    {"nand.planes_per_die",    "2",      "count", "planes per die"},
    {"nand.blocks_per_plane",  "1024",   "count", "erase blocks per plane"},
    {"nand.pages_per_block",   "128",    "count", "pages per erase block"},
    {"nand.page_size",         "4k",     "size",  "user bytes per page (the mapping unit)"},
    {"nand.t_read",            "50us",   "time",  "tR: page read, array to register (MLC 50us, SLC 25us)"},
    {"nand.t_prog",            "900us",  "time",  "tPROG: page program (MLC 900us, SLC 250us)"},
    {"nand.t_erase",           "2ms",    "time",  "tBERS: block erase"},
    {"nand.channel_rate",      "40MB/s", "rate",  "channel bus transfer rate (ONFI 1.0 async 25 ns cycle: 40MB/s)"},
    {"nand.page_types",        "uniform","uniform|lsb-msb|lsb-msb-abl", "uniform: every page takes t_read/t_prog; lsb-msb: MLC, even pages of a block LSB (fast), odd MSB (slow); lsb-msb-abl: MLC in all-bit-line page order, pages 0 and the odd ones LSB, the even ones from 2 and the last MSB (L L M L M ... L M M)"},
    {"nand.t_prog_lsb",        "0",      "time",  "page types: program time of an LSB page; 0 = nand.t_prog"},
    {"nand.t_prog_msb",        "0",      "time",  "page types: program time of an MSB page; 0 = nand.t_prog"},
    {"nand.t_read_lsb",        "0",      "time",  "page types: read time of an LSB page; 0 = nand.t_read"},
    {"nand.t_read_msb",        "0",      "time",  "page types: read time of an MSB page; 0 = nand.t_read"},
    {"nand.partial_read",      "false",  "bool",  "a host read of part of a page moves only its sectors over the bus and into DRAM (the array reads the page)"},
    {"nand.cache_program",     "false",  "bool",  "cache program: the next page's data moves into the die's cache register while the array programs the previous one"},
    {"nand.cache_read",        "false",  "bool",  "cache read: the array reads the next page while the previous one's data moves out of the cache register"},
    {"nand.multiplane",        "false",  "bool",  "multi-plane operation: the FTL's blocks pair the planes of a die (pages interleaved over them) and the ops of one command or GC slice at the same page of different planes of a die run as one: their transfers, one tR/tPROG/tBERS"},
    {"nand.copyback",          "false",  "bool",  "GC moves inside a die use copyback: the page never crosses the bus"},
    {"nand.suspend",           "false",  "bool",  "program/erase suspend: a host read finding its die in the array step of a program or erase (a host write's, a write-back destage, idle-time GC) suspends it after nand.t_suspend and the operation resumes after the read, ending that much later, with the die's bookings behind it (so do the writes waiting for them); not with cache program/read, compression, map units or power-loss analysis"},
    {"nand.max_suspends",      "0",      "count", "nand.suspend: how many times one program or erase may be suspended; past it a read waits for the operation's end (firmware keeps such a limit so that reads cannot starve a program: Intel, US patent 10,956,081); 0: no limit"},
    {"nand.t_suspend",         "20us",   "time",  "nand.suspend: from the suspend command until the die takes the read (an assumption of the order of ONFI's tPSL/tESPD; datasheets give 10-100 us)"},
    {"dram.size",              "64m",    "size",  "DRAM buffer capacity; 0 = DRAM-less controller"},
    {"dram.bandwidth",         "666MB/s","rate",  "DRAM port bandwidth (DDR-333 x 16 bit); data crosses it once per page"},
    {"dram.latency",           "60ns",   "time",  "DRAM access latency (activate + CAS)"},
    {"dram.write_cache",       "0",      "size",  "user-data write-back cache carved from DRAM; 0 = writes complete on flash"},
    {"dram.map_entry",         "4B",     "size",  "bytes per mapping-table entry (DRAM traffic per lookup/update)"},
    {"dram.plp",               "0",      "time",  "power-loss protection: after a power cut the drive keeps working this long on its capacitors (write cache and programs in flight finish); 0 = none; needs --powerfail.at"},
    {"cpu.cores",              "1",      "count", "controller cores running the firmware"},
    {"cpu.clock",              "200MHz", "freq",  "controller core clock"},
    {"cpu.cycles.decode",      "800",    "cycles","firmware: decode a command, set up its DMA"},
    {"cpu.cycles.complete",    "400",    "cycles","firmware: post a completion"},
    {"cpu.cycles.flash_op",    "100",    "cycles","firmware: build and issue one NAND operation"},
    {"cpu.cycles.ftl_lookup",  "150",    "cycles","FTL: translate one logical page"},
    {"cpu.cycles.map_update",  "200",    "cycles","FTL: update one mapping entry"},
    {"cpu.cycles.gc_page",     "300",    "cycles","FTL: bookkeeping per page moved by GC"},
    {"cpu.cycles.gc_victim",   "500",    "cycles","FTL: choose and recycle one GC victim block"},
    {"device",                 "ssd",    "ssd|hdd", "the drive behind the SATA link: the SSD model, or a hard disk (hdd.*; docs/hdd.md)"},
    {"hdd.capacity",           "500000000000B", "size", "hard disk: user capacity"},
    {"hdd.rpm",                "7200",   "count", "hard disk: spindle speed (rotational latency: half a turn on average)"},
    {"hdd.track_to_track",     "2ms",    "time",  "hard disk: seek to the next track, settle included"},
    {"hdd.avg_seek",           "8.9ms",  "time",  "hard disk: seek over a third of the stroke (the datasheet's average seek)"},
    {"hdd.full_seek",          "21ms",   "time",  "hard disk: seek over the whole stroke"},
    {"hdd.rate_outer",         "100MB/s","rate",  "hard disk: media rate at the outer edge (the first LBAs)"},
    {"hdd.rate_inner",         "55MB/s", "rate",  "hard disk: media rate at the inner edge (the last LBAs)"},
    {"hdd.cache",              "16m",    "size",  "hard disk: buffer for the read segment and the write cache"},
    {"hdd.read_ahead",         "512k",   "size",  "hard disk: bytes read on after a read while the queue is empty; 0 = none"},
    {"hdd.write_cache",        "true",   "bool",  "hard disk: writes complete once in the buffer and are destaged later"},
    {"hdd.write_segments",     "8",      "count", "hard disk: writes the write cache holds at once (one buffer segment each); a write waits for a free one"},
    {"hdd.write_flush",        "continuous", "continuous|batch", "hard disk, write cache full: continuous: each write destaged frees room for the next host write; batch: the full cache is written out whole (in the queue's order) before it takes another write"},
    {"hdd.ncq_reorder",        "sptf",   "sptf|fifo", "hard disk: serve the queued command with the shortest seek + rotation next, or in arrival order"},
    {"hdd.max_wait",           "500ms",  "time",  "hard disk, sptf: a command queued this long is served next (oldest first), bounding the starvation of far commands; 0 = no bound"},
    {"hdd.cmd_overhead",       "300us",  "time",  "hard disk: the drive's electronics per command"},
    {"raid.members",           "1",      "count", "RAID-0 of complete SSDs (controller, DRAM, NAND, FTL each) behind one SATA port; 1 = a single SSD"},
    {"raid.stripe",            "128k",   "size",  "RAID-0 stripe unit (a multiple of nand.page_size)"},
    {"raid.cmd_overhead",      "0",      "time",  "RAID-0: the striping chip's time per host command (decode, split)"},
    {"raid.member_queue",      "32",     "count", "RAID-0: sub-commands each member takes at once (its own NCQ depth; 1 = a member without NCQ); the chip holds the rest and issues them in order as members complete"},
    {"sata.gen",               "2",      "1|2|3", "SATA generation: 1.5, 3 or 6 Gb/s line rate (8b/10b: 150/300/600 MB/s)"},
    {"sata.cmd_overhead",      "2us",    "time",  "link time of one command's FIS exchange"},
    {"sata.fis_overhead",      "0",      "time",  "link time lost per Data FIS (at most 8 KiB of payload): framing, CRC, flow-control handshakes and the host's DMA turnaround"},
    {"sata.flow_control",      "false",  "bool",  "the drive paces a write's Data FISes (DMA Activate): an SSD with a write cache decodes the command, then asks for each Data FIS once the pages it carries have cache slots, so a write larger than the free cache crosses the link as destages free it (off: the data crosses before the drive sees the command, and such a write is admitted whole); targets without a write cache take the data at once"},
    {"sata.ncq_depth",         "32",     "count", "NCQ queue depth the drive reports (at most 32); more outstanding IOs wait in the host queue"},
    {"host.cmd_overhead",      "0",      "time",  "host CPU time per command (OS block layer, AHCI command list, doorbell), on one host CPU"},
    {"host.irq_overhead",      "0",      "time",  "host CPU time per completion (interrupt and completion handling), on the same host CPU"},
    {"controller.trim",        "true",   "bool",  "the firmware implements TRIM (DATA SET MANAGEMENT); false: TRIM completes without unmapping anything (a drive without TRIM support, as the X25-M G1)"},
    {"controller.compression", "false",  "bool",  "real-time compression of host data (SandForce DuraWrite): pages compress by workload.compressibility and pack back to back in the flash; the space saved is spare area"},
    {"controller.map_unit",    "0",      "size",  "the FTL maps units of this size, smaller than a flash page (4k on 8k pages): the host's page; the controller packs units into flash pages and programs a page once it is full (write coalescing: a unit that fills none waits in its buffer), a read takes tR and moves its unit; 0 = the flash page"},
    {"controller.sram_write_buffer", "0", "size", "user-data write buffer in the controller's SRAM, for a DRAM-less controller (dram.size=0; with DRAM: dram.write_cache): a write completes once its pages are in it, each page's room held until its program on flash ends, so a full buffer turns into flash-speed writes; at most the controller's SRAM (512 KiB), of which it takes its share from a DRAM-less DFTL's tables; 0 = writes complete on flash"},
    {"controller.serial_gc",   "false",  "bool",  "the firmware runs one GC or merge at a time: a command's GC ops wait for the previous command's GC to finish (single-threaded firmware that stalls on merges)"},
    {"ftl.name",               "page",   "name",  "FTL plug-in (--list-ftls)"},
    {"ftl.op",                 "0.07",   "fraction", "spare area as a fraction of user capacity (0.07 or 7%)"},
    {"ftl.gc_threshold",       "2",      "blocks","GC starts when a die has this many free blocks or fewer"},
    {"ftl.idle_after",         "0",      "time",  "host idle this long: the firmware runs the FTL's background work (GC, merges); 0 = never"},
    {"ftl.idle_dies",          "1",      "count", "dies the idle-time firmware works on at once: 1 = one NAND op at a time across the drive; N = up to N slices of background work in flight, each on its own die (at most the drive's dies; needs ftl.idle_after)"},
    {"ftl.plugin",             "",       "path",  "load FTL plug-ins from this shared library (command line only, before the options it adds)"},
    {"precondition",           "seq-fill","none|seq-fill|used", "drive state before the timed phase"},
    {"precondition.overwrite", "1.0",    "fraction", "used: random 4 KiB overwrites after the fill, as a fraction of capacity"},
    {"state",                  "",       "recipe", "drive state before the timed phase, instead of --precondition: a name (configs/states: new, fill, used-anthology, torture), a state file, or phases: secure-erase, fill[:BS], randwrite:BS:AMOUNT, image:AMOUNT, trim:all, idle:TIME, steady, trace:FILE (docs/states.md)"},
    {"state.threads",          "0",      "count", "threads the drive state's functional phases may use (the block FTL's random writes run its die groups' merges side by side; the page FTL's give each thread a share of the dies); 0 = the cores this process may run on; the state is the same whatever the count"},
    {"save-state",             "",       "path",  "after the drive state is applied, save it here (flash, FTL, firmware counters; every built-in FTL, a plug-in if it implements Ftl::checkpoint) for --load-state"},
    {"load-state",             "",       "path",  "start from a state saved with --save-state instead of applying one; refused unless the drive (geometry, FTL and its options, spare, RAID, content checks) is the one it was saved from"},
    {"workload.rw",            "randrw", "pattern", "read, write, randread, randwrite, randrw, rw (= readwrite)"},
    {"workload.bs",            "4k",     "size",  "block size of each IO (at most 32m: one SATA command moves 65536 sectors)"},
    {"workload.iodepth",       "32",     "count", "outstanding IOs (up to 1024; beyond sata.ncq_depth they wait in the host queue)"},
    {"workload.compressibility", "0",    "percent", "how much the written data compresses (fio's buffer_compress_percentage; 0 = random data), for the run and the drive state, replays included; at most 90; matters only with controller.compression"},
    {"workload.rwmixread",     "50",     "percent", "reads in mixed workloads"},
    {"workload.percentage_random", "100", "percent", "random share of rand* workloads; the rest is sequential"},
    {"workload.size",          "0",      "size",  "LBA span; 0 = the whole user capacity"},
    {"workload.offset",        "0",      "size",  "start of the LBA span"},
    {"workload.number_ios",    "200000", "count", "IOs to issue; 0 = until runtime"},
    {"workload.runtime",       "0",      "time",  "simulated time limit; 0 = none"},
    {"workload.randseed",      "0",      "count", "workload random seed; 0 = derived from --seed"},
    {"trace",                  "",       "path",  "replay this trace (file, blktrace NAME prefix or directory) instead of the synthetic workload"},
    {"trace.format",           "",       "name",  "force the trace format: blktrace, blkparse, msr, spc, fio, disksim, alibaba"},
    {"trace.mode",             "timed",  "timed|afap", "timed: recorded arrivals; afap: as fast as possible, closed loop"},
    {"trace.speed",            "1",      "factor","timed: replay speed-up (2 = arrivals twice as fast)"},
    {"trace.iodepth",          "32",     "count", "outstanding requests of the replay (up to 1024; beyond sata.ncq_depth they wait in the host queue)"},
    {"trace.sector_size",      "512B",   "size",  "sector size of the formats that count sectors of a size they do not say: blkparse, spc, disksim (blktrace's are 512 B)"},
    {"trace.offset",           "0",      "size",  "subtracted from every trace address"},
    {"trace.beyond",           "wrap",   "wrap|error", "addresses beyond the simulated capacity"},
    {"trace.arrival",          "Q",      "Q|D",   "blktrace/blkparse: the event taken as a request's arrival: Q (queued: the bios as the application issued them, before the block layer merged them) or D (dispatched: the merged requests the device saw; fewer and larger, so a replay's IOPS and latency differ several-fold)"},
    {"trace.skip-bad",         "false",  "bool",  "skip and count malformed records instead of failing"},
    {"trace.device",           "",       "dev",   "keep only this device: MAJ,MIN (blktrace) or a disk number"},
    {"trace.start",            "0",      "time",  "keep records arriving at or after this trace time"},
    {"trace.end",              "0",      "time",  "keep records arriving before this trace time; 0 = to the end"},
    {"trace.ops",              "read,write,discard,flush", "list", "operations to keep"},
    {"export-trace",           "",       "path",  "write the synthetic workload's requests as a trace (no simulation) and exit"},
    {"export-trace.format",    "disksim","name",  "format of --export-trace: blktrace, blkparse, msr, spc, fio, disksim, alibaba"},
    {"latency-log",            "",       "path",  "write one CSV row per IO"},
    {"latency-log.format",     "csv",    "csv|fio", "csv: ssdsim's columns; fio: fio's write_lat_log format (msec, lat nsec, ddir, bs, offset, prio)"},
    {"timeseries",             "",       "path",  "write per-interval IOPS, MB/s and latency (mean, max, p50, p99, p99.9) CSV"},
    {"timeseries.interval",    "1s",     "time",  "interval of --timeseries (a row each, empty ones too; a run that would write more than 10^7 rows stops with an error)"},
    {"vcd",                    "",       "path",  "write a VCD waveform (GTKWave) of what each resource is busy with; must end in .vcd"},
    {"vcd.start",              "0",      "time",  "VCD window: signals read 0 before this time"},
    {"vcd.end",                "0",      "time",  "VCD window: signals read 0 from this time; 0 = to the end"},
    {"activity",               "",       "path",  "write a Chrome/Perfetto JSON trace (ui.perfetto.dev) of every resource's operations"},
    {"activity.start",         "0",      "time",  "activity window: keep operations that end after this time"},
    {"activity.end",           "0",      "time",  "activity window: keep operations that start before this time; 0 = to the end"},
    {"seed",                   "1",      "count", "master random seed"},
    {"report",                 "",       "path",  "write the JSON report here"},
    {"report.avgtime",         "500ms",  "time",  "interval of the per-interval samples behind jobs[].iops_mean/iops_stddev/bw_mean (fio's iopsavgtime/bwavgtime; a job file's own values win); needs --report or --output-format=json"},
    {"output-format",          "normal", "list",  "what goes to stdout (or --output): normal (summary), json (the JSON report), json+ (JSON with clat_ns.bins); comma-separated to combine"},
    {"output",                 "",       "path",  "write what --output-format selects to this file instead of stdout (fio's --output)"},
    {"job",                    "",       "path",  "run the jobs of this fio job file concurrently instead of --workload.* (see below)"},
    {"log-level",              "warn",   "level", "trace, debug, info, warn, error, off"},
    {"store-data",             "false",  "bool",  "keep written bytes and return them on reads (virtual platforms; ssdsim's own host sends no data)"},
    {"check.content",          "false",  "bool",  "track page contents and verify every read (slow; for model checks)"},
    {"powerfail.at",           "0",      "time|trace", "cut the power at this simulated time: report what was acknowledged and lost, and what a rebuild from flash recovers (turns on check.content); 0 = never; trace: at the replayed fio iolog's powerfail record (\"TIME FILE powerfail\", an ssdsim extension)"},
    {"powerfail.lost",         "",       "path",  "write the acknowledged-but-lost LBA ranges of --powerfail.at as CSV"},
  };
  // clang-format on
  return specs;
}

namespace {
std::string last_part(const std::string& key) { return key.substr(key.rfind('.') + 1); }

}  // namespace

std::vector<std::string> similar_keys(const std::string& name) {
  std::vector<std::string> keys;
  for (const auto& s : option_specs()) keys.push_back(s.key);
  const auto pick = [&](auto close) {
    std::vector<std::string> out;
    for (const auto& k : keys)
      if (k != name && close(k)) out.push_back(k);
    if (out.size() > 3) out.resize(3);
    return out;
  };
  if (name.empty() || name.size() > 64) return {};  // (no key is that long)
  const std::string tail = last_part(name);
  std::vector<std::string> out = pick([&](const std::string& k) { return last_part(k) == tail; });
  if (out.empty() && name.size() >= 3)
    out = pick([&](const std::string& k) { return k.compare(0, name.size(), name) == 0; });
  // One edit in a short name, two in a longer one: more would match unrelated keys.
  const size_t most = name.size() < 6 ? 1 : 2;
  if (out.empty()) {
    const auto edits = [&](const std::string& k) { return text::edit_distance(name, k); };
    std::stable_sort(keys.begin(), keys.end(), [&](const auto& a, const auto& b) { return edits(a) < edits(b); });
    out = pick([&](const std::string& k) { return edits(k) <= most; });
  }
  return out;
}

std::string did_you_mean(const std::string& name, const std::string& dash) {
  const std::vector<std::string> keys = similar_keys(name);
  std::string out;
  for (size_t i = 0; i < keys.size(); ++i)
    out += std::string(i == 0 ? "" : i + 1 == keys.size() ? " or " : ", ") + "'" + dash + keys[i] + "'";
  return out.empty() ? "" : " (did you mean " + out + "?)";
}

}  // namespace ssd
