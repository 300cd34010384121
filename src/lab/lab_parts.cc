#include "lab/lab_parts.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <utility>

#include "cache/registry/mode_file.h"
#include "db/db_workload.h"
#include "record/compare_options.h"
#include "util/errors.h"
#include "util/log.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

// Estimated seconds of one lab cell (dilated, TCG; results/benchmarks.md):
// a raw fio cell runs its 5 s, a cache fio cell warms up first and drains
// after, a DB cell restarts, warms up, checkpoints and flushes.
constexpr double kRawFioCellS = 6;
constexpr double kCacheFioCellS = 35;
constexpr double kRawDbCellS = 60;
constexpr double kCacheDbCellS = 75;
// The niceness of the guests without DB cells beside guests with them
// (weight 335 against 1024 under CFS): a DB cell's writeback run is bound
// by the emulated CPU (results/benchmarks.md), and beside three guests at
// the same priority its rate fell from 186 to 88 tps within its 10 s
// (flagged not steady), while the fio guests' cells wait on their
// throttled disks with CPU to spare (the SSD cells' guests 15-20 % busy).
constexpr int kFioGuestNice = 5;

struct WorkloadInfo {
  std::string file;
  std::string name;
  bool db = false;
};

WorkloadInfo ReadWorkloadInfo(const std::string& file) {
  WorkloadInfo w;
  w.file = file;
  w.db = IsDbWorkloadFile(file);
  // Named as compare names them: a DB workload by its "name", a job file by
  // its stem.
  w.name = w.db ? LoadDbWorkload(file).name : fs::path(file).stem().string();
  return w;
}

struct ModeInfo {
  std::string file;
  std::string name;
  std::string layer;  // "raw" for the raw modes
};

// --workload-modes W=M1,M2 (or --workload-modes=W=...) taken out of `args`.
std::map<std::string, std::vector<std::string>> TakeWorkloadModes(
    std::vector<std::string>* args) {
  std::map<std::string, std::vector<std::string>> out;
  std::vector<std::string> kept;
  const std::string flag = "--workload-modes";
  for (size_t i = 0; i < args->size(); ++i) {
    const std::string& a = (*args)[i];
    std::string value;
    if (a == flag && i + 1 < args->size()) {
      value = (*args)[++i];
    } else if (a.rfind(flag + "=", 0) == 0) {
      value = a.substr(flag.size() + 1);
    } else {
      kept.push_back(a);
      continue;
    }
    AddWorkloadModes(value, &out);
  }
  *args = std::move(kept);
  return out;
}

// The cells of one (layer, kind): its modes per workload.
struct Unit {
  std::string layer;
  bool db = false;
  std::map<std::string, std::set<std::string>> modes_of;  // workload -> modes
  int cells = 0;
  double cost = 0;
  // A DB unit cut in two (SplitDbUnits): "1" or "2", a half of a half
  // "1.2"; "" when whole.
  std::string half;
  std::string Name() const { return layer + (db ? "-db" : "") + half; }
};

// The unit's modes in the run's order.
std::vector<std::string> ModesOf(const Unit& u,
                                 const std::vector<ModeInfo>& modes) {
  std::vector<std::string> out;
  for (const ModeInfo& m : modes) {
    const bool in =
        std::any_of(u.modes_of.begin(), u.modes_of.end(),
                    [&m](const auto& w) { return w.second.count(m.name) > 0; });
    if (in) out.push_back(m.name);
  }
  return out;
}

// Cuts the DB units that cost more than a guest's fair share in two,
// dealing their modes alternately, until none does (or a half has one
// mode left).
void SplitDbUnits(std::vector<Unit>* units, const std::vector<ModeInfo>& modes,
                  int guests) {
  double total = 0;
  for (const Unit& u : *units) total += u.cost;
  const double share = total / guests;
  for (bool cut = true; cut;) {
    cut = false;
    for (size_t i = 0; i < units->size(); ++i) {
      const Unit u = (*units)[i];
      const std::vector<std::string> names = ModesOf(u, modes);
      if (!u.db || u.cost <= share || names.size() < 2) continue;
      const std::string tag = u.half.empty() ? "" : u.half + ".";
      Unit a{u.layer, true, {}, 0, 0, tag + "1"};
      Unit b{u.layer, true, {}, 0, 0, tag + "2"};
      const double per_cell = u.cost / u.cells;
      for (const auto& [w, ms] : u.modes_of) {
        for (size_t k = 0; k < names.size(); ++k) {
          if (!ms.count(names[k])) continue;
          Unit& to = k % 2 == 0 ? a : b;
          to.modes_of[w].insert(names[k]);
          ++to.cells;
          to.cost += per_cell;
        }
      }
      (*units)[i] = a;
      units->insert(units->begin() + static_cast<long>(i) + 1, b);
      cut = true;
      break;
    }
  }
}

struct Bin {
  std::vector<const Unit*> units;
  double cost = 0;
  int cells = 0;
  bool has_stack = false;
};

}  // namespace

std::vector<LabPart> SplitLabRun(const LabOptions& o, int guests) {
  const auto whole = [&o] {
    LabPart p;
    p.options = o;
    return std::vector<LabPart>{p};
  };
  if (guests <= 1 || o.mode_files.empty()) return whole();
  std::vector<ModeInfo> modes;
  for (const std::string& f : o.mode_files) {
    const ModeSpec m = LoadModeFile(f);
    modes.push_back({f, m.name, m.is_raw() ? "raw" : m.layer});
  }
  std::vector<WorkloadInfo> workloads;
  for (const std::string& f : o.workload_files)
    workloads.push_back(ReadWorkloadInfo(f));
  std::vector<std::string> args = o.compare_args;
  const auto given = TakeWorkloadModes(&args);
  for (const auto& [name, list] : given) {
    const bool known = std::any_of(
        workloads.begin(), workloads.end(),
        [&name = name](const WorkloadInfo& w) { return w.name == name; });
    if (!known) {
      throw ConfigError(
          "--workload-modes names an unknown workload. "
          "Workload: " +
          name + "; Fix: one of the --workloads' names");
    }
    for (const std::string& m : list) {
      const bool loaded =
          std::any_of(modes.begin(), modes.end(),
                      [&m](const ModeInfo& x) { return x.name == m; });
      if (!loaded) {
        throw ConfigError("--workload-modes " + name +
                          "= names a mode that is not loaded. Mode: " + m +
                          "; Fix: one of the --modes' names");
      }
    }
  }

  // Units, in first-seen order.
  std::vector<Unit> units;
  const auto unit_of = [&units](const std::string& layer, bool db) -> Unit& {
    for (Unit& u : units)
      if (u.layer == layer && u.db == db) return u;
    units.push_back(Unit{layer, db, {}, 0, 0, ""});
    return units.back();
  };
  for (const WorkloadInfo& w : workloads) {
    auto it = given.find(w.name);
    for (const ModeInfo& m : modes) {
      if (it != given.end() && std::find(it->second.begin(), it->second.end(),
                                         m.name) == it->second.end()) {
        continue;
      }
      Unit& u = unit_of(m.layer, w.db);
      u.modes_of[w.name].insert(m.name);
      ++u.cells;
      const bool raw = m.layer == "raw";
      u.cost += w.db ? (raw ? kRawDbCellS : kCacheDbCellS)
                     : (raw ? kRawFioCellS : kCacheFioCellS);
    }
  }

  SplitDbUnits(&units, modes, guests);
  // Longest processing time first over the stacks' units; the raw units
  // then join the least loaded guest that builds a stack.
  std::vector<const Unit*> order;
  for (const Unit& u : units) order.push_back(&u);
  std::stable_sort(
      order.begin(), order.end(),
      [](const Unit* a, const Unit* b) { return a->cost > b->cost; });
  std::vector<Bin> bins(static_cast<size_t>(guests));
  const auto least = [&bins](bool need_stack) -> Bin* {
    Bin* best = nullptr;
    for (Bin& b : bins) {
      if (need_stack && !b.has_stack) continue;
      if (best == nullptr || b.cost < best->cost) best = &b;
    }
    return best;
  };
  for (const Unit* u : order) {
    if (u->layer == "raw") continue;
    Bin* b = least(false);
    b->units.push_back(u);
    b->cost += u->cost;
    b->cells += u->cells;
    b->has_stack = true;
  }
  for (const Unit* u : order) {
    if (u->layer != "raw") continue;
    Bin* b = least(true);
    if (b == nullptr) return whole();  // no stack at all: one guest
    b->units.push_back(u);
    b->cost += u->cost;
    b->cells += u->cells;
  }
  bins.erase(std::remove_if(bins.begin(), bins.end(),
                            [](const Bin& b) { return b.units.empty(); }),
             bins.end());
  if (bins.size() <= 1) return whole();
  // The guests with DB cells first (their fixed costs, a database load and
  // writeback's flush after a DB cell, are the least certain), then the
  // costliest: the first starts alone until it has timed its CPU.
  const auto has_db = [](const Bin& b) {
    return std::any_of(b.units.begin(), b.units.end(),
                       [](const Unit* u) { return u->db; });
  };
  std::stable_sort(bins.begin(), bins.end(),
                   [&has_db](const Bin& a, const Bin& b) {
                     if (has_db(a) != has_db(b)) return has_db(a);
                     return a.cost > b.cost;
                   });

  std::vector<LabPart> parts;
  for (size_t k = 0; k < bins.size(); ++k) {
    const Bin& b = bins[k];
    std::set<std::string> layers, mode_names;
    std::map<std::string, std::set<std::string>> modes_of;
    std::string name = "p" + std::to_string(k + 1);
    for (const Unit* u : b.units) {
      if (u->layer != "raw") layers.insert(u->layer);
      name += (u == b.units.front() ? "-" : "+") + u->Name();
      for (const auto& [w, ms] : u->modes_of) {
        modes_of[w].insert(ms.begin(), ms.end());
        mode_names.insert(ms.begin(), ms.end());
      }
    }
    LabPart part;
    part.name = name;
    part.cost = b.cost;
    part.cells = b.cells;
    LabOptions& p = part.options;
    p = o;
    p.layers.clear();
    for (const std::string& l : o.layers)
      if (layers.count(l)) p.layers.push_back(l);
    p.mode_files.clear();
    for (const ModeInfo& m : modes)
      if (mode_names.count(m.name)) p.mode_files.push_back(m.file);
    p.workload_files.clear();
    p.compare_args = args;
    for (const WorkloadInfo& w : workloads) {
      auto it = modes_of.find(w.name);
      if (it == modes_of.end()) continue;
      p.workload_files.push_back(w.file);
      std::string list;
      for (const ModeInfo& m : modes) {
        if (!it->second.count(m.name)) continue;
        list += (list.empty() ? "" : ",") + m.name;
      }
      p.compare_args.insert(p.compare_args.end(),
                            {"--workload-modes", w.name + "=" + list});
    }
    part.options.qemu_nice =
        !has_db(b) && std::any_of(bins.begin(), bins.end(), has_db)
            ? kFioGuestNice
            : o.qemu_nice;
    parts.push_back(std::move(part));
  }
  return parts;
}

LabRunOrder RunOrderOf(const LabOptions& o) {
  LabRunOrder order;
  for (const std::string& f : o.mode_files)
    order.modes.push_back(LoadModeFile(f).name);
  for (const std::string& f : o.workload_files)
    order.workloads.push_back(ReadWorkloadInfo(f).name);
  return order;
}

LabPartsOutcome RunLabParts(
    const std::vector<LabPart>& parts, const LabRunOrder& order,
    const std::string& results_dir, const std::string& run_id,
    const std::function<void(const std::string&)>& out) {
  const std::string run_dir = (fs::path(results_dir) / run_id).string();
  std::error_code ec;
  if (fs::exists(run_dir, ec)) {
    throw ConfigError("The lab run folder exists already. Path: " + run_dir +
                      "; Fix: another --run-id, or remove the folder");
  }
  const std::string parts_dir = run_dir + "/parts";
  const size_t n = parts.size();
  std::vector<std::optional<LabOutcome>> outcomes(n);
  std::vector<std::exception_ptr> errors(n);
  std::mutex out_mu;
  std::mutex mu;
  std::condition_variable cv;
  bool first_answered = false, first_ended = false;
  LabHandshakeResult first_dilation;
  const auto run = [&](size_t k, LabOptions opts) {
    opts.results_dir = parts_dir;
    opts.run_id = parts[k].name;
    opts.log_label = parts[k].name;
    const std::string prefix = "[" + parts[k].name + "] ";
    try {
      LabRunner runner(std::move(opts),
                       [&out, &out_mu, prefix](const std::string& line) {
                         std::lock_guard<std::mutex> lock(out_mu);
                         out(prefix + line);
                       });
      outcomes[k] = runner.Run();
    } catch (...) {
      errors[k] = std::current_exception();
    }
  };
  const LabDilation::Mode dilation = parts[0].options.dilation.mode;
  const bool share_factor = dilation == LabDilation::Mode::kAuto ||
                            dilation == LabDilation::Mode::kFull;
  LabOptions first = parts[0].options;
  if (share_factor) {
    first.on_dilation = [&](const LabHandshakeResult& r) {
      std::lock_guard<std::mutex> lock(mu);
      first_dilation = r;
      first_answered = true;
      cv.notify_all();
    };
  }
  // Joins every started thread on every way out (starting one may throw).
  struct Joiner {
    std::vector<std::thread> threads;
    ~Joiner() {
      for (std::thread& t : threads)
        if (t.joinable()) t.join();
    }
  } joiner;
  std::vector<std::thread>& threads = joiner.threads;
  threads.emplace_back([&, first]() mutable {
    run(0, std::move(first));
    std::lock_guard<std::mutex> lock(mu);
    first_ended = true;
    cv.notify_all();
  });
  bool start_others = true;
  std::optional<LabDilation> fixed;
  if (share_factor) {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return first_answered || first_ended; });
    start_others = first_answered;
    fixed = LabDilation{LabDilation::Mode::kFixed, first_dilation.factor};
  }
  if (start_others) {
    for (size_t k = 1; k < n; ++k) {
      LabOptions opts = parts[k].options;
      if (fixed) opts.dilation = *fixed;
      threads.emplace_back([&run, k, opts]() { run(k, opts); });
    }
  }
  for (std::thread& t : threads) t.join();
  const auto failed =
      std::find_if(errors.begin(), errors.end(),
                   [](const std::exception_ptr& e) { return e; });
  if (failed != errors.end()) {
    // What the parts that wrote a run folder measured is kept: merged, as
    // far as they got (their manifests' status says so), before the error.
    std::vector<LabPartRun> written;
    for (size_t k = 0; k < n; ++k) {
      const std::string dir = parts_dir + "/" + parts[k].name;
      if (fs::exists(dir + "/manifest.json", ec))
        written.push_back({parts[k].name, dir});
    }
    if (!written.empty()) {
      try {
        MergeLabParts(written, run_dir, run_id, order);
        LogNotice("lab: merged the " + std::to_string(written.size()) +
                  " parts that wrote a run folder into " + run_dir);
      } catch (const std::exception& e) {
        LogWarning(std::string("lab: the parts that ran were not merged: ") +
                   e.what());
      }
    }
    std::rethrow_exception(*failed);
  }
  if (!start_others) {
    throw SysError(
        "The first lab guest ended before it timed its CPU, so the other "
        "parts did not start. Part: " +
        parts_dir + "/" + parts[0].name +
        "; Fix: run again with --keep and read the guest's console.log in "
        "the kept temporary directory");
  }
  LabPartsOutcome result;
  std::vector<LabPartRun> runs;
  for (size_t k = 0; k < n; ++k) {
    result.parts.push_back(*outcomes[k]);
    runs.push_back({parts[k].name, outcomes[k]->run_dir});
  }
  result.merged = MergeLabParts(runs, run_dir, run_id, order);
  return result;
}

}  // namespace tierbench
