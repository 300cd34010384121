#include "support/fake_dm.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

#include "cache/dm/dm_status.h"

namespace tierbench {
namespace {

constexpr uint64_t kDefaultMigrationThreshold = 2048;  // dm-cache-target.c

bool ParseU64(std::string_view w, uint64_t* out) {
  if (w.empty() || w[0] == '-' || w[0] == '+') return false;
  auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), *out);
  return ec == std::errc() && p == w.data() + w.size();
}

std::string JoinTable(const std::vector<DmTarget>& table) {
  std::string out;
  for (const DmTarget& t : table) {
    if (!out.empty()) out += "; ";
    out += FormatDmTarget(t);
  }
  return out;
}

}  // namespace

void FakeDmControl::AddDevice(const std::string& name, unsigned major,
                              unsigned minor, const DmTarget& target,
                              const std::string& status_params) {
  Device d;
  d.name = name;
  d.major = major;
  d.minor = minor;
  d.table = {target};
  d.status = {
      DmTarget{target.start, target.length, target.type, status_params}};
  devices_[name] = std::move(d);
}

void FakeDmControl::AddCacheDevice(const std::string& name, unsigned minor,
                                   uint64_t sectors) {
  AddDevice(name, 252, minor,
            DmTarget{0, sectors, "cache", kFakeCacheTableParams},
            kFakeCacheStatusParams);
}

void FakeDmControl::AddWritecacheDevice(const std::string& name, unsigned minor,
                                        uint64_t sectors) {
  AddDevice(name, 252, minor,
            DmTarget{0, sectors, "writecache", kFakeWritecacheTableParams},
            kFakeWritecacheStatusParams);
}

FakeDmControl::Device* FakeDmControl::device(const std::string& name) {
  auto it = devices_.find(name);
  return it == devices_.end() ? nullptr : &it->second;
}

void FakeDmControl::SetStatusParams(const std::string& name,
                                    const std::string& params, size_t index) {
  Device* d = device(name);
  if (d != nullptr && index < d->status.size())
    d->status[index].params = params;
}

void FakeDmControl::FailNext(const std::string& op, Status status) {
  failures_[op] = std::move(status);
}

std::optional<Status> FakeDmControl::Record(const std::string& op,
                                            const std::string& call) const {
  calls_.push_back(call);
  for (const std::string& key : {op, std::string()}) {
    auto it = failures_.find(key);
    if (it != failures_.end()) {
      Status s = it->second;
      failures_.erase(it);
      return s;
    }
  }
  return std::nullopt;
}

Status FakeDmControl::Lookup(const std::string& op, const std::string& name,
                             const Device** out) const {
  auto it = devices_.find(name);
  if (it == devices_.end()) {
    return Status::NotFound(op + " " + name + ": no such device-mapper device");
  }
  *out = &it->second;
  return Status::Ok();
}

Status FakeDmControl::KernelRefusal(const std::string& op,
                                    const std::string& name, int err) {
  std::string msg = op + " " + name + ": device-mapper: " + op + " ioctl on " +
                    name + "  failed: " + std::strerror(err);
  switch (err) {
    case EINVAL:
      return Status::InvalidArgument(msg);
    case EBUSY:
      return Status::Busy(msg);
    case EPERM:
      return Status::PermissionDenied(msg);
    default:
      return Status::IoError(msg);
  }
}

Status FakeDmControl::Info(const std::string& name, DmDeviceInfo* out) const {
  if (auto f = Record("info", "info " + name)) return *f;
  const Device* d = nullptr;
  Status s = Lookup("info", name, &d);
  if (!s.ok()) return s;
  out->name = d->name;
  out->uuid = d->uuid;
  out->major = d->major;
  out->minor = d->minor;
  out->suspended = d->suspended;
  out->open_count = d->open_count;
  out->target_count = static_cast<int>(d->table.size());
  return Status::Ok();
}

Status FakeDmControl::GetTable(const std::string& name,
                               std::vector<DmTarget>* out) const {
  if (auto f = Record("table", "table " + name)) return *f;
  const Device* d = nullptr;
  Status s = Lookup("table", name, &d);
  if (s.ok()) *out = d->table;
  return s;
}

Status FakeDmControl::GetStatus(const std::string& name,
                                std::vector<DmTarget>* out) const {
  if (auto f = Record("status", "status " + name)) return *f;
  const Device* d = nullptr;
  Status s = Lookup("status", name, &d);
  if (s.ok()) *out = d->status;
  return s;
}

Status FakeDmControl::NameOf(unsigned major, unsigned minor,
                             std::string* name) const {
  std::string dev = std::to_string(major) + ":" + std::to_string(minor);
  if (auto f = Record("nameof", "nameof " + dev)) return *f;
  for (const auto& [n, d] : devices_) {
    if (d.major == major && d.minor == minor) {
      *name = n;
      return Status::Ok();
    }
  }
  return Status::NotFound("info " + dev + ": no such device-mapper device");
}

Status FakeDmControl::LoadCheck(const Device& dev,
                                const std::vector<DmTarget>& table) {
  std::string where = "device-mapper: table: " + std::to_string(dev.major) +
                      ":" + std::to_string(dev.minor) + ": ";
  if (table.empty()) {
    kernel_log_.push_back(where + "empty table");
    return KernelRefusal("reload", dev.name, EINVAL);
  }
  for (size_t i = 0; i < table.size(); ++i) {
    const DmTarget& t = table[i];
    if (t.type == "cache") {
      DmCacheTable ct;
      Status s = ParseDmCacheTable(t.params, &ct);
      if (!s.ok()) {
        kernel_log_.push_back(where + "cache: " + s.message());
        return KernelRefusal("reload", dev.name, EINVAL);
      }
      DmCacheStatus live;
      if (ct.IoMode() == kDmCachePassthrough && i < dev.status.size() &&
          ParseDmCacheStatus(dev.status[i].params, &live).ok() &&
          live.dirty > 0) {
        kernel_log_.push_back(
            where +
            "cache: Cannot enter passthrough mode unless all blocks are clean");
        kernel_log_.push_back(
            "device-mapper: ioctl: error adding target to "
            "table");
        return KernelRefusal("reload", dev.name, EINVAL);
      }
    } else if (t.type == "writecache") {
      DmWritecacheTable wt;
      Status s = ParseDmWritecacheTable(t.params, &wt);
      if (!s.ok()) {
        kernel_log_.push_back(where + "writecache: " + s.message());
        return KernelRefusal("reload", dev.name, EINVAL);
      }
    }
  }
  return Status::Ok();
}

void FakeDmControl::ApplyTable(Device* dev,
                               const std::vector<DmTarget>& table) {
  std::vector<DmTarget> status;
  for (size_t i = 0; i < table.size(); ++i) {
    const DmTarget& t = table[i];
    std::string params;
    if (i < dev->status.size() && dev->status[i].type == t.type) {
      params = dev->status[i].params;
    }
    DmCacheTable ct;
    DmCacheStatus st;
    if (t.type == "cache" && ParseDmCacheTable(t.params, &ct).ok()) {
      if (!ParseDmCacheStatus(params, &st).ok()) {
        st = DmCacheStatus{};
        st.metadata_block_sectors = 8;
        st.metadata_total = 4096;
        st.cache_total = 8192;
      }
      st.cache_block_sectors = ct.block_sectors;
      st.demotions = 0;
      st.promotions = 0;
      // emit_flags(): metadata2, the io mode, no_discard_passdown.
      st.features.clear();
      for (const std::string& f : ct.features) {
        if (f == "metadata2") st.features.push_back(f);
      }
      st.features.push_back(ct.IoMode());
      for (const std::string& f : ct.features) {
        if (f == "no_discard_passdown") st.features.push_back(f);
      }
      uint64_t threshold = kDefaultMigrationThreshold;
      for (const auto& [k, v] : ct.policy_args) {
        if (k == "migration_threshold") ParseU64(v, &threshold);
      }
      st.core_args = {{"migration_threshold", std::to_string(threshold)}};
      st.policy = ct.policy == "mq" ? "smq" : ct.policy;
      st.policy_args.clear();
      params = st.FormatParams();
    }
    status.push_back(DmTarget{t.start, t.length, t.type, params});
  }
  dev->table = table;
  dev->status = std::move(status);
}

Status FakeDmControl::Reload(const std::string& name,
                             const std::vector<DmTarget>& table) {
  if (auto f = Record("reload", "reload " + name + ": " + JoinTable(table))) {
    return *f;
  }
  auto it = devices_.find(name);
  if (it == devices_.end()) {
    return Status::NotFound("reload " + name +
                            ": device-mapper: reload ioctl on " + name +
                            "  failed: No such device or address");
  }
  Device* dev = &it->second;
  Status s = LoadCheck(*dev, table);
  if (!s.ok()) return s;

  std::optional<Status> fail = Record("suspend", "suspend " + name);
  if (!fail) {
    dev->suspended = true;
    fail = Record("resume", "resume " + name);
    if (!fail) {
      ApplyTable(dev, table);
      dev->suspended = false;
      return Status::Ok();
    }
  }
  // Recovery, as the real implementation: drop the inactive table, resume.
  calls_.push_back("clear " + name);
  calls_.push_back("resume " + name);
  dev->suspended = false;
  return *fail;
}

Status FakeDmControl::Message(const std::string& name, uint64_t sector,
                              const std::string& message) {
  if (auto f = Record("message", "message " + name + " " +
                                     std::to_string(sector) + " " + message)) {
    return *f;
  }
  Device* dev = device(name);
  if (dev == nullptr) {
    return Status::NotFound("message " + name +
                            ": device-mapper: message ioctl on " + name +
                            "  failed: No such device or address");
  }
  std::vector<std::string> words = SplitDmWords(message);
  size_t index = dev->table.size();
  for (size_t i = 0; i < dev->table.size(); ++i) {
    const DmTarget& t = dev->table[i];
    if (sector >= t.start && sector < t.start + t.length) index = i;
  }
  if (index == dev->table.size() || words.empty()) {
    kernel_log_.push_back(
        "device-mapper: ioctl: Target message sector outside"
        " device or empty message");
    return KernelRefusal("message", name, EINVAL);
  }
  if (dev->table[index].type == "cache") {
    return CacheMessage(dev, index, words);
  }
  if (dev->table[index].type == "writecache") {
    return WritecacheMessage(dev, index, words);
  }
  kernel_log_.push_back(
      "device-mapper: ioctl: Target type does not support"
      " messages");
  return KernelRefusal("message", name, EINVAL);
}

Status FakeDmControl::CacheMessage(Device* dev, size_t index,
                                   const std::vector<std::string>& words) {
  DmCacheStatus st;
  if (!ParseDmCacheStatus(dev->status[index].params, &st).ok()) {
    return KernelRefusal("message", dev->name, EINVAL);
  }
  std::string prefix = "device-mapper: cache: " + std::to_string(dev->major) +
                       ":" + std::to_string(dev->minor) + ": ";
  if (words[0] == "invalidate_cblocks") {
    if (st.IoMode() != kDmCachePassthrough) {
      kernel_log_.push_back(
          prefix + "cache has to be in passthrough mode for invalidation");
      return KernelRefusal("message", dev->name, EPERM);
    }
    uint64_t count = 0;
    for (size_t i = 1; i < words.size(); ++i) {
      const std::string& r = words[i];
      size_t dash = r.find('-');
      uint64_t begin = 0, end = 0;
      bool ok = dash == std::string::npos
                    ? ParseU64(r, &begin)
                    : ParseU64(r.substr(0, dash), &begin) &&
                          ParseU64(r.substr(dash + 1), &end);
      if (dash == std::string::npos) end = begin + 1;
      if (!ok || end <= begin || end > st.cache_total) {
        kernel_log_.push_back(prefix + "invalid cblock range '" + r + "'");
        return KernelRefusal("message", dev->name, EINVAL);
      }
      count += end - begin;
    }
    st.cache_used -= std::min(st.cache_used, count);
  } else if (words.size() == 2 && words[0] == "migration_threshold") {
    uint64_t v = 0;
    if (!ParseU64(words[1], &v)) {
      return KernelRefusal("message", dev->name, EINVAL);
    }
    st.core_args = {{"migration_threshold", words[1]}};
  } else {
    kernel_log_.push_back(prefix + "unsupported message \"" + words[0] + "\"");
    return KernelRefusal("message", dev->name, EINVAL);
  }
  dev->status[index].params = st.FormatParams();
  return Status::Ok();
}

Status FakeDmControl::WritecacheMessage(Device* dev, size_t index,
                                        const std::vector<std::string>& words) {
  DmWritecacheStatus st;
  if (!ParseDmWritecacheStatus(dev->status[index].params, &st).ok()) {
    return KernelRefusal("message", dev->name, EINVAL);
  }
  if (words.size() != 1) return KernelRefusal("message", dev->name, EINVAL);
  const std::string& m = words[0];
  if (m == "flush") {
    if (dev->suspended) return KernelRefusal("message", dev->name, EBUSY);
    if (st.error != 0) return KernelRefusal("message", dev->name, EIO);
    st.free_blocks = st.total_blocks;
    st.under_writeback = 0;
  } else if (m == "clear_stats") {
    DmWritecacheStatus cleared;
    cleared.error = st.error;
    cleared.total_blocks = st.total_blocks;
    cleared.free_blocks = st.free_blocks;
    cleared.under_writeback = st.under_writeback;
    cleared.has_counters = st.has_counters;
    st = cleared;
  } else if (m != "flush_on_suspend" && m != "cleaner") {
    kernel_log_.push_back(
        "device-mapper: writecache: unrecognised message "
        "received: " +
        m);
    return KernelRefusal("message", dev->name, EINVAL);
  }
  dev->status[index].params = st.FormatParams();
  return Status::Ok();
}

}  // namespace tierbench
