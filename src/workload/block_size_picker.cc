#include "workload/block_size_picker.h"

#include <algorithm>

namespace tierbench {

BlockSizePicker::BlockSizePicker(const BlockSizeSpec& spec)
    : min_(static_cast<uint32_t>(spec.min)),
      max_(static_cast<uint32_t>(spec.max)) {
  // bssplit: min/max come from the entries; zero-weight entries are kept
  // for min/max but never drawn.
  if (spec.split.empty()) return;
  uint32_t total = 0;
  min_ = UINT32_MAX;
  max_ = 0;
  for (const auto& [size, percent] : spec.split) {
    const auto s = static_cast<uint32_t>(size);
    min_ = std::min(min_, s);
    max_ = std::max(max_, s);
    if (percent == 0) continue;  // never drawn
    total += percent;
    cumulative_.emplace_back(s, total);
  }
}

uint32_t BlockSizePicker::Pick(Rng& rng) const {
  if (!cumulative_.empty()) {
    const auto r =
        static_cast<uint32_t>(rng.Uniform(cumulative_.back().second));
    for (const auto& [size, upto] : cumulative_) {
      if (r < upto) return size;
    }
    return cumulative_.back().first;
  }
  if (min_ == max_) return min_;
  const uint64_t multiples = max_ / min_;  // min, 2*min, ..., multiples*min
  return static_cast<uint32_t>((rng.Uniform(multiples) + 1) * min_);
}

uint32_t BlockSizePicker::PickFitting(Rng& rng, uint64_t room) const {
  if (room < min_) return 0;
  for (int i = 0; i < kMaxRedraws; ++i) {
    const uint32_t len = Pick(rng);
    if (len <= room) return len;
  }
  return LargestFitting(room);
}

// Fallback after kMaxRedraws misses: the largest split entry <= room, or
// the largest multiple of min <= min(room, max).
uint32_t BlockSizePicker::LargestFitting(uint64_t room) const {
  if (!cumulative_.empty()) {
    uint32_t best = 0;
    for (const auto& entry : cumulative_) {
      if (entry.first <= room) best = std::max(best, entry.first);
    }
    return best != 0 ? best : min_;  // min_ fits: checked by the caller
  }
  const uint64_t fit = std::min<uint64_t>(room, max_);
  return static_cast<uint32_t>(fit / min_ * min_);
}

}  // namespace tierbench
