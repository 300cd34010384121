// Block-layer IO counters of one device: /sys/class/block/<name>/stat, fields
// as in the kernel's Documentation/block/stat.rst (11 fields before 4.18, 15
// with the discard fields, 17 with the flush fields since 5.5). Sectors are
// always 512 bytes there, whatever the device's logical block size.
//
// Used to count where IO really went under bcache: the bcache device, the
// backing HDD and the cache SSD each have their own stat file.
// Pure value types and functions; thread-safe.
#ifndef TIERBENCH_CACHE_BLOCK_STAT_H_
#define TIERBENCH_CACHE_BLOCK_STAT_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "util/status.h"
#include "util/sysfs.h"

namespace tierbench {

struct BlockStat {
  uint64_t read_ios = 0;
  uint64_t read_merges = 0;
  uint64_t read_sectors = 0;
  uint64_t read_ticks_ms = 0;
  uint64_t write_ios = 0;
  uint64_t write_merges = 0;
  uint64_t write_sectors = 0;
  uint64_t write_ticks_ms = 0;
  uint64_t in_flight = 0;  // A gauge, not a counter: Diff keeps "after".
  uint64_t io_ticks_ms = 0;
  uint64_t time_in_queue_ms = 0;
  uint64_t discard_ios = 0;
  uint64_t discard_merges = 0;
  uint64_t discard_sectors = 0;
  uint64_t discard_ticks_ms = 0;
  uint64_t flush_ios = 0;
  uint64_t flush_ticks_ms = 0;

  uint64_t read_bytes() const { return read_sectors * 512; }
  uint64_t write_bytes() const { return write_sectors * 512; }
};

// Parses the stat line: 11, 15 or 17 whitespace-separated unsigned integers.
Status ParseBlockStat(std::string_view text, BlockStat* out);

// after - before per counter; a counter that went backwards (device
// re-created) yields 0 and sets *wrapped when `wrapped` is non-null.
BlockStat DiffBlockStat(const BlockStat& before, const BlockStat& after,
                        bool* wrapped = nullptr);

// Reads sys/class/block/<name>/stat through `sysfs` (works for disks and
// partitions). NotFound when the device does not exist.
Status ReadBlockStat(const Sysfs& sysfs, std::string_view name, BlockStat* out);

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_BLOCK_STAT_H_
