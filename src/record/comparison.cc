#include "record/comparison.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "record/cell_record.h"
#include "record/ssd_wear.h"
#include "record/sustained.h"
#include "stats/aggregate.h"
#include "validity/run_rules.h"

namespace tierbench {
namespace {

using GroupKey = std::tuple<std::string, std::string, std::string, std::string>;

struct Group {
  const MeasuredRow* first = nullptr;
  std::vector<double> iops, p99, bw, lat_mean, sustained;
  // The wear figures of the repetitions that have them.
  std::vector<double> per_write, per_byte, saved, life;
  std::vector<Finding> findings;
};

}  // namespace

Spread Summarize(const std::vector<double>& values) {
  Spread s;
  s.n = static_cast<int>(values.size());
  s.median = Median(values);
  s.min = Min(values);
  s.max = Max(values);
  s.rel_spread_pct = RelativeSpreadPct(values);
  return s;
}

std::optional<double> ChangePct(double x, double base) {
  if (base == 0) return std::nullopt;
  return (x - base) / base * 100.0;
}

std::optional<double> Position(double x, double hdd, double ssd) {
  // A baseline of 0 measured nothing (e.g. its job ended within ramp_time).
  if (ssd == hdd || hdd <= 0 || ssd <= 0) return std::nullopt;
  const double pos = (x - hdd) / (ssd - hdd);
  return pos == 0 ? 0.0 : pos;  // no "-0" when x == hdd and ssd < hdd
}

std::optional<bool> WithinNoise(const Spread& a, const Spread& b) {
  if (a.n < 2 || b.n < 2) return std::nullopt;
  return a.min <= b.max && b.min <= a.max;
}

std::vector<ComparisonRow> Compare(const std::vector<MeasuredRow>& rows) {
  // Groups per (mode, workload, job, direction), in first-seen order.
  std::map<GroupKey, size_t> index;
  std::vector<Group> groups;
  for (const MeasuredRow& r : rows) {
    GroupKey key{r.mode, r.workload, r.job, r.direction};
    auto [it, fresh] = index.emplace(key, groups.size());
    if (fresh) groups.emplace_back();
    Group& g = groups[it->second];
    if (g.first == nullptr) g.first = &r;
    g.iops.push_back(r.iops);
    if (r.iops_sustained) g.sustained.push_back(*r.iops_sustained);
    const SsdWear& w = r.wear;
    if (w.ssd_write_per_app_write) {
      g.per_write.push_back(*w.ssd_write_per_app_write);
    }
    if (w.ssd_write_per_app_byte)
      g.per_byte.push_back(*w.ssd_write_per_app_byte);
    if (w.hdd_bytes_saved) {
      g.saved.push_back(static_cast<double>(*w.hdd_bytes_saved));
    }
    if (w.ssd_life_days) g.life.push_back(*w.ssd_life_days);
    g.p99.push_back(r.lat_p99_us);
    g.bw.push_back(r.bw_mib_s);
    g.lat_mean.push_back(r.lat_mean_us);
    AddFindings(r.findings, &g.findings);
  }

  std::vector<ComparisonRow> out;
  out.reserve(groups.size());
  for (const Group& g : groups) {
    ComparisonRow c;
    c.mode = g.first->mode;
    c.layer = g.first->layer;
    c.baseline = g.first->baseline;
    c.workload = g.first->workload;
    c.job = g.first->job;
    c.direction = g.first->direction;
    c.unit = g.first->unit;
    c.iops = Summarize(g.iops);
    c.p99 = Summarize(g.p99);
    c.bw_mib_s_median = Median(g.bw);
    c.lat_mean_us_median = Median(g.lat_mean);
    if (!g.sustained.empty()) c.iops_sustained_median = Median(g.sustained);
    if (!g.per_write.empty()) {
      c.wear.ssd_write_per_app_write = Median(g.per_write);
    }
    if (!g.per_byte.empty()) c.wear.ssd_write_per_app_byte = Median(g.per_byte);
    if (!g.saved.empty()) {
      c.wear.hdd_bytes_saved = static_cast<int64_t>(Median(g.saved));
    }
    if (!g.life.empty()) c.wear.ssd_life_days = Median(g.life);
    c.findings = g.findings;
    out.push_back(std::move(c));
  }

  // The first raw mode of each baseline kind serves as that baseline.
  auto find_base = [&out](const ComparisonRow& c,
                          const std::string& kind) -> std::optional<size_t> {
    for (size_t i = 0; i < out.size(); ++i) {
      const ComparisonRow& b = out[i];
      if (b.baseline == kind && b.workload == c.workload && b.job == c.job &&
          b.direction == c.direction) {
        return i;
      }
    }
    return std::nullopt;
  };
  for (size_t i = 0; i < out.size(); ++i) {
    ComparisonRow& c = out[i];
    const ComparisonRow* base[2] = {nullptr, nullptr};
    const std::pair<const char*, VsBaseline*> kinds[2] = {{"hdd", &c.vs_hdd},
                                                          {"ssd", &c.vs_ssd}};
    for (size_t k = 0; k < 2; ++k) {
      const std::optional<size_t> at = find_base(c, kinds[k].first);
      if (!at) continue;
      const ComparisonRow& b = out[*at];
      base[k] = &b;
      VsBaseline& vs = *kinds[k].second;
      if (c.iops_sustained_median) {
        vs.iops_sustained_pct =
            ChangePct(*c.iops_sustained_median, b.iops.median);
      }
      vs.iops_pct = ChangePct(c.iops.median, b.iops.median);
      vs.p99_pct = ChangePct(c.p99.median, b.p99.median);
      vs.noise = WithinNoise(c.iops, b.iops);
      vs.is_base = *at == i;
      if (!vs.is_base) {
        vs.iops_ci = LogChangeInterval95(groups[i].iops, groups[*at].iops);
        vs.p99_ci = LogChangeInterval95(groups[i].p99, groups[*at].p99);
        if (vs.iops_ci) vs.significant = vs.iops_ci->significant();
      }
    }
    if (base[0] != nullptr && base[1] != nullptr) {
      c.iops_position =
          Position(c.iops.median, base[0]->iops.median, base[1]->iops.median);
      c.p99_position =
          Position(c.p99.median, base[0]->p99.median, base[1]->p99.median);
    }
  }
  const std::map<std::string, std::vector<Finding>> run = WorkloadFindings(out);
  for (ComparisonRow& c : out) {
    auto it = run.find(c.workload);
    if (it != run.end()) AddFindings(it->second, &c.findings);
  }
  return out;
}

std::map<std::string, std::vector<Finding>> WorkloadFindings(
    const std::vector<ComparisonRow>& rows) {
  std::vector<BaselinePair> pairs;
  for (const ComparisonRow& hdd : rows) {
    if (!hdd.vs_hdd.is_base) continue;
    for (const ComparisonRow& ssd : rows) {
      if (!ssd.vs_ssd.is_base || ssd.workload != hdd.workload ||
          ssd.job != hdd.job || ssd.direction != hdd.direction) {
        continue;
      }
      pairs.push_back({hdd.workload, hdd.job + "/" + hdd.direction,
                       hdd.unit == "tx" ? "tps" : "IOPS", hdd.iops.median,
                       ssd.iops.median});
    }
  }
  std::map<std::string, std::vector<Finding>> out;
  for (auto& [workload, f] : DiscriminationFindings(pairs)) {
    out[workload].push_back(f);
  }
  return out;
}

std::vector<MeasuredRow> MeasuredRowsOf(const CellRecord& rec,
                                        std::optional<double> ssd_tbw_bytes) {
  std::vector<MeasuredRow> out;
  if (!rec.error.empty()) return out;
  const SsdWear wear = CellSsdWear(rec, ssd_tbw_bytes);
  for (const JobResult& job : rec.result.jobs) {
    if (!job.error.empty()) continue;
    for (IoDir d : ReportedDirections(job)) {
      const DirectionStats& s = job.dir[static_cast<int>(d)];
      const bool tx = job.unit == "tx";
      const RunningStat& lat = tx ? s.lat : s.clat;
      const LatencyHistogram& hist = tx ? s.lat_hist : s.clat_hist;
      MeasuredRow r;
      r.mode = rec.mode->name;
      r.layer = rec.mode->layer;
      r.baseline =
          rec.mode->is_raw() ? std::string(rec.mode->target_name()) : "";
      r.workload = rec.workload->name;
      r.job = job.name;
      r.direction = IoDirName(d);
      r.unit = job.unit;
      r.repetition = rec.cell.repetition;
      r.iops = job.Iops(d);
      r.iops_sustained = CellSustainedIops(rec, job, d);
      r.bw_mib_s = tx ? 0 : job.BytesPerSec(d) / (1 << 20);
      r.lat_mean_us = lat.mean() / 1000.0;
      r.lat_p99_us = static_cast<double>(hist.Percentile(99)) / 1000.0;
      r.findings = rec.findings;
      r.wear = wear;
      out.push_back(std::move(r));
    }
  }
  return out;
}

}  // namespace tierbench
