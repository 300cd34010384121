// The evidence the validity rules (validity/rules.h) judge a cell by,
// beyond the cache layer's counters (cache/cell_observation.h): what the
// machine's CPUs, the target device and the disks under it did over the
// cell's measured window, and how a DB cell's database was sized. Every
// field is recorded in runs.csv (results/README.md "Validity"), so a
// verdict can be checked from the files.
//
// Unknown is explicit: a negative number or an empty `unknown_why`-style
// reason, never a made-up 0. A rule whose evidence is unknown returns a
// finding of severity unknown (util/finding.h), never "valid".
//
// Plain value types; thread-safe.
#ifndef TIERBENCH_VALIDITY_CELL_EVIDENCE_H_
#define TIERBENCH_VALIDITY_CELL_EVIDENCE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tierbench {

// One whole disk under the cell's IO and what reached it over the window.
struct DiskActivity {
  std::string disk;       // whole-disk name ("vda")
  uint64_t disk_ios = 0;  // reads + writes of the disk (all partitions)
  uint64_t cell_ios = 0;  // of the partitions the cell uses on it
  // The disk's IO that the cell does not explain (other partitions, other
  // processes): disk_ios - cell_ios, 0 when negative.
  uint64_t OtherIos() const {
    return disk_ios > cell_ios ? disk_ios - cell_ios : 0;
  }
};

// The text the kernel printed at the window's start and end (for the
// evidence file and the tests that replay it): the "cpu" lines of
// /proc/stat and each device's /sys/class/block/<dev>/stat line.
struct RawHostText {
  std::string proc_stat_start, proc_stat_end;
  std::map<std::string, std::string> stat_start, stat_end;  // by device
};

// The machine over the measured window (HostSampler in orchestrate/).
struct HostEvidence {
  // Non-empty: the window was not sampled, and why ("no /proc/stat").
  std::string cpu_unknown_why;
  double window_s = -1;
  int cpus = 0;
  double cpu_busy_pct = -1;  // of all CPUs (util/proc_stat.h)
  double cpu_steal_pct = -1;
  double cpu_iowait_pct = -1;
  // The device IO went to ("vda4", "bcache0"); "" when not a block device.
  std::string target;
  double target_busy_pct = -1;           // delta io_ticks / window
  int64_t target_in_flight_before = -1;  // IOs in flight at the start
  int64_t target_flush_ios = -1;         // flushes over the window
  int64_t target_read_bytes = -1;        // bytes read over the window
  // Non-empty: the disks were not sampled, and why.
  std::string disks_unknown_why;
  std::vector<DiskActivity> disks;
  RawHostText raw;
};

// A DB cell's database and server (db/db_cell.h DbCellInfo).
struct DbEvidence {
  bool is_db = false;
  int scale = 0;
  int clients = 0;
  int64_t db_size_bytes = -1;         // after the load
  int64_t shared_buffers_bytes = -1;  // as the server reports it
  int64_t mem_total_bytes = -1;       // the machine's RAM
  int restarted_after_load = -1;      // 1 yes, 0 no, -1 unknown
  double server_cpu_s = -1;           // the server's processes, measured
  // Bytes read from the cell's target device over the measured window
  // (HostEvidence::target_read_bytes); -1 unknown.
  int64_t device_read_bytes = -1;
};

}  // namespace tierbench

#endif  // TIERBENCH_VALIDITY_CELL_EVIDENCE_H_
