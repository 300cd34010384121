#include "validity/setup_rules.h"

namespace tierbench {
namespace {

std::string SetupWho(const QueueSettings& q, const std::string& role) {
  return role + " (" + q.queue_owner + ")";
}

std::string SetupInt(int64_t v) { return std::to_string(v); }

}  // namespace

std::vector<Finding> BaselineFindings(const QueueSettings& raw,
                                      const std::string& raw_role,
                                      const QueueSettings& member,
                                      const std::string& member_role) {
  std::vector<Finding> out;
  if (raw.queue_owner == member.queue_owner) return out;  // one disk
  const std::string a = SetupWho(raw, raw_role),
                    b = SetupWho(member, member_role);
  if (!raw.write_cache.empty() && !member.write_cache.empty() &&
      raw.write_cache != member.write_cache) {
    out.push_back({"baseline-write-cache", Severity::kInvalid,
                   a + " has write cache '" + raw.write_cache + "' but " + b +
                       " has '" + member.write_cache +
                       "': flushes cost one side nothing and the other a "
                       "media write, so their ratio is not the cache's doing "
                       "(fix: the same queue/write_cache on both, e.g. hdparm "
                       "-W)"});
  }
  std::vector<std::string> diffs;
  if (!raw.scheduler.empty() && !member.scheduler.empty() &&
      raw.scheduler != member.scheduler) {
    diffs.push_back("scheduler " + raw.scheduler + " against " +
                    member.scheduler);
  }
  if (raw.wbt_lat_usec >= 0 && member.wbt_lat_usec >= 0 &&
      raw.wbt_lat_usec != member.wbt_lat_usec) {
    diffs.push_back("wbt_lat_usec " + SetupInt(raw.wbt_lat_usec) + " against " +
                    SetupInt(member.wbt_lat_usec));
  }
  if (raw.read_ahead_kb >= 0 && member.read_ahead_kb >= 0 &&
      raw.read_ahead_kb != member.read_ahead_kb) {
    diffs.push_back("read_ahead_kb " + SetupInt(raw.read_ahead_kb) +
                    " against " + SetupInt(member.read_ahead_kb));
  }
  if (!diffs.empty()) {
    std::string list;
    for (const std::string& d : diffs) list += (list.empty() ? "" : ", ") + d;
    out.push_back({"baseline-queue", Severity::kCaution,
                   a + " and " + b + " differ in " + list +
                       ": part of a difference between them may be the "
                       "queue's (fix: set both queues alike)"});
  }
  return out;
}

std::vector<Finding> LoopFindings(const std::string& device,
                                  const std::string& dio) {
  if (dio != "0") return {};
  return {{"loop-buffered", Severity::kInvalid,
           "loop device " + device +
               " does not use direct IO (loop/dio 0): its IO lands in the "
               "host's page cache, so the cell measured RAM (fix: losetup "
               "--direct-io=on " +
               device + ")"}};
}

std::vector<Finding> LabFindings(
    const std::map<std::string, std::string>& labels) {
  std::vector<Finding> out;
  for (const char* key : {"lab.hdd_cache", "lab.ssd_cache"}) {
    auto it = labels.find(key);
    if (it == labels.end() || it->second != "writeback") continue;
    const std::string disk = key[4] == 'h' ? "HDD" : "SSD";
    out.push_back({"lab-page-cache", Severity::kCaution,
                   "the lab's " + disk +
                       " image was opened through the host's page cache "
                       "(cache=writeback: its directory refused O_DIRECT): "
                       "the throttle still sets its speed, but flushes and "
                       "re-reads can be served by the host's RAM (fix: "
                       "--tmp-dir on a filesystem with O_DIRECT)"});
  }
  return out;
}

}  // namespace tierbench
