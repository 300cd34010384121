#include "workload/job_files.h"

#include <algorithm>

#include "util/rng.h"

namespace tierbench {
namespace {

uint64_t SmallestBlock(const JobSpec& spec) {
  uint64_t smallest = UINT64_MAX;
  for (const BlockSizeSpec& bs : spec.bs) {
    smallest = std::min(smallest, bs.min);
    for (const auto& entry : bs.split)
      smallest = std::min(smallest, entry.first);
  }
  return smallest == UINT64_MAX || smallest == 0 ? 1 : smallest;
}

}  // namespace

std::string DefaultFileName(const JobSpec& spec, uint32_t clone,
                            uint32_t file) {
  const std::string name =
      spec.name + "." + std::to_string(clone) + "." + std::to_string(file);
  return spec.directory.empty() ? name : spec.directory + "/" + name;
}

std::vector<JobFilePlan> PlanJobFiles(const JobSpec& spec, uint32_t clone) {
  std::vector<JobFilePlan> files;
  if (!spec.filename.empty()) {
    JobFilePlan plan;
    plan.path = spec.filename;
    plan.pattern_spec = spec;
    files.push_back(std::move(plan));
    return files;
  }
  const uint64_t offset = spec.offset.is_percent ? 0 : spec.offset.bytes;
  if (spec.ioengine == "null") {
    JobFilePlan plan;
    plan.file_bytes = offset + spec.size.bytes;
    plan.pattern_spec = spec;
    files.push_back(std::move(plan));
    return files;
  }
  const uint32_t n = std::max<uint32_t>(1, spec.nrfiles);
  Rng rng(Rng::Mix64(0x66696c6573ULL + clone));  // "files"
  const uint64_t align = SmallestBlock(spec);
  for (uint32_t f = 0; f < n; ++f) {
    uint64_t bytes = spec.size.bytes / n;
    if (spec.filesize_min > 0) {
      bytes = spec.filesize_min;
      if (spec.filesize_max > spec.filesize_min) {
        bytes += rng.Next() % (spec.filesize_max - spec.filesize_min + 1);
        bytes = std::max(bytes - bytes % align, spec.filesize_min);
      }
    }
    JobFilePlan plan;
    plan.path = DefaultFileName(spec, clone, f);
    plan.default_name = true;
    plan.file_bytes = offset + bytes;
    plan.pattern_spec = spec;
    plan.pattern_spec.size = SizeSpec{true, false, bytes, 0};
    plan.pattern_spec.offset = SizeSpec{offset > 0, false, offset, 0};
    files.push_back(std::move(plan));
  }
  return files;
}

}  // namespace tierbench
