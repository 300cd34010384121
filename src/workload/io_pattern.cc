#include "workload/io_pattern.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "util/errors.h"
#include "util/units.h"

namespace tierbench {
namespace {

// Used when randrepeat=1 and no randseed: fio's FIO_RANDSEED.
constexpr uint64_t kRepeatableSeed = 0xb1899bedULL;

// The seed of one clone: randseed, fio's fixed seed, or the clock; mixed
// with the clone index so clones of one job differ.
uint64_t CloneSeed(const JobSpec& spec, uint32_t clone_index) {
  uint64_t base;
  if (spec.randseed_set) {
    base = spec.randseed;
  } else if (spec.randrepeat) {
    base = kRepeatableSeed;
  } else {
    base = static_cast<uint64_t>(
        std::chrono::high_resolution_clock::now().time_since_epoch().count());
  }
  uint64_t state = base ^ Rng::Mix64(0x636c6f6e65ULL + clone_index);  // "clone"
  return Rng::SplitMix64(&state);
}

// Independent seed for stream `stream` of a clone.
uint64_t StreamSeed(uint64_t seed, uint64_t stream) {
  return Rng::Mix64(seed + 0x9e3779b97f4a7c15ULL * stream);
}

// The seed of draw stream `stream` of a clone: the clone's own streams for
// draw_stream 0, else streams of an independent family (JobSpec::
// draw_stream).
uint64_t DrawSeed(uint64_t seed, uint64_t draw_stream, uint64_t stream) {
  if (draw_stream == 0) return StreamSeed(seed, stream);
  return StreamSeed(Rng::Mix64(seed ^ (0x64726177ULL << 32) ^ draw_stream),
                    stream);  // "draw"
}

bool DirUsed(RwPattern p, IoDir d) {
  return d == IoDir::kRead ? PatternReads(p) : PatternWrites(p);
}

[[noreturn]] void RegionError(const JobSpec& spec, const std::string& why,
                              const std::string& fix) {
  throw ConfigError("Job '" + spec.name + "' (" + spec.origin + "): " + why +
                    ". Fix: " + fix);
}

}  // namespace

IoPattern::IoPattern(const JobSpec& spec, uint64_t target_bytes,
                     uint32_t clone_index)
    : spec_(spec),
      seed_(CloneSeed(spec, clone_index)),
      dir_rng_(DrawSeed(seed_, spec.draw_stream, 1)),
      size_rng_(DrawSeed(seed_, spec.draw_stream, 2)),
      mode_rng_(DrawSeed(seed_, spec.draw_stream, 3)) {
  for (int d = 0; d < kNumDirs; ++d) {
    if (DirUsed(spec.rw, static_cast<IoDir>(d))) sizes_[d].emplace(spec.bs[d]);
  }
  // Offsets: a percentage is rounded down to the coarsest alignment in use.
  region_start_ = spec.offset.Resolve(target_bytes);
  if (spec.offset.is_percent) {
    uint64_t align = 1;
    for (int d = 0; d < kNumDirs; ++d) {
      if (sizes_[d]) align = std::max(align, Align(static_cast<IoDir>(d)));
    }
    region_start_ = region_start_ / align * align;
  }
  const std::string sizes = "Target: " + FormatBytes(target_bytes) +
                            "; offset: " + FormatBytes(region_start_);
  if (region_start_ >= target_bytes) {
    RegionError(spec, "offset is at or past the end of the target. " + sizes,
                "lower offset= or --offset, or use a larger target");
  }
  region_length_ = spec.size.set ? spec.size.Resolve(target_bytes)
                                 : target_bytes - region_start_;
  if (region_length_ == 0) {
    RegionError(spec, "the IO region is empty. " + sizes,
                "set size= (or --size) to a non-zero size");
  }
  if (region_length_ > target_bytes - region_start_) {
    RegionError(
        spec,
        "offset + size runs past the end of the target. " + sizes +
            "; size: " + FormatBytes(region_length_),
        "lower size=/offset= (or --size/--offset), or use a larger target");
  }
  for (int d = 0; d < kNumDirs; ++d) {
    if (!sizes_[d]) continue;
    if (sizes_[d]->min() > region_length_) {
      RegionError(spec,
                  std::string("the IO region is smaller than the minimum ") +
                      IoDirName(static_cast<IoDir>(d)) +
                      " block size. Region: " + FormatBytes(region_length_) +
                      "; block size: " + FormatBytes(sizes_[d]->min()),
                  "raise size= (or --size) or lower bs=");
    }
  }
  for (int d = 0; d < kNumDirs; ++d) position_[d] = region_start_;

  // Random blocks: offsets region_start + k * align for which the minimum
  // block size still fits, i.e. (length - min) / align + 1 of them (fio's
  // last_block()).
  if (!PatternIsRandom(spec.rw)) return;
  for (int d = 0; d < kNumDirs; ++d) {
    if (!sizes_[d]) continue;
    const auto dir = static_cast<IoDir>(d);
    const int other = 1 - d;
    const DistributionSpec& dist = spec.random_distribution;
    if (picker_index_[other] >= 0 &&
        Align(static_cast<IoDir>(other)) == Align(dir) &&
        sizes_[other]->min() == sizes_[d]->min() &&
        dist.zones[other] == dist.zones[d]) {
      picker_index_[d] = picker_index_[other];  // same geometry: one order
      continue;
    }
    const uint64_t blocks =
        (region_length_ - sizes_[d]->min()) / Align(dir) + 1;
    const std::string unfit =
        RandomDistribution::CheckFits(dist, dir, blocks, Align(dir));
    if (!unfit.empty()) {
      RegionError(spec, "random_distribution=" + dist.text + ": " + unfit,
                  "shrink the zoned_abs zones or raise size=");
    }
    pickers_[d].emplace(dist, dir, blocks, Align(dir), !spec.norandommap,
                        StreamSeed(seed_, 4 + d));
    // Another draw stream: new draws over the blocks the seed placed.
    if (spec.draw_stream != 0)
      pickers_[d]->ReseedDraws(DrawSeed(seed_, spec.draw_stream, 4 + d));
    picker_index_[d] = d;
  }
}

uint64_t IoPattern::Align(IoDir dir) const {
  const int d = static_cast<int>(dir);
  return spec_.blockalign[d] != 0 ? spec_.blockalign[d] : sizes_[d]->min();
}

IoDir IoPattern::PickDir() {
  switch (spec_.rw) {
    case RwPattern::kRead:
    case RwPattern::kRandRead:
      return IoDir::kRead;
    case RwPattern::kWrite:
    case RwPattern::kRandWrite:
      return IoDir::kWrite;
    case RwPattern::kReadWrite:
    case RwPattern::kRandReadWrite:
      break;
  }
  return dir_rng_.Uniform(100) < spec_.rwmixread ? IoDir::kRead : IoDir::kWrite;
}

bool IoPattern::PickRandom() {
  if (!PatternIsRandom(spec_.rw)) return false;
  if (spec_.percentage_random >= 100) return true;
  if (spec_.percentage_random == 0) return false;
  return mode_rng_.Uniform(100) < spec_.percentage_random;
}

// One IO: direction first (its stream), then random-or-sequential, then the
// offset, then a length that fits between the offset and the region end.
// Every IO updates its direction's position, so a sequential IO after a
// random one continues right behind it (fio's last_pos).
bool IoPattern::Next(IoDir* dir, uint64_t* offset, uint32_t* length) {
  if (issued_ >= region_length_) return false;
  const IoDir d = PickDir();
  const int di = static_cast<int>(d);
  const BlockSizePicker& sizes = *sizes_[di];
  const uint64_t region_end = region_start_ + region_length_;
  uint64_t off;
  uint32_t len;
  if (PickRandom()) {
    off = region_start_ + pickers_[picker_index_[di]]->Next() * Align(d);
    len = sizes.PickFitting(size_rng_, region_end - off);  // min always fits
  } else {
    off = position_[di];
    len = sizes.PickFitting(size_rng_, region_end - off);
    if (len == 0) {  // wrap: the region holds at least one minimum block
      off = region_start_;
      len = sizes.PickFitting(size_rng_, region_length_);
    }
  }
  position_[di] = off + len;
  issued_ += len;
  *dir = d;
  *offset = off;
  *length = len;
  return true;
}

void IoPattern::Rewind() {
  issued_ = 0;
  for (uint64_t& p : position_) p = region_start_;
  for (auto& picker : pickers_) {
    if (picker) picker->NewPass();
  }
}

}  // namespace tierbench
