// Replays of the kernel text that real lab runs recorded
// (tests/unit/data/lab-kernel/, README.md there says where each file comes
// from) through tierbench's own readers, for the pitfall tests
// (tests/unit/validity/pitfalls_*_test.cc):
//   - bcache: a FakeBcacheSysfs whose stats_total files, dirty_data, state
//     and block stat lines hold a recorded reading, read by BcacheLayer;
//   - dm-cache and dm-writecache: a /sys of the lab guest's devices (its
//     major:minor numbers, slaves and dm names, as stack.txt made them) and
//     a FakeDmControl holding the recorded status lines, read by
//     DmCacheLayer / DmWritecacheLayer;
//   - the host: /proc/stat and the block stat lines read by HostSampler.
// A cell's observation is built from the two readings as CellRunner builds
// it (orchestrate/cell_runner.cc Observe). The replayed compares (the
// declarations from LoggedWarmChunks on) are in
// tests/unit/validity/pitfalls_compare_replay.cc. Test helper; not thread-safe.
#ifndef TIERBENCH_TESTS_UNIT_VALIDITY_PITFALLS_REPLAY_H_
#define TIERBENCH_TESTS_UNIT_VALIDITY_PITFALLS_REPLAY_H_

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cache/bcache/bcache_layer.h"
#include "cache/cell_observation.h"
#include "cache/dm/dm_cache_layer.h"
#include "cache/dm/dm_writecache_layer.h"
#include "db/db_cell.h"
#include "support/fake_dm.h"
#include "support/fake_sysfs.h"
#include "util/csv_reader.h"
#include "util/finding.h"
#include "util/sysfs.h"
#include "validity/cell_evidence.h"
#include "workload/job_result.h"
#include "workload/job_spec.h"

namespace tierbench {
namespace pitfalls {

// tests/unit/data/lab-kernel/<name>; an unreadable file fails the test
// (and gives "").
std::string LabText(const std::string& name);
// <source tree>/<rel> (the shipped modes/ and workloads/).
std::string RepoPath(const std::string& rel);
// The records of an evidence.jsonl copy.
std::vector<nlohmann::json> LabRecords(const std::string& name);
// The record of `mode`/`workload` in LabRecords(name); a test failure and
// null when there is none.
nlohmann::json LabCell(const std::string& name, const std::string& mode,
                       const std::string& workload);
// The record's string at `key`[end] ("counters", "proc_stat"); a test
// failure and "" when absent.
std::string RecordText(const nlohmann::json& rec, const std::string& key,
                       int end);
// Replaces the first `from` in *text with `to`; a test failure (and no
// change) when `from` is not there, so an edit of recorded text that no
// longer applies fails its test.
void EditText(std::string* text, const std::string& from,
              const std::string& to);
// The same on a string inside a record (`key` and index `end` of an array
// such as "counters" or "proc_stat", or stat[dev][end] with key "stat:dev").
void EditRecord(nlohmann::json* rec, const std::string& key, int end,
                const std::string& from, const std::string& to);
// The rule ids among `findings`; whether `rule` is one; the text of its
// first finding ("" when none).
std::set<std::string> RuleIds(const std::vector<Finding>& findings);
bool Fires(const std::vector<Finding>& findings, const std::string& rule);
std::string TextOf(const std::vector<Finding>& findings,
                   const std::string& rule);
// A recorded CSV (demo-runs.csv, demo-series.csv, ...) read back.
CsvDocument LabCsv(const std::string& name);
// The row of `mode`/`workload` in a recorded CSV; a test failure and
// row_count() when there is none.
size_t RowOf(const CsvDocument& doc, const std::string& mode,
             const std::string& workload);
// A recorded runs.csv row as the job result it came from (ios, runtime,
// CPU seconds, job threads); a missing column gives 0 (-1 s of CPU),
// which the assertions reading it fail on.
JobResult JobOfRow(const CsvDocument& doc, size_t row);
// demo-manifest.json's options.region_bytes: the run's region, the
// smallest target.
uint64_t ManifestRegionBytes();
// "name=value" lines (knobs-before.txt, bcache's raw counters).
std::map<std::string, std::string> KeyValueLines(const std::string& text);
// The jobs of a shipped workload (workloads/<file>) as the lab ran them
// (its command line's --size 4M --runtime 5 --ramp-time 0).
std::vector<JobSpec> ShippedJobs(const std::string& file);
// The jobs of job-file text with the same overrides.
std::vector<JobSpec> JobsOfText(const std::string& text);

// A /sys and /proc of the lab guest's block devices: vda (253:0) with
// vda1..vda4, vdb (253:16) with vdb1..vdb4, the dm devices dm-0..dm-3
// (252:N: tb-dmcache-meta, tb-dmcache-data, tb-dmcache, tb-writecache,
// with their slaves and holders as stack.txt's tables make them) and
// bcache0 over vda1 and vdb1. Every stat file starts as zeros; the dm
// devices also exist as <root>/dev/mapper/<name> (regular files).
class LabSysfs {
 public:
  LabSysfs();
  ~LabSysfs();
  LabSysfs(const LabSysfs&) = delete;
  LabSysfs& operator=(const LabSysfs&) = delete;

  const std::string& root() const { return root_; }
  const Sysfs& sysfs() const { return sysfs_; }
  // A file under the root (parents created).
  void Set(const std::string& rel, const std::string& text) const;
  void SetStat(const std::string& dev, const std::string& line) const;
  // The record's /proc/stat and block stat lines of reading `end` (0: the
  // window's start, 1: its end).
  void WriteReading(const nlohmann::json& rec, int end) const;
  // The queue files of disk `dev` (queue/scheduler, write_cache,
  // read_ahead_kb, wbt_lat_usec, ...) from a manifest queue object
  // (devices.hdd.queue, member_queues[]); null values are left out.
  void SetQueue(const std::string& dev, const nlohmann::json& queue) const;
  // One more block device (`parent` "" for a whole disk) with a zero stat.
  void AddDevice(const std::string& name, const std::string& parent, int major,
                 int minor) const;

 private:
  std::string root_;
  Sysfs sysfs_;
};

// The record's window replayed through HostSampler on a LabSysfs (the
// target, and for a cache cell the partitions under it as members).
HostEvidence ReplayHost(const nlohmann::json& rec);

// The lab's bcache0 (backing vda1, cache vdb1, cache set
// b438a16e-ef4d-11f1-b960-b9246e380161) on a FakeBcacheSysfs: the geometry
// of stack.txt's make-bcache (block_size 1 sector, bucket_size 128
// sectors, nbuckets 4096, as sysfs prints them) and the knobs of
// demo-knobs-before.txt (bcache's defaults as the lab kernel showed them).
class BcacheReplay {
 public:
  BcacheReplay();
  FakeBcacheSysfs& fake() { return fake_; }
  BcacheLayer& layer() { return *layer_; }
  // Applies the shipped mode file modes/<file> (ApplyMode: every knob
  // written and read back); the read-back.
  LayerReadback Apply(const std::string& file);
  // The record's stats_total files, dirty_data, state and the stat lines of
  // bcache0, vda1 and vdb1 of reading `end`.
  void WriteReading(const nlohmann::json& rec, int end);
  // The cell's observation from the record's two readings under the
  // read-back `rb`; the raw counters read back must be the recorded text.
  CellObservation Observe(const nlohmann::json& rec, const LayerReadback& rb,
                          const std::vector<JobSpec>& jobs);
  // CacheFindings with bcache's own rules.
  std::vector<Finding> Findings(const CellObservation& o) const;

 private:
  FakeBcacheSysfs fake_;
  std::unique_ptr<BcacheLayer> layer_;
};

// The lab's dm stacks on a LabSysfs: tb-dmcache (dm-2: "0 1046528 cache
// 252:0 252:1 253:2 64 1 writethrough smq 0") and tb-writecache (dm-3:
// "0 1046528 writecache s 253:3 253:19 4096 0"), tables and first status
// lines from stack.txt, in a FakeDmControl.
class DmReplay {
 public:
  DmReplay();
  const LabSysfs& tree() const { return tree_; }
  std::shared_ptr<FakeDmControl> dm() const { return dm_; }
  CacheLayer& dm_cache() { return *dm_cache_; }
  CacheLayer& writecache() { return *writecache_; }
  // Applies modes/<file> to `layer`; the read-back.
  LayerReadback Apply(CacheLayer& layer, const std::string& file);
  // The record's status line ("counters"[end], "0 1046528 <type> ...") as
  // the live status of its device, and its stat lines.
  void WriteReading(const nlohmann::json& rec, int end);
  // As BcacheReplay::Observe, for the record's layer.
  CellObservation Observe(const nlohmann::json& rec, const LayerReadback& rb,
                          const std::vector<JobSpec>& jobs);
  // CacheFindings with the layer's own rules.
  std::vector<Finding> Findings(const CellObservation& o);

 private:
  CacheLayer& LayerOf(const nlohmann::json& rec);
  LabSysfs tree_;
  std::shared_ptr<FakeDmControl> dm_;
  std::unique_ptr<DmCacheLayer> dm_cache_;
  std::unique_ptr<DmWritecacheLayer> writecache_;
};

// One warm-up chunk of --cache-state warm-until-steady as the lab logged
// it (demo-compare.log): its IOPS and the share of its reads served
// without the origin.
struct WarmChunk {
  double iops = 0;
  double served_pct = -1;
};
// The chunks of "warm-until-steady <label> #1" ("writeback/randread-zipf")
// in demo-compare.log, in order; a test failure when there are none.
std::vector<WarmChunk> LoggedWarmChunks(const std::string& label);

// What a replayed compare left.
struct ReplayedCompare {
  std::string runs_csv;        // its runs.csv
  int drop_caches_writes = 0;  // writes to proc/sys/vm/drop_caches
  int detach_writes = 0;       // bcache: detaches (cold resets)
};

// `tierbench compare --cache-state warm-until-steady --warm-chunk 2
// --warm-max <2 x chunks> --size 4M --runtime 5 --ramp-time 0` of
// modes/<mode_file> x workloads/<workload> on BcacheReplay's bcache0, the
// lab's /proc/stat text in place: warm-up chunk k does chunks[k]'s IOPS,
// its reads (one per IO) split between bcache0 and its origin vda1 as the
// logged share (the block counters the protocol judges them by); the
// measured run does `measured_ios` IOs in 5 s.
ReplayedCompare ReplayWarmUntilSteady(const std::string& mode_file,
                                      const std::string& workload,
                                      const std::vector<WarmChunk>& chunks,
                                      uint64_t measured_ios);

// `tierbench compare --cache-state warm` of modes/dm-cache-writeback.json x
// workloads/randread-zipf.fio on DmReplay's tb-dmcache: prefill pass k
// reads the region in 64 KiB blocks, hit_pct[k] percent of them hit and
// the misses are promoted (the status line's counters move so); passes
// beyond the list repeat its last entry.
ReplayedCompare ReplayDmCacheWarm(const std::vector<double>& hit_pct);

// A DB cell of pgbench-runs.csv (mode `mode`, workload pgbench-tpcb-in-ram)
// as the DB cell (db/db_cell.h RunDbCell) returned it: the transactions
// (job: unit tx, ios, runtime, CPU seconds, the per-second counts of
// pgbench-series.csv's measured window and the transactions still in
// flight at its end in the partial second after it) and the DbCellInfo
// behind the row's db_* columns (db_size_bytes, shared_buffers_bytes,
// mem_total_bytes, db_restarted, db_server_cpu_s). Per-transaction
// latencies were not recorded: lat and lat_hist stay empty.
struct RecordedDbCell {
  JobResult job;
  DbCellInfo info;
};
RecordedDbCell RecordedDbCellOf(const std::string& mode);

// `tierbench compare --cache-state warm-until-steady` (the lab's) of
// modes/<mode_file> x the DB workload file text `workload_json` on
// BcacheReplay's bcache0. The DB cell (CompareHooks::run_db) puts the
// record `rec`'s reading 0 (bcache's counters, the stat lines, /proc/stat)
// in place, ticks the cell's first second, starts the measured window
// (DbCellOptions::before_run), puts reading 1 in place and returns `cell`.
// bcache0 is a regular file here, so the host's target counters are
// unknown (ReplayHost reads them).
ReplayedCompare ReplayDbCell(const std::string& mode_file,
                             const std::string& workload_json,
                             const nlohmann::json& rec,
                             const RecordedDbCell& cell);

}  // namespace pitfalls
}  // namespace tierbench

#endif  // TIERBENCH_TESTS_UNIT_VALIDITY_PITFALLS_REPLAY_H_
