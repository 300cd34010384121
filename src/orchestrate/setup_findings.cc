#include "orchestrate/setup_findings.h"

#include <algorithm>

#include "cache/queue_settings.h"
#include "io/device_guard.h"
#include "orchestrate/host_sampler.h"
#include "orchestrate/prepare_compare.h"
#include "validity/setup_rules.h"

namespace tierbench {
namespace {

void AddUniqueDisk(const std::string& s, std::vector<std::string>* out) {
  if (std::find(out->begin(), out->end(), s) == out->end()) out->push_back(s);
}

void WalkSlaves(const Sysfs& os, const std::string& name, int depth,
                std::vector<std::string>* out) {
  std::vector<std::string> slaves;
  if (depth < 8 &&
      os.List("sys/class/block/" + name + "/slaves", &slaves).ok() &&
      !slaves.empty()) {
    for (const std::string& s : slaves) WalkSlaves(os, s, depth + 1, out);
    return;
  }
  AddUniqueDisk(WholeDiskOf(os, name), out);
}

// The loop findings of `name` and of every device under it.
std::vector<Finding> LoopFindingsUnder(const Sysfs& os,
                                       const std::vector<std::string>& names) {
  std::vector<Finding> out;
  for (const std::string& n : names) {
    std::string dio;
    if (os.Read("sys/class/block/" + n + "/loop/dio", &dio).ok()) {
      AddFindings(LoopFindings(n, dio), &out);
    }
  }
  return out;
}

std::string RawBlockName(const std::string& path, const Sysfs& os) {
  BlockDeviceId id;
  return ResolveBlockDevice(path, os, &id).ok() ? id.name : std::string();
}

}  // namespace

std::vector<std::string> UnderlyingDisks(const Sysfs& os,
                                         const std::string& name) {
  std::vector<std::string> out;
  WalkSlaves(os, name, 0, &out);
  return out;
}

void AddSetupFindings(const CompareOptions& o, CompareSetup* setup) {
  const Sysfs& os = setup->os;
  setup->run_findings = LabFindings(o.labels);
  const std::string hdd = o.hdd.empty() ? "" : RawBlockName(o.hdd, os);
  const std::string ssd = o.ssd.empty() ? "" : RawBlockName(o.ssd, os);
  if (!hdd.empty()) {
    setup->hdd_findings = LoopFindingsUnder(os, UnderlyingDisks(os, hdd));
  }
  if (!ssd.empty()) {
    setup->ssd_findings = LoopFindingsUnder(os, UnderlyingDisks(os, ssd));
  }
  for (CompareStack& st : setup->stacks) {
    std::vector<Finding>& f = st.findings;
    AddFindings(setup->stack_findings, &f);
    AddFindings(LoopFindingsUnder(os, st.info.members), &f);
    struct Side {
      const std::string& raw;
      const char* raw_role;
      std::vector<std::string> members;
      const char* member_role;
    };
    const Side sides[] = {{hdd, "the raw HDD", {st.info.origin}, "the origin"},
                          {ssd, "the raw SSD", st.info.caches, "the cache"}};
    for (const Side& side : sides) {
      if (side.raw.empty()) continue;
      const QueueSettings raw_q = ReadQueueSettings(os, side.raw);
      for (const std::string& m : side.members) {
        if (m.empty()) continue;
        for (const std::string& disk : UnderlyingDisks(os, m)) {
          AddFindings(BaselineFindings(
                          raw_q, side.raw_role, ReadQueueSettings(os, disk),
                          std::string(side.member_role) + " of " + st.device),
                      &f);
        }
      }
    }
  }
}

}  // namespace tierbench
