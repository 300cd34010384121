#include "support/fake_sysfs.h"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "cache/bcache/bcache_values.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

constexpr char kDevices[] = "sys/devices/virtual/block/";

std::string CacheModeList(std::string_view selected) {
  std::string out;
  for (std::string_view mode : kCacheModes) {
    if (!out.empty()) out += ' ';
    out += mode == selected ? "[" + std::string(mode) + "]" : std::string(mode);
  }
  return out;
}

std::string Trimmed(std::string_view v) {
  while (!v.empty() && (v.back() == '\n' || v.back() == ' '))
    v.remove_suffix(1);
  return std::string(v);
}

}  // namespace

FakeBcacheSysfs::FakeBcacheSysfs() : FakeBcacheSysfs(Options()) {}

FakeBcacheSysfs::FakeBcacheSysfs(Options options)
    : options_(std::move(options)) {
  const char* tmp = std::getenv("TMPDIR");
  std::string tmpl =
      std::string(tmp != nullptr ? tmp : "/tmp") + "/tierbench-fakesys-XXXXXX";
  if (mkdtemp(tmpl.data()) == nullptr) {
    throw std::runtime_error("mkdtemp " + tmpl + " failed");
  }
  char buf[PATH_MAX];
  root_ = realpath(tmpl.c_str(), buf) != nullptr ? buf : tmpl;
  Build();
}

FakeBcacheSysfs::~FakeBcacheSysfs() {
  std::error_code ec;
  fs::remove_all(root_, ec);
}

Sysfs FakeBcacheSysfs::sysfs() {
  Sysfs s(root_);
  s.set_write_hook_for_testing(
      [this](const std::string& rel, std::string_view value) {
        return OnWrite(rel, value);
      });
  return s;
}

std::string FakeBcacheSysfs::BackingBcacheDir() const {
  return kDevices + options_.backing + "/bcache";
}

std::string FakeBcacheSysfs::CacheSetDir() const {
  return "sys/fs/bcache/" + options_.cset_uuid;
}

void FakeBcacheSysfs::Set(std::string_view rel, std::string_view content) {
  const fs::path path = fs::path(root_) / std::string(rel);
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::trunc);
  out << content << '\n';
}

std::string FakeBcacheSysfs::Get(std::string_view rel) const {
  std::ifstream in(fs::path(root_) / std::string(rel));
  std::ostringstream text;
  text << in.rdbuf();
  return Trimmed(text.str());
}

void FakeBcacheSysfs::SetBacking(std::string_view file,
                                 std::string_view content) {
  Set(BackingBcacheDir() + "/" + std::string(file), content);
}

std::string FakeBcacheSysfs::GetBacking(std::string_view file) const {
  return Get(BackingBcacheDir() + "/" + std::string(file));
}

void FakeBcacheSysfs::SetState(std::string_view state) {
  SetBacking("state", state);
}

void FakeBcacheSysfs::SetDirtyBytes(uint64_t bytes) {
  SetBacking("dirty_data", FormatHumanSize(static_cast<int64_t>(bytes)));
}

void FakeBcacheSysfs::SetStatsTotal(const BcacheStatsTotal& s) {
  SetStats("stats_total", s);
}

void FakeBcacheSysfs::SetStatsFiveMinute(const BcacheStatsTotal& s) {
  SetStats("stats_five_minute", s);
}

void FakeBcacheSysfs::SetStats(std::string_view subdir,
                               const BcacheStatsTotal& s) {
  const std::string dir = BackingBcacheDir() + "/" + std::string(subdir) + "/";
  Set(dir + "cache_hits", std::to_string(s.cache_hits));
  Set(dir + "cache_misses", std::to_string(s.cache_misses));
  Set(dir + "cache_bypass_hits", std::to_string(s.cache_bypass_hits));
  Set(dir + "cache_bypass_misses", std::to_string(s.cache_bypass_misses));
  Set(dir + "cache_miss_collisions", std::to_string(s.cache_miss_collisions));
  Set(dir + "cache_readaheads", std::to_string(s.cache_readaheads));
  Set(dir + "bypassed",
      FormatHumanSize(static_cast<int64_t>(s.bypassed_bytes)));
  const uint64_t total = s.cache_hits + s.cache_misses;
  Set(dir + "cache_hit_ratio",
      std::to_string(total == 0 ? 0 : s.cache_hits * 100 / total));
}

void FakeBcacheSysfs::SetBlockStat(std::string_view device,
                                   const BlockStat& b) {
  std::ostringstream line;
  line << b.read_ios << ' ' << b.read_merges << ' ' << b.read_sectors << ' '
       << b.read_ticks_ms << ' ' << b.write_ios << ' ' << b.write_merges << ' '
       << b.write_sectors << ' ' << b.write_ticks_ms << ' ' << b.in_flight
       << ' ' << b.io_ticks_ms << ' ' << b.time_in_queue_ms << ' '
       << b.discard_ios << ' ' << b.discard_merges << ' ' << b.discard_sectors
       << ' ' << b.discard_ticks_ms << ' ' << b.flush_ios << ' '
       << b.flush_ticks_ms;
  Set(kDevices + std::string(device) + "/stat", line.str());
}

void FakeBcacheSysfs::Link(std::string_view rel, std::string_view target) {
  const fs::path path = fs::path(root_) / std::string(rel);
  fs::create_directories(path.parent_path());
  std::error_code ec;
  fs::remove(path, ec);
  fs::create_directory_symlink(std::string(target), path);
}

void FakeBcacheSysfs::Detach() {
  SetState("no cache");
  SetDirtyBytes(0);
  std::error_code ec;
  fs::remove(fs::path(root_) / (BackingBcacheDir() + "/cache"), ec);
  fs::remove(fs::path(root_) / (CacheSetDir() + "/bdev0"), ec);
}

void FakeBcacheSysfs::Tick() {
  if (detach_pending_ > 0 && --detach_pending_ == 0) Detach();
}

void FakeBcacheSysfs::Attach() {
  SetState("clean");
  Link(BackingBcacheDir() + "/cache",
       "../../../../../fs/bcache/" + options_.cset_uuid);
  Link(CacheSetDir() + "/bdev0",
       "../../../devices/virtual/block/" + options_.backing + "/bcache");
}

void FakeBcacheSysfs::set_readback_override(std::string_view rel,
                                            std::string_view text) {
  readback_override_[std::string(rel)] = std::string(text);
}

void FakeBcacheSysfs::set_write_error(std::string_view rel, Status status) {
  write_error_[std::string(rel)] = std::move(status);
}

int FakeBcacheSysfs::WriteCount(std::string_view rel) const {
  auto it = write_count_.find(rel);
  return it == write_count_.end() ? 0 : it->second;
}

void FakeBcacheSysfs::Build() {
  const std::string zero_stat = "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0";
  for (const std::string& dev :
       {options_.backing, options_.cache, options_.bcache}) {
    const std::string dir = kDevices + dev;
    const bool is_bcache = dev == options_.bcache;
    Set(dir + "/stat", zero_stat);
    Set(dir + "/queue/scheduler", is_bcache ? "none" : "[mq-deadline] none");
    Set(dir + "/queue/write_cache", "write back");
    Set(dir + "/queue/read_ahead_kb", "128");
    Set(dir + "/queue/logical_block_size", "512");
    Set(dir + "/queue/rotational", dev == options_.backing ? "1" : "0");
    if (!is_bcache) Set(dir + "/queue/wbt_lat_usec", "75000");
    Link("sys/block/" + dev, "../devices/virtual/block/" + dev);
    Link("sys/class/block/" + dev, "../../devices/virtual/block/" + dev);
  }
  const std::pair<const char*, std::string> backing_files[] = {
      {"cache_mode", CacheModeList(options_.cache_mode)},
      {"state", options_.attached ? "clean" : "no cache"},
      {"dirty_data", "0.0k"},
      {"sequential_cutoff", "4.0M"},
      {"readahead", "0.0k"},
      {"readahead_cache_policy", "[all] meta-only"},
      {"writeback_percent", "10"},
      {"writeback_delay", "30"},
      {"writeback_running", "1"},
      {"writeback_metadata", "1"},
      {"writeback_rate", "4.0k"},
      {"writeback_rate_update_seconds", "5"},
      {"writeback_rate_minimum", "8"},
      {"writeback_rate_p_term_inverse", "40"},
      {"writeback_rate_i_term_inverse", "10000"},
      {"writeback_rate_debug",
       "rate:\t\t4.0k/sec\ndirty:\t\t0.0k\ntarget:\t\t10.2M\nproportional:\t"
       "0.0k\nintegral:\t0.0k\nchange:\t\t0.0k/sec\nnext io:\t-1234ms"},
      {"backing_dev_name", options_.backing},
      {"backing_dev_uuid", "0d8e1f62-7f3b-4c1e-8a51-6a2c0f9b7d10"},
      {"running", "1"},
      {"label", ""},
      {"attach", ""},
      {"detach", ""},
      {"clear_stats", ""},
      {"stop", ""},
  };
  for (const auto& [file, content] : backing_files) SetBacking(file, content);
  SetStatsTotal(BcacheStatsTotal());
  SetStatsFiveMinute(BcacheStatsTotal());
  Link(kDevices + options_.bcache + "/bcache",
       "../" + options_.backing + "/bcache");

  const std::string cache_dir = kDevices + options_.cache + "/bcache";
  Set(cache_dir + "/priority_stats",
      "Unused:\t\t97%\nClean:\t\t2%\nDirty:\t\t0%\nMetadata:\t1%\n"
      "Average:\t1234\nSectors per Q:\t4096\nQuantiles:\t[1 2 3]");
  Set(cache_dir + "/block_size", "0.5k");
  Set(cache_dir + "/bucket_size", "512.0k");
  Set(cache_dir + "/nbuckets", "160");
  Set(cache_dir + "/cache_replacement_policy", "[lru] fifo random");

  const std::string cset = CacheSetDir();
  const std::pair<const char*, const char*> cset_files[] = {
      {"congested_read_threshold_us", "2000"},
      {"congested_write_threshold_us", "20000"},
      {"journal_delay_ms", "100"},
      {"block_size", "0.5k"},
      {"bucket_size", "512.0k"},
      {"cache_available_percent", "97"},
      {"clear_stats", ""},
      {"stop", ""},
      {"unregister", ""},
      {"internal/idle_max_writeback_rate", "1"},
      {"internal/gc_after_writeback", "0"},
      {"internal/copy_gc_enabled", "1"},
      {"internal/cutoff_writeback", "40"},
      {"internal/cutoff_writeback_sync", "70"},
  };
  for (const auto& [file, content] : cset_files) {
    Set(cset + "/" + file, content);
  }
  Link(cset + "/cache0",
       "../../../devices/virtual/block/" + options_.cache + "/bcache");
  Set("sys/fs/bcache/register", "");
  Set("sys/fs/bcache/register_quiet", "");
  Set("proc/sys/vm/drop_caches", "0");
  if (options_.attached) Attach();
}

Status FakeBcacheSysfs::OnWrite(const std::string& rel,
                                std::string_view value) {
  ++write_count_[rel];
  char buf[PATH_MAX];
  const std::string abs = root_ + "/" + rel;
  std::string canonical = realpath(abs.c_str(), buf) != nullptr ? buf : abs;
  canonical = canonical.substr(root_.size() + 1);
  const std::string v = Trimmed(value);
  auto einval = [&] {
    return Status::InvalidArgument("write '" + v + "' to " + abs +
                                   ": Invalid argument");
  };
  for (const std::string& key : {rel, canonical}) {
    if (auto it = write_error_.find(key); it != write_error_.end()) {
      return it->second;
    }
    if (auto it = readback_override_.find(key);
        it != readback_override_.end()) {
      Set(canonical, it->second);
      return Status::Ok();
    }
  }
  const size_t slash = canonical.rfind('/');
  const std::string dir = canonical.substr(0, slash);
  const std::string file = canonical.substr(slash + 1);
  if (dir == BackingBcacheDir()) {
    if (file == "cache_mode") {
      if (!IsCacheMode(v)) return einval();
      Set(canonical, CacheModeList(v));
      return Status::Ok();
    }
    if (file == "readahead_cache_policy") {
      if (v != "all" && v != "meta-only") return einval();
      Set(canonical, v == "all" ? "[all] meta-only" : "all [meta-only]");
      return Status::Ok();
    }
    if (file == "sequential_cutoff" || file == "readahead") {
      // Newer kernels parse sequential_cutoff with kstrtoul (digits only);
      // readahead takes human units.
      uint64_t bytes = 0;
      int64_t digits = 0;
      const bool ok = file == "readahead" ? ParseHumanSize(v, &bytes).ok()
                                          : ParseInteger(v, &digits).ok();
      if (!ok || digits < 0) return einval();
      if (file == "sequential_cutoff") bytes = static_cast<uint64_t>(digits);
      Set(canonical, FormatHumanSize(static_cast<int64_t>(bytes)));
      return Status::Ok();
    }
    if (file == "writeback_percent") {
      int64_t pct = 0;
      if (!ParseInteger(v, &pct).ok() || pct < 0) return einval();
      Set(canonical, std::to_string(std::min<int64_t>(pct, 40)));
      return Status::Ok();
    }
    if (file == "detach") {
      if (detach_lag_ == 0) {
        Detach();
      } else {
        SetState("no cache");
        SetDirtyBytes(0);
        detach_pending_ = detach_lag_;
      }
      return Status::Ok();
    }
    if (file == "writeback_running") {
      const bool attached = fs::exists(fs::path(root_) / dir / "cache");
      Set(canonical, attached ? v : std::string("0"));
      return Status::Ok();
    }
    if (file == "attach") {
      if (detach_pending_ > 0) return einval();
      if (v != options_.cset_uuid) {
        return Status::NotFound("write '" + v + "' to " + abs +
                                ": No such file or directory");
      }
      Attach();
      return Status::Ok();
    }
    if (file == "clear_stats") {
      SetStatsTotal(BcacheStatsTotal());
      return Status::Ok();
    }
  }
  Set(canonical, v);
  return Status::Ok();
}

}  // namespace tierbench
