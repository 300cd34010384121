#include "unit/validity/pitfalls_replay.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "cache/bcache/bcache_values.h"
#include "cache/dm/dm_control.h"
#include "cache/dm/dm_status.h"
#include "cache/registry/mode_file.h"
#include "orchestrate/host_sampler.h"
#include "validity/cache_rules.h"
#include "workload/job_file.h"

namespace tierbench {
namespace pitfalls {
namespace {

namespace fs = std::filesystem;

constexpr char kDevices[] = "sys/devices/virtual/block/";
constexpr char kZeroStat[] = "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0";
constexpr uint64_t kLabSizeBytes = 4ull << 20;  // the lab's --size 4M

void WriteFile(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

void Link(const std::string& root, const std::string& rel,
          const std::string& target) {
  fs::create_directories(fs::path(root + "/" + rel).parent_path());
  fs::create_symlink(target, root + "/" + rel);
}

// "vda2" -> "vda"; "" for a whole disk or a virtual device.
std::string ParentOf(const std::string& dev) {
  if (dev.rfind("vd", 0) != 0) return "";
  const size_t digit = dev.find_first_of("0123456789");
  return digit == std::string::npos ? "" : dev.substr(0, digit);
}

std::vector<JobSpec> ParseLabJobs(const std::string& text,
                                  const std::string& origin) {
  JobOverrides o;
  SizeSpec size;
  size.set = true;
  size.bytes = kLabSizeBytes;
  o.size = size;
  o.runtime_ns = 5000000000ull;
  o.ramp_time_ns = 0;
  return ParseJobText(text, origin, o).jobs;
}

// The observation of a cell on `layer` as CellRunner::Observe builds it,
// from the two readings `write(0)` and `write(1)` put in place.
CellObservation ObserveCell(CacheLayer& layer, const nlohmann::json& rec,
                            const LayerReadback& rb,
                            const std::vector<JobSpec>& jobs,
                            const std::function<void(int)>& write) {
  CellObservation o;
  write(0);
  o.layer = layer.layer();
  o.cache_mode = rb.cache_mode;
  o.cache_state = rec.value("cache_state", "");
  o.state_before = layer.State();
  o.settings = rb.settings;
  const StackInfo info = layer.Describe();
  o.cache_bytes = info.cache_bytes;
  o.cache_block_bytes = info.cache_block_bytes;
  const LayerCounters before = layer.TakeCounters();
  write(1);
  const LayerCounters after = layer.TakeCounters();
  // The layer read back exactly the text the kernel printed.
  EXPECT_EQ(before.raw, RecordText(rec, "counters", 0));
  EXPECT_EQ(after.raw, RecordText(rec, "counters", 1));
  o.has_counters = true;
  o.delta = DiffLayerCounters(before, after, layer.GaugeKeys());
  o.read_bytes = o.delta.stack.read_bytes();
  o.write_bytes = o.delta.stack.write_bytes();
  o.jobs = jobs;
  o.region_bytes = rec.value("region_bytes", uint64_t{0});
  o.settled = rec.value("settled", false);
  o.mode_caches_reads = layer.ModeCachesReads(o.cache_mode);
  return o;
}

}  // namespace

std::string LabText(const std::string& name) {
  const std::string path =
      std::string(TIERBENCH_SOURCE_DIR) + "/tests/unit/data/lab-kernel/" + name;
  std::ifstream in(path);
  if (!in) {
    ADD_FAILURE() << "cannot read " << path;
    return "";
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string RepoPath(const std::string& rel) {
  return std::string(TIERBENCH_SOURCE_DIR) + "/" + rel;
}

std::vector<nlohmann::json> LabRecords(const std::string& name) {
  std::istringstream in(LabText(name));
  std::vector<nlohmann::json> out;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  }
  return out;
}

nlohmann::json LabCell(const std::string& name, const std::string& mode,
                       const std::string& workload) {
  for (const nlohmann::json& r : LabRecords(name)) {
    if (r["mode"] == mode && r["workload"] == workload) return r;
  }
  ADD_FAILURE() << name << " has no cell " << mode << "/" << workload;
  return nullptr;
}

std::string RecordText(const nlohmann::json& rec, const std::string& key,
                       int end) {
  if (!rec.contains(key) || !rec[key].is_array() ||
      rec[key].size() <= static_cast<size_t>(end)) {
    ADD_FAILURE() << "the record has no " << key << "[" << end << "]";
    return "";
  }
  return rec[key][end].get<std::string>();
}

void EditText(std::string* text, const std::string& from,
              const std::string& to) {
  const size_t at = text->find(from);
  if (at == std::string::npos) {
    ADD_FAILURE() << "the recorded text has no '" << from << "':\n" << *text;
    return;
  }
  text->replace(at, from.size(), to);
}

void EditRecord(nlohmann::json* rec, const std::string& key, int end,
                const std::string& from, const std::string& to) {
  nlohmann::json* field = nullptr;
  if (key.rfind("stat:", 0) == 0) {
    const std::string dev = key.substr(5);
    if (rec->contains("stat") && (*rec)["stat"].contains(dev)) {
      field = &(*rec)["stat"][dev][end];
    }
  } else if (rec->contains(key)) {
    field = &(*rec)[key][end];
  }
  if (field == nullptr || !field->is_string()) {
    ADD_FAILURE() << "the record has no " << key << "[" << end << "]";
    return;
  }
  std::string text = field->get<std::string>();
  EditText(&text, from, to);
  *field = text;
}

std::set<std::string> RuleIds(const std::vector<Finding>& findings) {
  std::set<std::string> out;
  for (const Finding& f : findings) out.insert(f.rule);
  return out;
}

bool Fires(const std::vector<Finding>& findings, const std::string& rule) {
  return RuleIds(findings).count(rule) > 0;
}

std::string TextOf(const std::vector<Finding>& findings,
                   const std::string& rule) {
  for (const Finding& f : findings) {
    if (f.rule == rule) return f.text;
  }
  return "";
}

CsvDocument LabCsv(const std::string& name) {
  return CsvDocument::Parse(LabText(name), name);
}

size_t RowOf(const CsvDocument& doc, const std::string& mode,
             const std::string& workload) {
  for (size_t r = 0; r < doc.row_count(); ++r) {
    if (doc.Get(r, "mode") == mode && doc.Get(r, "workload") == workload) {
      return r;
    }
  }
  ADD_FAILURE() << doc.label() << " has no row " << mode << "/" << workload;
  return doc.row_count();
}

JobResult JobOfRow(const CsvDocument& doc, size_t row) {
  JobResult j;
  j.name = doc.Get(row, "job");
  const int d = doc.Get(row, "direction") == "write" ? 1 : 0;
  j.dir[d].ios = static_cast<uint64_t>(doc.Number(row, "ios").value_or(0));
  j.runtime_ns =
      static_cast<uint64_t>(doc.Number(row, "runtime_ms").value_or(0) * 1e6);
  j.usr_cpu_sec = doc.Number(row, "usr_cpu_s").value_or(-1);
  j.sys_cpu_sec = doc.Number(row, "sys_cpu_s").value_or(-1);
  j.jobs = static_cast<uint32_t>(doc.Number(row, "jobs").value_or(0));
  return j;
}

uint64_t ManifestRegionBytes() {
  const nlohmann::json m = nlohmann::json::parse(LabText("demo-manifest.json"));
  return m["options"]["region_bytes"].get<uint64_t>();
}

std::map<std::string, std::string> KeyValueLines(const std::string& text) {
  std::map<std::string, std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const size_t eq = line.find('=');
    if (eq != std::string::npos) out[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return out;
}

std::vector<JobSpec> ShippedJobs(const std::string& file) {
  const std::string path = RepoPath("workloads/" + file);
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ParseLabJobs(ss.str(), path);
}

std::vector<JobSpec> JobsOfText(const std::string& text) {
  return ParseLabJobs(text, "<pitfall test>");
}

// ---------------------------------------------------------------------------

LabSysfs::LabSysfs() {
  char tmpl[] = "/tmp/tierbench-pitfalls-XXXXXX";
  root_ = ::mkdtemp(tmpl);
  sysfs_ = Sysfs(root_);
  AddDevice("vda", "", 253, 0);
  AddDevice("vdb", "", 253, 16);
  for (int p = 1; p <= 4; ++p) {
    AddDevice("vda" + std::to_string(p), "vda", 253, p);
    AddDevice("vdb" + std::to_string(p), "vdb", 253, 16 + p);
  }
  const char* dm_names[] = {"tb-dmcache-meta", "tb-dmcache-data", "tb-dmcache",
                            "tb-writecache"};
  for (int n = 0; n <= 3; ++n) {
    const std::string dm = "dm-" + std::to_string(n);
    AddDevice(dm, "", 252, n);
    Set(kDevices + dm + "/dm/name", dm_names[n]);
    Set("dev/mapper/" + std::string(dm_names[n]), "");
  }
  AddDevice("bcache0", "", 251, 0);
  // Who sits on whom (stack.txt): bcache0 on vda1 and vdb1, tb-dmcache
  // (dm-2) on its metadata (dm-0) and data (dm-1) linears of vdb2 and on
  // vda2, tb-writecache (dm-3) on vda3 and vdb3.
  const std::pair<const char*, const char*> on[] = {
      {"bcache0", "vda1"}, {"bcache0", "vdb1"}, {"dm-0", "vdb2"},
      {"dm-1", "vdb2"},    {"dm-2", "dm-0"},    {"dm-2", "dm-1"},
      {"dm-2", "vda2"},    {"dm-3", "vda3"},    {"dm-3", "vdb3"}};
  for (const auto& [upper, lower] : on) {
    const std::string u = kDevices + std::string(upper);
    const std::string lp = ParentOf(lower);
    const std::string l =
        kDevices + (lp.empty() ? std::string(lower) : lp + "/" + lower);
    Link(root_, u + "/slaves/" + lower, "../../" + std::string(lower));
    Link(root_, l + "/holders/" + upper, "../../" + std::string(upper));
  }
  Set("proc/stat", "");
  Set("proc/sys/vm/drop_caches", "0");
}

LabSysfs::~LabSysfs() { fs::remove_all(root_); }

void LabSysfs::AddDevice(const std::string& name, const std::string& parent,
                         int major, int minor) const {
  const std::string rel =
      kDevices + (parent.empty() ? name : parent + "/" + name);
  Set(rel + "/stat", kZeroStat);
  Set(rel + "/dev", std::to_string(major) + ":" + std::to_string(minor));
  fs::create_directories(root_ + "/" + rel + "/slaves");
  fs::create_directories(root_ + "/" + rel + "/holders");
  if (!parent.empty()) Set(rel + "/partition", std::to_string(minor % 16));
  // As sysfs links them: sys/class/block and sys/dev/block for every
  // device, sys/block for whole disks.
  Link(root_, "sys/class/block/" + name, "../../" + rel.substr(4));
  Link(root_,
       "sys/dev/block/" + std::to_string(major) + ":" + std::to_string(minor),
       "../../" + rel.substr(4));
  if (parent.empty()) Link(root_, "sys/block/" + name, "../" + rel.substr(4));
}

void LabSysfs::Set(const std::string& rel, const std::string& text) const {
  WriteFile(root_ + "/" + rel, text);
}

void LabSysfs::SetStat(const std::string& dev, const std::string& line) const {
  const std::string parent = ParentOf(dev);
  Set(kDevices + (parent.empty() ? dev : parent + "/" + dev) + "/stat", line);
}

void LabSysfs::WriteReading(const nlohmann::json& rec, int end) const {
  Set("proc/stat", RecordText(rec, "proc_stat", end));
  ASSERT_TRUE(rec.contains("stat"));
  for (const auto& [dev, lines] : rec["stat"].items()) {
    SetStat(dev, lines[end].get<std::string>());
  }
}

void LabSysfs::SetQueue(const std::string& dev,
                        const nlohmann::json& queue) const {
  const std::string rel = kDevices + dev + "/queue/";
  for (const char* key :
       {"read_ahead_kb", "wbt_lat_usec", "rotational", "logical_block_size"}) {
    if (queue.contains(key) && !queue[key].is_null()) {
      Set(rel + key, std::to_string(queue[key].get<int64_t>()));
    }
  }
  if (queue.contains("write_cache") && !queue["write_cache"].is_null()) {
    Set(rel + "write_cache", queue["write_cache"].get<std::string>());
  }
  // The manifest records the selected scheduler; the file lists the
  // choices with the selected one bracketed, as the 6.1 virtio disk's.
  if (queue.contains("scheduler") && !queue["scheduler"].is_null()) {
    const std::string s = queue["scheduler"].get<std::string>();
    Set(rel + "scheduler",
        s == "none" ? "[none] mq-deadline" : "none [" + s + "]");
  }
}

HostEvidence ReplayHost(const nlohmann::json& rec) {
  LabSysfs tree;
  const std::string target = rec.value("target", "");
  std::vector<std::string> members;
  if (rec.value("layer", "") != "raw") {
    for (const auto& [dev, lines] : rec["stat"].items()) {
      if (!ParentOf(dev).empty()) members.push_back(dev);
    }
  }
  tree.WriteReading(rec, 0);
  HostSampler sampler(tree.sysfs(), target, members, false);
  sampler.Begin();
  tree.WriteReading(rec, 1);
  sampler.End();
  return sampler.Evidence();
}

// ---------------------------------------------------------------------------

namespace {

FakeBcacheSysfs::Options LabBcacheOptions() {
  FakeBcacheSysfs::Options o;
  o.backing = "vda1";
  o.cache = "vdb1";
  o.cset_uuid = "b438a16e-ef4d-11f1-b960-b9246e380161";
  o.cache_mode = "writethrough";
  return o;
}

// "[writeback] writethrough ..." for `mode`, in the kernel's order.
std::string CacheModeFile(const std::string& mode) {
  std::string out;
  for (std::string_view m : kCacheModes) {
    if (!out.empty()) out += ' ';
    out += m == mode ? "[" + std::string(m) + "]" : std::string(m);
  }
  return out;
}

}  // namespace

BcacheReplay::BcacheReplay() : fake_(LabBcacheOptions()) {
  const std::string cset = fake_.CacheSetDir();
  fake_.Set(cset + "/block_size", "0.5k");
  fake_.Set(cset + "/bucket_size", "64.0k");
  fake_.Set("sys/devices/virtual/block/vdb1/bcache/nbuckets", "4096");
  fake_.Set(cset + "/cache_available_percent", "100");  // the manifest's
  // 6.1 has no stats_total/cache_readaheads (demo-evidence.jsonl's raw
  // counters list none).
  fs::remove(fake_.root() + "/" + fake_.BackingBcacheDir() +
             "/stats_total/cache_readaheads");
  const auto knobs = KeyValueLines(LabText("demo-knobs-before.txt"));
  for (const auto& [name, value] : knobs) {
    if (name.rfind("dm:", 0) == 0) continue;
    if (name.rfind("congested_", 0) == 0) {
      fake_.Set(cset + "/" + name, value);
    } else {
      fake_.SetBacking(name, value);
    }
  }
  layer_ = std::make_unique<BcacheLayer>(fake_.sysfs(), "/dev/bcache0");
  layer_->set_sleep([](double) {});
}

LayerReadback BcacheReplay::Apply(const std::string& file) {
  std::vector<std::string> notes;
  return layer_->ApplyMode(LoadModeFile(RepoPath("modes/" + file)), &notes);
}

void BcacheReplay::WriteReading(const nlohmann::json& rec, int end) {
  const std::string stats = fake_.BackingBcacheDir() + "/stats_total/";
  for (const auto& [name, value] :
       KeyValueLines(RecordText(rec, "counters", end))) {
    if (name == "dirty_data") {
      // The record keeps the parsed byte count; sysfs prints bch_hprint.
      uint64_t bytes = 0;
      ASSERT_TRUE(ParseHumanSize(value, &bytes).ok()) << value;
      fake_.SetBacking("dirty_data",
                       FormatHumanSize(static_cast<int64_t>(bytes)));
    } else if (name == "state") {
      fake_.SetBacking("state", value);
    } else {
      fake_.Set(stats + name, value);
    }
  }
  for (const char* dev : {"bcache0", "vda1", "vdb1"}) {
    ASSERT_TRUE(rec["stat"].contains(dev)) << dev;
    fake_.Set(std::string(kDevices) + dev + "/stat",
              rec["stat"][dev][end].get<std::string>());
  }
}

CellObservation BcacheReplay::Observe(const nlohmann::json& rec,
                                      const LayerReadback& rb,
                                      const std::vector<JobSpec>& jobs) {
  // The mode file of the cell's mode (the record's read-back).
  fake_.SetBacking("cache_mode", CacheModeFile(rb.cache_mode));
  return ObserveCell(*layer_, rec, rb, jobs,
                     [&](int end) { WriteReading(rec, end); });
}

std::vector<Finding> BcacheReplay::Findings(const CellObservation& o) const {
  const BcacheLayer& layer = *layer_;
  return CacheFindings(
      o, [&layer](const CellObservation& x) { return layer.Diagnose(x); });
}

// ---------------------------------------------------------------------------

namespace {

// "0 1046528 cache <params>" -> its DmTarget; params keep their trailing
// blank (the kernel ends the cache status with one).
DmTarget TargetOf(const std::string& line) {
  std::istringstream in(line);
  DmTarget t;
  in >> t.start >> t.length >> t.type;
  const size_t at = line.find(t.type + " ");
  if (at != std::string::npos) t.params = line.substr(at + t.type.size() + 1);
  return t;
}

// The line of `stack.txt` that follows the line `command`.
std::string LineAfter(const std::string& text, const std::string& command) {
  const size_t at = text.find(command + "\n");
  if (at == std::string::npos) {
    ADD_FAILURE() << "stack.txt has no '" << command << "'";
    return "";
  }
  const size_t from = at + command.size() + 1;
  return text.substr(from, text.find('\n', from) - from);
}

}  // namespace

DmReplay::DmReplay() : dm_(std::make_shared<FakeDmControl>()) {
  const std::string stack = LabText("demo-stack.txt");
  struct Dev {
    const char* name;
    unsigned minor;
  };
  for (const Dev& d : {Dev{"tb-dmcache", 2}, Dev{"tb-writecache", 3}}) {
    const DmTarget table =
        TargetOf(LineAfter(stack, std::string("# dmsetup table ") + d.name));
    const DmTarget status =
        TargetOf(LineAfter(stack, std::string("# dmsetup status ") + d.name));
    dm_->AddDevice(d.name, 252, d.minor, table, status.params);
  }
  dm_cache_ = std::make_unique<DmCacheLayer>(tree_.sysfs(), dm_,
                                             "/dev/mapper/tb-dmcache");
  writecache_ = std::make_unique<DmWritecacheLayer>(
      tree_.sysfs(), dm_, "/dev/mapper/tb-writecache");
  dm_cache_->set_sleep([](double) {});
  writecache_->set_sleep([](double) {});
}

LayerReadback DmReplay::Apply(CacheLayer& layer, const std::string& file) {
  std::vector<std::string> notes;
  return layer.ApplyMode(LoadModeFile(RepoPath("modes/" + file)), &notes);
}

CacheLayer& DmReplay::LayerOf(const nlohmann::json& rec) {
  return rec.value("layer", "") == "dm-cache"
             ? static_cast<CacheLayer&>(*dm_cache_)
             : static_cast<CacheLayer&>(*writecache_);
}

void DmReplay::WriteReading(const nlohmann::json& rec, int end) {
  const DmTarget status = TargetOf(RecordText(rec, "counters", end));
  dm_->SetStatusParams(
      rec.value("layer", "") == "dm-cache" ? "tb-dmcache" : "tb-writecache",
      status.params);
  tree_.WriteReading(rec, end);
}

CellObservation DmReplay::Observe(const nlohmann::json& rec,
                                  const LayerReadback& rb,
                                  const std::vector<JobSpec>& jobs) {
  return ObserveCell(LayerOf(rec), rec, rb, jobs,
                     [&](int end) { WriteReading(rec, end); });
}

std::vector<Finding> DmReplay::Findings(const CellObservation& o) {
  CacheLayer& layer = o.layer == "dm-cache"
                          ? static_cast<CacheLayer&>(*dm_cache_)
                          : static_cast<CacheLayer&>(*writecache_);
  return CacheFindings(
      o, [&layer](const CellObservation& x) { return layer.Diagnose(x); });
}

}  // namespace pitfalls
}  // namespace tierbench
