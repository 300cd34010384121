// The writeback cliff: what the fill guest (scripts/lab/fill) leaves behind,
// turned into FillLayer rows (report/fill_reporter.h), and the cliff found
// in them. Pure functions; thread-safe.
//
// The guest writes lab/fill.txt ("<layer>.<key>=<value>" lines,
// lab/power_cut_record.h's format): device, job_rc, job_end_ms,
// drain_end_ms, status_before, status_after; bcache also cache_bytes,
// writeback_percent, cutoff_writeback_sync; the dm layers their table, and
// dm-cache its cache_bytes (the data device).
// Beside it, per layer, fill/<layer>.json (`tierbench run --output-format
// json` of the fill job: its write direction's per-second "series" with
// "ios" and "p99_ns") and fill/<layer>-dirty.txt ("<ms> <raw>" lines: ms
// since the job started, the layer's dirty reading as bcache's dirty_data
// or the dm layer's status line).
//
// The cliff (FindCliff): the first second whose write IOPS are below half
// the level of the first seconds (the median of seconds 1-3) and stay
// there for 3 seconds (or to the end). Before it: the median IOPS and p99
// of the seconds before; at it: that second's IOPS and the worst p99 from
// the second before it to 2 after; after it: the mean IOPS of the seconds
// after. The time to it adds, for each second up to it, the share spent at
// the rate before ((IOPS - after) / (before - after), within [0, 1]): a
// cliff inside a second is timed within it. The dirty data at it: at the
// end of the second it fell in. The layer's dirty limit (bcache:
// bch_cutoff_writeback_sync % of the cache, beyond which it stops caching
// writes; dm-writecache: the whole cache, when writes wait for free blocks;
// dm-cache: none) over the write rate before the cliff predicts the time
// to it. The recovery (after a cliff): from the job's last complete second
// until the end of the first watched second whose dirty data was back under
// half the limit (nullopt when none was within the watch). The job's
// seconds are those of its own measured runtime ("runtime" in its report).
#ifndef TIERBENCH_LAB_FILL_RECORD_H_
#define TIERBENCH_LAB_FILL_RECORD_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "lab/power_cut_record.h"
#include "report/fill_reporter.h"
#include "util/status.h"

namespace tierbench {

// Fills out->cliff and the figures from out->seconds and out->limit_bytes.
// Pure.
void FindCliff(FillLayer* out);

// The row of `layer` from the record and its two files (texts; "" when
// missing). `rate_iops`: the job's rate limit. InvalidArgument naming what
// is missing or malformed.
Status FillLayerFromGuest(const std::string& layer,
                          const PowerCutRecord& record,
                          const std::string& job_json,
                          const std::string& dirty_text, uint64_t rate_iops,
                          FillLayer* out);

// The fill job: 4k random writes, libaio at iodepth 32, O_DIRECT, over
// `region_bytes` (the cache fits into it at least twice, so no block is
// written twice before the cliff: fio's random map), time_based for
// `runtime_s`, at `rate_iops`.
std::string FillJobText(uint64_t region_bytes, uint64_t runtime_s,
                        uint64_t rate_iops);

}  // namespace tierbench

#endif  // TIERBENCH_LAB_FILL_RECORD_H_
