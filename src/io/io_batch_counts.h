// IoBatchCounts: how many IOs each submit and each reap handled, in fio's
// seven buckets (io_u.c __io_u_mark_map): 0, 1-4, 5-8, 9-16, 17-32, 33-64,
// more than 64. fio prints them as the "submit" and "complete" lines under
// "IO depths" (labels 0, 4, 8, 16, 32, 64, >=64) and as the JSON objects
// "iodepth_submit" / "iodepth_complete".
//
// What one count is, as in fio:
//   submit:   one io_submit() call that accepted N IOs (N = 0 when it
//             accepted none); for synchronous engines, one per IO (N = 1).
//   complete: one reap of N completions (io_getevents() returning N, incl. a
//             poll that found none); for synchronous engines, one per IO.
// Each engine counts into its own instance (IoEngine::batch_counts()); the
// job thread clears it when measurement starts (fio resets the maps with
// the other statistics after ramp_time). Cheap: one increment per call, no
// allocation. Not thread-safe (one per job thread).
#ifndef TIERBENCH_IO_IO_BATCH_COUNTS_H_
#define TIERBENCH_IO_IO_BATCH_COUNTS_H_

#include <cstdint>

namespace tierbench {

struct IoBatchCounts {
  static constexpr int kBuckets = 7;
  uint64_t submit[kBuckets] = {0, 0, 0, 0, 0, 0, 0};
  uint64_t complete[kBuckets] = {0, 0, 0, 0, 0, 0, 0};

  // fio's bucket of a batch of `n`: 0 -> 0, 1-4 -> 1, 5-8 -> 2, 9-16 -> 3,
  // 17-32 -> 4, 33-64 -> 5, above -> 6.
  static int Bucket(uint32_t n) {
    if (n > 64) return 6;
    if (n > 32) return 5;
    if (n > 16) return 4;
    if (n > 8) return 3;
    if (n > 4) return 2;
    return n > 0 ? 1 : 0;
  }
  void Submitted(uint32_t n) { ++submit[Bucket(n)]; }
  void Completed(uint32_t n) { ++complete[Bucket(n)]; }
  void Clear() { *this = IoBatchCounts(); }
};

}  // namespace tierbench

#endif  // TIERBENCH_IO_IO_BATCH_COUNTS_H_
