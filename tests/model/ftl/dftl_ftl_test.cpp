// DFTL plug-in tests: the mapping cache's hits, misses and write-backs on
// hand-computed sequences, the latency a miss adds (exact, on the idle timing
// drive), the latency a small DRAM adds over a large span, and bad input.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "model/controller/controller.h"
#include "model/ftl/dftl/dftl_ftl.h"
#include "model/sim/random.h"
#include "tests/model/timing_drive.h"

namespace ssd {
namespace dftl_ftl_test {

using ftl::FlashOp;

FlashGeometry small_geometry() {
  FlashGeometry g;
  g.channels = 2;
  g.dies_per_channel = 2;
  g.planes_per_die = 1;
  g.blocks_per_plane = 64;
  g.pages_per_block = 32;
  g.page_size = 4096;
  return g;
}

// 512-byte entries: 8 per 4 KiB translation page, so sequences stay short.
ftl::FtlParams params(uint64_t cache_entries, uint32_t entry_bytes = 512) {
  ftl::FtlParams p;
  p.geometry = small_geometry();
  p.over_provisioning = 0.3;  // room for the many small translation pages
  p.map_entry_bytes = entry_bytes;
  p.dram_bytes = 64 << 20;
  p.options.number["ftl.map_cache"] = double(cache_entries * entry_bytes);
  return p;
}

double stat(const ftl::Ftl& f, const std::string& name) {
  for (const ftl::FtlStat& s : f.extra_stats())
    if (s.name == name) return s.value;
  ADD_FAILURE() << "no statistic " << name;
  return -1;
}

TEST(DftlFtl, LruHitsMissesAndTranslationPageTraffic) {
  FlashMedia media(small_geometry(), true);
  ftl::DftlFtl f(params(3), media);
  ASSERT_EQ(f.entries_per_translation_page(), 8u);
  ASSERT_EQ(f.cache_entries(), 3u);
  ftl::FtlWork w;
  // LRU of 3 entries, most recent first; every LPN is in translation page 0.
  f.write(Lpn(0), 1, w);  // miss [0]; page 0 never written: no read
  f.write(Lpn(1), 1, w);  // miss [1 0]
  f.write(Lpn(2), 1, w);  // miss [2 1 0]
  f.read(Lpn(0), w);      // hit  [0 2 1]
  // miss: evict 1 (dirty) -> write page 0 back (first version: program only),
  // which cleans 0, 1, 2; then read page 0 for 3's entry. [3 0 2]
  f.write(Lpn(3), 1, w);
  EXPECT_EQ(stat(f, "translation_page_writes"), 1);
  EXPECT_EQ(stat(f, "map_entries_written_back"), 3);
  EXPECT_FALSE(f.dirty(Lpn(0)));
  EXPECT_TRUE(f.dirty(Lpn(3)));
  w.clear();
  f.read(Lpn(1), w);  // miss: evict 2 (clean, free); read page 0, then the data. [1 3 0]
  ASSERT_EQ(w.ops.size(), 2u);
  EXPECT_EQ(w.ops[0].kind, FlashOp::Kind::Read);
  EXPECT_EQ(w.ops[0].ppn, f.lookup(Lpn(uint32_t(f.user_pages()))));  // the GTD entry of page 0
  EXPECT_EQ(w.ops[1].ppn, f.lookup(Lpn(1)));
  EXPECT_EQ(w.ops[1].after, 0);
  f.read(Lpn(0), w);  // hit [0 1 3]
  w.clear();
  // miss: evict 3 (dirty): read page 0, program its new version after that
  // read; then read the new version for 2's entry, then the data. [2 0 1]
  const Ppn old_page = f.lookup(Lpn(uint32_t(f.user_pages())));
  f.read(Lpn(2), w);
  ASSERT_EQ(w.ops.size(), 4u);
  EXPECT_EQ(w.ops[0].kind, FlashOp::Kind::Read);
  EXPECT_EQ(w.ops[0].ppn, old_page);
  EXPECT_EQ(w.ops[1].kind, FlashOp::Kind::Program);
  EXPECT_EQ(w.ops[1].after, 0);
  EXPECT_EQ(w.ops[2].ppn, f.lookup(Lpn(uint32_t(f.user_pages()))));
  EXPECT_EQ(w.ops[2].ppn, w.ops[1].ppn);
  EXPECT_EQ(w.ops[3].after, 2);
  f.read(Lpn(3), w);  // miss: evict 1 (clean); read page 0. [3 2 0]
  EXPECT_EQ(stat(f, "map_cache_hits"), 2);
  EXPECT_EQ(stat(f, "map_cache_misses"), 7);
  EXPECT_EQ(stat(f, "translation_page_reads"), 5);  // misses of W3 R1 R2 R3 + the write-back of R2
  EXPECT_EQ(stat(f, "translation_page_writes"), 2);
  EXPECT_EQ(stat(f, "dirty_evictions"), 2);
  EXPECT_EQ(stat(f, "map_entries_written_back"), 4);
  EXPECT_EQ(f.stats().flash_pages_written, 4u + 2u);  // host pages + translation pages
  EXPECT_TRUE(f.cached(Lpn(3)) && f.cached(Lpn(2)) && f.cached(Lpn(0)) && !f.cached(Lpn(1)));
  f.check_consistency();
}

TEST(DftlFtl, CacheHoldsExactlyWhatAPlainLruHoldsThroughManyHits) {
  // A cache of 5 entries: its LRU order is a ring of touches, which hits fill
  // with dead entries (the ring, of 2 x 5 + 64 places, is packed again and
  // again). After every read the cached set is that of a plain LRU list.
  FlashMedia media(small_geometry(), true);
  ftl::DftlFtl f(params(5), media);
  ftl::FtlWork w;
  for (uint32_t l = 0; l < 40; ++l) f.write(Lpn(l), 1, w);  // mapped, and the cache's 5 newest
  std::vector<uint32_t> lru;  // most recent first
  for (uint32_t l = 40; l-- > 35;) lru.push_back(l);
  Random rng(11);
  for (int i = 0; i < 3000; ++i) {
    // Mostly the cached entries (hits), now and then one of the others.
    const uint32_t l = rng.below(4) ? lru[rng.below(lru.size())] : uint32_t(rng.below(40));
    w.clear();
    f.read(Lpn(l), w);
    const auto it = std::find(lru.begin(), lru.end(), l);
    if (it != lru.end()) lru.erase(it);
    lru.insert(lru.begin(), l);
    if (lru.size() > 5) lru.pop_back();
    for (uint32_t k = 0; k < 40; ++k)
      ASSERT_EQ(f.cached(Lpn(k)), std::find(lru.begin(), lru.end(), k) != lru.end()) << "read " << i << ", LPN " << k;
  }
  EXPECT_GT(stat(f, "map_cache_hits"), 2000);
  f.check_consistency();
}

TEST(DftlFtl, DirtyEvictionsWriteEachTranslationPageBackOnce) {
  FlashMedia media(small_geometry(), true);
  ftl::DftlFtl f(params(16), media);
  ftl::FtlWork w;
  // 12 dirty entries: all 8 of translation page 0 and 4 of page 1.
  for (uint32_t l = 0; l < 12; ++l) f.write(Lpn(l), 1, w);
  // Page 2 (LPNs 16..23): the cache fills at 19; 20..23 evict 0..3. Evicting 0
  // writes page 0 back with all 8 of its entries; 1..3 are then clean.
  for (uint32_t l = 16; l < 24; ++l) f.write(Lpn(l), 1, w);
  EXPECT_EQ(stat(f, "translation_page_writes"), 1);
  EXPECT_EQ(stat(f, "map_entries_written_back"), 8);
  // Page 3 (24..31) evicts 4..7 (clean) and 8..11: one write-back of page 1.
  for (uint32_t l = 24; l < 32; ++l) f.write(Lpn(l), 1, w);
  EXPECT_EQ(stat(f, "translation_page_writes"), 2);  // 12 without batching
  EXPECT_EQ(stat(f, "dirty_evictions"), 2);
  EXPECT_EQ(stat(f, "map_entries_written_back"), 12);
  EXPECT_EQ(stat(f, "translation_page_reads"), 0);  // pages 0..3 had no flash version to read
  // Rewriting 0..15 evicts 16..31 (pages 2 and 3, dirty): two more write-backs
  // (no old version to read), and each of the 16 misses reads page 0 or 1.
  for (uint32_t l = 0; l < 16; ++l) f.write(Lpn(l), 2, w);
  EXPECT_EQ(stat(f, "translation_page_writes"), 4);
  EXPECT_EQ(stat(f, "translation_page_reads"), 16);
  f.check_consistency();
}

TEST(DftlFtl, UnmappedReadReturnsNothingEvenAfterATranslationRead) {
  FlashMedia media(small_geometry(), true);
  ftl::DftlFtl f(params(1), media);
  ftl::FtlWork w;
  f.write(Lpn(0), 1, w);
  f.write(Lpn(8), 1, w);  // evicts 0: page 0 now on flash
  w.clear();
  f.read(Lpn(1), w);  // never written, but only its translation page says so
  PageContent c;
  EXPECT_FALSE(w.returns(media, c));
  EXPECT_EQ(f.stats().unmapped_reads, 1u);
  EXPECT_EQ(stat(f, "translation_page_reads"), 1);
}

// A tiny cache and small translation pages: GC, write-backs and translation
// pages moved by GC all happen; every read must find the newest version.
TEST(DftlFtl, ShadowMapWithTinyCacheThroughGcOfTranslationPages) {
  FlashMedia media(small_geometry(), true);
  ftl::DftlFtl f(params(24, 256), media);  // 16 entries per translation page
  const uint64_t n = f.user_pages();
  std::vector<uint64_t> shadow(n, 0);
  Random rng(5);
  ftl::FtlWork w;
  uint64_t version = 0;
  for (int i = 0; i < 400000; ++i) {
    const uint32_t lpn = uint32_t(rng.below(n)), dice = rng.percent();
    w.clear();
    if (dice < 60) {
      f.write(Lpn(lpn), ++version, w);
      shadow[lpn] = version;
    } else if (dice < 70) {
      f.trim(Lpn(lpn), w);
      shadow[lpn] = 0;
    } else {
      f.read(Lpn(lpn), w);
      PageContent c;
      ASSERT_EQ(w.returns(media, c), shadow[lpn] != 0) << "op " << i;
      if (shadow[lpn]) {
        ASSERT_EQ(c.version, shadow[lpn]) << "op " << i;
      }
    }
    if (i % 50000 == 0) f.check_consistency();
  }
  f.check_consistency();
  EXPECT_GT(f.stats().gc_runs, 100u);
  EXPECT_GT(stat(f, "gc_translation_pages_moved"), 0);
  EXPECT_GT(stat(f, "dirty_evictions"), 1000);
}

// Random writes with a small cache write a translation page back before
// most host writes. Placed on the host data's die cursor, the two streams
// aliased: on 32 dies (64-page blocks, a cache of 4096 entries) some took
// mostly data, up to the most valid pages a die may hold (GC there moving
// nearly every page), others mostly translation pages. Each stream has its
// own cursor: after a fill and two capacities of random overwrites the
// valid pages stay spread evenly (each die within 3 % of the mean, as
// random overwrites leave them); on the shared cursor this fails.
TEST(DftlFtl, TranslationPagesDoNotCrowdTheDataOntoSomeDies) {
  FlashGeometry g = small_geometry();
  g.channels = 8;
  g.dies_per_channel = 4;
  g.planes_per_die = 2;
  g.blocks_per_plane = 64;
  g.pages_per_block = 64;
  FlashMedia media(g, false);
  ftl::FtlParams p = params(4096, 4);
  p.geometry = g;
  p.over_provisioning = 0.07;
  ftl::DftlFtl f(p, media);
  const uint64_t n = f.user_pages();
  Random rng(11);
  ftl::FtlWork w;
  w.record_ops = false;
  for (uint64_t i = 0; i < 3 * n; ++i) {
    const uint32_t lpn = uint32_t(i < n ? i : rng.below(n));
    w.clear();
    f.write(Lpn(lpn), 1, w);
  }
  f.check_consistency();
  const uint64_t per_die = uint64_t(g.pages_per_block) * g.blocks_per_die();
  std::vector<double> valid(g.dies(), 0.0);
  const uint64_t pages = n + (n + f.entries_per_translation_page() - 1) / f.entries_per_translation_page();
  for (uint64_t l = 0; l < pages; ++l) {  // the user pages, then the translation pages
    const Ppn ppn = f.lookup(Lpn(uint32_t(l)));
    if (ppn.v != UINT32_MAX) valid[ppn.v / per_die] += 1;
  }
  const double mean = double(pages) / g.dies();
  for (uint32_t d = 0; d < g.dies(); ++d) EXPECT_NEAR(valid[d], mean, 0.03 * mean) << "die " << d;
  EXPECT_GT(stat(f, "dirty_evictions"), 0.5 * double(n));  // the streams interleave: a write-back per 4 writes
}

TEST(DftlFtl, MapCacheLargerThanDramIsRefusedNamingTheOption) {
  auto refused = [](std::vector<std::string> args) {
    args.insert(args.begin(), "--ftl.name=dftl");
    const ssd::Options opts = ssdtest::parse(args);
    FlashMedia media(opts.config().nand.geometry, false);
    try {
      ftl::FtlRegistry::instance().create("dftl", ftl_params(opts.config()), media);
    } catch (const ftl::FtlConfigError& e) {
      EXPECT_EQ(e.key, "ftl.map_cache");
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(refused({"--dram.size=1m", "--ftl.map_cache=2m"}).find("DRAM"), std::string::npos);
  // The write cache takes its share first.
  EXPECT_NE(refused({"--dram.size=4m", "--dram.write_cache=3m", "--ftl.map_cache=2m"}).find("after the write cache"),
            std::string::npos);
  // DRAM-less: the cache lives in controller SRAM, which is small.
  EXPECT_NE(refused({"--dram.size=0", "--ftl.map_cache=1m"}).find("SRAM"), std::string::npos);
  EXPECT_EQ(refused({"--dram.size=0", "--ftl.map_cache=64k"}), "accepted");
  EXPECT_EQ(refused({"--dram.size=4m", "--dram.write_cache=2m", "--ftl.map_cache=1m"}), "accepted");
  EXPECT_NE(refused({"--ftl.map_cache=0"}).find("at least one mapping entry"), std::string::npos);
}

// ---- timing, on the fully specified drive of tests/model/timing_drive.h ----
using namespace ssdtest;

// What the timing drive's 4 KiB read costs when its map entry is cached: the
// page FTL's (IdleLatency.Read4k).
uint64_t hit_latency() {
  return kCmd + kDecode + kLookup + dram(4) + kFlashOp + kTr + ps_xfer(4096, kChannel) + dram(4096) +
         std::max(kComplete, ps_xfer(4096, kSata));
}
// A miss issues one more NAND command and reads the translation page (array
// read, page over the channel) before the data read may start.
uint64_t miss_penalty() { return kFlashOp + kTr + ps_xfer(4096, kChannel); }

TEST(DftlTiming, ReadWhoseEntryIsCachedCostsAPageFtlRead) {
  // 104857 user pages x 4 B = 410 KiB: a 1 MiB cache holds the whole table.
  auto r = simulate(drive({"--ftl.name=dftl", "--ftl.map_cache=1m", "--precondition=seq-fill",
                           "--workload.rw=randread", "--workload.iodepth=1", "--workload.number_ios=1"}));
  ASSERT_EQ(r["device"]["ftl"]["stats"]["map_cache_hits"]["value"], 1);
  EXPECT_EQ(r["read"]["lat_ns"]["min"].get<uint64_t>(), hit_latency() / kNs);
}

TEST(DftlTiming, ReadWhoseEntryMissesPaysOneTranslationPageRead) {
  // A 4 KiB cache: 1024 entries, one translation page's worth. After seq-fill
  // it holds the last 1024 LPNs, of which those in the next-to-last page are
  // clean (written back when the last page's first write evicted its first
  // entry): the random LPN misses and evicts a clean entry, for free.
  auto r = simulate(drive({"--ftl.name=dftl", "--ftl.map_cache=4k", "--precondition=seq-fill",
                           "--workload.rw=randread", "--workload.iodepth=1", "--workload.number_ios=1"}));
  const auto& s = r["device"]["ftl"]["stats"];
  ASSERT_EQ(s["map_cache_misses"]["value"], 1);
  ASSERT_EQ(s["dirty_evictions"]["value"], 0);
  ASSERT_EQ(s["translation_page_reads"]["value"], 1);
  EXPECT_EQ(r["read"]["lat_ns"]["min"].get<uint64_t>(), (hit_latency() + miss_penalty()) / kNs);
}

// One simulation per process (SystemC elaborates once): run it in a child.
nlohmann::json simulate_in_child(const std::vector<std::string>& args) {
  int fd[2];
  if (pipe(fd) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    const std::string out = simulate(args).dump();
    for (size_t done = 0; done < out.size();) {
      const ssize_t k = write(fd[1], out.data() + done, out.size() - done);
      if (k <= 0) _exit(1);
      done += size_t(k);
    }
    _exit(0);
  }
  close(fd[1]);
  std::string text;
  char buf[65536];
  for (ssize_t k; (k = read(fd[0], buf, sizeof buf)) > 0;) text.append(buf, size_t(k));
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.empty()) return {};
  return nlohmann::json::parse(text);
}

TEST(DftlTiming, SmallDramRaisesRandomReadLatencyByMissRateTimesATranslationRead) {
  // Random 4 KiB reads at QD1 over the whole seq-filled drive: with 1 % of
  // the table cached (4 KiB of 410 KiB) nearly every read misses; with all of
  // it cached none does. The difference of the means is the misses' share of
  // a translation-page read.
  auto run = [](const std::string& cache) {
    return simulate_in_child(drive({"--ftl.name=dftl", "--ftl.map_cache=" + cache, "--precondition=seq-fill",
                                    "--workload.rw=randread", "--workload.iodepth=1",
                                    "--workload.number_ios=3000"}));
  };
  const nlohmann::json small = run("4k"), full = run("1m");
  ASSERT_FALSE(small.is_null());
  ASSERT_FALSE(full.is_null());
  ASSERT_EQ(full["device"]["ftl"]["stats"]["map_cache_misses"]["value"], 0);
  const auto& s = small["device"]["ftl"]["stats"];
  const double hits = s["map_cache_hits"]["value"], misses = s["map_cache_misses"]["value"];
  const double miss_rate = misses / (hits + misses);
  EXPECT_GT(miss_rate, 0.95);
  const double diff_ns = small["read"]["lat_ns"]["mean"].get<double>() - full["read"]["lat_ns"]["mean"].get<double>();
  const double expected_ns = miss_rate * double(miss_penalty()) / double(kNs);
  RecordProperty("miss_rate", std::to_string(miss_rate));
  RecordProperty("latency_added_ns", std::to_string(diff_ns));
  EXPECT_NEAR(diff_ns, expected_ns, 0.10 * expected_ns);
}

}  // namespace dftl_ftl_test

}  // namespace ssd
