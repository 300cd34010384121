// CellSeries: the per-second picture of one compare cell, and its rows in
// series.csv (report/runs_csv_reporter.h writes them; results/README.md
// "series.csv").
//
// What a cell records (CellRunner fills it; everything in CLOCK_MONOTONIC
// ns so that the phases share one clock):
//   - measure_start_ns: when the measured window began (the cell's IO start
//     plus the largest ramp_time); t_s = 0 there;
//   - warm_io: the IOs of every complete second of the warm-up chunks of
//     --cache-state warm-until-steady (negative t_s);
//   - samples: CacheLayer::Sample() readings of phase warm or measure (one
//     right before the IO starts, then about one a second on the
//     orchestrating thread through RunOptions::on_second) and the dirty
//     bytes the drain after the run polls (phase drain).
// The measured IO per second comes from the jobs' TimeSeries (complete
// seconds only, as fio's iops averaging).
//
// SeriesRows() turns a record into rows: per complete second of the warm-up
// and of the measured window one row with read_iops, write_iops, and the
// layer's hit ratio over that second (from the two samples bracketing it;
// empty when the layer has no hit counters, when no read was counted in
// that second or when a counter went backwards) and its dirty bytes at the
// second's end (empty when unknown); per drain poll one row with the dirty
// bytes. Unknown is always an empty cell, never 0.
//
// LayerSampler takes the samples: it never throws (a failed read leaves a
// gap and is counted), so a sysfs hiccup cannot stop a running workload.
// Value types and pure functions are thread-safe; LayerSampler is not.
#ifndef TIERBENCH_RECORD_CELL_SERIES_H_
#define TIERBENCH_RECORD_CELL_SERIES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cache/cache_layer.h"
#include "workload/job_result.h"

namespace tierbench {

enum class SeriesPhase { kWarm, kMeasure, kDrain };
const char* SeriesPhaseName(SeriesPhase phase);

struct PhaseSample {
  SeriesPhase phase = SeriesPhase::kMeasure;
  LayerSample sample;
};

// The IOs of one second of a warm-up chunk that began at start_ns.
struct WarmSecond {
  uint64_t start_ns = 0;
  uint64_t read_ios = 0;
  uint64_t write_ios = 0;
};

struct CellSeries {
  uint64_t measure_start_ns = 0;  // 0: the cell never measured
  std::vector<WarmSecond> warm_io;
  std::vector<PhaseSample> samples;
  int failed_samples = 0;  // Sample() reads that threw
};

// One series.csv row, as numbers (the reporter formats them); nullopt is
// unknown (an empty cell), never 0. Drain rows carry no IO counts.
struct SeriesRow {
  SeriesPhase phase = SeriesPhase::kMeasure;
  double t_s = 0;  // from the measured window's start
  std::optional<uint64_t> read_iops, write_iops;
  std::optional<double> hit_ratio_pct;
  std::optional<uint64_t> dirty_bytes;
};

// The rows of a cell (see the header comment): warm, measure, drain order.
std::vector<SeriesRow> SeriesRows(const CellSeries& series,
                                  const RunResult& result);

// The complete seconds of `result`'s jobs as WarmSeconds of a chunk that
// began at chunk_start_ns (appended to *out).
void AppendWarmSeconds(const RunResult& result, uint64_t chunk_start_ns,
                       std::vector<WarmSecond>* out);

// Samples a layer into a CellSeries; null layer (raw cells): no samples.
class LayerSampler {
 public:
  LayerSampler(const CacheLayer* layer, CellSeries* out)
      : layer_(layer), out_(out) {}
  // Takes one sample of `phase`; a read error leaves a gap.
  void Take(SeriesPhase phase) noexcept;
  // A drain poll's dirty bytes at `taken_ns` (no extra read).
  void AddDrain(uint64_t taken_ns, int64_t dirty_bytes);

 private:
  const CacheLayer* layer_;
  CellSeries* out_;
};

}  // namespace tierbench

#endif  // TIERBENCH_RECORD_CELL_SERIES_H_
