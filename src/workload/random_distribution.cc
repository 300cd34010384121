#include "workload/random_distribution.h"

#include <algorithm>

#include "util/units.h"

namespace tierbench {
namespace {

// Zone i's blocks: [start, start + count), as fio's
// __get_next_rand_offset_zoned / _zoned_abs compute them.
struct Layout {
  uint64_t start;
  uint64_t count;
};

std::vector<Layout> LayOut(const DistributionSpec& spec,
                           const std::vector<DistributionZone>& zones,
                           uint64_t n, uint64_t align) {
  std::vector<Layout> out;
  uint64_t before = 0;  // percent (zoned) or bytes (zoned_abs)
  for (const DistributionZone& z : zones) {
    if (spec.kind == DistributionKind::kZonedAbs) {
      const uint64_t first = before / align;
      const uint64_t end = (before + z.size) / align;
      out.push_back({first, end - first});
    } else {
      out.push_back({before * n / 100, n * z.size / 100});
    }
    before += z.size;
  }
  return out;
}

// The zone picker's seed: its own stream, apart from the block draws.
uint64_t ZoneSeed(uint64_t seed) {
  return Rng::Mix64(seed ^ 0x7a6f6e65ULL);  // "zone"
}

}  // namespace

std::string RandomDistribution::CheckFits(const DistributionSpec& spec,
                                          IoDir dir, uint64_t n,
                                          uint64_t align) {
  if (spec.kind != DistributionKind::kZonedAbs) return "";
  const auto& zones = spec.zones[static_cast<int>(dir)];
  const std::vector<Layout> layout = LayOut(spec, zones, n, align);
  for (size_t i = 0; i < zones.size(); ++i) {
    if (zones[i].access_percent == 0) continue;
    const Layout& l = layout[i];
    if (l.start + std::max<uint64_t>(l.count, 1) > n) {
      return "zoned_abs zone " + std::to_string(i + 1) + " ends at " +
             FormatBytes((l.start + l.count) * align) +
             ", past the random region of " + FormatBytes(n * align) + " (" +
             IoDirName(dir) + "s)";
    }
  }
  return "";
}

RandomDistribution::RandomDistribution(const DistributionSpec& spec, IoDir dir,
                                       uint64_t n, uint64_t align,
                                       bool random_map, uint64_t seed)
    : n_(n == 0 ? 1 : n), zone_rng_(ZoneSeed(seed)), block_rng_(seed) {
  switch (spec.kind) {
    case DistributionKind::kRandom:
      uniform_.emplace(n_, random_map, seed);
      return;
    case DistributionKind::kZipf:
      zipf_.emplace(ZipfGenerator::Zipf(n_, spec.value, spec.center, seed));
      return;
    case DistributionKind::kPareto:
      zipf_.emplace(ZipfGenerator::Pareto(n_, spec.value, spec.center, seed));
      return;
    case DistributionKind::kNormal:
      gauss_.emplace(n_, spec.value, spec.center, seed);
      return;
    case DistributionKind::kZoned:
    case DistributionKind::kZonedAbs:
      break;
  }
  const auto& zones = spec.zones[static_cast<int>(dir)];
  if (zones.empty()) {  // no list for this direction: uniform, no map
    uniform_.emplace(n_, /*cover_each_once=*/false, seed);
    return;
  }
  const std::vector<Layout> layout = LayOut(spec, zones, n_, align);
  for (size_t i = 0; i < zones.size(); ++i) {
    // A zone past the end cannot be reached after CheckFits; clamp anyway.
    const uint64_t start = std::min(layout[i].start, n_ - 1);
    const uint64_t count = std::min(layout[i].count, n_ - start);
    for (uint32_t a = 0; a < zones[i].access_percent; ++a)
      slots_.push_back({start, count});
  }
}

uint64_t RandomDistribution::Next() {
  if (uniform_) return uniform_->Next();
  if (zipf_) return zipf_->Next();
  if (gauss_) return gauss_->Next();
  const ZoneRange& z = slots_[zone_rng_.Uniform(slots_.size())];
  return z.start + (z.count > 0 ? block_rng_.Uniform(z.count) : 0);
}

void RandomDistribution::NewPass() {
  if (uniform_) uniform_->NewPass();
}

void RandomDistribution::ReseedDraws(uint64_t seed) {
  if (uniform_) uniform_->ReseedDraws(seed);
  if (zipf_) zipf_->ReseedDraws(seed);
  if (gauss_) gauss_->ReseedDraws(seed);
  zone_rng_ = Rng(ZoneSeed(seed));
  block_rng_ = Rng(seed);
}

}  // namespace tierbench
