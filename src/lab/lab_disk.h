// The lab's emulated disks: sparse image files with an MBR partition table
// that gives each cache layer and the raw baseline its own region of each
// disk. Which region belongs to whom is lab/lab_layers.h's business; this
// file only computes layouts and writes images.
//
// Regions are primary partitions (type 0x83) that start after the first MiB
// (the MBR), follow one another without gaps and are each a whole number of
// MiB (so 1 MiB aligned). All regions of a disk see the same emulated disk
// and its throttle: every layer is measured on the same "hardware".
//
// All functions are thread-safe (no shared state).
#ifndef TIERBENCH_LAB_LAB_DISK_H_
#define TIERBENCH_LAB_LAB_DISK_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "util/status.h"

namespace tierbench {

inline constexpr uint64_t kLabSectorBytes = 512;
inline constexpr uint64_t kLabAlignBytes = 1024 * 1024;

struct LabPartition {
  uint64_t start_sector = 0;
  uint64_t sectors = 0;
};

inline constexpr size_t kLabMaxRegions = 4;  // MBR primary partitions

// The layout of a disk of `disk_bytes` with `extra_bytes.size()` regions
// (1 to 4): region i gets `base + extra_bytes[i]` bytes, where `base` is the
// largest whole number of MiB for which all regions fit after the first MiB.
// All-zero extras give equal regions; an extra lets one region be larger by
// a fixed amount (e.g. room for metadata next to an equal-sized cache).
// Returns InvalidArgument when an extra is not a whole number of MiB, the
// count is not 1-4, the disk is too small for a base of at least
// `min_base_bytes` (and at least 1 MiB), or too large for an MBR (2 TiB).
Status LabRegionLayout(uint64_t disk_bytes,
                       const std::vector<uint64_t>& extra_bytes,
                       uint64_t min_base_bytes, std::vector<LabPartition>* out);

// `count` equal regions: LabRegionLayout with all extras 0.
Status LabEqualRegionLayout(uint64_t disk_bytes, size_t count,
                            uint64_t min_region_bytes,
                            std::vector<LabPartition>* out);

// The smallest disk whose LabRegionLayout with `extra_bytes` has a base of
// `base_bytes` (a whole number of MiB): 1 MiB + count * base + extras.
uint64_t LabDiskBytesFor(uint64_t base_bytes,
                         const std::vector<uint64_t>& extra_bytes);

// The 512-byte master boot record holding up to four `partitions`.
std::string LabMasterBootRecord(const std::vector<LabPartition>& partitions);

// Creates `path` (it must not exist) as a sparse file of `disk_bytes` with
// the MBR of `partitions` in its first sector.
Status CreateLabDiskImage(const std::string& path, uint64_t disk_bytes,
                          const std::vector<LabPartition>& partitions);

// Creates `path` as a sparse zero-filled file of `bytes` (the output disk).
Status CreateSparseFile(const std::string& path, uint64_t bytes);

}  // namespace tierbench

#endif  // TIERBENCH_LAB_LAB_DISK_H_
