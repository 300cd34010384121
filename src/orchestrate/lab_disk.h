// The lab's emulated disks: sparse image files with an MBR partition table
// that gives bcache and the raw baselines their own region of each disk.
//
// Each disk is split into two equal primary partitions (type 0x83, 1 MiB
// aligned): partition 1 belongs to the bcache stack (backing device on the
// HDD, cache device on the SSD), partition 2 is the raw baseline. Both see
// the same emulated disk and its throttle, so bcache and the baseline are
// measured on the same "hardware".
//
// All functions are thread-safe (no shared state).
#ifndef TIERBENCH_ORCHESTRATE_LAB_DISK_H_
#define TIERBENCH_ORCHESTRATE_LAB_DISK_H_

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

// The two-region layout of a disk of `disk_bytes`. Returns InvalidArgument
// when the disk is too small for two 1 MiB-aligned regions of at least
// `min_region_bytes` each, or too large for an MBR (2 TiB).
Status LabTwoRegionLayout(uint64_t disk_bytes, uint64_t min_region_bytes,
                          std::vector<LabPartition>* out);

// The 512-byte master boot record holding up to four `partitions`.
std::string LabMasterBootRecord(const std::vector<LabPartition>& partitions);

// Creates `path` (it must not exist) as a sparse file of `disk_bytes` with
// the MBR of `partitions` in its first sector.
Status CreateLabDiskImage(const std::string& path, uint64_t disk_bytes,
                          const std::vector<LabPartition>& partitions);

// Creates `path` as a sparse zero-filled file of `bytes` (the output disk).
Status CreateSparseFile(const std::string& path, uint64_t bytes);

}  // namespace tierbench

#endif  // TIERBENCH_ORCHESTRATE_LAB_DISK_H_
