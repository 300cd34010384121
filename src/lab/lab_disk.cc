#include "lab/lab_disk.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
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

Status LabRegionLayout(uint64_t disk_bytes,
                       const std::vector<uint64_t>& extra_bytes,
                       uint64_t min_base_bytes,
                       std::vector<LabPartition>* out) {
  const size_t count = extra_bytes.size();
  if (count == 0 || count > kLabMaxRegions) {
    return Status::InvalidArgument("a lab disk holds 1 to 4 regions, not " +
                                   std::to_string(count));
  }
  uint64_t extras = 0;
  for (uint64_t e : extra_bytes) {
    if (e % kLabAlignBytes != 0) {
      return Status::InvalidArgument("region extra of " + FormatBytes(e) +
                                     " is not a whole number of MiB");
    }
    extras += e;
  }
  // The first MiB holds the MBR; the rest is shared out in whole MiB.
  uint64_t usable = disk_bytes > kLabAlignBytes + extras
                        ? disk_bytes - kLabAlignBytes - extras
                        : 0;
  uint64_t base = usable / count / kLabAlignBytes * kLabAlignBytes;
  if (base == 0 || base < min_base_bytes) {
    return Status::InvalidArgument(
        "disk of " + FormatBytes(disk_bytes) + " too small for " +
        std::to_string(count) + " regions of " +
        FormatBytes(std::max(min_base_bytes, kLabAlignBytes)) +
        (extras ? " (plus " + FormatBytes(extras) + " of extras)" : "") +
        " after 1MiB for the partition table; needs " +
        FormatBytes(LabDiskBytesFor(std::max(min_base_bytes, kLabAlignBytes),
                                    extra_bytes)));
  }
  if (disk_bytes / kLabSectorBytes > kMbrMaxSectors) {
    return Status::InvalidArgument(
        "disk of " + FormatBytes(disk_bytes) +
        " too large for an MBR partition table (2TiB)");
  }
  uint64_t next = kLabAlignBytes / kLabSectorBytes;
  out->clear();
  for (uint64_t e : extra_bytes) {
    uint64_t sectors = (base + e) / kLabSectorBytes;
    out->push_back({next, sectors});
    next += sectors;
  }
  return Status::Ok();
}

Status LabEqualRegionLayout(uint64_t disk_bytes, size_t count,
                            uint64_t min_region_bytes,
                            std::vector<LabPartition>* out) {
  return LabRegionLayout(disk_bytes, std::vector<uint64_t>(count, 0),
                         min_region_bytes, out);
}

uint64_t LabDiskBytesFor(uint64_t base_bytes,
                         const std::vector<uint64_t>& extra_bytes) {
  uint64_t bytes = kLabAlignBytes + base_bytes * extra_bytes.size();
  for (uint64_t e : extra_bytes) bytes += e;
  return bytes;
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
