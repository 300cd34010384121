#include "orchestrate/host_sampler.h"

#include <algorithm>

#include "util/clock.h"

namespace tierbench {
namespace {

uint64_t HostIos(const BlockStat& s) { return s.read_ios + s.write_ios; }

}  // namespace

std::string WholeDiskOf(const Sysfs& os, const std::string& name) {
  if (!os.Exists("sys/class/block/" + name + "/partition")) return name;
  std::string canonical;
  if (!os.Resolve("sys/class/block/" + name, &canonical).ok()) return name;
  const size_t slash = canonical.rfind('/');
  if (slash == std::string::npos) return name;
  const std::string parent = canonical.substr(0, slash);
  return parent.substr(parent.rfind('/') + 1);
}

HostSampler::HostSampler(const Sysfs& os, std::string target,
                         std::vector<std::string> members,
                         bool window_from_first_tick)
    : os_(os),
      target_(std::move(target)),
      from_first_tick_(window_from_first_tick) {
  if (target_.empty()) {
    disks_unknown_why_ = "the target is not a block device";
    return;
  }
  if (members.empty()) members.push_back(target_);
  // The leaves: members without slaves (partitions or whole disks).
  for (const std::string& m : members) {
    std::vector<std::string> slaves;
    if (os_.List("sys/class/block/" + m + "/slaves", &slaves).ok() &&
        !slaves.empty()) {
      continue;
    }
    if (m == target_ && members.size() > 1) continue;  // a stack device
    std::vector<std::string>& leaves = disks_[WholeDiskOf(os_, m)];
    if (std::find(leaves.begin(), leaves.end(), m) == leaves.end()) {
      leaves.push_back(m);
    }
  }
  if (disks_.empty()) disks_unknown_why_ = "no disk found under " + target_;
}

HostSampler::Reading HostSampler::Take() const {
  Reading r;
  r.taken_ns = NowNs();
  std::string text;
  CpuTimes cpu;
  if (os_.Read("proc/stat", &text).ok() && ParseCpuTimes(text, &cpu).ok()) {
    r.cpu = cpu;
    size_t pos = 0;
    while (pos < text.size()) {
      size_t end = text.find('\n', pos);
      if (end == std::string::npos) end = text.size();
      if (text.compare(pos, 3, "cpu") == 0) {
        r.cpu_text += text.substr(pos, end - pos) + "\n";
      }
      pos = end + 1;
    }
  }
  auto read = [this, &r](const std::string& name) {
    if (name.empty() || r.stats.count(name) > 0) return;
    std::string line;
    BlockStat s;
    if (os_.Read("sys/class/block/" + name + "/stat", &line).ok() &&
        ParseBlockStat(line, &s).ok()) {
      r.stats[name] = s;
      r.stat_text[name] = line;
    }
  };
  read(target_);
  for (const auto& [disk, leaves] : disks_) {
    read(disk);
    for (const std::string& l : leaves) read(l);
  }
  return r;
}

void HostSampler::Begin() { begin_ = Take(); }

void HostSampler::Tick() {
  if (!first_tick_) first_tick_ = Take();
}

void HostSampler::End() { end_ = Take(); }

HostEvidence HostSampler::Evidence() const {
  HostEvidence e;
  e.target = target_;
  const std::optional<Reading>& start =
      from_first_tick_ && first_tick_ ? first_tick_ : begin_;
  if (!start || !end_) {
    e.cpu_unknown_why = "the window was not sampled";
    e.disks_unknown_why = e.cpu_unknown_why;
    return e;
  }
  if (from_first_tick_ && !first_tick_) {
    e.cpu_unknown_why = "the run ended before its first second";
    e.disks_unknown_why = e.cpu_unknown_why;
    return e;
  }
  e.window_s = static_cast<double>(end_->taken_ns - start->taken_ns) / 1e9;
  e.raw.proc_stat_start = start->cpu_text;
  e.raw.proc_stat_end = end_->cpu_text;
  e.raw.stat_start = start->stat_text;
  e.raw.stat_end = end_->stat_text;
  if (!start->cpu || !end_->cpu) {
    e.cpu_unknown_why = "proc/stat unreadable under " + os_.root();
  } else {
    CpuUse use;
    if (DiffCpuTimes(*start->cpu, *end_->cpu, &use)) {
      e.cpus = end_->cpu->cpus;
      e.cpu_busy_pct = use.busy_pct;
      e.cpu_steal_pct = use.steal_pct;
      e.cpu_iowait_pct = use.iowait_pct;
    } else {
      e.cpu_unknown_why = "no CPU time passed between the readings";
    }
  }
  auto delta = [&](const std::string& name, BlockStat* d) {
    auto a = start->stats.find(name);
    auto b = end_->stats.find(name);
    if (a == start->stats.end() || b == end_->stats.end()) return false;
    bool wrapped = false;
    *d = DiffBlockStat(a->second, b->second, &wrapped);
    return !wrapped;
  };
  BlockStat t;
  if (!target_.empty() && delta(target_, &t)) {
    if (e.window_s > 0) {
      e.target_busy_pct =
          std::min(100.0, 100.0 * static_cast<double>(t.io_ticks_ms) / 1000.0 /
                              e.window_s);
    }
    e.target_flush_ios = static_cast<int64_t>(t.flush_ios);
    e.target_read_bytes = static_cast<int64_t>(t.read_bytes());
  }
  // In flight before the cell, not at the first tick of a DB run (its own
  // IO would be in flight then).
  if (begin_) {
    auto before = begin_->stats.find(target_);
    if (before != begin_->stats.end()) {
      e.target_in_flight_before =
          static_cast<int64_t>(before->second.in_flight);
    }
  }
  e.disks_unknown_why = disks_unknown_why_;
  if (!e.disks_unknown_why.empty()) return e;
  for (const auto& [disk, leaves] : disks_) {
    DiskActivity a;
    a.disk = disk;
    BlockStat d;
    if (!delta(disk, &d)) {
      e.disks_unknown_why = "the block counters of " + disk + " unreadable";
      e.disks.clear();
      return e;
    }
    a.disk_ios = HostIos(d);
    for (const std::string& l : leaves) {
      if (l == disk) {
        a.cell_ios = a.disk_ios;
        break;
      }
      BlockStat ld;
      if (!delta(l, &ld)) {
        e.disks_unknown_why = "the block counters of " + l + " unreadable";
        e.disks.clear();
        return e;
      }
      a.cell_ios += HostIos(ld);
    }
    e.disks.push_back(a);
  }
  return e;
}

}  // namespace tierbench
