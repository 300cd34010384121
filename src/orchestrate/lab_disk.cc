#include "orchestrate/lab_disk.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include "util/units.h"

namespace tierbench {
namespace {

constexpr uint64_t kMbrMaxSectors = 0xFFFFFFFFull;
constexpr size_t kEntryOffset = 446;
constexpr size_t kEntryBytes = 16;
constexpr unsigned char kLinuxPartitionType = 0x83;

void PutLe32(std::string* s, size_t at, uint64_t v) {
  for (int i = 0; i < 4; ++i) {
    (*s)[at + i] = static_cast<char>((v >> (8 * i)) & 0xFF);
  }
}

}  // namespace

Status LabTwoRegionLayout(uint64_t disk_bytes, uint64_t min_region_bytes,
                          std::vector<LabPartition>* out) {
  // The first MiB holds the MBR; the rest is split into two equal regions,
  // each a whole number of MiB.
  uint64_t usable =
      disk_bytes > kLabAlignBytes ? disk_bytes - kLabAlignBytes : 0;
  uint64_t region = usable / 2 / kLabAlignBytes * kLabAlignBytes;
  if (region == 0 || region < min_region_bytes) {
    return Status::InvalidArgument("disk of " + FormatBytes(disk_bytes) +
                                   " too small for two regions of " +
                                   FormatBytes(min_region_bytes) +
                                   " (plus 1MiB for the partition table)");
  }
  if (disk_bytes / kLabSectorBytes > kMbrMaxSectors) {
    return Status::InvalidArgument(
        "disk of " + FormatBytes(disk_bytes) +
        " too large for an MBR partition table (2TiB)");
  }
  uint64_t region_sectors = region / kLabSectorBytes;
  uint64_t first = kLabAlignBytes / kLabSectorBytes;
  out->clear();
  out->push_back({first, region_sectors});
  out->push_back({first + region_sectors, region_sectors});
  return Status::Ok();
}

std::string LabMasterBootRecord(const std::vector<LabPartition>& partitions) {
  std::string mbr(kLabSectorBytes, '\0');
  for (size_t i = 0; i < partitions.size() && i < 4; ++i) {
    size_t at = kEntryOffset + i * kEntryBytes;
    // CHS fields hold the "use LBA" marker; Linux reads only the LBA fields.
    mbr[at + 1] = static_cast<char>(0xFE);
    mbr[at + 2] = static_cast<char>(0xFF);
    mbr[at + 3] = static_cast<char>(0xFF);
    mbr[at + 4] = static_cast<char>(kLinuxPartitionType);
    mbr[at + 5] = static_cast<char>(0xFE);
    mbr[at + 6] = static_cast<char>(0xFF);
    mbr[at + 7] = static_cast<char>(0xFF);
    PutLe32(&mbr, at + 8, partitions[i].start_sector);
    PutLe32(&mbr, at + 12, partitions[i].sectors);
  }
  mbr[510] = static_cast<char>(0x55);
  mbr[511] = static_cast<char>(0xAA);
  return mbr;
}

Status CreateSparseFile(const std::string& path, uint64_t bytes) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return Status::FromErrno("create " + path, errno);
  if (ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    int err = errno;
    close(fd);
    return Status::FromErrno("truncate " + path, err);
  }
  if (close(fd) != 0) return Status::FromErrno("close " + path, errno);
  return Status::Ok();
}

Status CreateLabDiskImage(const std::string& path, uint64_t disk_bytes,
                          const std::vector<LabPartition>& partitions) {
  Status s = CreateSparseFile(path, disk_bytes);
  if (!s.ok()) return s;
  int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno("open " + path, errno);
  std::string mbr = LabMasterBootRecord(partitions);
  ssize_t n = pwrite(fd, mbr.data(), mbr.size(), 0);
  int err = errno;
  close(fd);
  if (n != static_cast<ssize_t>(mbr.size())) {
    return Status::FromErrno("write the partition table of " + path,
                             n < 0 ? err : EIO);
  }
  return Status::Ok();
}

}  // namespace tierbench
