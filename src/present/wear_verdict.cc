#include "present/wear_verdict.h"

#include "present/report_format.h"

namespace tierbench {
namespace {

// no > unknown > yes.
std::string WearWorseValidity(const std::string& a, const std::string& b) {
  auto rank = [](const std::string& v) {
    if (v == "no") return 2;
    if (v == "unknown") return 1;
    return 0;
  };
  return rank(a) >= rank(b) ? a : b;
}

}  // namespace

std::string WearStateWords(const std::string& state) {
  if (state == "warm-until-steady") return "steady state";
  if (state == "warm") return "warm cache";
  if (state == "cold") return "cold cache";
  if (state == "as-is") return "cache as found";
  return state;
}

std::vector<WearFigure> WearFiguresOf(const RunFolder& run,
                                      const std::string& workload) {
  std::vector<WearFigure> out;
  for (const std::string& mode : run.modes()) {
    std::optional<WearFigure> fig;
    std::string valid;
    bool drifted = false;
    for (const ReportFigure* f : run.FiguresOf(workload)) {
      if (f->mode != mode || f->is_raw()) continue;
      valid = WearWorseValidity(valid, f->valid);
      drifted = drifted || f->Drifted();
      if (fig || !f->ssd_write_per_app_byte) continue;
      fig = WearFigure{mode,
                       *f->ssd_write_per_app_byte,
                       f->ssd_write_per_app_write,
                       "",
                       false,
                       f->cache_state};
    }
    if (!fig) continue;
    fig->valid = valid;
    fig->drifted = drifted;
    out.push_back(std::move(*fig));
  }
  return out;
}

std::string FormatBytesPerByte(double ratio) {
  if (ratio > 0 && ratio < 0.01) return "under 0.01 B";
  const int decimals = ratio >= 10 ? 0 : (ratio >= 1 ? 1 : 2);
  return GroupedNumber(ratio, decimals) + " B";
}

bool WearQuotable(const WearFigure& f) { return f.valid != "no" && !f.drifted; }

std::optional<std::string> WearVerdictText(const RunFolder& run,
                                           const std::string& workload) {
  std::vector<WearFigure> valid;
  for (WearFigure& f : WearFiguresOf(run, workload)) {
    if (WearQuotable(f)) valid.push_back(std::move(f));
  }
  if (valid.empty()) return std::nullopt;
  bool one_state = true;
  for (const WearFigure& f : valid) {
    one_state = one_state && f.cache_state == valid.front().cache_state;
  }
  std::vector<std::string> writes, none;
  bool none_warmed = false;  // a mode writing nothing had a warm-up
  for (const WearFigure& f : valid) {
    std::string state;
    if (!one_state && !f.cache_state.empty()) {
      state = " (" + WearStateWords(f.cache_state) + ")";
    }
    if (f.ssd_write_per_app_byte == 0) {
      none_warmed = none_warmed || f.cache_state == "warm-until-steady" ||
                    f.cache_state == "warm";
      none.push_back(f.mode + state +
                     (f.valid == "unknown" ? " (validity unknown)" : ""));
      continue;
    }
    std::string item = f.mode + state + " writes " +
                       FormatBytesPerByte(f.ssd_write_per_app_byte);
    if (f.valid == "unknown") item += " (validity unknown)";
    if (!f.ssd_write_per_app_write) {
      item += " (all of it for reads: the application wrote nothing)";
    }
    writes.push_back(item);
  }
  std::string text = workload + ": SSD wear";
  if (one_state && !valid.front().cache_state.empty()) {
    text += " (" + WearStateWords(valid.front().cache_state) + ")";
  }
  text += ": ";
  if (!writes.empty()) {
    text +=
        JoinList(writes) + " to the SSD per byte the application read or wrote";
  }
  if (!none.empty()) {
    text += std::string(writes.empty() ? "" : "; ") + JoinList(none) +
            (none.size() == 1 ? " writes" : " write") + " nothing to the SSD";
    // Their cache was filled before the window: what that cost is not in
    // the figure, and "nothing" must not read as "never".
    if (none_warmed) {
      text +=
          " once warm (the warm-up that filled the cache, and what it "
          "wrote to the SSD, is outside the measured window)";
    }
  }
  return text + ".";
}

}  // namespace tierbench
