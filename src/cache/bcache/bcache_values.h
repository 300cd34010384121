// Strict parsers (and one formatter) for the values bcache shows in sysfs.
// Formats come from drivers/md/bcache/{sysfs.c,util.c,stats.c}:
//
//   Human sizes (bch_hprint; dirty_data, sequential_cutoff, readahead,
//   bypassed, block_size, writeback_rate...): powers of 1024.
//     kernels >= 4.14: always "<int>.<digit><unit>", unit in k M G T P E Z Y,
//       at least one division: 0 -> "0.0k", 512 -> "0.5k", 4 MiB -> "4.0M",
//       the digit is the truncated tenth (1250 -> "1.2k"), an optional '-'.
//     older kernels: values < 1024 as a bare integer ("0", "512"), others
//       like "1.2k".
//   Bracketed choices: "writethrough [writeback] writearound none"
//     (ParseBracketChoice, with ParseInteger in cache/sysfs_values.h, which
//     this header includes: they are not bcache's own formats).
//   state: "no cache" | "clean" | "dirty" | "inconsistent".
//   writeback_rate_debug: lines "rate:\t\t4.0M/sec", "dirty:\t\t51.4M",
//     "target:\t\t10.2M", "proportional:\t-1.2k", "integral:\t0.0k",
//     "change:\t\t0.0k/sec", "next io:\t-123ms".
//   priority_stats (cache device): "Unused:\t\t98%", "Clean:\t\t1%",
//     "Dirty:\t\t0%", "Metadata:\t0%", "Average:\t123", ...
//
// All functions are pure and thread-safe. Failures return InvalidArgument with
// a message quoting the text.
#ifndef TIERBENCH_CACHE_BCACHE_BCACHE_VALUES_H_
#define TIERBENCH_CACHE_BCACHE_BCACHE_VALUES_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "cache/sysfs_values.h"
#include "util/status.h"

namespace tierbench {

// The four cache modes, in the kernel's order (index = superblock value).
inline constexpr std::array<std::string_view, 4> kCacheModes = {
    "writethrough", "writeback", "writearound", "none"};
bool IsCacheMode(std::string_view text);

// Parses a size as bcache prints it or accepts it (see above): a bare
// non-negative integer, or a decimal with one of the suffixes k M G T P E Z Y
// (case-insensitive; powers of 1024). A decimal "<q>.<d><unit>" is read as
// the SMALLEST whole byte count that bcache would print that way (bch_hprint
// truncates to whole unit/1024 steps: "51.4M" -> 51 MiB + 410 KiB), so that
// writing the parsed value back reads back the same text; "4M" is exact.
// Rejects signs, spaces inside, empty text, several dots, fraction digits
// without a unit, overflow.
Status ParseHumanSize(std::string_view text, uint64_t* bytes);

// As ParseHumanSize, but also accepts a leading '-' (writeback_rate_debug).
Status ParseSignedHumanSize(std::string_view text, int64_t* bytes);

// Formats `v` exactly like the kernel's bch_hprint (kernels >= 4.14).
std::string FormatHumanSize(int64_t v);

// True when `shown` is how bcache (either format) displays `bytes`: the
// read-back check for size knobs ("4M" written, "4.0M" read).
bool HumanSizeMatches(uint64_t bytes, std::string_view shown);

// The backing device `state` file.
enum class BcacheState { kNoCache, kClean, kDirty, kInconsistent };
Status ParseBcacheState(std::string_view text, BcacheState* out);
std::string_view BcacheStateName(BcacheState state);

// writeback_rate_debug; sizes in bytes (rate and change per second).
struct WritebackRateDebug {
  int64_t rate_bytes_per_sec = 0;
  int64_t dirty_bytes = 0;
  int64_t target_bytes = 0;
  int64_t proportional_bytes = 0;
  int64_t integral_bytes = 0;
  int64_t change_bytes_per_sec = 0;
  int64_t next_io_ms = 0;
};
// Requires the rate, dirty and target lines; the others are optional (older
// kernels print fewer lines). Unknown lines are ignored.
Status ParseWritebackRateDebug(std::string_view text, WritebackRateDebug* out);

// priority_stats of a cache device: bucket percentages.
struct PriorityStats {
  int unused_pct = 0;
  int clean_pct = 0;
  int dirty_pct = 0;
  int metadata_pct = 0;
};
// Requires the four percentage lines; other lines are ignored.
Status ParsePriorityStats(std::string_view text, PriorityStats* out);

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_BCACHE_BCACHE_VALUES_H_
