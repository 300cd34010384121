// ProgressMeter: fio's live status line for the job threads of one run set,
// e.g. "Jobs: 4 (f=4): [r(4)][24.8%][r=1138MiB/s][r=291k IOPS][eta 01m:30s]".
//
// Per thread, one status letter as fio: R/r sequential/random read, W/w
// write, M/m mixed, '/' ramping, '_' finished; run-length encoded. The
// percentage and ETA come from runtime (time_based or capped jobs) or from
// the bytes done against the job's budget; the rates are the completions
// since the previous Tick(). The line is drawn with DrawProgressLine(), so
// nothing is printed when stderr is not a terminal.
//
// Tick() is called by one thread (the runner's); it only reads the threads'
// live counters.
#ifndef TIERBENCH_WORKLOAD_PROGRESS_H_
#define TIERBENCH_WORKLOAD_PROGRESS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "workload/job_thread.h"

namespace tierbench {

class ProgressMeter {
 public:
  ProgressMeter(std::vector<const JobThread*> threads, std::string label,
                uint64_t start_ns);

  // Builds the status line for time `now_ns` (and remembers the counters
  // for the next rate).
  std::string Line(uint64_t now_ns);
  // Draws Line(now_ns) on the terminal.
  void Tick(uint64_t now_ns);

 private:
  std::vector<const JobThread*> threads_;
  std::string label_;
  uint64_t start_ns_;
  uint64_t last_ns_;
  uint64_t last_ios_[kNumDirs] = {0, 0};
  uint64_t last_bytes_[kNumDirs] = {0, 0};
};

// "01m:30s", or "1h:02m:03s" from an hour on.
std::string FormatEta(uint64_t ns);

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_PROGRESS_H_
