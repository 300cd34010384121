#include "cache/block_stat.h"

#include <string>
#include <vector>

#include "cache/sysfs_values.h"

namespace tierbench {
namespace {

// Field order of Documentation/block/stat.rst.
constexpr uint64_t BlockStat::*kFields[] = {
    &BlockStat::read_ios,         &BlockStat::read_merges,
    &BlockStat::read_sectors,     &BlockStat::read_ticks_ms,
    &BlockStat::write_ios,        &BlockStat::write_merges,
    &BlockStat::write_sectors,    &BlockStat::write_ticks_ms,
    &BlockStat::in_flight,        &BlockStat::io_ticks_ms,
    &BlockStat::time_in_queue_ms, &BlockStat::discard_ios,
    &BlockStat::discard_merges,   &BlockStat::discard_sectors,
    &BlockStat::discard_ticks_ms, &BlockStat::flush_ios,
    &BlockStat::flush_ticks_ms,
};

}  // namespace

Status ParseBlockStat(std::string_view text, BlockStat* out) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ' ' || text[i] == '\t' || text[i] == '\n') {
      ++i;
      continue;
    }
    size_t end = text.find_first_of(" \t\n", i);
    if (end == std::string_view::npos) end = text.size();
    words.push_back(text.substr(i, end - i));
    i = end;
  }
  if (words.size() != 11 && words.size() != 15 && words.size() != 17) {
    return Status::InvalidArgument(
        "block stat must have 11, 15 or 17 fields, got " +
        std::to_string(words.size()) + ": '" + std::string(text) + "'");
  }
  BlockStat stat;
  for (size_t f = 0; f < words.size(); ++f) {
    int64_t v = 0;
    Status s = ParseInteger(words[f], &v);
    if (!s.ok() || v < 0) {
      return Status::InvalidArgument("bad block stat field " +
                                     std::to_string(f + 1) + " '" +
                                     std::string(words[f]) + "'");
    }
    stat.*kFields[f] = static_cast<uint64_t>(v);
  }
  *out = stat;
  return Status::Ok();
}

BlockStat DiffBlockStat(const BlockStat& before, const BlockStat& after,
                        bool* wrapped) {
  BlockStat d;
  for (auto field : kFields) {
    if (field == &BlockStat::in_flight) {
      d.*field = after.*field;
    } else if (after.*field >= before.*field) {
      d.*field = after.*field - before.*field;
    } else if (wrapped != nullptr) {
      *wrapped = true;
    }
  }
  return d;
}

Status ReadBlockStat(const Sysfs& sysfs, std::string_view name,
                     BlockStat* out) {
  const std::string rel = "sys/class/block/" + std::string(name) + "/stat";
  std::string text;
  Status s = sysfs.Read(rel, &text);
  if (!s.ok()) return s;
  s = ParseBlockStat(text, out);
  if (!s.ok())
    return Status::InvalidArgument(sysfs.Path(rel) + ": " + s.message());
  return Status::Ok();
}

}  // namespace tierbench
