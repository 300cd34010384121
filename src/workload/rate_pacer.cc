#include "workload/rate_pacer.h"

#include <algorithm>
#include <cmath>

#include "util/units.h"

namespace tierbench {

RatePacer::RatePacer(const JobSpec& spec, IoDir dir, uint64_t seed)
    : rng_(seed) {
  const int d = static_cast<int>(dir);
  min_bs_ = std::max<uint64_t>(1, spec.bs[d].min);
  // fio's __setup_rate(): rate= wins, else rate_iops x the smallest block.
  bps_ = spec.rate[d] != 0 ? spec.rate[d] : spec.rate_iops[d] * min_bs_;
  if (bps_ == 0) return;
  if (spec.rate_process == RateProcess::kPoisson) {
    mode_ = Mode::kPoisson;
    iops_ = bps_ / min_bs_;  // the parser refuses a rate below one IO/s
  } else if (spec.rate[d] == 0 && !spec.bs[d].split.empty()) {
    mode_ = Mode::kPerIo;
    iops_ = spec.rate_iops[d];
  }
}

void RatePacer::Draw() {
  // U in (0, 1]: -ln(U) is finite.
  const double u = 1.0 - rng_.NextDouble();
  const double period =
      static_cast<double>(kNsPerSec / std::max<uint64_t>(1, iops_));
  due_ns_ += static_cast<uint64_t>(period * -std::log(u));
}

void RatePacer::Issued(uint64_t bytes) {
  if (bps_ == 0) return;
  switch (mode_) {
    case Mode::kBytes: {
      issued_bytes_ += bytes;
      const uint64_t secs = issued_bytes_ / bps_;
      const uint64_t rest = issued_bytes_ % bps_;
      due_ns_ = secs * kNsPerSec +
                static_cast<uint64_t>(static_cast<long double>(rest) *
                                      kNsPerSec / bps_);
      break;
    }
    case Mode::kPerIo:
      due_ns_ += kNsPerSec / std::max<uint64_t>(1, iops_);
      break;
    case Mode::kPoisson:
      Draw();
      break;
  }
}

void RatePacer::Restart() {
  issued_bytes_ = 0;
  due_ns_ = 0;
}

void RatePacer::SkipIdle(uint64_t slept_ns) {
  if (bps_ == 0 || slept_ns == 0) return;
  const uint64_t missed = static_cast<uint64_t>(static_cast<long double>(bps_) *
                                                slept_ns / kNsPerSec);
  const uint64_t period_ns = min_bs_ * kNsPerSec / bps_;
  const uint64_t over = period_ns <= slept_ns ? min_bs_ : 0;
  if (mode_ == Mode::kBytes) {
    issued_bytes_ += missed - std::min(missed, over);
    Issued(0);
  } else {
    due_ns_ += slept_ns;  // fio: last_usec += total
  }
}

}  // namespace tierbench
