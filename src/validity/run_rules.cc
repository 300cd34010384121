#include "validity/run_rules.h"

#include <cstdio>

namespace tierbench {
namespace {

std::string RunNum(double v, int decimals) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// A rate as people read it: no decimals from 100 up, one below.
std::string RunRate(double v) { return RunNum(v, v >= 100 ? 0 : 1); }

struct Best {
  double ratio = -1;
  const BaselinePair* pair = nullptr;
};

}  // namespace

std::map<std::string, Finding> DiscriminationFindings(
    const std::vector<BaselinePair>& pairs) {
  std::map<std::string, Best> best;  // per workload, its largest ratio
  Best run_best;
  for (const BaselinePair& p : pairs) {
    if (p.hdd <= 0 || p.ssd <= 0) continue;
    const double ratio = p.ssd / p.hdd;
    Best& b = best[p.workload];
    if (ratio > b.ratio) b = {ratio, &p};
    if (ratio > run_best.ratio) run_best = {ratio, &p};
  }
  std::map<std::string, Finding> out;
  for (const auto& [workload, b] : best) {
    if (b.ratio >= kMinBaselineRatio) continue;
    const BaselinePair& p = *b.pair;
    std::string scale;
    if (run_best.pair != nullptr && run_best.pair->workload != workload &&
        run_best.ratio >= kMinBaselineRatio) {
      scale = " while " + run_best.pair->workload + " shows " +
              RunNum(run_best.ratio, 0) + "x";
    }
    out[workload] = {
        "no-discrimination", Severity::kInvalid,
        "the raw SSD did " + RunRate(p.ssd) + " " + p.unit +
            " and the raw HDD " + RunRate(p.hdd) + " (" + RunNum(b.ratio, 2) +
            "x)" + scale +
            ": the disks did not bound this workload (the CPU, locks or the "
            "client did), so no cache can show a difference on it"};
  }
  return out;
}

}  // namespace tierbench
