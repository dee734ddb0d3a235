// Host pages packed into flash pages (model/controller/compression.h):
// controller compression (`controller.compression`) by the data's
// compressibility (`workload.compressibility`), and a map unit smaller than
// the flash page (`controller.map_unit`).
#include "model/sim/options.h"

namespace ssd {

void Options::build_compression(SimConfig& c) const {
  // fio's buffer_compress_percentage: the data compresses by this share.
  // A job file gives it as buffer_compress_percentage: one value for the
  // run (the FTL's layout is fixed when the drive is built).
  uint32_t percent = uint32_t(count("workload.compressibility", 0, 90));
  for (const FioJob& j : c.jobs.jobs) {
    if (j.buffer_compress_percentage != c.jobs.jobs.front().buffer_compress_percentage)
      throw error("job", c.job_file + ": buffer_compress_percentage differs between jobs '" + c.jobs.jobs.front().name +
                             "' and '" + j.name + "' (one value per run: the drive packs all its data alike)");
    if (j.buffer_compress_percentage > 90)
      throw error("job", c.job_file + ": job '" + j.name + "': buffer_compress_percentage above 90 is not modelled");
    percent = j.buffer_compress_percentage;
  }
  c.compressibility = percent;
  const bool compress = flag("controller.compression");
  // A drive that does not compress writes every byte: how much the data
  // would compress, given anyway, would be silently ignored.
  if (!compress && given("workload.compressibility"))
    throw error("workload.compressibility", "matters only with controller.compression=true");
  if (!compress && percent)
    throw error("job", c.job_file + ": buffer_compress_percentage matters only with controller.compression=true");
  const FlashGeometry& g = c.nand.geometry;
  const uint64_t host = c.nand.host_page();
  // At least one byte, and whole bytes: what a host page takes in flash.
  const uint64_t bytes = compress ? (host * (100 - percent) + 99) / 100 : host;
  if (bytes >= g.page_size) return;  // one host page a flash page: nothing is packed
  c.nand.compressed_bytes = uint32_t(bytes);
  const std::string cause = compress ? "controller.compression" : "controller.map_unit";
  // The FTL counts a block's valid pages in 16 bits.
  if (uint64_t(g.pages_per_block) * g.page_size / bytes > 32768)
    throw error(compress ? "workload.compressibility" : "controller.map_unit",
                "packed pages of " + std::to_string(bytes) + " B make " +
                    std::to_string(uint64_t(g.pages_per_block) * g.page_size / bytes) + " per block, over 32768");
  // Mechanisms that act on whole flash pages of one host page each.
  for (const char* k : {"nand.multiplane", "nand.copyback", "nand.partial_read", "nand.suspend"})
    if (flag(k)) throw error(k, "is not modelled together with " + cause + " (host pages packed into flash pages)");
  if (c.powerfail())
    throw error("powerfail.at", "is not modelled together with " + cause +
                                    " (durability of pages still in the controller's buffer)");
}

}  // namespace ssd
