// What each cache mode cost the SSD, as the report states it (issue 30
// item 4): per workload, each cache mode's SSD bytes written per byte the
// application moved (comparison.csv ssd_write_per_app_byte_median,
// record/ssd_wear.h), for the verdict's wear line and the wear chart.
//
// The verdict line, only with valid cells (comparison.csv `valid` "yes" or
// "unknown"; an invalid mode, and one whose rate drifted within the run
// (not steady, so neither is its wear), is left out, never quoted, and
// named in the line's not_ranked):
//   "randread-zipf: SSD wear (steady state): dm-cache-writeback writes
//    1.9 B (all of it for reads: the application wrote nothing) to the SSD
//    per byte the application read or wrote; none writes nothing to the
//    SSD."
// A figure under 0.01 reads "under 0.01 B"; exactly 0 reads "writes nothing
// to the SSD", followed, when such a mode was warmed (warm,
// warm-until-steady), by "once warm (the warm-up that filled the cache, and
// what it wrote to the SSD, is outside the measured window)"; a mode of
// unknown validity is marked "(validity unknown)".
// Each figure is shown with the state it measured: the cache state of its
// cells when they share one, else per mode. No line without a valid mode
// that has a figure (raw modes have none; runs of comparison.csv schema 5
// and older none at all). Pure; thread-safe.
#ifndef TIERBENCH_PRESENT_WEAR_VERDICT_H_
#define TIERBENCH_PRESENT_WEAR_VERDICT_H_

#include <optional>
#include <string>
#include <vector>

#include "present/run_folder.h"

namespace tierbench {

// One cache mode of one workload: its cells' wear (the same on every
// series of the workload: the first series that has it).
struct WearFigure {
  std::string mode;
  double ssd_write_per_app_byte = 0;
  // Empty: the application wrote nothing (every SSD byte came from reads).
  std::optional<double> ssd_write_per_app_write;
  std::string valid;        // worst over the series: no > unknown > yes
  bool drifted = false;     // a series' rate drifted (not steady)
  std::string cache_state;  // runs.csv cache_state of its cells
};

// The cache modes of `workload` that have a wear figure, in mode order.
std::vector<WearFigure> WearFiguresOf(const RunFolder& run,
                                      const std::string& workload);

// A cache state as the wear line and chart name it ("steady state", "cold
// cache", ...).
std::string WearStateWords(const std::string& cache_state);

// "1.9 B", "0.05 B", "under 0.01 B" (a ratio in bytes per byte).
std::string FormatBytesPerByte(double ratio);

// Whether the verdict may quote `f`: valid (or unknown) and steady.
bool WearQuotable(const WearFigure& f);

// The verdict's wear line of `workload` (text as above); empty when no
// quotable mode has a figure.
std::optional<std::string> WearVerdictText(const RunFolder& run,
                                           const std::string& workload);

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_WEAR_VERDICT_H_
