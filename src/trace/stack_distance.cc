// Exact and SHARDS LRU stack distances (trace/stack_distance.h).
#include "trace/stack_distance.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace tierbench {
namespace {

// The Fenwick tree over compacted access times (1-based) of the file
// comment. last_[id] is the block's latest time (0: never accessed).
class StackDistanceTree {
 public:
  explicit StackDistanceTree(uint64_t distinct)
      : capacity_(std::max<uint64_t>(
            distinct + 1,
            std::min<uint64_t>(std::max<uint64_t>(2 * distinct, 1024),
                               std::numeric_limits<uint32_t>::max()))),
        tree_(capacity_ + 1, 0),
        owner_(capacity_ + 1, 0),
        last_(distinct, 0) {}

  // The access of `id`'s stack distance, or -1 for its first access.
  int64_t Access(uint32_t id) {
    if (now_ == capacity_) Compact();
    const uint32_t prev = last_[id];
    int64_t distance = -1;
    if (prev != 0) {
      // Ones after `prev`: every live block's latest time is <= now_.
      distance = static_cast<int64_t>(live_ - Prefix(prev));
      Add(prev, std::numeric_limits<uint32_t>::max());
    } else {
      ++live_;
    }
    ++now_;
    Add(now_, 1);
    owner_[now_] = id;
    last_[id] = static_cast<uint32_t>(now_);
    return distance;
  }

 private:
  uint64_t Prefix(uint64_t i) const {
    uint64_t sum = 0;
    for (; i > 0; i &= i - 1) sum += tree_[i];
    return sum;
  }
  // Counts stay >= 0, so adding -1 as 2^32 - 1 (mod 2^32) is exact.
  void Add(uint64_t i, uint32_t v) {
    for (; i <= capacity_; i += i & (~i + 1)) tree_[i] += v;
  }
  // Renumbers the live times 1..live_ in order and rebuilds the tree (all
  // ones up to live_): O(capacity), once every capacity - live_ >= M
  // accesses.
  void Compact() {
    uint64_t k = 0;
    for (uint64_t t = 1; t <= now_; ++t) {
      const uint32_t id = owner_[t];
      if (last_[id] != t) continue;
      ++k;
      owner_[k] = id;
      last_[id] = static_cast<uint32_t>(k);
    }
    now_ = k;
    for (uint64_t i = 1; i <= capacity_; ++i) {
      const uint64_t lo = i - (i & (~i + 1));  // the node covers (lo, i]
      tree_[i] = k > lo ? static_cast<uint32_t>(std::min(i, k) - lo) : 0;
    }
  }

  uint64_t capacity_;
  std::vector<uint32_t> tree_;
  std::vector<uint32_t> owner_;  // [time]: the block accessed then
  std::vector<uint32_t> last_;
  uint64_t now_ = 0;
  uint64_t live_ = 0;
};

}  // namespace

StackDistanceHistogram ExactStackDistances(const std::vector<uint32_t>& ids,
                                           uint64_t distinct) {
  StackDistanceHistogram h;
  h.sampled = h.accesses = ids.size();
  StackDistanceTree tree(distinct);
  for (uint32_t id : ids) {
    const int64_t d = tree.Access(id);
    if (d < 0) {
      ++h.cold;
      continue;
    }
    const size_t i = static_cast<size_t>(d);
    if (i >= h.counts.size()) {
      h.counts.resize(std::max(i + 1, h.counts.size() * 2), 0);
    }
    ++h.counts[i];
  }
  while (!h.counts.empty() && h.counts.back() == 0) h.counts.pop_back();
  return h;
}

StackDistanceHistogram ShardsStackDistances(const std::vector<uint32_t>& ids,
                                            uint64_t distinct, double rate,
                                            uint64_t accesses) {
  StackDistanceHistogram h = ExactStackDistances(ids, distinct);
  h.accesses = accesses;
  h.rate = rate;
  h.adjustment =
      rate * static_cast<double>(accesses) - static_cast<double>(h.sampled);
  return h;
}

uint64_t ShardsSmallestCache(double rate) {
  if (!(rate < 1)) return 1;
  return static_cast<uint64_t>(std::ceil(kShardsMinSteps / rate));
}

MissRatioCurve::MissRatioCurve(StackDistanceHistogram histogram)
    : histogram_(std::move(histogram)) {
  cumulative_.resize(histogram_.counts.size() + 1, 0);
  for (size_t d = 0; d < histogram_.counts.size(); ++d) {
    cumulative_[d + 1] = cumulative_[d] + histogram_.counts[d];
  }
}

double MissRatioCurve::Hits(uint64_t cache_blocks) const {
  if (cache_blocks == 0) return 0;
  const StackDistanceHistogram& h = histogram_;
  if (h.exact()) {
    const uint64_t k = std::min<uint64_t>(cache_blocks, cumulative_.size() - 1);
    return static_cast<double>(cumulative_[k]);
  }
  // A sampled distance d stands for the real distances ((d - 1) / R,
  // d / R], spread evenly: at C = x / R, k = floor(x), the distances up
  // to k count whole and d = k + 1 by the fraction x - k.
  const double x = static_cast<double>(cache_blocks) * h.rate;
  const double k = std::floor(x);
  const uint64_t last = cumulative_.size() - 1;
  const uint64_t whole = std::min<uint64_t>(static_cast<uint64_t>(k) + 1, last);
  double sampled_hits = static_cast<double>(cumulative_[whole]);
  if (whole < last) {
    sampled_hits += (x - k) * static_cast<double>(histogram_.counts[whole]);
  }
  const double hits = (sampled_hits + h.adjustment) / h.rate;
  return std::clamp(hits, 0.0, static_cast<double>(h.accesses));
}

double MissRatioCurve::HitRatio(uint64_t cache_blocks) const {
  if (histogram_.accesses == 0) return 0;
  return Hits(cache_blocks) / static_cast<double>(histogram_.accesses);
}

}  // namespace tierbench
