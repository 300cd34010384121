// FillReporter: the output of `tierbench lab --scenario fill` (lab/
// lab_fill.h), behind the Reporter interface (record/reporter.h, event
// OnFill): fill.csv (one row per layer: the cliff), fill-series.csv (one
// row per second per layer: write IOPS and p99 against dirty bytes),
// charts/fill.svg (IOPS and dirty data over time, a line per layer),
// report.html and summary.md (present/pages/scenario_report.h) and a
// console line per layer. Columns documented in results/README.md.
//
// fill.csv (schema_version 1):
//   schema_version, layer, device, cache_bytes, limit, limit_bytes,
//   rate_iops, cliff, time_to_cliff_s, predicted_time_to_cliff_s,
//   iops_before, iops_at_cliff, iops_after, p99_before_us,
//   p99_at_cliff_us, dirty_at_cliff_bytes, peak_dirty_bytes,
//   time_to_recover_s
// fill-series.csv (schema_version 1):
//   schema_version, layer, phase (fill, drain), t_s, write_iops,
//   write_p99_us, dirty_bytes
// Unknown values are empty, never 0.
//
// Errors: OnFill throws SysError naming the file it cannot write. Not
// thread-safe.
#ifndef TIERBENCH_REPORT_FILL_REPORTER_H_
#define TIERBENCH_REPORT_FILL_REPORTER_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "record/reporter.h"

namespace tierbench {

inline constexpr int kFillCsvSchemaVersion = 1;
inline constexpr int kFillSeriesCsvSchemaVersion = 1;

// One second of a layer's fill: one of the job's complete seconds, or one
// of the watch after it (drain).
struct FillSecond {
  double t_s = 0;  // from the job's start
  bool drain = false;
  std::optional<uint64_t> write_iops;
  std::optional<double> p99_us;
  std::optional<uint64_t> dirty_bytes;  // at the second's end
};

struct FillLayer {
  std::string layer;
  std::string device;
  uint64_t cache_bytes = 0;
  std::string limit;  // the dirty limit, in words
  std::optional<uint64_t> limit_bytes;
  uint64_t rate_iops = 0;
  std::vector<FillSecond> seconds;
  // FindCliff (lab/fill_record.h):
  bool cliff = false;
  std::optional<double> time_to_cliff_s, predicted_time_to_cliff_s;
  std::optional<double> iops_before, iops_at_cliff, iops_after;
  std::optional<double> p99_before_us, p99_at_cliff_us;
  std::optional<uint64_t> dirty_at_cliff_bytes, peak_dirty_bytes;
  std::optional<double> time_to_recover_s;
};

struct FillRun {
  std::string run_dir;
  double guest_seconds = 0;
  std::vector<FillLayer> layers;
};

std::vector<std::string> FillCsvColumns();
std::vector<std::string> FillSeriesCsvColumns();

// "fill: dm-writecache: cliff at 8.4 s (predicted 8.2 s: 64.0 MiB at 1998
// IOPS): 1998 -> 212 IOPS, p99 1.2 ms at the cliff; 63.9 MiB dirty;
// recovered in 12.0 s" (or "no cliff", "not recovered within the watch").
std::string FillConsoleLine(const FillLayer& layer);

class FillReporter : public Reporter {
 public:
  FillReporter(std::string run_dir, std::ostream& console);
  void OnFill(const FillRun& run) override;

 private:
  std::string run_dir_;
  std::ostream& console_;
};

}  // namespace tierbench

#endif  // TIERBENCH_REPORT_FILL_REPORTER_H_
