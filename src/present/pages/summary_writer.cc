#include "present/pages/summary_writer.h"

#include <algorithm>
#include <initializer_list>
#include <map>

#include "present/charts/iops_chart.h"
#include "present/report_format.h"
#include "present/verdict.h"
#include "util/cpu_latency.h"

namespace tierbench {

std::string MarkdownQuote(const std::vector<std::string>& paras) {
  std::string md;
  for (size_t i = 0; i < paras.size(); ++i) {
    if (i > 0) md += ">\n";
    size_t start = 0;
    while (start <= paras[i].size()) {
      size_t end = paras[i].find('\n', start);
      if (end == std::string::npos) end = paras[i].size();
      md += "> " + paras[i].substr(start, end - start) + "\n";
      start = end + 1;
    }
  }
  return md;
}
namespace {

// A figure of 0 IOPS: no IO in the measured window (e.g. a size-bound job
// done within ramp_time), which the caveats explain; it is no figure.
std::string NoIoMeasured(const std::string& who) {
  return who + " measured no IO (see the caveats)";
}

using nlohmann::json;

// The value at `path` in `j`, or null.
const json& At(const json& j, std::initializer_list<const char*> path) {
  static const json kNull;
  const json* cur = &j;
  for (const char* key : path) {
    if (!cur->is_object() || !cur->contains(key)) return kNull;
    cur = &(*cur)[key];
  }
  return *cur;
}

// A scalar as text ("" for null, objects and arrays).
std::string Text(const json& j) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_number_integer() || j.is_number_unsigned()) return j.dump();
  if (j.is_number_float()) return GroupedNumber(j.get<double>(), 3);
  if (j.is_boolean()) return j.get<bool>() ? "yes" : "no";
  return "";
}

std::string BaseName(const std::string& workload) {
  return workload.substr(0, workload.find('@'));
}

std::string Unit(const ReportFigure& f) {
  return f.unit == "tx" ? "tps" : "IOPS";
}

std::string Runs(int n) {
  return std::to_string(n) + (n == 1 ? " run" : " runs");
}

// " (95% CI lo to hi)", or "" when both ends round to the same text (the
// interval is narrower than the rounding).
std::string Interval(const std::string& lo, const std::string& hi) {
  return lo == hi ? "" : " (95% CI " + lo + " to " + hi + ")";
}

// " The CPUs ..." from manifest schema 4's `cpu`: what a QD1 latency may
// include (README "CPU idle and QD1 latency"); "" for older manifests.
std::string CpuIdleSentence(const json& m) {
  const json& limit = At(m, {"cpu", "latency_limit_us"});
  const std::string driver = Text(At(m, {"cpu", "cpuidle_driver"}));
  if (driver.empty() && !limit.is_number()) return "";
  std::string s = " The CPUs idled through cpuidle " +
                  (driver.empty() ? std::string("(driver unknown)") : driver);
  if (limit.is_number() && limit.get<int64_t>() < kMaxCpuLatencyUs) {
    s += ", with their wake-up latency held at " +
         std::to_string(limit.get<int64_t>()) + " us";
    if (limit.get<int64_t>() == 0)
      s += " (no idle states: latencies exclude wake-ups)";
  } else {
    s += ", with their idle states allowed (QD1 latencies include waking a CPU "
         "from idle)";
  }
  return s + ".";
}

}  // namespace

std::string SummaryWriter::SetupParagraph() const {
  const json& m = run_.manifest();
  std::string p =
      "These measurements were taken with tierbench " +
      Text(At(m, {"version"})) + " on the host " + Text(At(m, {"hostname"})) +
      " (Linux " + Text(At(m, {"kernel", "release"})) + ", " +
      Text(At(m, {"kernel", "machine"})) + "), run " + Text(At(m, {"run_id"})) +
      " from " + Text(At(m, {"start_time"})) + " to " +
      Text(At(m, {"end_time"})) + ".";
  std::vector<std::string> raw;
  for (const char* kind : {"hdd", "ssd"}) {
    const std::string path = Text(At(m, {"devices", kind, "path"}));
    if (path.empty()) continue;
    std::string s = std::string("the raw ") + (kind[0] == 'h' ? "HDD" : "SSD") +
                    " was " + path;
    const std::string sched =
        Text(At(m, {"devices", kind, "queue", "scheduler"}));
    if (!sched.empty()) s += " (scheduler " + sched + ")";
    raw.push_back(s);
  }
  const json& stacks = At(m, {"devices", "stacks"});
  std::vector<std::string> st;
  if (stacks.is_array()) {
    for (const json& s : stacks) {
      st.push_back(Text(At(s, {"device"})) + " (" + Text(At(s, {"layer"})) +
                   ")");
    }
  }
  if (!raw.empty()) {
    std::string r = JoinList(raw);
    r[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(r[0])));
    p += " " + r + ".";
  }
  if (!st.empty()) {
    p += std::string(" The cache ") +
         (st.size() == 1 ? "stack was " : "stacks were ") + JoinList(st) + ".";
  }
  const std::string repeat = Text(At(m, {"options", "repeat"}));
  const std::string state = Text(At(m, {"options", "cache_state"}));
  p += " The modes " + JoinList(run_.modes()) + " each ran the workloads " +
       JoinList(run_.workloads());
  if (!repeat.empty())
    p += ", " + repeat + (repeat == "1" ? " time" : " times") + " each";
  if (!state.empty())
    p += ", with the cache state " + state + " before each cache cell";
  const json& runtime = At(m, {"options", "runtime_ns"});
  if (runtime.is_number()) {
    p += " and a runtime of " + FormatSeconds(runtime.get<double>() / 1e9) +
         " per IO job";
  }
  p += ".";
  p += CpuIdleSentence(m);
  return p;
}

std::string SummaryWriter::Describe(const std::string& workload,
                                    const std::string& job) const {
  const json& ws = At(run_.manifest(), {"workloads"});
  if (!ws.is_array()) return "";
  for (const json& w : ws) {
    if (Text(At(w, {"name"})) != BaseName(workload)) continue;
    if (Text(At(w, {"kind"})) == "pgbench") {
      return "pgbench TPC-B, scale " + Text(At(w, {"pgbench", "scale"})) +
             ", " + Text(At(w, {"pgbench", "clients"})) + " clients";
    }
    const json& jobs = At(w, {"jobs"});
    if (!jobs.is_array()) return "";
    for (const json& j : jobs) {
      if (Text(At(j, {"name"})) != job && jobs.size() > 1) continue;
      const std::string rw = Text(At(j, {"rw"}));
      const bool reads = rw.find("read") != std::string::npos ||
                         rw.find("rw") != std::string::npos;
      const json& bs = At(j, {reads ? "bs_read" : "bs_write"});
      std::string d = "fio " + rw;
      const std::string lo = Text(At(bs, {"min"})), hi = Text(At(bs, {"max"}));
      if (!lo.empty())
        d += ", " + (lo == hi ? lo : lo + "-" + hi) + " B blocks";
      const std::string depth = Text(At(j, {"iodepth"}));
      if (!depth.empty()) d += ", iodepth " + depth;
      const std::string jobs_n = Text(At(j, {"numjobs"}));
      if (!jobs_n.empty() && jobs_n != "1") d += ", " + jobs_n + " jobs";
      return d;
    }
  }
  return "";
}

std::string SummaryWriter::DrainClause(const std::string& mode,
                                       const std::string& workload) const {
  for (const DrainFigure& d : run_.drains()) {
    if (d.mode != mode || d.workload != workload || d.seconds.empty()) continue;
    const double lo = *std::min_element(d.seconds.begin(), d.seconds.end());
    const double hi = *std::max_element(d.seconds.begin(), d.seconds.end());
    if (FormatSeconds(hi) == "0.0 s") return "";  // nothing to clean
    if (FormatSeconds(lo) == FormatSeconds(hi)) {
      return "its dirty data took " + FormatSeconds(hi) + " to clean";
    }
    const std::string range = FormatSeconds(lo) + " to " + FormatSeconds(hi);
    if (d.seconds.size() % 2 == 1) {  // the median is one of the runs
      std::vector<double> sorted = d.seconds;
      std::sort(sorted.begin(), sorted.end());
      return "its dirty data took " + FormatSeconds(sorted[sorted.size() / 2]) +
             " to clean (" + range + " over the runs)";
    }
    return "its dirty data took " + range + " to clean";
  }
  return "";
}

std::string SummaryWriter::ModeSentence(const ReportFigure& f,
                                        bool with_drain) const {
  if (f.iops_median <= 0) return NoIoMeasured(f.mode) + ".";
  std::string s = f.mode + ": " + FormatRate(f.iops_median) + " " + Unit(f) +
                  " (" + Runs(f.n);
  if (f.n >= 2) s += ", spread " + FormatPct(f.iops_spread_pct);
  s += ")";
  if (f.Invalid()) {
    // No ratio of an invalid cell: the figure and why it is not one.
    return s + ", invalid (" + VerdictReason(f.invalid_reasons, f.cache_state) +
           "): not compared.";
  }
  std::vector<std::string> rel;
  if (f.within_noise_vs_hdd().value_or(false)) {
    rel.push_back("within noise of the HDD");
  } else if (f.iops_vs_hdd_pct) {
    std::string r = FormatTimes(*f.iops_vs_hdd_pct) + " the HDD";
    if (f.iops_vs_hdd_ci_low && f.iops_vs_hdd_ci_high) {
      r += Interval(FormatTimes(*f.iops_vs_hdd_ci_low),
                    FormatTimes(*f.iops_vs_hdd_ci_high));
    }
    rel.push_back(r);
  }
  if (f.within_noise_vs_ssd().value_or(false)) {
    rel.push_back("within noise of the SSD");
  } else if (f.iops_vs_ssd_pct) {
    std::string r = FormatPct(100 + *f.iops_vs_ssd_pct) + " of the SSD";
    if (f.iops_vs_ssd_ci_low && f.iops_vs_ssd_ci_high) {
      r += Interval(FormatPct(100 + *f.iops_vs_ssd_ci_low),
                    FormatPct(100 + *f.iops_vs_ssd_ci_high));
    }
    rel.push_back(r);
  }
  if (!rel.empty()) s += ", " + JoinList(rel);
  s += ", p99 " + FormatLatencyUs(f.p99_us);
  if (with_drain) {
    const std::string drain = DrainClause(f.mode, f.workload);
    if (!drain.empty()) s += "; " + drain;
  }
  return s + ".";
}

std::string SummaryWriter::WorkloadParagraph(
    const std::string& workload) const {
  const std::vector<std::string> series = run_.SeriesOf(workload);
  const bool multi = series.size() > 1;
  const auto figs = run_.FiguresOf(workload);
  std::string p = "**" + workload + "**";
  if (figs.empty()) {
    return p + ": no cell of this workload finished; see the caveats.";
  }
  const std::vector<std::string> modes = ComparedModes(run_, workload);
  for (size_t s = 0; s < series.size(); ++s) {
    const ReportFigure* probe = nullptr;
    for (const ReportFigure* f : figs) {
      if (f->job + "/" + f->direction == series[s] && probe == nullptr)
        probe = f;
    }
    const std::string desc = Describe(workload, probe->job);
    if (multi) {
      p += std::string(s == 0 ? "" : " ") + (s == 0 ? ", job " : "Job ") +
           probe->job + " (" + (desc.empty() ? "" : desc + "; ") +
           probe->direction + "s):";
    } else {
      p += " (" + (desc.empty() ? "" : desc + "; ") + probe->direction + "s):";
    }
    std::vector<std::string> base;
    for (const char* kind : {"hdd", "ssd"}) {
      const ReportFigure* b = run_.Baseline(*probe, kind);
      if (b == nullptr) continue;
      if (b->iops_median <= 0) {
        base.push_back(NoIoMeasured(std::string("the raw ") +
                                    (kind[0] == 'h' ? "HDD" : "SSD")));
        continue;
      }
      base.push_back(std::string("the raw ") +
                     (kind[0] == 'h' ? "HDD" : "SSD") + " did " +
                     FormatRate(b->iops_median) + " " + Unit(*b) + " (p99 " +
                     FormatLatencyUs(b->p99_us) + ")");
    }
    if (!base.empty()) p += " " + JoinList(base) + ".";
    for (const std::string& mode : modes) {
      const ReportFigure* f = nullptr;
      for (const ReportFigure* g : figs) {
        if (g->mode == mode && g->job + "/" + g->direction == series[s]) f = g;
      }
      if (f == nullptr) {
        p += " " + mode + ": failed (see the caveats).";
        continue;
      }
      p += " " + ModeSentence(*f, !multi);
    }
  }
  if (multi) {
    std::vector<std::string> drains;
    for (const std::string& mode : modes) {
      const std::string d = DrainClause(mode, workload);
      if (!d.empty()) drains.push_back(mode + ": " + d);
    }
    if (!drains.empty()) p += " After the run, " + JoinList(drains) + ".";
  }
  return p;
}

std::string SummaryWriter::Caveats() const {
  std::vector<std::string> items;
  const std::string status = Text(At(run_.manifest(), {"status"}));
  if (!status.empty() && status != "complete") {
    items.push_back("The run's status is \"" + status +
                    "\": the figures cover the cells that finished.");
  }
  // Each distinct warning once, with the cells it concerns.
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::string>> where;
  for (const ReportFigure& f : run_.figures()) {
    for (const std::string& w : f.warnings) {
      auto& cells = where[w];
      if (cells.empty()) order.push_back(w);
      const std::string cell = f.mode + " on " + f.workload;
      if (std::find(cells.begin(), cells.end(), cell) == cells.end())
        cells.push_back(cell);
    }
  }
  for (const std::string& w : order) {
    items.push_back(JoinList(where[w]) + ": " + w);
  }
  for (const FailedCell& c : run_.failures()) {
    items.push_back("Failed cell " + c.mode + " on " + c.workload +
                    ", repetition " + c.repetition + ": " + c.error);
  }
  const json& sw = At(run_.manifest(), {"devices", "stack_warnings"});
  if (sw.is_array()) {
    for (const json& w : sw) items.push_back(Text(w));
  }
  if (At(run_.manifest(), {"restore", "ok"}) == json(false)) {
    items.push_back(
        "The original cache settings were not all restored (manifest.json "
        "\"restore\").");
  }
  if (items.empty()) return "";
  std::string out = "Caveats:";
  for (const std::string& i : items) out += "\n- " + i;
  return out;
}

std::string SummaryWriter::NoiseStatement() const {
  int lo = 0, hi = 0;
  const ReportFigure* widest = nullptr;
  std::vector<std::string> within;
  int compared = 0;        // cache-mode groups with a known noise verdict
  bool intervals = false;  // some verdict rests on a confidence interval
  for (const ReportFigure& f : run_.figures()) {
    lo = lo == 0 ? f.n : std::min(lo, f.n);
    hi = std::max(hi, f.n);
    if (f.n >= 2 &&
        (widest == nullptr || f.iops_spread_pct > widest->iops_spread_pct)) {
      widest = &f;
    }
    if (f.is_raw()) continue;
    compared += f.within_noise_vs_hdd().has_value() ||
                f.within_noise_vs_ssd().has_value();
    intervals = intervals || f.significant_vs_hdd.has_value() ||
                f.significant_vs_ssd.has_value();
    const std::string who =
        f.mode + " on " + f.workload + (f.series.empty() ? "" : " " + f.series);
    if (f.within_noise_vs_hdd().value_or(false))
      within.push_back(who + " vs the HDD");
    if (f.within_noise_vs_ssd().value_or(false))
      within.push_back(who + " vs the SSD");
  }
  if (hi < 2) {
    return "Noise: every cell ran once, so the run-to-run spread is unknown, "
           "no confidence interval can be given and no difference above can "
           "be told apart from noise; repeat with --repeat of three or more "
           "for 95% confidence intervals.";
  }
  std::string s =
      "Noise: each cell ran " +
      (lo == hi ? std::to_string(hi)
                : std::to_string(lo) + " to " + std::to_string(hi)) +
      " times; the widest IOPS spread over the repetitions "
      "((max - min) / median) was " +
      FormatPct(widest->iops_spread_pct) + " (" + widest->mode + " on " +
      widest->workload + ").";
  if (compared == 0) {
    s += " No cache mode's IOPS range could be set against a baseline's.";
  } else if (intervals) {
    s += " The 95% confidence intervals of the changes (Welch's t on the "
         "log IOPS of the repetitions) decide what is within noise";
    s += within.empty()
             ? ": none includes 0, so every difference stated above is "
               "larger than the run-to-run noise."
             : "; these differences are within noise (their interval "
               "includes 0, or without one their min-max ranges overlap) and "
               "are stated as such, not as ratios: " +
                   JoinList(within) + ".";
  } else if (within.empty()) {
    s += " No mode's IOPS range overlapped its baseline's, so every "
         "difference stated above is larger than the run-to-run spread.";
  } else {
    s += " These differences are within noise (the min-max ranges overlap) "
         "and are stated as such, not as ratios: " +
         JoinList(within) + ".";
  }
  if (lo < 3 && intervals) {
    s += " Groups with fewer than three runs have no interval; for them "
         "overlapping min-max ranges count as within noise.";
  } else if (hi < 3) {
    s += " No confidence interval can be given with fewer than three runs "
         "(--repeat of three or more).";
  }
  if (lo < 2) {
    s += " Groups with a single run carry no noise estimate.";
  }
  return s;
}

std::string SummaryWriter::Markdown() const {
  std::string md =
      "# tierbench run " + Text(At(run_.manifest(), {"run_id"})) + "\n\n";
  md += VerdictMarkdown(verdict_ != nullptr ? *verdict_
                                            : BuildVerdict(run_, nullptr)) +
        "\n";
  md += "## Details - text suggested for a paper\n\n";
  std::vector<std::string> paras = {SetupParagraph()};
  for (const std::string& w : run_.workloads()) {
    paras.push_back(WorkloadParagraph(w));
  }
  const std::string caveats = Caveats();
  if (!caveats.empty()) paras.push_back(caveats);
  paras.push_back(NoiseStatement());
  md += MarkdownQuote(paras);
  md +=
      "\nIOPS (tps for database workloads) are medians over the repetitions "
      "(comparison.csv); \"Nx the HDD\" and \"% of the SSD\" compare those "
      "medians with the raw baselines of the same job and direction; the 95% "
      "CI is the interval of that change from Welch's t on the log IOPS of "
      "the repetitions (results/README.md); p99 is "
      "the median of the per-run p99 latency; the time to clean is "
      "drain_after_s of runs.csv. Charts: report.html.\n";
  return md;
}

}  // namespace tierbench
