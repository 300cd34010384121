#include "report/console_reporter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <string>
#include <vector>

#include "util/units.h"

namespace tierbench {
namespace {

constexpr int kSigFigs = 4;  // fio's default sig_figs

// fio's "latency" line shows its latency_target settings; tierbench has no
// latency_target= (the option is refused), which is fio's default: no
// target, no window, percentile 100, and the depth stays at iodepth.
constexpr unsigned long long kLatencyTargetUs = 0;
constexpr unsigned long long kLatencyWindowUs = 0;
constexpr double kLatencyPercentile = 100.0;

// The group's aggregate bandwidth per direction in bytes/s, fio's
// group_run_stats.agg: the group's bytes over its longest runtime in ms.
struct GroupAgg {
  uint64_t bytes_per_sec[kNumDirs] = {0, 0};
};

// printf into a std::string.
template <typename... Args>
std::string Fmt(const char* fmt, Args... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

uint64_t Round(double v) {
  return v <= 0 ? 0 : static_cast<uint64_t>(std::llround(v));
}

bool IsTx(const JobResult& j) { return j.unit == "tx"; }

// The histogram that describes a direction's latency: clat for block IO,
// the transaction latency for "tx" (where clat is empty).
const LatencyHistogram& MainHist(const JobResult& j, const DirectionStats& s) {
  return IsTx(j) ? s.lat_hist : s.clat_hist;
}

// One "slat/clat/lat (unit): min=, max=, avg=, stdev=" line, with fio's
// display_lat() unit rules (nsec_to_msec, then nsec_to_usec).
void LatencyLine(const char* name, const RunningStat& s, std::ostream& out) {
  if (s.count() == 0) return;
  uint64_t min = Round(s.min());
  uint64_t max = Round(s.max());
  double mean = s.mean();
  double dev = s.stddev();
  const char* base = "nsec";
  if (min > 2000000 && max > 99999999 && dev > 1000000.0) {
    base = "msec";
    min /= kNsPerMs;
    max /= kNsPerMs;
    mean /= kNsPerMs;
    dev /= kNsPerMs;
  } else if (min > 2000 && max > 99999 && dev > 1000.0) {
    base = "usec";
    min /= kNsPerUs;
    max /= kNsPerUs;
    mean /= kNsPerUs;
    dev /= kNsPerUs;
  }
  out << Fmt("    %s (%s): min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name,
             base, FioNum2Str(min, 6, false, "").c_str(),
             FioNum2Str(max, 6, false, "").c_str(), mean, dev);
}

// fio's show_clat_percentiles(): four per line, unit by the value range.
void PercentileLines(const char* name, const LatencyHistogram& h,
                     std::ostream& out) {
  if (h.count() == 0) return;
  const std::vector<double>& ps = LatencyHistogram::DefaultPercentiles();
  std::vector<uint64_t> vals;
  for (double p : ps) vals.push_back(h.Percentile(p));
  const uint64_t minv = vals.front();
  const uint64_t maxv = vals.back();
  int scale_down = 0;
  uint64_t divisor = 1;
  const char* unit = "nsec";
  if (minv > 2000000 && maxv > 99999999) {
    scale_down = 2;
    divisor = kNsPerMs;
    unit = "msec";
  } else if (minv > 2000 && maxv > 99999) {
    scale_down = 1;
    divisor = kNsPerUs;
    unit = "usec";
  }
  const int width =
      std::max(5, static_cast<int>(std::log10(static_cast<double>(
                                       std::max<uint64_t>(1, maxv / divisor))) +
                                   1));
  out << "    " << name << " percentiles (" << unit << "):\n     |";
  for (size_t j = 0; j < vals.size(); ++j) {
    if (j != 0 && j % 4 == 0) out << "     |";
    uint64_t v = vals[j];
    for (int i = 0; i < scale_down; ++i) v = (v + 999) / 1000;  // round up
    const bool last = j + 1 == vals.size();
    out << Fmt(" %5.2fth=[%*llu]%c", ps[j], width,
               static_cast<unsigned long long>(v), last ? '\n' : ',');
    if (!last && j % 4 == 3) out << '\n';
  }
}

// The "   bw (  KiB/s): ..." and "   iops        : ..." lines.
void PerSecondLines(const JobResult& j, const DirectionStats& s, uint64_t agg,
                    std::ostream& out) {
  if (!IsTx(j)) {
    RunningStat bw = s.series.BandwidthStat(j.runtime_ns);
    if (bw.count() > 0) {
      const double per = FioPercentOfGroup(bw.mean() / 1024.0, agg);
      double div = 1024.0;
      const char* unit = "KiB";
      if (bw.mean() / div > 1024.0 * 1024.0) {  // fio: mean > kb_base^2 KiB/s
        div *= 1024.0;
        unit = "MiB";
      }
      out << Fmt(
          "   bw (%5s/s): min=%5llu, max=%5llu, per=%3.2f%%, avg=%5.02f, "
          "stdev=%5.02f, samples=%llu\n",
          unit, static_cast<unsigned long long>(Round(bw.min() / div)),
          static_cast<unsigned long long>(Round(bw.max() / div)), per,
          bw.mean() / div, bw.stddev() / div,
          static_cast<unsigned long long>(bw.count()));
    }
  }
  RunningStat iops = s.series.IopsStat(j.runtime_ns);
  if (iops.count() == 0) return;
  out << Fmt(
      "   %-12s: min=%5llu, max=%5llu, avg=%5.02f, stdev=%5.02f, "
      "samples=%llu\n",
      IsTx(j) ? "tps" : "iops",
      static_cast<unsigned long long>(Round(iops.min())),
      static_cast<unsigned long long>(Round(iops.max())), iops.mean(),
      iops.stddev(), static_cast<unsigned long long>(iops.count()));
}

void DirectionBlock(const JobResult& j, IoDir d, const GroupAgg& agg,
                    std::ostream& out) {
  const DirectionStats& s = j.dir[static_cast<int>(d)];
  const uint64_t runtime_ms =
      Round(static_cast<double>(j.runtime_ns) / kNsPerMs);
  const uint64_t rate = Round(j.Iops(d));
  std::string errors;
  if (s.errors > 0)
    errors = Fmt(", errors=%llu", static_cast<unsigned long long>(s.errors));
  if (IsTx(j)) {
    out << Fmt("  %s: tps=%s (%s tx/%llumsec)%s\n", IoDirName(d),
               FioNum2Str(rate, kSigFigs, false, "").c_str(),
               FioNum2Str(s.ios, kSigFigs, false, "").c_str(),
               static_cast<unsigned long long>(runtime_ms), errors.c_str());
  } else {
    const uint64_t bw = Round(j.BytesPerSec(d));
    out << Fmt("  %s: IOPS=%s, BW=%s (%s)(%s/%llumsec)%s\n", IoDirName(d),
               FioNum2Str(rate, kSigFigs, false, "").c_str(),
               FioNum2Str(bw, kSigFigs, true, "B/s").c_str(),
               FioNum2Str(bw, kSigFigs, false, "B/s").c_str(),
               FioNum2Str(s.bytes, kSigFigs, true, "B").c_str(),
               static_cast<unsigned long long>(runtime_ms), errors.c_str());
  }
  LatencyLine("slat", s.slat, out);
  LatencyLine("clat", s.clat, out);
  LatencyLine(" lat", s.lat, out);
  LatencyLine("sched_lat", s.sched_lat, out);
  PercentileLines(IsTx(j) ? "lat" : "clat", MainHist(j, s), out);
  PercentileLines("sched_lat", s.sched_lat_hist, out);
  PerSecondLines(j, s, agg.bytes_per_sec[static_cast<int>(d)], out);
}

// fio's show_lat(): one line per unit, five entries per line.
void DistributionLines(const JobResult& j, std::ostream& out) {
  LatencyHistogram all;
  for (int d = 0; d < kNumDirs; ++d) all.Merge(MainHist(j, j.dir[d]));
  struct Unit {
    const char* name;
    uint64_t limit;  // edges up to this belong to the unit
    uint64_t divisor;
  };
  static const Unit kUnits[] = {{"nsec", kNsPerUs, 1},
                                {"usec", kNsPerMs, kNsPerUs},
                                {"msec", UINT64_MAX, kNsPerMs}};
  const auto dist = all.Distribution();
  size_t i = 0;
  for (const Unit& u : kUnits) {
    int on_line = 0;
    for (; i < dist.size() && dist[i].first <= u.limit; ++i) {
      if (on_line == 5) {
        out << '\n';
        on_line = 0;
      }
      out << (on_line == 0 ? Fmt("  lat (%s)   : ", u.name) : ", ");
      const double pct = std::max(dist[i].second * 100.0, 0.01);
      if (dist[i].first == UINT64_MAX) {
        out << Fmt(">=2000=%3.2f%%", pct);
      } else {
        out << Fmt("%llu=%3.2f%%",
                   static_cast<unsigned long long>(dist[i].first / u.divisor),
                   pct);
      }
      ++on_line;
    }
    if (on_line > 0) out << '\n';
  }
}

// fio's lines under "IO depths": submit and complete batch sizes, issued
// counts, latency_target settings (show_thread_status_normal).
void BatchLines(const JobResult& j, std::ostream& out) {
  out << FioBatchLine("submit", j.submit_hist) << '\n';
  out << FioBatchLine("complete", j.complete_hist) << '\n';
  // Columns read, write, trim, sync: tierbench has no trim; its engines
  // never drop IOs (fio's net engine over UDP does).
  const DirectionStats& r = j.dir[static_cast<int>(IoDir::kRead)];
  const DirectionStats& w = j.dir[static_cast<int>(IoDir::kWrite)];
  out << Fmt(
      "     issued rwts: total=%llu,%llu,0,%llu short=%llu,%llu,0,0 "
      "dropped=0,0,0,0\n",
      static_cast<unsigned long long>(r.issued),
      static_cast<unsigned long long>(w.issued),
      static_cast<unsigned long long>(j.issued_syncs),
      static_cast<unsigned long long>(r.short_ios),
      static_cast<unsigned long long>(w.short_ios));
  out << Fmt(
      "     latency   : target=%llu, window=%llu, percentile=%.2f%%, "
      "depth=%u\n",
      kLatencyTargetUs, kLatencyWindowUs, kLatencyPercentile,
      std::max<uint32_t>(1, j.spec.iodepth));
}

void JobBlock(const JobResult& j, const GroupAgg& agg, std::ostream& out) {
  out << j.name << Fmt(": (groupid=%d, jobs=%u): ", j.group_id, j.jobs);
  if (!j.error.empty()) {
    out << "err= 1: " << j.error << '\n';
  } else if (j.pid != 0) {
    out << Fmt("err= 0: pid=%d: ", j.pid) << FioCtime(j.end_time) << '\n';
  } else {
    out << "err= 0\n";
  }
  for (int d = 0; d < kNumDirs; ++d) {
    if (j.dir[d].ios > 0 || j.dir[d].errors > 0) {
      DirectionBlock(j, static_cast<IoDir>(d), agg, out);
    }
  }
  DistributionLines(j, out);
  const double thread_sec = static_cast<double>(j.runtime_ns) / kNsPerSec *
                            std::max<uint32_t>(1, j.jobs);
  if (thread_sec > 0) {
    out << Fmt(
        "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%llu, majf=%llu, "
        "minf=%llu\n",
        j.usr_cpu_sec / thread_sec * 100.0, j.sys_cpu_sec / thread_sec * 100.0,
        static_cast<unsigned long long>(j.ctx_switches),
        static_cast<unsigned long long>(j.majf),
        static_cast<unsigned long long>(j.minf));
  }
  uint64_t depth_total = 0;
  for (uint64_t c : j.depth_hist) depth_total += c;
  if (depth_total > 0) {
    static const char* kLabels[] = {"1", "2", "4", "8", "16", "32", ">=64"};
    out << "  IO depths    : ";
    for (size_t i = 0; i < std::size(kLabels); ++i) {
      out << Fmt("%s%s=%3.1f%%", i ? ", " : "", kLabels[i],
                 100.0 * static_cast<double>(j.depth_hist[i]) /
                     static_cast<double>(depth_total));
    }
    out << '\n';
    BatchLines(j, out);
  }
  if (j.steadystate.enabled) {  // fio's show_ss_normal()
    const SteadyStateResult& ss = j.steadystate;
    const uint64_t bw = ss.BwMean();
    out << Fmt(
        "  steadystate  : attained=%s, bw=%s (%s), iops=%s, %s%s=%.3f%s\n",
        ss.attained ? "yes" : "no",
        FioNum2Str(bw, kSigFigs, true, "B/s").c_str(),
        FioNum2Str(bw, kSigFigs, false, "B/s").c_str(),
        FioNum2Str(ss.IopsMean(), kSigFigs, false, "").c_str(),
        ss.spec.metric == SteadyStateMetric::kIops ? "iops" : "bw",
        ss.spec.slope ? " slope" : " mean dev", ss.criterion,
        ss.spec.percent ? "%" : "");
  }
}

// "Run status group N (all jobs):" with one line per direction with IOs.
void GroupBlock(int group, const std::vector<const JobResult*>& jobs,
                std::ostream& out) {
  out << "\nRun status group " << group << " (all jobs):\n";
  for (int d = 0; d < kNumDirs; ++d) {
    uint64_t ios = 0, bytes = 0, run_min = UINT64_MAX, run_max = 0;
    uint64_t bw_min = UINT64_MAX, bw_max = 0;  // of one job (fio's ts)
    bool tx = false;
    for (const JobResult* j : jobs) {
      if (j->dir[d].ios == 0) continue;
      ios += j->dir[d].ios;
      bytes += j->dir[d].bytes;
      run_min = std::min(run_min, j->runtime_ns);
      run_max = std::max(run_max, j->runtime_ns);
      tx = tx || IsTx(*j);
      const uint64_t bw = Round(j->BytesPerSec(static_cast<IoDir>(d)));
      bw_min = std::min(bw_min, bw);
      bw_max = std::max(bw_max, bw);
    }
    if (ios == 0) continue;
    const unsigned long long min_ms =
        Round(static_cast<double>(run_min) / kNsPerMs);
    const unsigned long long max_ms =
        Round(static_cast<double>(run_max) / kNsPerMs);
    const double secs = static_cast<double>(run_max) / kNsPerSec;
    const char* name =
        d == static_cast<int>(IoDir::kRead) ? "   READ" : "  WRITE";
    if (tx) {
      out << Fmt(
          "%s: tps=%s, tx=%s, run=%llu-%llumsec\n", name,
          FioNum2Str(secs > 0 ? Round(ios / secs) : 0, kSigFigs, false, "")
              .c_str(),
          FioNum2Str(ios, kSigFigs, false, "").c_str(), min_ms, max_ms);
    } else {
      // fio: aggregate, then the slowest-fastest job, then total IO.
      const uint64_t bw = secs > 0 ? Round(bytes / secs) : 0;
      out << Fmt(
          "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), "
          "run=%llu-%llumsec\n",
          name, FioNum2Str(bw, kSigFigs, true, "B/s").c_str(),
          FioNum2Str(bw, kSigFigs, false, "B/s").c_str(),
          FioNum2Str(bw_min, kSigFigs, true, "B/s").c_str(),
          FioNum2Str(bw_max, kSigFigs, true, "B/s").c_str(),
          FioNum2Str(bw_min, kSigFigs, false, "B/s").c_str(),
          FioNum2Str(bw_max, kSigFigs, false, "B/s").c_str(),
          FioNum2Str(bytes, kSigFigs, true, "B").c_str(),
          FioNum2Str(bytes, kSigFigs, false, "B").c_str(), min_ms, max_ms);
    }
  }
}

}  // namespace

std::string FioNum2Str(uint64_t num, int maxlen, bool pow2,
                       const std::string& unit) {
  static const char* kSi[] = {"", "k", "M", "G", "T", "P", "E"};
  static const char* kIec[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  const char** prefix = pow2 ? kIec : kSi;
  const uint64_t thousand = pow2 ? 1024 : 1000;
  // Divide by 1000 (1024) until the number fits in maxlen digits; keep the
  // last remainder for the decimals.
  size_t post = 0;
  bool divided = false;
  uint64_t modulo = 0;
  while (post + 1 < std::size(kSi) &&
         std::to_string(num).size() > static_cast<size_t>(maxlen)) {
    modulo = num % thousand;
    num /= thousand;
    divided = true;
    ++post;
  }
  const int digits = static_cast<int>(std::to_string(num).size());
  const int decimals = maxlen - digits - 1;
  if (!divided || decimals < 1) {
    if (divided && modulo >= thousand / 2) ++num;  // round half up
    return std::to_string(num) + prefix[post] + unit;
  }
  // fio prints the remainder's fraction; round it here without the carry
  // bug of fio's "%.Nf" trick (0.96 -> "1.0" -> ".0").
  const uint64_t scale = static_cast<uint64_t>(std::pow(10, decimals));
  uint64_t frac = (modulo * scale * 2 + thousand) / (thousand * 2);
  if (frac >= scale) {
    ++num;
    frac -= scale;
    // 99.99k rounds up to 100.0k: drop the decimals if they no longer fit.
    if (static_cast<int>(std::to_string(num).size()) + 1 + decimals > maxlen) {
      return std::to_string(num) + prefix[post] + unit;
    }
  }
  return Fmt("%llu.%0*llu", static_cast<unsigned long long>(num), decimals,
             static_cast<unsigned long long>(frac)) +
         prefix[post] + unit;
}

std::string FioCtime(int64_t unix_seconds) {
  const time_t t = static_cast<time_t>(unix_seconds);
  tm local;
  localtime_r(&t, &local);
  char buf[64];
  std::strftime(buf, sizeof buf, "%a %b %e %H:%M:%S %Y", &local);
  return buf;
}

double FioPercentOfGroup(double mean_kib_per_sec,
                         uint64_t group_bytes_per_sec) {
  if (group_bytes_per_sec <= 1024) return 100.0;
  // fio passes the mean as an int (KiB/s).
  const double p = static_cast<double>(static_cast<int64_t>(mean_kib_per_sec)) *
                   100.0 / (static_cast<double>(group_bytes_per_sec) / 1024.0);
  return std::min(p, 100.0);
}

std::string FioBatchLine(const std::string& name, const uint64_t hist[7]) {
  uint64_t total = 0;
  for (int i = 0; i < 7; ++i) total += hist[i];
  static const char* kLabels[] = {"0", "4", "8", "16", "32", "64", ">=64"};
  std::string line = Fmt("     %-10s: ", name.c_str());
  for (int i = 0; i < 7; ++i) {
    // fio's stat_calc_dist(): a non-empty bucket shows at least 0.1%.
    double pct = total ? 100.0 * static_cast<double>(hist[i]) /
                             static_cast<double>(total)
                       : 0.0;
    if (pct < 0.1 && hist[i] != 0) pct = 0.1;
    line += Fmt("%s%s=%3.1f%%", i ? ", " : "", kLabels[i], pct);
  }
  return line;
}

void WriteConsoleReport(const RunResult& r, std::ostream& out) {
  for (const std::string& n : r.notices) out << "note: " << n << '\n';
  std::map<int, std::vector<const JobResult*>> groups;
  for (const JobResult& j : r.jobs) groups[j.group_id].push_back(&j);
  // fio's rs->agg: bytes * 1000 / the longest runtime (ms) per direction.
  std::map<int, GroupAgg> aggs;
  for (const auto& [group, jobs] : groups) {
    for (int d = 0; d < kNumDirs; ++d) {
      uint64_t bytes = 0, run_ms = 0;
      for (const JobResult* j : jobs) {
        if (j->dir[d].ios == 0) continue;
        bytes += j->dir[d].bytes;
        run_ms = std::max(run_ms,
                          Round(static_cast<double>(j->runtime_ns) / kNsPerMs));
      }
      if (run_ms > 0) aggs[group].bytes_per_sec[d] = bytes * 1000 / run_ms;
    }
  }
  for (const JobResult& j : r.jobs) JobBlock(j, aggs[j.group_id], out);
  for (const auto& [group, jobs] : groups) GroupBlock(group, jobs, out);
}

}  // namespace tierbench
