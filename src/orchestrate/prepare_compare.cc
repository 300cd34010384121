#include "orchestrate/prepare_compare.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <set>

#include "cache/registry/mode_file.h"
#include "io/target.h"
#include "orchestrate/capture_replay.h"
#include "orchestrate/restore_state.h"
#include "orchestrate/setup_findings.h"
#include "orchestrate/stream_curves.h"
#include "orchestrate/working_set.h"
#include "tracefile/trace_reader.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/log.h"
#include "util/units.h"
#include "workload/job_file.h"

namespace tierbench {
namespace fs = std::filesystem;
namespace {

std::string Basename(const std::string& path) {
  return fs::path(path).filename().string();
}

void CheckOptions(const CompareOptions& o) {
  if (o.repeat < 1) {
    throw ConfigError("--repeat must be at least 1. Key: --repeat; Value: " +
                      std::to_string(o.repeat) + "; Fix: --repeat 3");
  }
  if (o.stats_lag_s < 0) {
    throw ConfigError(
        "--stats-lag must not be negative. Fix: --stats-lag 15 (bcache folds "
        "its counters every ~13.6 s)");
  }
  if (o.drain_timeout_s <= 0) {
    throw ConfigError(
        "--drain-timeout must be positive. Fix: --drain-timeout 600");
  }
  if (!o.working_sets.empty()) ParseWorkingSets(o.working_sets);
  if (!(o.warm_chunk_s >= 1)) {
    throw ConfigError(
        "--warm-chunk must be at least 1 second. Fix: --warm-chunk 5");
  }
  if (!(o.warm_max_s >= o.warm_chunk_s)) {
    throw ConfigError(
        "--warm-max must be at least --warm-chunk. Fix: --warm-max 300");
  }
  if (o.verify_bytes % 4096 != 0) {
    throw ConfigError("--verify: " + std::to_string(o.verify_bytes) +
                      " bytes is not a multiple of 4 KiB (the check writes "
                      "4 KiB blocks). Fix: --verify=4M");
  }
  if (o.mode_paths.empty()) {
    throw ConfigError("no modes to compare. Fix: --modes modes/hdd.json ...");
  }
  if (o.workload_paths.empty()) {
    throw ConfigError(
        "no workloads given. Fix: --workloads workloads/randread-4k.fio ...");
  }
}

std::vector<ModeSpec> LoadModes(const CompareOptions& o) {
  std::vector<ModeSpec> modes;
  std::set<std::string> names;
  for (const std::string& path : o.mode_paths) {
    ModeSpec m = LoadModeFile(path);
    if (!names.insert(m.name).second) {
      throw ConfigError("two mode files share the name '" + m.name +
                        "'. Key: file: " + path +
                        "; Fix: give each mode file a distinct \"name\"");
    }
    const std::string& target = m.target == RawTarget::kHdd ? o.hdd : o.ssd;
    if (m.is_raw() && target.empty()) {
      throw ConfigError("mode '" + m.name + "' measures the raw " +
                        std::string(m.target_name()) + " but --" +
                        std::string(m.target_name()) +
                        " is not given. Key: file: " + path + "; Fix: --" +
                        std::string(m.target_name()) + " DEV_OR_FILE");
    }
    modes.push_back(std::move(m));
  }
  return modes;
}

// What fio rounds a percentage offset down to: the job's blockalign, else
// its minimum block size (the coarsest of both directions), at least a
// sector, so direct IO stays aligned on any target size.
uint64_t PercentOffsetAlign(const JobSpec& j) {
  uint64_t align = 512;
  for (int d = 0; d < kNumDirs; ++d) {
    align =
        std::max(align, j.blockalign[d] != 0 ? j.blockalign[d] : j.bs[d].min);
  }
  return align;
}

// Makes offset and size absolute against `region` (see the header).
void ResolveSizes(uint64_t region, Workload* w) {
  if (region == 0) return;
  for (JobSpec& j : w->jobs) {
    uint64_t offset = j.offset.Resolve(region);
    if (j.offset.set && j.offset.is_percent) {
      offset -= offset % PercentOffsetAlign(j);
    }
    if (j.offset.set) j.offset = SizeSpec{true, false, offset, 0};
    if (offset >= region) {
      throw ConfigError(
          "job '" + j.name + "' starts at offset " + std::to_string(offset) +
          ", beyond the smallest target (" + std::to_string(region) +
          " bytes). Key: job: " + j.origin +
          "; Fix: a smaller offset or --size");
    }
    uint64_t size = j.size.set ? j.size.Resolve(region) : region - offset;
    size = std::min(size, region - offset);
    const uint64_t block = LargestBlock(j);
    if (block > 0 && size >= block) size -= size % block;
    j.size = SizeSpec{true, false, size, 0};
  }
}

// A trace given as a workload: one replay job named after the file, so each
// mode replays the same stream onto its target (the placeholder filename
// redirects it); --runtime and the other command-line overrides apply.
// iodepth 32: the replay is open loop (each IO issued at its time), so a
// trace whose requests overlap needs room for them in flight; at iodepth 1
// every IO after the first overlap would be late and the cell a closed-loop
// QD1 run.
Workload TraceWorkload(const std::string& path, const std::string& name,
                       const JobOverrides& overrides) {
  return ParseJobText("[" + name + "]\nread_iolog=" + path +
                          "\ndirect=1\nioengine=libaio\niodepth=32\n",
                      path + " (trace workload)", overrides);
}

std::vector<PreparedWorkload> LoadWorkloads(const CompareOptions& o,
                                            const std::string& placeholder) {
  std::vector<PreparedWorkload> out;
  std::set<std::string> names;
  JobOverrides overrides = o.overrides;
  overrides.filename = placeholder;
  for (const std::string& path : o.workload_paths) {
    PreparedWorkload w;
    w.path = path;
    if (IsDbWorkloadFile(path)) {
      w.is_db = true;
      w.db = LoadDbWorkload(path);
      w.name = w.db.name;
    } else if (LooksLikeTraceFile(path)) {
      w.name = fs::path(path).stem().string();
      w.io = TraceWorkload(path, w.name, overrides);
    } else {
      w.io = ParseJobFiles({path}, overrides);
      w.name = fs::path(path).stem().string();
    }
    if (!names.insert(w.name).second) {
      throw ConfigError("two workloads share the name '" + w.name +
                        "'. Key: file: " + path +
                        "; Fix: rename one of the files (or its \"name\")");
    }
    out.push_back(std::move(w));
  }
  return out;
}

// Opens every --stack, keeps those whose layer has modes, and checks that
// every cache mode has its stack and each stack is usable.
void OpenStacks(const CompareOptions& o, const Host& host,
                CompareSetup* setup) {
  std::vector<CompareStack> all;
  auto opened_layer = [&all](const std::string& layer) {
    return std::any_of(all.begin(), all.end(), [&](const CompareStack& s) {
      return s.layer->layer() == layer;
    });
  };
  // The stacks are opened (and their layers detected) first: the default
  // mode list keeps only the modes of the layers given.
  const bool any_cache_mode =
      std::any_of(setup->modes.begin(), setup->modes.end(),
                  [](const ModeSpec& m) { return !m.is_raw(); });
  if (any_cache_mode) {
    std::set<std::string> devices;
    for (const std::string& dev : o.stacks) {
      if (!devices.insert(dev).second) {
        throw ConfigError("--stack " + dev +
                          " is given twice. Fix: name each stack once");
      }
      CompareStack st;
      st.device = dev;
      st.layer = std::shared_ptr<CacheLayer>(OpenCacheStack(host, dev));
      for (const CompareStack& other : all) {
        if (other.layer->layer() == st.layer->layer()) {
          throw ConfigError(
              "two stacks of layer " + st.layer->layer() + ": " + other.device +
              " and " + dev +
              ". Key: --stack; Fix: compare one stack per layer in a run "
              "(its mode files say only the layer, not the device)");
        }
      }
      st.info = st.layer->Describe();
      all.push_back(std::move(st));
    }
  }
  if (o.modes_are_default && !all.empty()) {
    std::vector<ModeSpec> kept;
    for (ModeSpec& m : setup->modes) {
      if (m.is_raw() || opened_layer(m.layer)) kept.push_back(std::move(m));
    }
    setup->modes = std::move(kept);
  }
  std::vector<std::string> needed;  // layers with modes, first-seen order
  for (const ModeSpec& m : setup->modes) {
    if (!m.is_raw() &&
        std::find(needed.begin(), needed.end(), m.layer) == needed.end()) {
      needed.push_back(m.layer);
    }
  }
  if (needed.empty()) return;
  if (o.stacks.empty()) {
    throw ConfigError(
        "cache modes are listed but no --stack is given. Key: layers: " +
        [&needed] {
          std::string s;
          for (const std::string& l : needed) s += (s.empty() ? "" : ",") + l;
          return s;
        }() +
        "; Fix: --stack /dev/bcache0 (a bcache device), --stack "
        "/dev/mapper/NAME (a dm-cache or dm-writecache device) or --stack "
        "/dev/VG/LV (an LVM cached volume)");
  }
  for (const std::string& layer : needed) {
    auto it = std::find_if(all.begin(), all.end(), [&](const CompareStack& s) {
      return s.layer->layer() == layer;
    });
    if (it == all.end()) {
      std::string given;
      for (const CompareStack& s : all) {
        given += (given.empty() ? "" : ", ") + s.device + " (" +
                 s.layer->layer() + ")";
      }
      std::string modes;
      for (const ModeSpec& m : setup->modes) {
        if (m.layer == layer) modes += (modes.empty() ? "" : ",") + m.name;
      }
      throw ConfigError("modes " + modes + " need a " + layer +
                        " stack, but no --stack is one. Key: stacks: " + given +
                        "; Fix: add --stack with the " + layer +
                        " device, or drop those modes");
    }
    std::vector<const ModeSpec*> modes;
    for (const ModeSpec& m : setup->modes) {
      if (m.layer == layer) modes.push_back(&m);
    }
    const std::string refusal =
        it->layer->CheckUsable(modes, o.cache_state != CacheState::kAsIs);
    if (!refusal.empty()) throw SysError(refusal);
    setup->stacks.push_back(*it);
  }
  for (const CompareStack& s : all) {
    if (std::find(needed.begin(), needed.end(), s.layer->layer()) ==
        needed.end()) {
      LogNotice("--stack " + s.device + " (" + s.layer->layer() +
                "): no mode of this layer is listed; it is left untouched");
    }
  }
  // A cross-layer comparison is only fair at equal cache capacity.
  int64_t smallest = -1, largest = -1;
  std::string list;
  for (const CompareStack& s : setup->stacks) {
    const int64_t c = s.info.cache_bytes;
    list += (list.empty() ? "" : ", ") + s.layer->layer() + " " +
            (c < 0 ? std::string("unknown")
                   : FormatBytes(static_cast<uint64_t>(c)));
    if (c < 0) continue;
    smallest = smallest < 0 ? c : std::min(smallest, c);
    largest = std::max(largest, c);
  }
  if (setup->stacks.size() > 1 && largest > 0 &&
      100.0 * static_cast<double>(largest - smallest) / largest >
          kCacheCapacityTolerancePct) {
    setup->stack_findings.push_back(
        {"capacity", Severity::kCaution,
         "cache capacities differ by more than 5% across the stacks (" + list +
             "): the layers are not compared at equal cache size"});
  }
}

// runs[mode][workload] from --workload-modes; ConfigError for a name that
// is no loaded workload or mode. A workload expanded by --working-set
// ("w@25%") is limited by its base name.
std::vector<std::vector<bool>> WorkloadModes(const CompareOptions& o,
                                             const CompareSetup& setup) {
  std::vector<std::vector<bool>> runs(
      setup.modes.size(), std::vector<bool>(setup.workloads.size(), true));
  auto names = [](const auto& items) {
    std::string list;
    for (const auto& i : items) list += (list.empty() ? "" : ", ") + i.name;
    return list;
  };
  for (const auto& [workload, modes] : o.workload_modes) {
    bool found = false;
    for (size_t w = 0; w < setup.workloads.size(); ++w) {
      const std::string& name = setup.workloads[w].name;
      if (name != workload && name.substr(0, name.find('@')) != workload) {
        continue;
      }
      found = true;
      for (size_t m = 0; m < setup.modes.size(); ++m) {
        runs[m][w] = std::find(modes.begin(), modes.end(),
                               setup.modes[m].name) != modes.end();
      }
    }
    if (!found) {
      throw ConfigError("--workload-modes: no workload named '" + workload +
                        "' (the workloads are " + names(setup.workloads) +
                        "). Fix: use a workload's name");
    }
    for (const std::string& mode : modes) {
      const bool known =
          std::any_of(setup.modes.begin(), setup.modes.end(),
                      [&mode](const ModeSpec& m) { return m.name == mode; });
      if (!known) {
        throw ConfigError("--workload-modes " + workload + ": no mode named '" +
                          mode + "' (the modes are " + names(setup.modes) +
                          "). Fix: use a mode of --modes");
      }
    }
  }
  return runs;
}

// Refuses a raw target that is part of a cache stack or in use.
void CheckRawTarget(const std::string& option, const std::string& path,
                    bool writes, const CompareSetup& setup) {
  std::string name = Basename(path);
  struct stat st;
  const bool is_block = ::stat(path.c_str(), &st) == 0 && S_ISBLK(st.st_mode);
  BlockDeviceId id;
  if (is_block) {
    Status s = ResolveBlockDevice(path, setup.os, &id);
    if (!s.ok())
      throw SysError::From("cannot identify " + option + " " + path, s);
    name = id.name;
  }
  for (const CompareStack& stack : setup.stacks) {
    const std::vector<std::string>& members = stack.info.members;
    if (std::find(members.begin(), members.end(), name) != members.end()) {
      throw SafetyError(option + " " + path + " is part of the " +
                        stack.layer->layer() + " stack " + stack.device +
                        ": writing there bypasses the cache and corrupts it. "
                        "Key: members: " +
                        [&members] {
                          std::string m;
                          for (const std::string& x : members)
                            m += (m.empty() ? "" : ",") + x;
                          return m;
                        }() +
                        "; Fix: give " + option +
                        " a separate region or device for the raw baseline");
    }
  }
  if (!is_block) return;
  Status s = writes ? CheckDeviceWritable(path, setup.os)
                    : CheckDeviceNotInUse(id, setup.os);
  if (!s.ok()) {
    throw SafetyError("refusing " + option + " " + path +
                      ". Reason: " + s.message());
  }
}

// --verify writes to every stack: it needs one, --destructive and room.
void CheckVerify(const CompareOptions& o, const CompareSetup& setup) {
  if (setup.stacks.empty()) {
    throw ConfigError(
        "--verify checks the data of cache stacks, but no cache mode is "
        "compared. Fix: add --stack and its modes, or drop --verify");
  }
  if (!o.destructive) {
    throw SafetyError(
        "--verify writes check data to the start of every stack. Fix: add "
        "--destructive if their contents may be destroyed");
  }
  for (const CompareStack& st : setup.stacks) {
    const uint64_t size = TargetSizeBytes(st.device);
    if (size > 0 && o.verify_bytes > size) {
      throw ConfigError("--verify: " + FormatBytes(o.verify_bytes) +
                        " is bigger than the stack " + st.device + " (" +
                        FormatBytes(size) + "). Fix: --verify=4M");
    }
  }
}

// --precondition: the raw SSD is compared (its cells are what it is for),
// --destructive is given, and the SSD may be written.
void CheckPrecondition(const CompareOptions& o, const CompareSetup& setup) {
  const bool ssd_compared = std::any_of(
      setup.modes.begin(), setup.modes.end(), [](const ModeSpec& m) {
        return m.is_raw() && m.target == RawTarget::kSsd;
      });
  if (!ssd_compared || o.ssd.empty()) {
    throw ConfigError(
        "--precondition writes the raw SSD baseline, but this compare has "
        "no ssd mode and --ssd. Fix: add --ssd DEV and modes/ssd.json, or "
        "drop --precondition");
  }
  if (!o.destructive) {
    throw SafetyError(
        "--precondition overwrites the raw SSD " + o.ssd +
        ". Fix: add --destructive if its contents may be destroyed");
  }
  CheckRawTarget("--ssd", o.ssd, /*writes=*/true, setup);
}

}  // namespace

PreparedWorkload PrepareTraceWorkload(const CompareOptions& o,
                                      const std::string& placeholder,
                                      uint64_t region_bytes,
                                      const std::string& path,
                                      const std::string& name) {
  PreparedWorkload w;
  w.path = path;
  w.name = name;
  JobOverrides overrides = o.overrides;
  overrides.filename = placeholder;
  w.io = TraceWorkload(path, name, overrides);
  ResolveSizes(region_bytes, &w.io);
  w.prepared = std::make_shared<const PreparedJobs>(w.io);
  return w;
}

std::string DefaultRunId() {
  const std::string stamp = FormatUtcNow("%Y%m%dT%H%M%SZ");
  char host[256] = "host";
  ::gethostname(host, sizeof host - 1);
  std::string h = host;
  h = h.substr(0, h.find('.'));
  return stamp + "-" + h;
}

CompareSetup PrepareCompare(const CompareOptions& o, const Host& host) {
  const Sysfs& sysfs = host.sysfs;
  CompareSetup setup;
  setup.host_root = sysfs.root();
  const bool real_root = sysfs.IsRealRoot();
  if (real_root && ::geteuid() != 0) {
    throw SysError(
        "tierbench compare needs root: it switches cache modes (sysfs, "
        "device-mapper), drops the page cache and writes block devices. Fix: "
        "run it as root "
        "(sudo), or use `tierbench lab`");
  }
  setup.os = sysfs;
  CheckOptions(o);
  // A stack left changed by a killed compare is not "as found": this comes
  // before every other check, so its fix (`tierbench restore`) is what a
  // user sees first.
  if (!o.stacks.empty()) RefuseStaleState(sysfs);
  setup.modes = LoadModes(o);

  bool needs_stack = false;
  for (const ModeSpec& m : setup.modes)
    needs_stack = needs_stack || !m.is_raw();
  std::vector<std::string> targets;
  if (needs_stack) targets = o.stacks;
  for (const ModeSpec& m : setup.modes) {
    if (!m.is_raw()) continue;
    const std::string& t = m.target == RawTarget::kHdd ? o.hdd : o.ssd;
    if (std::find(targets.begin(), targets.end(), t) == targets.end()) {
      targets.push_back(t);
    }
  }
  setup.workloads =
      LoadWorkloads(o, targets.empty() ? std::string("/dev/null") : targets[0]);

  const bool writes =
      std::any_of(setup.workloads.begin(), setup.workloads.end(),
                  [](const PreparedWorkload& w) { return w.Writes(); });
  if (writes && !o.destructive) {
    throw SafetyError(
        "the workloads write: compare would overwrite the data on the "
        "cache stacks and the raw HDD/SSD targets. Key: targets: " +
        [&targets] {
          std::string s;
          for (const std::string& t : targets) s += (s.empty() ? "" : ", ") + t;
          return s;
        }() +
        "; Fix: add --destructive if their contents may be destroyed");
  }

  OpenStacks(o, host, &setup);
  for (const ModeSpec& m : setup.modes) {
    if (!m.is_raw()) continue;
    const bool hdd = m.target == RawTarget::kHdd;
    CheckRawTarget(hdd ? "--hdd" : "--ssd", hdd ? o.hdd : o.ssd, writes, setup);
  }

  if (o.verify_bytes > 0) CheckVerify(o, setup);
  if (o.precondition_passes > 0) CheckPrecondition(o, setup);

  targets.clear();
  for (const CompareStack& st : setup.stacks) targets.push_back(st.device);
  for (const ModeSpec& m : setup.modes) {
    if (m.is_raw())
      targets.push_back(m.target == RawTarget::kHdd ? o.hdd : o.ssd);
  }
  for (const std::string& t : targets) {
    const uint64_t bytes = TargetSizeBytes(t);
    if (bytes > 0 && (setup.region_bytes == 0 || bytes < setup.region_bytes)) {
      setup.region_bytes = bytes;
    }
  }
  for (PreparedWorkload& w : setup.workloads) {
    if (!w.is_db) ResolveSizes(setup.region_bytes, &w.io);
  }
  for (const CompareStack& st : setup.stacks) {
    const int64_t c = st.info.cache_bytes;
    if (c > 0 &&
        (setup.reference_cache_bytes < 0 || c < setup.reference_cache_bytes)) {
      setup.reference_cache_bytes = c;
    }
  }
  if (!o.working_sets.empty()) {
    std::vector<std::string> notices;
    setup.workloads = ExpandWorkingSets(
        setup.workloads, ParseWorkingSets(o.working_sets),
        setup.reference_cache_bytes, setup.region_bytes, &notices);
    for (const std::string& n : notices) LogNotice(n);
  }
  for (PreparedWorkload& w : setup.workloads) {
    if (!w.is_db) w.prepared = std::make_shared<const PreparedJobs>(w.io);
  }

  setup.run_id = o.run_id.empty() ? DefaultRunId() : o.run_id;
  if (setup.run_id.find('/') != std::string::npos || setup.run_id == "." ||
      setup.run_id == "..") {
    throw ConfigError("--run-id must be a plain name. Key: --run-id: " +
                      setup.run_id + "; Fix: --run-id wb-vs-none-1");
  }
  setup.run_dir = (fs::path(o.results_dir) / setup.run_id).string();
  if (fs::exists(setup.run_dir)) {
    throw ConfigError("results directory " + setup.run_dir +
                      " already exists. Fix: choose another --run-id or "
                      "remove it");
  }
  setup.runs = WorkloadModes(o, setup);
  AddSetupFindings(o, &setup);
  setup.read_hit_curves = StreamCurves(o, setup);
  if (o.capture_replay) AddCaptureReplays(o, &setup);
  return setup;
}

}  // namespace tierbench
