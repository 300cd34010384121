#include "cache/queue_settings.h"

#include <string>

#include "cache/sysfs_values.h"

namespace tierbench {
namespace {

void ReadInt(const Sysfs& sysfs, const std::string& rel, int64_t* out) {
  std::string text;
  int64_t v = 0;
  if (sysfs.Read(rel, &text).ok() && ParseInteger(text, &v).ok()) *out = v;
}

nlohmann::json IntOrNull(int64_t v) {
  return v < 0 ? nlohmann::json(nullptr) : nlohmann::json(v);
}

nlohmann::json StringOrNull(const std::string& s) {
  return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s);
}

}  // namespace

nlohmann::json QueueSettings::ToJson() const {
  return {{"device", device},
          {"queue_owner", queue_owner},
          {"scheduler", StringOrNull(scheduler)},
          {"write_cache", StringOrNull(write_cache)},
          {"read_ahead_kb", IntOrNull(read_ahead_kb)},
          {"logical_block_size", IntOrNull(logical_block_size)},
          {"rotational", IntOrNull(rotational)},
          {"wbt_lat_usec", IntOrNull(wbt_lat_usec)}};
}

QueueSettings ReadQueueSettings(const Sysfs& sysfs, std::string_view name) {
  if (name.starts_with("/dev/")) name.remove_prefix(5);
  QueueSettings q;
  q.device = std::string(name);
  q.queue_owner = q.device;
  std::string queue = "sys/class/block/" + q.device + "/queue";
  // A partition (has a "partition" file) uses its parent disk's queue: the
  // parent is the directory that holds the partition's canonical directory.
  if (!sysfs.Exists(queue) &&
      sysfs.Exists("sys/class/block/" + q.device + "/partition")) {
    std::string canonical;
    if (sysfs.Resolve("sys/class/block/" + q.device, &canonical).ok()) {
      const size_t slash = canonical.rfind('/');
      if (slash != std::string::npos) {
        const std::string parent = canonical.substr(0, slash);
        q.queue_owner = parent.substr(parent.rfind('/') + 1);
        queue = parent + "/queue";
      }
    }
  }
  std::string text;
  if (sysfs.Read(queue + "/scheduler", &text).ok()) {
    std::string selected;
    // "[mq-deadline] none", or just "none" for bio-based devices.
    q.scheduler = ParseBracketChoice(text, &selected).ok() ? selected : text;
  }
  if (sysfs.Read(queue + "/write_cache", &text).ok()) q.write_cache = text;
  ReadInt(sysfs, queue + "/read_ahead_kb", &q.read_ahead_kb);
  ReadInt(sysfs, queue + "/logical_block_size", &q.logical_block_size);
  ReadInt(sysfs, queue + "/rotational", &q.rotational);
  ReadInt(sysfs, queue + "/wbt_lat_usec", &q.wbt_lat_usec);
  return q;
}

}  // namespace tierbench
