// PowerCutReporter: the output of `tierbench lab --power-cut`
// (lab/lab_power_cut.h), behind the Reporter interface (record/reporter.h,
// event OnPowerCut): power-cut.csv, report.html and summary.md (present/
// pages/scenario_report.h) in the run folder and one console line per
// layer.
//
// power-cut.csv (schema_version 1; every column documented in
// results/README.md), one row per layer in the order the lab ran them:
//   schema_version, layer, device, blocks_written, block_bytes,
//   dirty_bytes_at_cut, dirty_at_cut, blocks_origin_lacked, recovery_ms,
//   blocks_checked, mismatches, result, cut_after_s
// `result` is PowerCutVerdict(): "intact", "lost" or "unproven".
//
// log-replay.csv (schema_version 1; results/README.md), written when the run
// has a log-replay check (lab/log_replay_record.h), one row per mark:
//   schema_version, layer, mark, entries_replayed, state_after_replay,
//   blocks_expected, blocks_checked, mismatches, next_round_blocks,
//   next_round_lacked, result
// `result` is LogReplayVerdict().
//
// Errors: OnPowerCut throws SysError naming power-cut.csv when it cannot be
// written. Not thread-safe.
#ifndef TIERBENCH_REPORT_POWER_CUT_REPORTER_H_
#define TIERBENCH_REPORT_POWER_CUT_REPORTER_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "record/reporter.h"

namespace tierbench {

inline constexpr int kPowerCutCsvSchemaVersion = 1;
inline constexpr int kLogReplayCsvSchemaVersion = 1;

// One cache layer through the power cut.
struct PowerCutLayer {
  std::string layer;            // lab layer name, e.g. "bcache"
  std::string device;           // the stack's device in the guest
  uint64_t blocks_written = 0;  // acknowledged writes before the cut
  uint64_t block_bytes = 0;     // bytes per written block
  std::string write_error;      // the write job's error ("" when none)
  uint64_t dirty_bytes_at_cut = 0;
  std::string dirty_at_cut;  // as the layer shows it ("16.0M", "512 x 32 KiB")
  // Written blocks whose verify header or checksum failed on the bare
  // origin device before recovery: the data only the cache held.
  uint64_t blocks_origin_lacked = 0;
  double recovery_ms = 0;       // re-register/re-create until the device is up
  uint64_t blocks_checked = 0;  // read back through the recovered stack
  uint64_t mismatches = 0;      // of those, bad header or checksum
  std::string verify_error;     // the verify job's error ("" when none)
};

// One mark of the log-replay check: the cache device rebuilt from its
// dm-log-writes log up to the mark (what a disk that honours flushes holds
// after a power cut there), the stack put back on it, and the rounds
// written before the mark read back; the round after the mark must be
// missing, or the replay did not stop at the mark.
struct LogReplayMark {
  std::string layer;               // lab layer name, e.g. "bcache"
  std::string mark;                // "r0"
  uint64_t entries_replayed = 0;   // log entries up to the mark
  uint64_t blocks_expected = 0;    // acknowledged blocks of rounds 0..mark
  uint64_t blocks_checked = 0;     // of those, read back
  uint64_t mismatches = 0;         // bad header or checksum
  uint64_t next_round_blocks = 0;  // 0 after the last mark
  uint64_t next_round_lacked = 0;  // of those, not there (bad or missing)
  std::string error;               // a failed replay or verify job
  // What the layer says once put back on the replayed cache: bcache's
  // state and dirty_data ("dirty 3.6M": the dirty data it found in the
  // replayed journal, less what writeback wrote before it was held off),
  // a dm layer's status line.
  std::string state_after_replay;
};

// A whole power-cut run.
struct PowerCutRun {
  std::string run_dir;
  double cut_after_s = 0;    // seconds from boot 1's start to the kill
  double guest_seconds = 0;  // both boots
  std::vector<PowerCutLayer> layers;
  std::vector<LogReplayMark> log_replay;  // empty: no log-replay check
};

// "lost" when a block was not read back intact (mismatches, fewer blocks
// checked than written, or a failed write/verify job); "unproven" when all
// came back but the cut found no dirty data or the origin already had every
// block (the cut tested nothing); else "intact".
std::string PowerCutVerdict(const PowerCutLayer& layer);

// The column names of power-cut.csv after schema_version, in order.
std::vector<std::string> PowerCutCsvColumns();

// "lost" when a block up to the mark was not read back intact (or a job
// failed); "unproven" when the round after the mark was there (the replay
// held writes from after the mark: the check proved nothing); else
// "intact".
std::string LogReplayVerdict(const LogReplayMark& mark);

// The column names of log-replay.csv after schema_version, in order.
std::vector<std::string> LogReplayCsvColumns();

// "log replay: bcache at mark r1: 271 log entries (after replay: dirty
// 3.6M); 128 of 128 blocks checked, 0 mismatches; the next round's 64 of
// 64 blocks missing: intact".
std::string LogReplayConsoleLine(const LogReplayMark& mark);

class PowerCutReporter : public Reporter {
 public:
  // Writes <run_dir>/power-cut.csv (and log-replay.csv when the run has
  // marks); console lines go to `console`.
  PowerCutReporter(std::string run_dir, std::ostream& console);

  void OnPowerCut(const PowerCutRun& run) override;

 private:
  std::string run_dir_;
  std::ostream& console_;
};

// The console line of one layer, e.g. "power cut: bcache (/dev/bcache0):
// 16.0M dirty at the cut, 512 of 512 blocks only in the cache; recovered in
// 80 ms; 512 blocks checked, 0 mismatches: intact".
std::string PowerCutConsoleLine(const PowerCutLayer& layer);

}  // namespace tierbench

#endif  // TIERBENCH_REPORT_POWER_CUT_REPORTER_H_
