// The replayed compares of tests/unit/validity/pitfalls_replay.h: `tierbench
// compare` (CompareRunner) on BcacheReplay's or DmReplay's stack with the
// recorded lab figures in place of the IO (warm-up chunks, prefill passes, the
// DB cell of a pgbench workload). Test helper; not thread-safe.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cache/dm/dm_control.h"
#include "cache/dm/dm_status.h"
#include "orchestrate/compare_runner.h"
#include "report/reporters.h"
#include "unit/validity/pitfalls_replay.h"
#include "util/clock.h"

namespace tierbench {
namespace pitfalls {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kCompareLabSizeBytes = 4ull << 20;  // the lab's --size 4M

}  // namespace

std::vector<WarmChunk> LoggedWarmChunks(const std::string& label) {
  std::vector<WarmChunk> out;
  std::istringstream in(LabText("demo-compare.log"));
  const std::string head =
      "tierbench: notice: warm-until-steady " + label + " #1 chunk ";
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(head, 0) != 0) continue;
    WarmChunk c;
    int n = 0;
    double secs = 0;
    if (std::sscanf(line.c_str() + head.size(),
                    "%d (%lf s): %lf IOPS, %lf%% of reads served", &n, &secs,
                    &c.iops, &c.served_pct) != 4 ||
        n != static_cast<int>(out.size()) + 1) {
      ADD_FAILURE() << "unexpected log line: " << line;
      continue;
    }
    out.push_back(c);
  }
  EXPECT_FALSE(out.empty()) << "no warm-up chunks of " << label;
  return out;
}

namespace {

constexpr uint64_t kSecNs = 1000000000ull;

std::string ReadFileText(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The options of a replayed compare of `mode_file` x `workload` on
// `stack`, results under `dir`, as the lab ran it (command.txt: --size 4M
// --runtime 5 --ramp-time 0 --destructive).
CompareOptions ReplayOptions(const std::string& stack, const std::string& dir,
                             const std::string& root,
                             const std::string& mode_file,
                             const std::string& workload) {
  CompareOptions o;
  o.stacks = {stack};
  o.mode_paths = {RepoPath("modes/" + mode_file)};
  o.workload_paths = {RepoPath("workloads/" + workload)};
  o.results_dir = dir + "/results";
  o.run_id = "replay";
  o.sysfs_root = root;
  o.quiet = true;
  o.destructive = true;
  o.stats_lag_s = 0;
  o.drain_timeout_s = 5;
  SizeSpec size;
  size.set = true;
  size.bytes = kCompareLabSizeBytes;
  o.overrides.size = size;
  o.overrides.runtime_ns = 5 * kSecNs;
  o.overrides.ramp_time_ns = 0;
  return o;
}

// One job's result: `ios` IOs of 4 KiB over `runtime_ns`, in the job's
// direction.
RunResult OneJobResult(const JobSpec& j, uint64_t ios, uint64_t runtime_ns) {
  JobResult jr;
  jr.name = j.name;
  jr.spec = j;
  jr.runtime_ns = runtime_ns;
  const int d = PatternWrites(j.rw) && !PatternReads(j.rw) ? 1 : 0;
  jr.dir[d].ios = ios;
  jr.dir[d].bytes = ios * 4096;
  RunResult r;
  r.jobs.push_back(jr);
  return r;
}

}  // namespace

ReplayedCompare ReplayWarmUntilSteady(const std::string& mode_file,
                                      const std::string& workload,
                                      const std::vector<WarmChunk>& chunks,
                                      uint64_t measured_ios) {
  BcacheReplay replay;
  FakeBcacheSysfs& fake = replay.fake();
  const std::string dir = fake.root() + "/work";
  fs::create_directories(dir);
  const std::string stack = fake.root() + "/dev/bcache0";
  fake.Set("dev/bcache0", "");
  fs::resize_file(stack, 8 << 20);
  fake.Set("proc/stat",
           RecordText(LabCell("demo-evidence.jsonl", "hdd", "randread-zipf"),
                      "proc_stat", 0));
  CompareOptions o =
      ReplayOptions(stack, dir, fake.root(), mode_file, workload);
  o.cache_state = CacheState::kWarmUntilSteady;
  o.warm_chunk_s = 2;
  o.warm_max_s = 2.0 * static_cast<double>(chunks.size());
  Host host;
  CompareHooks hooks;
  host.sysfs = fake.sysfs();
  host.sleep = [](double) {};
  size_t n = 0;
  BlockStat stack_stat, origin_stat;
  hooks.run_workload = [&](const Workload& w, const RunOptions&) {
    const JobSpec& j = w.jobs.at(0);
    if (j.draw_stream == 0) return OneJobResult(j, measured_ios, 5 * kSecNs);
    if (n >= chunks.size()) {
      ADD_FAILURE() << "warm-up chunk " << n + 1 << " of " << chunks.size();
      return OneJobResult(j, 0, 2 * kSecNs);
    }
    const WarmChunk& c = chunks[n++];
    const uint64_t ios = static_cast<uint64_t>(std::llround(c.iops * 2));
    stack_stat.read_ios += ios;
    stack_stat.read_sectors += ios * 8;
    const uint64_t missed = static_cast<uint64_t>(
        std::llround(static_cast<double>(ios) * (100.0 - c.served_pct) / 100));
    origin_stat.read_ios += missed;
    origin_stat.read_sectors += missed * 8;
    fake.SetBlockStat("bcache0", stack_stat);
    fake.SetBlockStat("vda1", origin_stat);
    return OneJobResult(j, ios, 2 * kSecNs);
  };
  std::ostringstream out;
  CompareRunner(o, host, hooks).Run(MakeCompareReporters(out));
  EXPECT_EQ(n, chunks.size()) << "warm-up chunks run";
  ReplayedCompare r;
  r.runs_csv = ReadFileText(dir + "/results/replay/runs.csv");
  r.drop_caches_writes = fake.WriteCount("proc/sys/vm/drop_caches");
  r.detach_writes = fake.WriteCount("sys/block/bcache0/bcache/detach");
  return r;
}

ReplayedCompare ReplayDmCacheWarm(const std::vector<double>& hit_pct) {
  DmReplay replay;
  const LabSysfs& tree = replay.tree();
  const std::string dir = tree.root() + "/work";
  fs::create_directories(dir);
  const std::string stack = tree.root() + "/dev/mapper/tb-dmcache";
  fs::resize_file(stack, 8 << 20);
  tree.Set("proc/stat",
           RecordText(LabCell("demo-evidence.jsonl", "hdd", "randread-zipf"),
                      "proc_stat", 0));
  CompareOptions o = ReplayOptions(
      stack, dir, tree.root(), "dm-cache-writeback.json", "randread-zipf.fio");
  o.cache_state = CacheState::kWarm;
  Host host;
  CompareHooks hooks;
  host.sysfs = tree.sysfs();
  host.dm = replay.dm();
  host.sleep = [](double) {};
  size_t pass = 0;
  std::shared_ptr<FakeDmControl> dm = replay.dm();
  hooks.run_workload = [&](const Workload& w, const RunOptions& ro) {
    const JobSpec& j = w.jobs.at(0);
    if (ro.progress_label.rfind("prefill", 0) != 0) {
      return OneJobResult(j, 25517, 5 * kSecNs);  // the demo's cell
    }
    const double pct =
        hit_pct.empty() ? 0 : hit_pct[std::min(pass, hit_pct.size() - 1)];
    ++pass;
    std::vector<DmTarget> st;
    EXPECT_TRUE(dm->GetStatus("tb-dmcache", &st).ok());
    DmCacheStatus s;
    EXPECT_TRUE(!st.empty() && ParseDmCacheStatus(st[0].params, &s).ok());
    const uint64_t reads = j.size.bytes / (64 << 10);
    const uint64_t hits = static_cast<uint64_t>(
        std::llround(static_cast<double>(reads) * pct / 100));
    s.read_hits += hits;
    s.read_misses += reads - hits;
    s.promotions += reads - hits;
    s.cache_used += reads - hits;
    dm->SetStatusParams("tb-dmcache", s.FormatParams());
    return OneJobResult(j, reads, kSecNs);
  };
  std::ostringstream out;
  CompareRunner(o, host, hooks).Run(MakeCompareReporters(out));
  EXPECT_GT(pass, 0u) << "no prefill pass ran";
  ReplayedCompare r;
  r.runs_csv = ReadFileText(dir + "/results/replay/runs.csv");
  return r;
}

RecordedDbCell RecordedDbCellOf(const std::string& mode) {
  const CsvDocument runs = LabCsv("pgbench-runs.csv");
  const size_t row = RowOf(runs, mode, "pgbench-tpcb-in-ram");
  RecordedDbCell c;
  if (row >= runs.row_count()) return c;
  c.job = JobOfRow(runs, row);
  c.job.unit = runs.Get(row, "unit");
  const auto bytes = [&](const char* column) {
    return static_cast<int64_t>(runs.Number(row, column).value_or(-1));
  };
  c.info.db_size_bytes = bytes("db_size_bytes");
  c.info.shared_buffers_bytes = bytes("shared_buffers_bytes");
  c.info.mem_total_bytes = bytes("mem_total_bytes");
  c.info.restarted_after_load = runs.Get(row, "db_restarted") == "1";
  c.info.server_cpu_s = runs.Number(row, "db_server_cpu_s").value_or(-1);
  c.info.measured_s = static_cast<double>(c.job.runtime_ns) / 1e9;
  // The driver adds each transaction at its end to the second it ended in.
  DirectionStats& d = c.job.dir[static_cast<int>(IoDir::kWrite)];
  const CsvDocument series = LabCsv("pgbench-series.csv");
  uint64_t counted = 0;
  for (size_t r = 0; r < series.row_count(); ++r) {
    if (series.Get(r, "mode") != mode || series.Get(r, "phase") != "measure") {
      continue;
    }
    const uint64_t n =
        static_cast<uint64_t>(series.Number(r, "write_iops").value_or(0));
    const double t = series.Number(r, "t_s").value_or(0);
    for (uint64_t k = 0; k < n; ++k) {
      d.series.Add(static_cast<uint64_t>((t + (k + 0.5) / n) * kSecNs), 0);
    }
    counted += n;
  }
  EXPECT_GT(counted, 0u) << "no measured seconds of " << mode;
  EXPECT_LE(counted, d.ios);
  for (; counted < d.ios; ++counted) d.series.Add(c.job.runtime_ns - 1, 0);
  return c;
}

ReplayedCompare ReplayDbCell(const std::string& mode_file,
                             const std::string& workload_json,
                             const nlohmann::json& rec,
                             const RecordedDbCell& cell) {
  BcacheReplay replay;
  FakeBcacheSysfs& fake = replay.fake();
  const std::string dir = fake.root() + "/work";
  fs::create_directories(dir);
  const std::string stack = fake.root() + "/dev/bcache0";
  fake.Set("dev/bcache0", "");
  fs::resize_file(stack, 8 << 20);
  fake.Set("proc/stat", RecordText(rec, "proc_stat", 0));
  const std::string workload = dir + "/pgbench-tpcb-in-ram.json";
  std::ofstream(workload) << workload_json;
  CompareOptions o =
      ReplayOptions(stack, dir, fake.root(), mode_file, "randwrite-4k.fio");
  o.workload_paths = {workload};
  o.cache_state = CacheState::kWarmUntilSteady;
  Host host;
  CompareHooks hooks;
  host.sysfs = fake.sysfs();
  host.sleep = [](double) {};
  int cells = 0;
  hooks.run_db = [&](const DbWorkload&, const std::string&,
                     const DbCellOptions& opts, DbCellInfo* info) {
    ++cells;
    replay.WriteReading(rec, 0);
    if (opts.on_second) opts.on_second(NowNs());
    if (opts.before_run) opts.before_run();
    replay.WriteReading(rec, 1);
    fake.Set("proc/stat", RecordText(rec, "proc_stat", 1));
    if (info != nullptr) *info = cell.info;
    return cell.job;
  };
  std::ostringstream out;
  CompareRunner(o, host, hooks).Run(MakeCompareReporters(out));
  EXPECT_EQ(cells, 1) << "DB cells run";
  ReplayedCompare r;
  r.runs_csv = ReadFileText(dir + "/results/replay/runs.csv");
  return r;
}

}  // namespace pitfalls
}  // namespace tierbench
