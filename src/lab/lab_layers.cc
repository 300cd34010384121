#include "lab/lab_layers.h"

#include <algorithm>
#include <utility>

#include "util/strings.h"

namespace tierbench {
namespace {

std::vector<uint64_t> SsdExtras() {
  std::vector<uint64_t> extras(kLabPartitions, 0);
  extras[kLabDmCachePartition - 1] = kLabDmCacheMetaBytes;
  return extras;
}

}  // namespace

std::vector<std::string> AllLabLayers() {
  return {kLabLayerBcache, kLabLayerDmCache, kLabLayerWritecache};
}

std::vector<std::string> KnownLabLayers() {
  std::vector<std::string> all = AllLabLayers();
  all.push_back(kLabLayerLvmcache);
  return all;
}

std::string LabLayerNames() {
  std::string names;
  for (const std::string& l : KnownLabLayers()) {
    names += (names.empty() ? "" : ", ") + l;
  }
  return names;
}

Status CheckLabLayers(const std::vector<std::string>& layers) {
  if (layers.empty()) {
    return Status::InvalidArgument("no layer given; valid layers: " +
                                   LabLayerNames());
  }
  const std::vector<std::string> all = KnownLabLayers();
  for (size_t i = 0; i < layers.size(); ++i) {
    if (std::find(all.begin(), all.end(), layers[i]) == all.end()) {
      return Status::InvalidArgument("unknown layer '" + layers[i] +
                                     "'; valid layers: " + LabLayerNames());
    }
    if (std::find(layers.begin(), layers.begin() + i, layers[i]) !=
        layers.begin() + i) {
      return Status::InvalidArgument(
          "layer '" + layers[i] +
          "' given twice; valid layers: " + LabLayerNames());
    }
  }
  auto has = [&](const char* name) {
    return std::find(layers.begin(), layers.end(), name) != layers.end();
  };
  if (has(kLabLayerDmCache) && has(kLabLayerLvmcache)) {
    return Status::InvalidArgument(
        "layers 'dm-cache' and 'lvmcache' cannot run in one guest: both are "
        "built on partition " +
        std::to_string(kLabDmCachePartition) +
        " of the emulated disks (an MBR holds only four). Fix: run them in "
        "two lab runs, e.g. --layers bcache,dm-cache and --layers lvmcache");
  }
  return Status::Ok();
}

Status ParseLabLayers(const std::string& text, std::vector<std::string>* out) {
  std::vector<std::string> layers;
  size_t start = 0;
  for (;;) {
    size_t comma = text.find(',', start);
    std::string name = TrimmedCopy(text.substr(
        start, comma == std::string::npos ? std::string::npos : comma - start));
    if (name.empty()) {
      if (Trim(text).empty()) break;  // "" or "  ": reported as empty below
      return Status::InvalidArgument("empty name in the layer list '" + text +
                                     "'; valid layers: " + LabLayerNames());
    }
    layers.push_back(name);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  Status s = CheckLabLayers(layers);
  if (!s.ok()) return s;
  *out = std::move(layers);
  return Status::Ok();
}

Status LabHddLayout(uint64_t disk_bytes, uint64_t min_region_bytes,
                    std::vector<LabPartition>* out) {
  return LabEqualRegionLayout(disk_bytes, kLabPartitions, min_region_bytes,
                              out);
}

Status LabSsdLayout(uint64_t disk_bytes, uint64_t min_cache_bytes,
                    std::vector<LabPartition>* out) {
  return LabRegionLayout(disk_bytes, SsdExtras(), min_cache_bytes, out);
}

uint64_t LabSsdBytesForCache(uint64_t cache_bytes) {
  return LabDiskBytesFor(cache_bytes, SsdExtras());
}

}  // namespace tierbench
