#pragma once
// The simulator's configuration, parsed once (model/sim/options.h) into these
// validated structs and handed to the modules by const reference.

#include <systemc>

#include <cstdint>
#include <string>

#include "model/host/fio_job.h"
#include "model/ftl/ftl.h"
#include "model/nand/geometry.h"
#include "model/controller/drive_state.h"

namespace ssd {

using sc_core::sc_time;

struct NandConfig {
  FlashGeometry geometry;
  sc_time t_read = sc_time(50, sc_core::SC_US);    // array to page register (tR)
  sc_time t_prog = sc_time(900, sc_core::SC_US);   // page program (tPROG)
  sc_time t_erase = sc_time(2, sc_core::SC_MS);    // block erase (tBERS)
  double channel_rate = 40e6;                      // bytes/s on one channel bus
  // MLC fast and slow pages: with `lsb_msb`, each word line holds an LSB
  // (lower, fast) and an MSB (upper, slow) page, each type with its own times
  // (zero: the uniform t_read / t_prog). Which pages of a block pair up is the
  // chip's page order: even-odd (word line n holds pages 2n and 2n+1), or
  // with `all_bit_line` the order of all-bit-line MLC chips, where a word
  // line's upper page is programmed only after the next word line's lower
  // page (to limit coupling): word line n holds LSB page 2n-1 (page 0 for
  // n = 0) and MSB page 2n+2 (the last page for the last word line), so a
  // block runs L L M L M ... L M M (Micheloni, Crippa, Marelli, "Inside NAND
  // Flash Memories", Springer 2010, ch. 10).
  bool lsb_msb = false;
  bool all_bit_line = false;
  bool lsb_page(uint32_t page) const {
    if (!all_bit_line) return page % 2 == 0;
    return page == 0 || (page % 2 == 1 && page + 1 != geometry.pages_per_block);
  }
  sc_time t_prog_lsb, t_prog_msb, t_read_lsb, t_read_msb;
  bool partial_read = false;  // a host read of part of a page moves only its sectors over the bus
  bool copyback = false;      // GC moves within a die keep the data in the die (no bus transfer)
  // The die's cache register (model/nand/nand_channel.h): a program's data
  // moves in while the array still programs the previous page; a read's
  // data moves out while the array reads the next.
  bool cache_program = false;
  bool cache_read = false;
  // Program/erase suspend (model/nand/nand_channel.h): a host read that
  // finds its die in the array step of a program or erase suspends it after
  // t_suspend, runs, and the program resumes (it ends that much later).
  bool suspend = false;
  sc_time t_suspend = sc_time(20, sc_core::SC_US);
  // How many times one program or erase may be suspended (0: no limit).
  // Firmware keeps such a limit so that a read stream cannot starve a
  // program; past it, reads wait for the operation's end.
  uint32_t max_suspends = 0;
  // Multi-plane operation (`nand.multiplane`): the firmware pairs the
  // planes of a die. The FTL and the flash media see one block per block
  // index spanning every plane (a multi-plane block of planes x pages, its
  // pages interleaved over the planes: page j is page j / planes of plane
  // j % planes), and the ops of one command or GC slice on the same die,
  // of one kind, at the same page of different planes run as one
  // multi-plane operation: their transfers, one array time.
  bool multiplane = false;
  // The FTL's mapping unit (`controller.map_unit`) when it is smaller than
  // a flash page (4 KiB units on 8 KiB pages): the host's page, packed into
  // flash pages as compressed pages are (below); 0 = the flash page.
  uint32_t map_unit = 0;
  uint32_t host_page() const { return map_unit ? map_unit : geometry.page_size; }
  // Pages packed into flash pages (model/controller/compression.h): the
  // bytes each host page takes in flash (compressed by
  // `controller.compression`, or a map unit as it is); 0 = off. The FTL's
  // blocks then hold more, smaller pages.
  uint32_t compressed_bytes = 0;
  FlashGeometry ftl_geometry() const {
    FlashGeometry g = geometry;
    if (compressed_bytes && compressed_bytes < geometry.page_size)
      g.pages_per_block = uint32_t(uint64_t(geometry.pages_per_block) * geometry.page_size / compressed_bytes);
    if (!multiplane) return g;
    g.pages_per_block = geometry.pages_per_block * geometry.planes_per_die;
    g.planes_per_die = 1;
    return g;
  }
  // The page within its physical block, and its plane, of page `page` of an FTL block.
  uint32_t physical_page(uint32_t page) const { return multiplane ? page / geometry.planes_per_die : page; }
  uint32_t plane_of_page(uint32_t page) const { return multiplane ? page % geometry.planes_per_die : 0; }
  sc_time program_time(uint32_t page) const {
    if (!lsb_msb) return t_prog;
    const sc_time& t = lsb_page(page) ? t_prog_lsb : t_prog_msb;
    return t == sc_core::SC_ZERO_TIME ? t_prog : t;
  }
  sc_time read_time(uint32_t page) const {
    if (!lsb_msb) return t_read;
    const sc_time& t = lsb_page(page) ? t_read_lsb : t_read_msb;
    return t == sc_core::SC_ZERO_TIME ? t_read : t;
  }
};

struct DramConfig {
  uint64_t size = 64ull << 20;     // bytes; 0 = DRAM-less controller
  double bandwidth = 666e6;        // bytes/s (DDR-333 x 16 bit)
  sc_time latency = sc_time(60, sc_core::SC_NS);  // access latency (row + CAS)
  uint64_t write_cache = 0;        // bytes of user-data write-back cache (0: write-through)
  uint32_t map_entry_bytes = 4;    // one mapping-table entry
  sc_time plp = sc_core::SC_ZERO_TIME;  // power-loss protection: hold-up time after a cut (0: none)
};

struct CpuConfig {
  uint32_t cores = 1;
  double clock = 200e6;            // Hz
  uint64_t decode_cycles = 800;    // parse the FIS, set up DMA, queue the command
  uint64_t complete_cycles = 400;  // post the completion (Set Device Bits FIS)
  uint64_t page_cycles = 100;      // per flash page: build and issue the NAND command
  ftl::FtlCycleCosts ftl;
};

struct SataConfig {
  uint32_t gen = 2;                                // 1, 2, 3 -> 1.5, 3, 6 Gb/s
  sc_time cmd_overhead = sc_time(2, sc_core::SC_US);  // FIS exchange per command on the link
  // Per Data FIS (<= 8 KiB): what the link loses beyond the payload bytes
  // (SOF/EOF, CRC, X_RDY/R_RDY/R_OK handshakes, the host's DMA turnaround).
  // It is why the era's best drives reached ~260 MB/s, not 300, on SATA 2.
  sc_time fis_overhead = sc_core::SC_ZERO_TIME;
  uint32_t ncq_depth = 32;
  // The drive paces writes' Data FISes (SataInterface, HostCommand::data_link).
  bool flow_control = false;
  // Payload rate: line rate less 8b/10b coding.
  double payload_rate() const { return (gen == 1 ? 1.5e9 : gen == 2 ? 3e9 : 6e9) * 0.8 / 8.0; }
};

// A hard disk (`device = hdd`, model/hdd/hdd_disk.h). Defaults: a generic
// 7,200 rpm desktop disk (seek figures of the WD Caviar WD400BB datasheet).
struct HddConfig {
  uint64_t capacity = 500000000000ull;  // user bytes
  double rpm = 7200;
  sc_time track_to_track = sc_time(2, sc_core::SC_MS);  // seek of one track, settle included
  sc_time avg_seek = sc_time(8.9, sc_core::SC_MS);      // at a third of the stroke
  sc_time full_seek = sc_time(21, sc_core::SC_MS);      // the whole stroke
  double rate_outer = 100e6, rate_inner = 55e6;          // media rate, bytes/s
  uint64_t cache = 16ull << 20;                          // buffer bytes (read segment and write cache)
  uint64_t read_ahead = 512ull << 10;                    // bytes read on after a read
  bool write_cache = true;
  uint32_t write_segments = 8;                           // writes the cache holds at once (buffer segments)
  bool write_batch = false;                              // a full write cache is written out whole (hdd.write_flush)
  bool sptf = true;                                      // NCQ: shortest positioning time first (else FIFO)
  double max_wait = 0.5;                                 // sptf: a command queued this long (s) goes first; 0 = no bound
  sc_time cmd_overhead = sc_time(300, sc_core::SC_US);   // the drive's electronics per command
};

// RAID-0 of controllers behind one port (model/raid/raid_frontend.h).
struct RaidConfig {
  uint32_t members = 1;                                  // 1: a single SSD, no front-end
  uint64_t stripe = 128 << 10;                           // bytes per stripe unit
  sc_time cmd_overhead = sc_core::SC_ZERO_TIME;          // the RAID chip per host command
  uint32_t member_queue = 32;  // sub-commands a member takes at once (its NCQ depth); more wait in the chip
};

// The host side: the OS and AHCI driver in front of the link.
struct HostConfig {
  uint32_t ncq_depth = 32;          // NCQ tags the drive offers (sata.ncq_depth): at most this many in the drive
  sc_time cmd_overhead = sc_core::SC_ZERO_TIME;  // host CPU per command: build the command, ring the doorbell
  sc_time irq_overhead = sc_core::SC_ZERO_TIME;  // host CPU per completion: interrupt and completion handling
};

struct WorkloadConfig {
  std::string rw = "randread";     // read, write, randread, randwrite, randrw, rw/readwrite
  uint64_t bs = 4096;
  uint32_t iodepth = 32;
  uint32_t rwmixread = 50;         // percent reads in mixed workloads
  uint32_t percentage_random = 100;
  uint64_t size = 0;               // LBA span in bytes; 0 = whole user capacity
  uint64_t offset = 0;             // bytes
  uint64_t number_ios = 0;         // 0 = unlimited (runtime bounds it)
  sc_time runtime = sc_core::SC_ZERO_TIME;  // simulated time limit; 0 = none
  uint64_t randseed = 0;           // 0: derived from --seed
};

// Trace replay (`--trace` and `trace.*`).
struct ReplayConfig {
  std::string path;                 // file, blktrace NAME prefix or directory; "" = synthetic workload
  std::string format;               // "" = detect from the content
  bool timed = true;                // timed: recorded arrivals; afap: closed loop
  double speed = 1.0;               // timed: arrivals scaled by 1/speed
  uint32_t iodepth = 32;            // NCQ slots the host uses
  uint32_t sector_size = 512;       // for formats that count sectors
  uint64_t offset = 0;              // bytes subtracted from every address
  bool wrap = true;                 // beyond capacity: wrap (true) or error
  bool arrival_issue = false;       // blktrace/blkparse: D instead of Q
  bool skip_bad = false;            // skip and count malformed records
  int64_t device = -1;              // keep only this device (-1: all)
  sc_time window_start = sc_core::SC_ZERO_TIME, window_end = sc_core::SC_ZERO_TIME;  // 0 end: none
  bool keep_read = true, keep_write = true, keep_discard = true, keep_flush = true;
};

struct SimConfig {
  bool hdd = false;                // device = hdd: a hard disk instead of the SSD
  RaidConfig raid;
  HddConfig disk;
  NandConfig nand;
  DramConfig dram;
  CpuConfig cpu;
  SataConfig sata;
  HostConfig host;
  std::string ftl_name = "page";
  ftl::FtlOptions ftl_options;     // the selected FTL's own declared options
  sc_time idle_after = sc_core::SC_ZERO_TIME;  // host idle this long: FTL background work (0: never)
  // Dies the idle loop works on at once (ftl.idle_dies): 1 issues one NAND op
  // at a time across the drive; N keeps up to N slices in flight, each on
  // dies no other slice is using (the FTL picks them, FtlWork::busy_dies).
  uint32_t idle_dies = 1;
  // One GC/merge at a time across commands (controller.serial_gc): a
  // firmware that runs its merges in one thread, as the JMicron JMF602's
  // drive-wide stalls suggest; otherwise merges on different dies overlap.
  bool serial_gc = false;
  // Bytes of user-data write buffer in controller SRAM (controller.
  // sram_write_buffer; DRAM-less controllers only): the DRAM write cache's
  // rule (WriteCache) without its DRAM traffic. 0: write-through.
  uint64_t sram_write_buffer = 0;
  bool trim = true;  // controller.trim: false = TRIM is accepted and ignored (no TRIM support)
  double ftl_op = 0.07;
  uint32_t gc_threshold = 2;
  WorkloadConfig workload;
  DriveState state = DriveState::precondition("seq-fill", 1.0);  // before the timed phase
  bool state_option = false;       // given with --state (else from --precondition)
  uint32_t state_threads = 0;      // state.threads: for the functional phases (0: the cores available)
  std::string save_state, load_state;  // checkpoint files ("" = none)
  uint64_t seed = 1;
  ReplayConfig replay;
  std::string report;              // JSON report path ("" = none)
  std::string export_trace;        // write the synthetic workload as a trace ("" = simulate)
  std::string export_format = "disksim";
  std::string latency_log;         // per-IO CSV ("" = none)
  std::string timeseries;          // per-interval CSV ("" = none)
  sc_time timeseries_interval = sc_time(1, sc_core::SC_SEC);
  // Activity traces (model/sim/activity.h), each with its window (0 end: to the end).
  std::string vcd;                 // VCD waveform ("" = none)
  sc_time vcd_start = sc_core::SC_ZERO_TIME, vcd_end = sc_core::SC_ZERO_TIME;
  std::string activity;            // Chrome/Perfetto JSON trace ("" = none)
  sc_time activity_start = sc_core::SC_ZERO_TIME, activity_end = sc_core::SC_ZERO_TIME;
  std::string log_level = "warn";
  uint32_t compressibility = 0;    // workload.compressibility: percent the data compresses by
  bool track_content = false;      // keep page contents (for checks; costs memory)
  // fio compatibility
  std::string job_file;            // --job: fio job file ("" = none)
  FioJobFile jobs;                 // its jobs, numjobs expanded
  std::string output;              // --output: what --output-format selects goes here ("" = stdout)
  bool output_normal = true, output_json = false, output_json_plus = false;
  bool latency_log_fio = false;    // --latency-log in fio's write_lat_log format instead of CSV
  sc_time report_avgtime = sc_time(500, sc_core::SC_MS);  // per-interval IOPS/bw samples of jobs[]
  bool store_data = false;         // keep the host's written bytes (model/sata/data_store.h)
  sc_time powerfail_at = sc_core::SC_ZERO_TIME;  // --powerfail.at: the power cut (0: none)
  bool powerfail_from_trace = false;  // --powerfail.at=trace: at the trace's powerfail record
  bool powerfail() const { return powerfail_at != sc_core::SC_ZERO_TIME || powerfail_from_trace; }
  std::string powerfail_lost;      // --powerfail.lost: CSV of lost LBA ranges ("" = none)
};

}  // namespace ssd
