// Parsers and formatters of the parameter text of the dm-cache and
// dm-writecache targets: the TABLE params ("dmsetup table", what a reload
// loads) and the STATUS params ("dmsetup status"). Pure functions on strings:
// no device access, thread-safe.
//
// Field orders were checked against the kernel sources (v6.1 era: the lab
// guest runs Debian's 6.1.0-57, whose `dmsetup targets` lists cache v2.3.0
// and writecache v1.6.0):
//   - drivers/md/dm-cache-target.c: parse_features() (at most 3 features:
//     one of writeback|writethrough|passthrough, metadata2,
//     no_discard_passdown; two io modes -> "Duplicate cache io_mode features
//     requested"), cache_create() (6.1 refuses a passthrough table at load
//     time, EINVAL, "Cannot enter passthrough mode unless all blocks are
//     clean", checked against the COMMITTED metadata), cache_status()
//     STATUSTYPE_INFO and emit_flags(), and
//     STATUSTYPE_TABLE (which echoes the constructor args after the three
//     devices, so the live table is the loaded text, devices as major:minor).
//   - drivers/md/dm-writecache.c: writecache_ctr() optional args and
//     writecache_status(): INFO prints 14 numbers since writecache v1.6.0
//     (Linux 5.15): error, n_blocks, freelist_size, writeback_size, then
//     reads, read_hits, writes, write_hits_uncommitted, write_hits_committed,
//     writes_around, writes_allocate, writes_blocked_on_freelist, flushes,
//     discards. Older kernels print only the first four. "error" is the
//     negative errno of the first error (e.g. -5), 0 when healthy.
//   - Documentation/admin-guide/device-mapper/cache.rst and writecache.rst.
//
// Strictness: every parser returns Status::InvalidArgument quoting the text
// when a count, a number or a keyword is wrong; trailing blanks (the kernel
// ends the cache status with a space) are accepted. A dm-cache status of
// "Fail" or "Error" (what cache_status prints for a failed target) returns
// Status::IoError naming it.
#ifndef TIERBENCH_CACHE_DM_DM_STATUS_H_
#define TIERBENCH_CACHE_DM_DM_STATUS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/status.h"

namespace tierbench {

using DmKeyValues = std::vector<std::pair<std::string, std::string>>;

// dm-cache io modes as the kernel spells them.
inline constexpr std::string_view kDmCacheWriteback = "writeback";
inline constexpr std::string_view kDmCacheWritethrough = "writethrough";
inline constexpr std::string_view kDmCachePassthrough = "passthrough";

// True for "writeback", "writethrough", "passthrough".
bool IsDmCacheIoMode(std::string_view word);

// dm-cache TABLE params:
//   <metadata dev> <cache dev> <origin dev> <block size> <#feature args>
//   [<feature arg>]* <policy> <#policy args> [<policy arg>]*
// Policy args are key value pairs (the kernel refuses an odd count), e.g.
// "migration_threshold 2048".
struct DmCacheTable {
  std::string metadata_dev;
  std::string cache_dev;
  std::string origin_dev;
  uint64_t block_sectors = 0;
  std::vector<std::string> features;
  std::string policy;
  DmKeyValues policy_args;

  // The io mode feature, or "writeback" (the kernel's default) when none.
  std::string IoMode() const;
  // Replaces the io mode feature in place (appends one when there is none),
  // keeping the other features. `mode` must satisfy IsDmCacheIoMode().
  void SetIoMode(std::string_view mode);
  // The params text; ParseDmCacheTable(FormatParams()) gives back *this.
  std::string FormatParams() const;
};

// Accepts only the features the 6.1 kernel accepts, at most one io mode.
Status ParseDmCacheTable(std::string_view params, DmCacheTable* out);

// dm-cache STATUS params (cache_status, STATUSTYPE_INFO):
//   <metadata block size> <#used metadata blocks>/<#total metadata blocks>
//   <cache block size> <#used cache blocks>/<#total cache blocks>
//   <#read hits> <#read misses> <#write hits> <#write misses>
//   <#demotions> <#promotions> <#dirty> <#features> <features>*
//   <#core args> <core args>* <policy name> <#policy args> <policy args>*
//   <cache metadata mode: rw|ro> <needs_check|->
// The kernel always prints the io mode among the features (metadata2 first,
// then the mode, then no_discard_passdown) and the core args as
// "2 migration_threshold <sectors>"; smq, mq (shown as smq) and cleaner
// print "0" policy args.
struct DmCacheStatus {
  uint64_t metadata_block_sectors = 0;
  uint64_t metadata_used = 0;
  uint64_t metadata_total = 0;
  uint64_t cache_block_sectors = 0;
  uint64_t cache_used = 0;
  uint64_t cache_total = 0;
  uint64_t read_hits = 0;
  uint64_t read_misses = 0;
  uint64_t write_hits = 0;
  uint64_t write_misses = 0;
  uint64_t demotions = 0;
  uint64_t promotions = 0;
  uint64_t dirty = 0;
  std::vector<std::string> features;
  DmKeyValues core_args;
  std::string policy;
  DmKeyValues policy_args;
  bool read_only = false;    // Metadata mode "ro" (vs "rw").
  bool needs_check = false;  // "needs_check" (vs "-").

  // As DmCacheTable::IoMode().
  std::string IoMode() const;
  // The params text (no trailing space); parses back to *this.
  std::string FormatParams() const;
};

// Unknown feature words are kept (a newer kernel may print more); a second io
// mode, odd key/value counts, a bad "used/total" or metadata mode fail.
Status ParseDmCacheStatus(std::string_view params, DmCacheStatus* out);

// dm-writecache TABLE params:
//   <p|s> <origin dev> <cache dev> <block size> <#optional args> [args]*
// Optional args, in the order the kernel prints them: start_sector N,
// high_watermark N, low_watermark N, writeback_jobs N, autocommit_blocks N,
// autocommit_time MS, max_age MS, cleaner, fua | nofua, metadata_only,
// pause_writeback MS. <#optional args> counts a keyword with a value as 2.
struct DmWritecacheTable {
  char mode = 's';  // 's' SSD, 'p' persistent memory.
  std::string origin_dev;
  std::string cache_dev;
  uint64_t block_size = 0;  // Bytes (4096 recommended).
  // Keyword and value; value "" for flags (cleaner, fua, nofua,
  // metadata_only). Kept in the given order.
  DmKeyValues args;

  // True and *value set when `key` is present.
  bool GetArg(std::string_view key, std::string* value = nullptr) const;
  // Sets `key` (value "" for a flag), replacing it in place or appending.
  // Setting fua removes nofua and vice versa. Returns InvalidArgument for an
  // unknown keyword, a flag given a value or a valued key given none.
  Status SetArg(std::string_view key, std::string_view value);
  // Removes `key`; false when it was absent.
  bool RemoveArg(std::string_view key);
  // The params text; parses back to *this.
  std::string FormatParams() const;
};

Status ParseDmWritecacheTable(std::string_view params, DmWritecacheTable* out);

// dm-writecache STATUS params (writecache_status, STATUSTYPE_INFO); see the
// top comment. A 4-number status (kernels before 5.15) parses with
// has_counters = false and the counters 0.
struct DmWritecacheStatus {
  int64_t error = 0;  // 0, or the negative errno of the first error.
  uint64_t total_blocks = 0;
  uint64_t free_blocks = 0;
  uint64_t under_writeback = 0;
  bool has_counters = false;
  uint64_t reads = 0;
  uint64_t read_hits = 0;
  uint64_t writes = 0;
  uint64_t write_hits_uncommitted = 0;
  uint64_t write_hits_committed = 0;
  uint64_t writes_around = 0;
  uint64_t writes_to_cache = 0;  // The kernel's stats.writes_allocate.
  uint64_t writes_blocked_on_freelist = 0;
  uint64_t flushes = 0;
  uint64_t discards = 0;

  // Blocks holding data not yet written back (total - free).
  uint64_t used_blocks() const {
    return total_blocks >= free_blocks ? total_blocks - free_blocks : 0;
  }
  // 4 or 14 numbers depending on has_counters; parses back to *this.
  std::string FormatParams() const;
};

// Exactly 4 or 14 numbers.
Status ParseDmWritecacheStatus(std::string_view params,
                               DmWritecacheStatus* out);

// Whitespace-separated words of `text` (helper shared with dm_control.cc and
// the test fake).
std::vector<std::string> SplitDmWords(std::string_view text);

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_DM_DM_STATUS_H_
