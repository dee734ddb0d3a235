#pragma once
// Real-time data compression in the controller (SandForce DuraWrite class,
// `controller.compression`): every host page is compressed to
// `compressed` bytes and the compressed pages are packed back to back into
// each block's byte stream, across flash-page boundaries.
//
// The FTL sees a block of more, smaller pages ("slots": floor(pages x page
// size / compressed) of them) and keeps the host's capacity, so the space
// compression frees becomes spare area: less GC, lower write amplification,
// a faster steady state, as on the drives. What reaches the flash:
// - a program of a slot that fills a flash page programs that page (the
//   whole page over the bus, then tPROG); a slot that fills none waits in
//   the controller's buffer, costing no flash time; the last slot of a
//   block also programs the block's partly filled last page;
// - a read of a slot reads the flash page(s) it lies in (tR each; a slot
//   straddling two pages reads both) and moves only its own bytes out; a
//   slot still in the buffer needs no flash access;
// - erases are unchanged.
// The compression engine is taken to keep up with the link (no time).

#include <cstdint>

namespace ssd {

class CompressedLayout {
 public:
  CompressedLayout() = default;
  // `compressed` bytes per host page; equal to `page_size` (or 0) is off.
  CompressedLayout(uint32_t page_size, uint32_t pages_per_block, uint32_t compressed);

  bool enabled() const { return on_; }
  // Host pages (slots) per block as the FTL sees it.
  uint32_t slots_per_block() const { return slots_; }
  // The flash pages a program of `slot` completes: [*first, *first + n), n = 0-2.
  uint32_t completes(uint32_t slot, uint32_t* first) const;
  // The flash pages `slot`'s bytes lie in, and its bytes in each (n = 1-2).
  struct Span {
    uint32_t page, bytes;
  };
  uint32_t spans(uint32_t slot, Span out[2]) const;
  // The slot whose program completes flash page `page` of the block.
  uint32_t completing_slot(uint32_t page) const;

 private:
  bool on_ = false;
  uint64_t page_ = 0, compressed_ = 0;
  uint32_t pages_ = 0, slots_ = 0;
};

}  // namespace ssd
