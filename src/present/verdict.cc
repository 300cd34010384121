#include "present/verdict.h"

#include <algorithm>
#include <map>

#include "present/hit_bound.h"
#include "present/replay_verdict.h"
#include "present/report_format.h"
#include "present/wear_verdict.h"
#include "stats/confidence.h"
#include "validity/rule_table.h"

namespace tierbench {
namespace {

// One mode of one workload, its series summed.
struct ModeTotal {
  std::string mode;
  bool raw = false;
  std::string baseline;  // "hdd" / "ssd" for raw modes
  std::string valid;     // worst of its series: no > unknown > yes; "" never
                         // judged
  std::string reasons;   // the first invalid_reasons of its series
  std::string state;     // cache_state
  std::string unit;      // "IOPS" or "tps"
  double median = 0;
  std::vector<double> reps;     // per repetition, when every series has them
  std::vector<double> batches;  // batch means of the per-second IOPS
  // The CPU, not the storage, set the figure (a cpu-bound caution): the
  // figure and its ratios are floors.
  bool cpu_floor = false;
  // Its rate drifted within the run (a drift caution): "46 to 32", the
  // first and last third's rates of the finding ("drifted" when no warning
  // gives them); "" when steady.
  std::string drift;
};

// "46 to 32" of the first of ReportFigure::DriftWarnings() ("job x went
// from 46 to 32 IO/s between ..."), or "" when none gives them.
std::string DriftRates(const std::vector<std::string>& warnings) {
  static const std::string kFrom = "went from ";
  for (const std::string& w : warnings) {
    const size_t from = w.find(kFrom);
    if (from == std::string::npos) continue;
    const size_t start = from + kFrom.size();
    const size_t end = w.find(" IO/s", start);
    if (end == std::string::npos) continue;
    return w.substr(start, end - start);
  }
  return "";
}

std::string WorseValidity(const std::string& a, const std::string& b) {
  auto rank = [](const std::string& v) {
    if (v.empty()) return 3;
    if (v == "no") return 2;
    if (v == "unknown") return 1;
    return 0;
  };
  return rank(a) >= rank(b) ? a : b;
}

// Batch means of the measured seconds of `points` (kVerdictBatches
// contiguous batches; fewer when there are fewer seconds).
std::vector<double> BatchMeans(const std::vector<SeriesPoint>& points) {
  std::vector<double> per_second;
  for (const SeriesPoint& p : points) {
    if (p.phase == "measure" && p.iops) per_second.push_back(*p.iops);
  }
  const size_t batches =
      std::min(per_second.size(), static_cast<size_t>(kVerdictBatches));
  std::vector<double> out;
  if (batches < kMinRepetitionsForInterval) return out;
  for (size_t b = 0; b < batches; ++b) {
    const size_t from = b * per_second.size() / batches;
    const size_t to = (b + 1) * per_second.size() / batches;
    double sum = 0;
    for (size_t i = from; i < to; ++i) sum += per_second[i];
    out.push_back(sum / static_cast<double>(to - from));
  }
  return out;
}

std::vector<ModeTotal> Totals(const RunFolder& run, const std::string& workload,
                              const SeriesFile* series) {
  std::vector<ModeTotal> out;
  std::map<std::string, size_t> at;
  for (const ReportFigure* f : run.FiguresOf(workload)) {
    auto [it, fresh] = at.emplace(f->mode, out.size());
    if (fresh) {
      ModeTotal t;
      t.mode = f->mode;
      t.raw = f->is_raw();
      t.baseline = f->baseline;
      t.valid = f->valid;
      t.unit = f->unit == "tx" ? "tps" : "IOPS";
      t.reps = f->iops_values;
      out.push_back(std::move(t));
    } else {
      ModeTotal& t = out[it->second];
      t.valid = WorseValidity(t.valid, f->valid);
      if (t.reps.size() == f->iops_values.size()) {
        for (size_t i = 0; i < t.reps.size(); ++i) {
          t.reps[i] += f->iops_values[i];
        }
      } else {
        t.reps.clear();
      }
    }
    ModeTotal& t = out[it->second];
    t.median += f->iops_median;
    t.cpu_floor = t.cpu_floor || f->HasFinding("cpu-bound:caution");
    if (t.drift.empty() && f->Drifted()) {
      t.drift = DriftRates(f->DriftWarnings());
      if (t.drift.empty()) t.drift = "drifted";
    }
    if (t.reasons.empty() && !f->invalid_reasons.empty() && f->Invalid()) {
      t.reasons = f->invalid_reasons;
    }
    if (t.state.empty()) t.state = f->cache_state;
  }
  if (series != nullptr) {
    for (const ModeSeries& s : series->Of(workload)) {
      auto it = at.find(s.mode);
      if (it != at.end()) out[it->second].batches = BatchMeans(s.points);
    }
  }
  return out;
}

struct Interval {
  std::optional<ChangeInterval> ci;
  bool from_batches = false;
};

// The interval of the change of `x` against `base` (see the header).
Interval Diff(const ModeTotal& x, const ModeTotal& base) {
  Interval out;
  if (x.reps.size() >= kMinRepetitionsForInterval &&
      base.reps.size() >= kMinRepetitionsForInterval) {
    out.ci = LogChangeInterval95(x.reps, base.reps);
    if (out.ci) return out;
  }
  if (x.batches.size() >= kMinRepetitionsForInterval &&
      base.batches.size() >= kMinRepetitionsForInterval) {
    out.ci = LogChangeInterval95(x.batches, base.batches);
    out.from_batches = out.ci.has_value();
  }
  return out;
}

}  // namespace

std::string VerdictReason(const std::string& reasons) {
  const size_t colon = reasons.find(':');
  if (colon == std::string::npos) return reasons;
  const std::string rule = reasons.substr(0, colon);
  const std::string s = ShortReason(rule);
  if (!s.empty()) return s;
  std::string text = reasons.substr(colon + 1);
  const size_t semi = text.find(';');
  if (semi != std::string::npos) text = text.substr(0, semi);
  while (!text.empty() && text.front() == ' ') text.erase(text.begin());
  return text;
}

std::string VerdictReason(const std::string& reasons,
                          const std::string& cache_state) {
  if (cache_state == "warm-until-steady" &&
      reasons.rfind("cold-reads:", 0) == 0) {
    return "cache still filling: its reads went to the HDD";
  }
  return VerdictReason(reasons);
}

namespace {

std::string StateWords(const std::string& state) {
  if (state == "warm-until-steady") return "steady state";
  if (state == "warm") return "warm cache";
  if (state == "cold") return "cold cache: first-touch figures";
  if (state == "as-is") return "cache as found";
  return "";
}

// Why a drifting mode is not ranked: "not steady: 46/s in the first third
// of the run, 32/s in the last" (rates, not the mode's figure).
std::string NotSteady(const ModeTotal& t) {
  const size_t to = t.drift.find(" to ");
  if (to == std::string::npos) {
    return "not steady: its rate drifted within the run";
  }
  return "not steady: " + t.drift.substr(0, to) +
         "/s in the first third of the run, " + t.drift.substr(to + 4) +
         "/s in the last";
}

std::string Signed(double pct) {
  return (pct > 0 ? "+" : "") +
         GroupedNumber(pct, std::fabs(pct) < 10 ? 1 : 0) + "%";
}

class WorkloadVerdict {
 public:
  // `by_latency`: the workload is an open-loop replay whose modes the next
  // line ranks by latency (present/replay_verdict.h): its IOPS follow the
  // trace, so this line ranks nothing by them and only names the modes
  // that line leaves out (no line when there are none).
  WorkloadVerdict(const std::string& workload, std::vector<ModeTotal> totals,
                  bool by_latency = false)
      : workload_(workload),
        totals_(std::move(totals)),
        by_latency_(by_latency) {
    for (const ModeTotal& t : totals_) {
      if (t.baseline == "hdd" && hdd_ == nullptr) hdd_ = &t;
      if (t.baseline == "ssd" && ssd_ == nullptr) ssd_ = &t;
    }
  }

  bool used_batches() const { return used_batches_; }

  VerdictLine Build() {
    VerdictLine line;
    line.workload = workload_;
    // A workload the disks did not bound: nothing is ranked.
    for (const ModeTotal* b : {hdd_, ssd_}) {
      if (b != nullptr && b->reasons.rfind("no-discrimination:", 0) == 0) {
        std::string why =
            b->reasons.substr(std::string("no-discrimination:").size());
        const size_t semi = why.find(';');
        if (semi != std::string::npos) why = why.substr(0, semi);
        while (!why.empty() && why.front() == ' ') why.erase(why.begin());
        line.text = workload_ + ": cannot tell the caches apart: " + why +
                    ". No mode is ranked.";
        for (const ModeTotal& t : totals_) {
          if (!t.raw) line.not_ranked.push_back(t.mode);
        }
        return line;
      }
    }
    // Not ranked: the invalid modes, and the valid ones whose rate drifted
    // within the run (their figure is a transient's mean, and the spread
    // of their per-second rates is the drift, not noise: a pgbench cell
    // that went from 52 to 2 tps was "within noise" of one at 134).
    std::vector<const ModeTotal*> ranked, invalid;
    std::string state;
    for (const ModeTotal& t : totals_) {
      if (t.raw) continue;
      if (state.empty()) state = StateWords(t.state);
      (t.valid == "no" || !t.drift.empty() ? invalid : ranked).push_back(&t);
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const ModeTotal* a, const ModeTotal* b) {
                       return a->median > b->median;
                     });
    // The state the ranked figures were measured in (none: nothing to say).
    std::string text =
        workload_ +
        (state.empty() || ranked.empty() ? "" : " (" + state + ")") + ": ";
    if (ranked.empty() && invalid.empty()) {
      text += BaselinesOnly();
    } else if (ranked.empty()) {
      bool any_invalid = false, any_drift = false;
      for (const ModeTotal* t : invalid) {
        (t->valid == "no" ? any_invalid : any_drift) = true;
      }
      text += any_drift ? (any_invalid ? "no cache mode measured validly at "
                                         "a steady rate."
                                       : "no cache mode ran at a steady rate.")
                        : "no cache mode measured validly.";
    } else if (by_latency_) {
      if (invalid.empty()) return line;
    } else {
      text += RankedSentences(ranked, &line.quoted_modes);
    }
    if (!invalid.empty()) {
      std::vector<std::string> named;
      for (const ModeTotal* t : invalid) {
        named.push_back(t->mode + " (" +
                        (t->valid == "no" ? VerdictReason(t->reasons, t->state)
                                          : NotSteady(*t)) +
                        ")");
        line.not_ranked.push_back(t->mode);
      }
      text += (by_latency_ && !ranked.empty()
                   ? "the latency ranking below leaves out "
                   : " Not ranked: ") +
              JoinList(named) + ".";
    }
    // A baseline that drifted gives no ratio (Usable): said so, once.
    for (const ModeTotal* b : {hdd_, ssd_}) {
      if (b == nullptr || b->valid == "no" || b->drift.empty() ||
          ranked.empty()) {
        continue;
      }
      text += std::string(" No ratio against the ") +
              (b == hdd_ ? "HDD" : "SSD") + " (" + NotSteady(*b) + ").";
    }
    line.text = text;
    return line;
  }

 private:
  // "9.8x the HDD, 41% of the SSD" for a valid mode; pieces whose
  // baseline is invalid or whose interval includes no change are left out.
  // A baseline ratios may use: valid and steady.
  static bool Usable(const ModeTotal* b) {
    return b != nullptr && b->valid != "no" && b->drift.empty();
  }

  std::string Place(const ModeTotal& t) {
    std::vector<std::string> parts;
    if (Usable(hdd_) && hdd_->median > 0) {
      const Interval d = Diff(t, *hdd_);
      used_batches_ = used_batches_ || d.from_batches;
      if (d.ci && d.ci->significant()) {
        parts.push_back(
            std::string(t.cpu_floor ? "at least " : "") +
            FormatTimes(100.0 * (t.median - hdd_->median) / hdd_->median) +
            " the HDD");
      } else if (d.ci) {
        parts.push_back("like the HDD");
      }
    }
    if (Usable(ssd_) && ssd_->median > 0 && !parts.empty() &&
        parts[0] != "like the HDD") {
      parts.push_back(FormatPct(100.0 * t.median / ssd_->median) +
                      " of the SSD");
    }
    std::string out;
    for (const std::string& p : parts) out += (out.empty() ? "" : ", ") + p;
    return out;
  }

  // A run of raw baselines only: the SSD against the HDD.
  std::string BaselinesOnly() {
    if (hdd_ == nullptr || ssd_ == nullptr) return "no cache mode ran.";
    if (hdd_->valid == "no" || ssd_->valid == "no") {
      return "no cache mode ran, and the baselines are not valid (" +
             VerdictReason(hdd_->valid == "no" ? hdd_->reasons
                                               : ssd_->reasons) +
             ").";
    }
    if (!Usable(hdd_) || !Usable(ssd_)) {
      const ModeTotal& b = Usable(hdd_) ? *ssd_ : *hdd_;
      return "no cache mode ran, and the raw " +
             std::string(&b == hdd_ ? "HDD" : "SSD") + " was " + NotSteady(b) +
             ".";
    }
    const Interval d = Diff(*ssd_, *hdd_);
    used_batches_ = used_batches_ || d.from_batches;
    std::string s = "no cache mode ran; the raw SSD did " +
                    FormatRate(ssd_->median) + " " + ssd_->unit +
                    " and the raw HDD " + FormatRate(hdd_->median);
    if (d.ci && d.ci->significant() && hdd_->median > 0) {
      s += " (" +
           FormatTimes(100.0 * (ssd_->median - hdd_->median) / hdd_->median) +
           ")";
    } else if (d.ci) {
      s += " (within noise of each other)";
    }
    return s + ".";
  }

  // " a, b and c were within noise of each other." when every pair of
  // `modes` (two or more, below the best) is; "" otherwise.
  std::string AlikeSentence(const std::vector<const ModeTotal*>& modes) {
    if (modes.size() < 2) return "";
    for (size_t i = 0; i < modes.size(); ++i) {
      for (size_t j = i + 1; j < modes.size(); ++j) {
        const Interval d = Diff(*modes[i], *modes[j]);
        used_batches_ = used_batches_ || d.from_batches;
        if (!d.ci || d.ci->significant()) return "";
      }
    }
    std::vector<std::string> names;
    for (const ModeTotal* t : modes) names.push_back(t->mode);
    return " " + JoinList(names) + " were within noise of each other.";
  }

  bool LikeHdd(const ModeTotal& t) {
    if (!Usable(hdd_)) return false;
    const Interval d = Diff(t, *hdd_);
    return d.ci && !d.ci->significant();
  }

  std::string Figure(const ModeTotal& t) {
    return FormatRate(t.median) + " " + t.unit +
           (t.cpu_floor ? " (CPU-bound: a floor)" : "") +
           (t.valid == "unknown" ? ", validity unknown" : "");
  }

  std::string RankedSentences(const std::vector<const ModeTotal*>& ranked,
                              std::vector<std::string>* quoted) {
    const ModeTotal& best = *ranked[0];
    // The best tier: the best and every mode within noise of it.
    std::vector<const ModeTotal*> tier = {&best}, rest, like_hdd, no_ci;
    for (size_t i = 1; i < ranked.size(); ++i) {
      const Interval d = Diff(*ranked[i], best);
      used_batches_ = used_batches_ || d.from_batches;
      if (!d.ci) {
        no_ci.push_back(ranked[i]);
      } else if (!d.ci->significant()) {
        tier.push_back(ranked[i]);
      } else if (LikeHdd(*ranked[i])) {
        like_hdd.push_back(ranked[i]);
      } else {
        rest.push_back(ranked[i]);
      }
    }
    std::string s;
    if (LikeHdd(best)) {
      std::vector<std::string> names;
      for (const ModeTotal* t : tier) names.push_back(t->mode);
      for (const ModeTotal* t : like_hdd) names.push_back(t->mode);
      s += "no cache mode beat the raw HDD: " + JoinList(names) +
           (names.size() == 1 ? " was" : " were") + " like it (" +
           FormatRate(hdd_->median) + " " + best.unit + ").";
      for (const std::string& n : names) quoted->push_back(n);
    } else {
      const std::string place = Place(best);
      if (tier.size() == 1) {
        s += best.mode + " is best at " + Figure(best) +
             (place.empty() ? "" : " (" + place + ")") + ".";
      } else {
        std::vector<std::string> names;
        for (const ModeTotal* t : tier) names.push_back(t->mode);
        s += JoinList(names) + " are best, within noise of each other (" +
             best.mode + " " + Figure(best) +
             (place.empty() ? "" : ", " + place) + ").";
      }
      for (const ModeTotal* t : tier) quoted->push_back(t->mode);
      for (const ModeTotal* t : rest) {
        const Interval d = Diff(*t, best);
        const std::string p = Place(*t);
        s += " " + t->mode + ": " + Figure(*t) + (p.empty() ? "" : ", " + p) +
             "; " + Signed(d.ci->estimate_pct) + " against the best (95% CI " +
             Signed(d.ci->low_pct) + " to " + Signed(d.ci->high_pct) + ").";
        quoted->push_back(t->mode);
      }
      s += AlikeSentence(rest);
      if (!like_hdd.empty()) {
        // A figure far from the HDD's (over 1.5x either way) can still be
        // within the noise of a run whose rate swung widely: said so, with
        // the figure, so the sentence and the table agree.
        std::vector<std::string> close, far;
        for (const ModeTotal* t : like_hdd) {
          const double r = hdd_->median > 0 ? t->median / hdd_->median : 1;
          if (r > 1.5 || r < 1 / 1.5) {
            far.push_back(t->mode + " (" + FormatRate(t->median) + " " +
                          t->unit + ")");
          } else {
            close.push_back(t->mode);
          }
        }
        if (!close.empty()) {
          s += " " + JoinList(close) + (close.size() == 1 ? " was" : " were") +
               " like the HDD (" + FormatRate(hdd_->median) + " " + best.unit +
               ").";
        }
        if (!far.empty()) {
          s += " " + JoinList(far) +
               " could not be told from the HDD: the rate swung too widely "
               "within the run.";
        }
        for (const ModeTotal* t : like_hdd) quoted->push_back(t->mode);
      }
    }
    if (!no_ci.empty()) {
      std::vector<std::string> named;
      for (const ModeTotal* t : no_ci)
        named.push_back(t->mode + " " + Figure(*t));
      s += " Without an interval (fewer than 3 runs, no per-second series): " +
           JoinList(named) + ".";
      for (const ModeTotal* t : no_ci) quoted->push_back(t->mode);
    }
    return s;
  }

  std::string workload_;
  std::vector<ModeTotal> totals_;
  const ModeTotal* hdd_ = nullptr;
  const ModeTotal* ssd_ = nullptr;
  bool used_batches_ = false;
  bool by_latency_ = false;
};

// Lab runs: figures in dilated time.
std::string DilationLine(const RunFolder& run) {
  const std::string f = run.Label("lab.dilation");
  if (f.empty() || f == "1" || f == "1.0" || f == "1.00") return "";
  return "Lab figures are in dilated time: the guest's CPU ran " + f +
         " times slower than the host's and its disks were slowed by the "
         "same factor, so ratios hold and absolute IOPS and tps are the "
         "host's divided by " +
         f + ".";
}

}  // namespace

Verdict BuildVerdict(const RunFolder& run, const SeriesFile* series) {
  Verdict v;
  for (const ReportFigure& f : run.figures()) {
    if (f.valid.empty()) {
      v.lines.push_back(
          {"",
           "No verdict: this run's comparison.csv predates the validity "
           "rules (schema_version older than 5), so no cell was judged. "
           "Re-run tierbench compare for one.",
           {},
           {}});
      return v;
    }
  }
  bool batches = false;
  for (const std::string& w : run.workloads()) {
    // An open-loop replay's IOPS follow its trace: its modes by latency,
    // after the line that names the modes left out.
    std::optional<VerdictLine> lat = ReplayLatencyLine(run, w);
    WorkloadVerdict wv(w, Totals(run, w, series), lat.has_value());
    VerdictLine line = wv.Build();
    if (!line.text.empty()) {
      batches = batches || wv.used_batches();
      v.lines.push_back(std::move(line));
    }
    if (lat) v.lines.push_back(std::move(*lat));
    for (VerdictLine& hit : HitBoundLines(run, w)) {
      v.lines.push_back(std::move(hit));
    }
  }
  // What each mode cost the SSD, per workload, after the throughput lines.
  for (const std::string& w : run.workloads()) {
    std::optional<std::string> wear = WearVerdictText(run, w);
    if (!wear) continue;
    std::vector<std::string> quoted, left_out;
    for (const WearFigure& f : WearFiguresOf(run, w)) {
      if (WearQuotable(f)) quoted.push_back(f.mode);
    }
    // Every invalid or drifting mode of the workload is left out.
    for (const ReportFigure* f : run.FiguresOf(w)) {
      const bool out = f->Invalid() || (!f->is_raw() && f->Drifted());
      if (out && std::find(left_out.begin(), left_out.end(), f->mode) ==
                     left_out.end()) {
        left_out.push_back(f->mode);
      }
    }
    v.lines.push_back(
        {w, std::move(*wear), std::move(quoted), std::move(left_out)});
  }
  if (batches) {
    v.lines.push_back(
        {"",
         "Intervals are 95% confidence intervals from the per-second "
         "throughput within each run (one repetition): they cover the noise "
         "within a run, not between runs (--repeat 3 or more for that).",
         {},
         {}});
  }
  const std::string dilation = DilationLine(run);
  if (!dilation.empty()) v.lines.push_back({"", dilation, {}, {}});
  return v;
}

std::string VerdictMarkdown(const Verdict& v) {
  std::string md = "## Verdict\n\n";
  for (const VerdictLine& l : v.lines) {
    std::string text = l.text;
    if (!l.workload.empty() && text.rfind(l.workload, 0) == 0) {
      text = "**" + l.workload + "**" + text.substr(l.workload.size());
    }
    md += "- " + text + "\n";
  }
  return md;
}

std::string VerdictText(const Verdict& v) {
  std::string out = "Verdict:\n";
  for (const VerdictLine& l : v.lines) out += "  " + l.text + "\n";
  return out;
}

}  // namespace tierbench
