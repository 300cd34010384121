// Belady's MIN with an indexed max-heap (trace/belady.h).
#include "trace/belady.h"

#include <algorithm>
#include <limits>

namespace tierbench {
namespace {

constexpr uint32_t kBeladyNever = std::numeric_limits<uint32_t>::max();
constexpr uint32_t kBeladyNotCached = std::numeric_limits<uint32_t>::max();

}  // namespace

BeladyOpt::BeladyOpt(const std::vector<uint32_t>& ids, uint64_t distinct)
    : ids_(ids), next_(ids.size()), slot_(distinct, kBeladyNotCached) {
  std::vector<uint32_t> seen(distinct, kBeladyNever);
  for (size_t t = ids.size(); t-- > 0;) {
    next_[t] = seen[ids[t]];
    seen[ids[t]] = static_cast<uint32_t>(t);
  }
}

void BeladyOpt::Place(size_t i, std::pair<uint32_t, uint32_t> entry) {
  heap_[i] = entry;
  slot_[entry.second] = static_cast<uint32_t>(i);
}

void BeladyOpt::SiftUp(size_t i) {
  const std::pair<uint32_t, uint32_t> entry = heap_[i];
  while (i > 0) {
    const size_t parent = (i - 1) / 2;
    if (heap_[parent].first >= entry.first) break;
    Place(i, heap_[parent]);
    i = parent;
  }
  Place(i, entry);
}

void BeladyOpt::SiftDown(size_t i) {
  const std::pair<uint32_t, uint32_t> entry = heap_[i];
  const size_t n = heap_.size();
  while (true) {
    size_t child = 2 * i + 1;
    if (child >= n) break;
    if (child + 1 < n && heap_[child + 1].first > heap_[child].first) ++child;
    if (heap_[child].first <= entry.first) break;
    Place(i, heap_[child]);
    i = child;
  }
  Place(i, entry);
}

uint64_t BeladyOpt::Hits(uint64_t cache_blocks) {
  if (cache_blocks == 0) return 0;
  std::fill(slot_.begin(), slot_.end(), kBeladyNotCached);
  heap_.clear();
  heap_.reserve(std::min<uint64_t>(cache_blocks, slot_.size()));
  uint64_t hits = 0;
  for (size_t t = 0; t < ids_.size(); ++t) {
    const uint32_t id = ids_[t];
    const uint32_t next = next_[t];
    const uint32_t slot = slot_[id];
    if (slot != kBeladyNotCached) {
      // Its key was t, now the next use: later, so it moves up.
      ++hits;
      heap_[slot].first = next;
      SiftUp(slot);
      continue;
    }
    if (heap_.size() == cache_blocks) {
      // Evict the farthest next use: the top.
      slot_[heap_[0].second] = kBeladyNotCached;
      const std::pair<uint32_t, uint32_t> last = heap_.back();
      heap_.pop_back();
      if (!heap_.empty()) {
        heap_[0] = last;
        SiftDown(0);
      }
    }
    heap_.emplace_back(next, id);
    SiftUp(heap_.size() - 1);
  }
  return hits;
}

}  // namespace tierbench
