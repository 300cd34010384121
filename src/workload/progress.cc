#include "workload/progress.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "util/log.h"
#include "util/units.h"

namespace tierbench {
namespace {

char StatusLetter(const JobThread& t) {
  if (t.finished()) return '_';
  if (t.ramping()) return '/';
  const RwPattern p = t.spec().rw;
  const bool random = PatternIsRandom(p);
  if (PatternReads(p) && PatternWrites(p)) return random ? 'm' : 'M';
  if (PatternReads(p)) return random ? 'r' : 'R';
  return random ? 'w' : 'W';
}

std::string FormatIops(double iops) {
  char buf[32];
  if (iops >= 10000) {
    std::snprintf(buf, sizeof(buf), "%.1fk", iops / 1000);
  } else {
    std::snprintf(buf, sizeof(buf), "%.0f", iops);
  }
  return buf;
}

// Estimated nanoseconds left for one thread; false when unknown.
bool ThreadEta(const JobThread& t, uint64_t elapsed, uint64_t* eta) {
  if (t.finished()) {
    *eta = 0;
    return true;
  }
  const JobSpec& s = t.spec();
  double frac = 0;
  if (s.runtime_ns > 0) {
    frac = static_cast<double>(elapsed) /
           static_cast<double>(s.ramp_time_ns + s.runtime_ns);
  }
  if (t.byte_budget() > 0) {
    const uint64_t done =
        t.live_bytes(IoDir::kRead) + t.live_bytes(IoDir::kWrite);
    frac = std::max(
        frac, static_cast<double>(done) / static_cast<double>(t.byte_budget()));
  }
  if (frac <= 0) return false;
  frac = std::min(frac, 1.0);
  *eta =
      static_cast<uint64_t>(static_cast<double>(elapsed) * (1 - frac) / frac);
  return true;
}

}  // namespace

std::string FormatEta(uint64_t ns) {
  const uint64_t s = ns / kNsPerSec;
  char buf[48];
  if (s >= 3600) {
    std::snprintf(buf, sizeof(buf), "%lluh:%02llum:%02llus",
                  static_cast<unsigned long long>(s / 3600),
                  static_cast<unsigned long long>(s / 60 % 60),
                  static_cast<unsigned long long>(s % 60));
  } else {
    std::snprintf(buf, sizeof(buf), "%02llum:%02llus",
                  static_cast<unsigned long long>(s / 60),
                  static_cast<unsigned long long>(s % 60));
  }
  return buf;
}

ProgressMeter::ProgressMeter(std::vector<const JobThread*> threads,
                             std::string label, uint64_t start_ns)
    : threads_(std::move(threads)),
      label_(std::move(label)),
      start_ns_(start_ns),
      last_ns_(start_ns) {}

std::string ProgressMeter::Line(uint64_t now_ns) {
  const uint64_t elapsed = now_ns - start_ns_;
  size_t running = 0;
  std::string letters;
  char prev = 0;
  int run = 0;
  auto flush = [&] {
    if (run > 0)
      letters += std::string(1, prev) + "(" + std::to_string(run) + ")";
  };
  uint64_t eta = 0;
  bool eta_known = true;
  uint64_t ios[kNumDirs] = {0, 0};
  uint64_t bytes[kNumDirs] = {0, 0};
  for (const JobThread* t : threads_) {
    if (!t->finished()) ++running;
    const char c = StatusLetter(*t);
    if (c != prev) {
      flush();
      prev = c;
      run = 0;
    }
    ++run;
    uint64_t e = 0;
    if (ThreadEta(*t, elapsed, &e)) {
      eta = std::max(eta, e);
    } else {
      eta_known = false;
    }
    for (int d = 0; d < kNumDirs; ++d) {
      ios[d] += t->live_ios(static_cast<IoDir>(d));
      bytes[d] += t->live_bytes(static_cast<IoDir>(d));
    }
  }
  flush();
  const double dt =
      static_cast<double>(std::max<uint64_t>(now_ns - last_ns_, 1)) / 1e9;
  std::string bw, iops;
  for (int d = 0; d < kNumDirs; ++d) {
    if (ios[d] == 0) continue;
    const char* tag = d == 0 ? "r=" : "w=";
    if (!bw.empty()) {
      bw += ",";
      iops += ",";
    }
    bw += tag +
          FormatBandwidth(static_cast<double>(bytes[d] - last_bytes_[d]) / dt);
    iops += tag + FormatIops(static_cast<double>(ios[d] - last_ios_[d]) / dt);
    last_ios_[d] = ios[d];
    last_bytes_[d] = bytes[d];
  }
  last_ns_ = now_ns;
  std::string line = label_.empty() ? "" : label_ + " ";
  line += "Jobs: " + std::to_string(running) +
          " (f=" + std::to_string(running) + "): [" + letters + "]";
  if (eta_known) {
    char pct[16];
    const double total = static_cast<double>(elapsed + eta);
    std::snprintf(pct, sizeof(pct), "%.1f%%",
                  total > 0 ? 100.0 * elapsed / total : 0.0);
    line += std::string("[") + pct + "]";
  }
  if (!bw.empty()) line += "[" + bw + "][" + iops + " IOPS]";
  line += "[eta " + (eta_known ? FormatEta(eta) : std::string("--m:--s")) + "]";
  return line;
}

void ProgressMeter::Tick(uint64_t now_ns) { DrawProgressLine(Line(now_ns)); }

}  // namespace tierbench
