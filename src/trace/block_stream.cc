// The block access stream of a trace and its SHARDS sample
// (trace/block_stream.h).
#include "trace/block_stream.h"

#include <cmath>
#include <limits>
#include <string>

#include "util/errors.h"
#include "util/rng.h"

namespace tierbench {
namespace {

constexpr uint64_t kBlockStreamMaxCount =
    std::numeric_limits<uint32_t>::max() - 1;

// Open addressing with linear probing from a 64-bit key to a dense id; the
// table doubles at a load of 1/2. ids_ holds id + 1 (0: empty slot).
class BlockIdTable {
 public:
  BlockIdTable() : keys_(1024), ids_(1024, 0), mask_(1023) {}

  // The id of `key`, or `next` (stored) when the key is new.
  uint32_t Find(uint64_t key, uint32_t next, bool* added) {
    size_t slot = Rng::Mix64(key) & mask_;
    while (ids_[slot] != 0) {
      if (keys_[slot] == key) {
        *added = false;
        return ids_[slot] - 1;
      }
      slot = (slot + 1) & mask_;
    }
    keys_[slot] = key;
    ids_[slot] = next + 1;
    *added = true;
    if (++size_ * 2 > keys_.size()) Grow();
    return next;
  }

 private:
  void Grow() {
    std::vector<uint64_t> keys(keys_.size() * 2);
    std::vector<uint32_t> ids(keys_.size() * 2, 0);
    const size_t mask = keys.size() - 1;
    for (size_t i = 0; i < keys_.size(); ++i) {
      if (ids_[i] == 0) continue;
      size_t slot = Rng::Mix64(keys_[i]) & mask;
      while (ids[slot] != 0) slot = (slot + 1) & mask;
      keys[slot] = keys_[i];
      ids[slot] = ids_[i];
    }
    keys_.swap(keys);
    ids_.swap(ids);
    mask_ = mask;
  }

  std::vector<uint64_t> keys_;
  std::vector<uint32_t> ids_;
  size_t mask_;
  size_t size_ = 0;
};

[[noreturn]] void BlockStreamTooLarge(const IoLog& log,
                                      const std::string& what) {
  throw ConfigError(log.path + ": " + what +
                    ". Fix: pass a larger --block-size or split the trace");
}

}  // namespace

BlockStream BuildBlockStream(const IoLog& log, uint32_t block_size) {
  BlockStream out;
  out.block_size = block_size;
  const uint64_t files = log.files.empty() ? 1 : log.files.size();
  const uint64_t last_block =
      log.extent == 0 ? 0 : (log.extent - 1) / block_size;
  if (last_block > (std::numeric_limits<uint64_t>::max() - files) / files) {
    BlockStreamTooLarge(log, "its block numbers times its " +
                                 std::to_string(files) +
                                 " files do not fit in 64 bits");
  }
  uint64_t total = 0;
  for (const IoLogEntry& e : log.entries) {
    if (e.action != IoLogAction::kRead && e.action != IoLogAction::kWrite)
      continue;
    total += (e.offset + e.length - 1) / block_size - e.offset / block_size + 1;
  }
  if (total > kBlockStreamMaxCount) {
    BlockStreamTooLarge(log, std::to_string(total) +
                                 " block accesses are more than the 2^32 - 2 "
                                 "trace-stats handles");
  }
  out.ids.reserve(total);
  BlockIdTable table;
  for (const IoLogEntry& e : log.entries) {
    if (e.action != IoLogAction::kRead && e.action != IoLogAction::kWrite)
      continue;
    const uint64_t first = e.offset / block_size;
    const uint64_t last = (e.offset + e.length - 1) / block_size;
    for (uint64_t b = first; b <= last; ++b) {
      const uint64_t key = b * files + e.file;
      bool added = false;
      const uint32_t id =
          table.Find(key, static_cast<uint32_t>(out.keys.size()), &added);
      if (added) out.keys.push_back(key);
      out.ids.push_back(id);
    }
  }
  return out;
}

uint64_t ShardsThreshold(double rate) {
  const double t = std::round(rate * static_cast<double>(kShardsModulus));
  if (!(t >= 1)) return 1;
  if (t >= static_cast<double>(kShardsModulus)) return kShardsModulus;
  return static_cast<uint64_t>(t);
}

bool ShardsSampled(uint64_t key, uint64_t threshold) {
  // A different mix than BlockIdTable's slots (offset by the golden ratio),
  // so the sample does not depend on the table.
  return (Rng::Mix64(key + 0x9E3779B97F4A7C15ULL) & (kShardsModulus - 1)) <
         threshold;
}

BlockStream SampleBlocks(const BlockStream& in, uint64_t threshold) {
  BlockStream out;
  out.block_size = in.block_size;
  constexpr uint32_t kOut = std::numeric_limits<uint32_t>::max();
  constexpr uint32_t kUnseen = kOut - 1;
  // Per block of `in`: kOut when not sampled, kUnseen before its first
  // sampled access, else its id in `out`.
  std::vector<uint32_t> map(in.keys.size());
  for (size_t i = 0; i < in.keys.size(); ++i) {
    map[i] = ShardsSampled(in.keys[i], threshold) ? kUnseen : kOut;
  }
  for (uint32_t id : in.ids) {
    uint32_t& m = map[id];
    if (m == kOut) continue;
    if (m == kUnseen) {
      m = static_cast<uint32_t>(out.keys.size());
      out.keys.push_back(in.keys[id]);
    }
    out.ids.push_back(m);
  }
  return out;
}

}  // namespace tierbench
