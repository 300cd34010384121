#include "record/cell_series.h"

#include <algorithm>

#include "util/clock.h"

namespace tierbench {
namespace {

// A sample counts for a second's end when taken within this many seconds
// of it (the once-a-second callback runs up to ~0.1 s late).
constexpr double kSlackS = 0.5;

double SecondsFrom(uint64_t origin_ns, uint64_t t_ns) {
  return (static_cast<double>(t_ns) - static_cast<double>(origin_ns)) / 1e9;
}

// The index of the latest sample of `phase` taken at or before `t` (s since
// measure start), or -1.
int LatestAtOrBefore(const CellSeries& s, SeriesPhase phase, double t) {
  int best = -1;
  double best_t = 0;
  for (size_t i = 0; i < s.samples.size(); ++i) {
    if (s.samples[i].phase != phase) continue;
    const double ti =
        SecondsFrom(s.measure_start_ns, s.samples[i].sample.taken_ns);
    if (ti <= t && (best < 0 || ti >= best_t)) {
      best = static_cast<int>(i);
      best_t = ti;
    }
  }
  return best;
}

// Fills hit_ratio_pct and dirty_bytes of the row for second [t, t+1).
void AddLayerColumns(const CellSeries& s, SeriesPhase phase, double t,
                     SeriesRow* row) {
  const int cur = LatestAtOrBefore(s, phase, t + 1 + kSlackS);
  const int prev = LatestAtOrBefore(s, phase, t + kSlackS);
  if (cur < 0 || cur == prev) return;  // no reading for this second
  const LayerSample& b = s.samples[cur].sample;
  if (b.dirty_bytes >= 0) {
    row->dirty_bytes = static_cast<uint64_t>(b.dirty_bytes);
  }
  if (prev < 0) return;
  const LayerSample& a = s.samples[prev].sample;
  if (a.read_hits < 0 || a.read_misses < 0 || b.read_hits < 0 ||
      b.read_misses < 0) {
    return;
  }
  const int64_t hits = b.read_hits - a.read_hits;
  const int64_t misses = b.read_misses - a.read_misses;
  if (hits < 0 || misses < 0 || hits + misses == 0) return;
  row->hit_ratio_pct =
      100.0 * static_cast<double>(hits) / static_cast<double>(hits + misses);
}

}  // namespace

const char* SeriesPhaseName(SeriesPhase phase) {
  switch (phase) {
    case SeriesPhase::kWarm:
      return "warm";
    case SeriesPhase::kMeasure:
      return "measure";
    case SeriesPhase::kDrain:
      return "drain";
  }
  return "measure";
}

void AppendWarmSeconds(const RunResult& result, uint64_t chunk_start_ns,
                       std::vector<WarmSecond>* out) {
  uint64_t runtime_ns = 0;
  for (const JobResult& j : result.jobs)
    runtime_ns = std::max(runtime_ns, j.runtime_ns);
  const uint64_t seconds = runtime_ns / 1000000000ULL;
  for (uint64_t t = 0; t < seconds; ++t) {
    WarmSecond w;
    w.start_ns = chunk_start_ns + t * 1000000000ULL;
    for (const JobResult& j : result.jobs) {
      const auto& r = j.dir[0].series.points();
      const auto& wr = j.dir[1].series.points();
      if (t < r.size()) w.read_ios += r[t].ios;
      if (t < wr.size()) w.write_ios += wr[t].ios;
    }
    out->push_back(w);
  }
}

std::vector<SeriesRow> SeriesRows(const CellSeries& series,
                                  const RunResult& result) {
  std::vector<SeriesRow> rows;
  if (series.measure_start_ns == 0) return rows;
  for (const WarmSecond& w : series.warm_io) {
    SeriesRow row;
    const double t = SecondsFrom(series.measure_start_ns, w.start_ns);
    row.phase = SeriesPhase::kWarm;
    row.t_s = t;
    row.read_iops = w.read_ios;
    row.write_iops = w.write_ios;
    AddLayerColumns(series, SeriesPhase::kWarm, t, &row);
    rows.push_back(std::move(row));
  }
  std::vector<WarmSecond> measured;
  AppendWarmSeconds(result, series.measure_start_ns, &measured);
  for (size_t t = 0; t < measured.size(); ++t) {
    SeriesRow row;
    row.phase = SeriesPhase::kMeasure;
    row.t_s = static_cast<double>(t);
    row.read_iops = measured[t].read_ios;
    row.write_iops = measured[t].write_ios;
    AddLayerColumns(series, SeriesPhase::kMeasure, static_cast<double>(t),
                    &row);
    rows.push_back(std::move(row));
  }
  for (const PhaseSample& p : series.samples) {
    if (p.phase != SeriesPhase::kDrain) continue;
    SeriesRow row;
    row.phase = SeriesPhase::kDrain;
    row.t_s = SecondsFrom(series.measure_start_ns, p.sample.taken_ns);
    if (p.sample.dirty_bytes >= 0) {
      row.dirty_bytes = static_cast<uint64_t>(p.sample.dirty_bytes);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

void LayerSampler::Take(SeriesPhase phase) noexcept {
  if (layer_ == nullptr) return;
  try {
    out_->samples.push_back({phase, layer_->Sample()});
  } catch (...) {
    // A gap in the series; the cell's own counters are read separately.
    ++out_->failed_samples;
  }
}

void LayerSampler::AddDrain(uint64_t taken_ns, int64_t dirty_bytes) {
  if (layer_ == nullptr) return;
  PhaseSample p;
  p.phase = SeriesPhase::kDrain;
  p.sample.taken_ns = taken_ns;
  p.sample.dirty_bytes = dirty_bytes;
  out_->samples.push_back(p);
}

}  // namespace tierbench
