// The lab's cache layers and its partition map: the one place that says which
// region of which emulated disk each layer's stack uses. LabRunner writes
// these numbers into lab.conf, and scripts/lab/init builds the stacks from
// them (it has no partition numbers of its own).
//
// Both disks get four MBR primary partitions (lab/lab_disk.h):
//   partition  HDD (vda)                SSD (vdb)
//   1          bcache backing device    bcache cache device
//   2          dm-cache origin          dm-cache: 16 MiB metadata, then data
//   3          dm-writecache origin     dm-writecache cache device
//   4          raw HDD baseline         raw SSD baseline
// lvmcache (not in the default list) is built on partition 2 as well (vda2
// as its origin PV, vdb2 as its cache PV), so it cannot share a guest with
// dm-cache.
// The HDD's four regions are equal. On the SSD, regions 1, 3 and 4 are equal
// (`C` bytes) and region 2 is exactly kLabDmCacheMetaBytes larger, so every
// layer gets the same cache capacity C: bcache's cache partition, dm-cache's
// data part (a `linear` target over region 2 after the metadata) and the
// writecache device. The guest checks that equality before measuring.
//
// All functions are thread-safe (no shared state).
#ifndef TIERBENCH_LAB_LAB_LAYERS_H_
#define TIERBENCH_LAB_LAB_LAYERS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "lab/lab_disk.h"
#include "util/status.h"

namespace tierbench {

// Layer names as --layers and lab.conf's LAYERS spell them, in default order.
inline constexpr const char* kLabLayerBcache = "bcache";
inline constexpr const char* kLabLayerDmCache = "dm-cache";
inline constexpr const char* kLabLayerWritecache = "dm-writecache";
// Opt-in: an LVM cached LV (/dev/tbvg/main) on the dm-cache partitions.
inline constexpr const char* kLabLayerLvmcache = "lvmcache";

// Partition numbers (1-based, /dev/vdX<N>) of the map above.
inline constexpr int kLabBcachePartition = 1;
inline constexpr int kLabDmCachePartition = 2;
inline constexpr int kLabWritecachePartition = 3;
inline constexpr int kLabRawPartition = 4;
inline constexpr size_t kLabPartitions = 4;

// dm-cache's metadata part at the start of SSD partition 2.
inline constexpr uint64_t kLabDmCacheMetaBytes = 16ull << 20;

// The default layers, in the default order (bcache, dm-cache,
// dm-writecache).
std::vector<std::string> AllLabLayers();
// Every layer --layers accepts: the default ones, then lvmcache.
std::vector<std::string> KnownLabLayers();

// "bcache, dm-cache, dm-writecache, lvmcache" (for messages and --help).
std::string LabLayerNames();

// Parses a comma-separated --layers value ("bcache,dm-writecache"): names in
// the given order, surrounding blanks ignored. InvalidArgument naming the
// valid names for an unknown or repeated name, or when the list is empty;
// InvalidArgument saying why for dm-cache together with lvmcache (both use
// partition 2).
Status ParseLabLayers(const std::string& text, std::vector<std::string>* out);

// Checks an already split list the same way (LabOptions::layers).
Status CheckLabLayers(const std::vector<std::string>& layers);

// The layouts of both disks (the map above). InvalidArgument (from
// LabRegionLayout) when a disk is too small for four regions of
// `min_region_bytes` or too large.
Status LabHddLayout(uint64_t disk_bytes, uint64_t min_region_bytes,
                    std::vector<LabPartition>* out);
Status LabSsdLayout(uint64_t disk_bytes, uint64_t min_cache_bytes,
                    std::vector<LabPartition>* out);

// The SSD size whose layout gives each layer `cache_bytes` of cache (a whole
// number of MiB): 1 MiB + 4 * cache_bytes + kLabDmCacheMetaBytes.
uint64_t LabSsdBytesForCache(uint64_t cache_bytes);

}  // namespace tierbench

#endif  // TIERBENCH_LAB_LAB_LAYERS_H_
