// The table of writable bcache knobs that tierbench sets, captures and
// restores, and the value conversions between mode files, sysfs writes and
// sysfs read-backs.
//
// Backing-device knobs live in sys/block/bcacheN/bcache/<name>; cache-set
// knobs in sys/fs/bcache/<cset-uuid>/<path> (some under internal/). Names in
// mode files are the sysfs FILE names ("sequential_cutoff",
// "congested_read_threshold_us", "idle_max_writeback_rate").
//
// Deliberately left out: writeback_rate (the PD controller overwrites it every
// writeback_rate_update_seconds; sysfs shows bytes/s but takes sectors/s),
// cache_mode (handled on its own), stop/attach/detach/clear_stats (actions),
// label, io_error_* and the cache device's persistent superblock settings.
//
// Thread-safety: the table is immutable; functions are pure.
#ifndef TIERBENCH_CACHE_BCACHE_BCACHE_KNOBS_H_
#define TIERBENCH_CACHE_BCACHE_BCACHE_KNOBS_H_

#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"

namespace tierbench {

enum class KnobScope { kBacking, kCacheSet };

enum class KnobKind {
  kSize,     // Human size: mode files "4M" / 4194304; written as bytes.
  kInteger,  // Decimal integer.
  kBool,     // 0/1; mode files also accept true/false.
  kChoice,   // Bracketed list; the selected word is the value.
};

struct KnobInfo {
  std::string_view name;      // As in mode files.
  std::string_view rel_path;  // Below the scope's directory.
  KnobScope scope;
  KnobKind kind;
  bool optional;          // Absent on some kernels: skipped if missing.
  std::string_view help;  // One line for docs and messages.
};

// Every knob of the table, backing knobs first, in a stable order.
const std::vector<KnobInfo>& AllKnobs();

// The entry of `name` in `scope`, or nullptr.
const KnobInfo* FindKnob(KnobScope scope, std::string_view name);

// Comma-separated names of a scope, for "Fix:" hints.
std::string KnobNames(KnobScope scope);

// Converts a user value (mode file, CLI, or a captured read-back like "4.0M"
// or "[all] meta-only"... already reduced to "all") into the text to write.
// kSize -> decimal bytes; kBool -> "0"/"1"; kInteger -> canonical decimal;
// kChoice -> the word itself (non-empty, no spaces). InvalidArgument names
// the knob and the value.
Status KnobValueToWrite(const KnobInfo& knob, std::string_view value,
                        std::string* out);

// Reduces raw sysfs text to the knob's value as tierbench records it:
// kChoice -> the selected word; others -> the text unchanged (validated).
Status NormalizeKnobReadback(const KnobInfo& knob, std::string_view raw,
                             std::string* out);

// True when `readback` (raw sysfs text) shows the value `written` (output of
// KnobValueToWrite): sizes through HumanSizeMatches, integers/bools by value,
// choices by the selected word.
bool KnobReadbackMatches(const KnobInfo& knob, std::string_view written,
                         std::string_view readback);

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_BCACHE_BCACHE_KNOBS_H_
