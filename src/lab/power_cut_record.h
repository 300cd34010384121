// What the power-cut guest (scripts/lab/power-cut) leaves behind, turned
// into PowerCutLayer rows (report/power_cut_reporter.h), and the fio job
// files it runs. All functions are pure and thread-safe.
//
// The guest writes lab/power-cut.txt, one "<layer>.<key>=<value>" line per
// fact (the value runs to the end of the line and may hold blanks):
//   boot 1 (before the cut)   device, write_rc, and the dirty data at the
//                             cut: bcache dirty (its dirty_data, e.g.
//                             "16.0M") and state; dm layers table and
//                             status (`dmsetup table|status` lines)
//   boot 2 (after the cut)    origin_rc, recovery_ms, recovered (bcache
//                             state or dm status line), verify_rc
// and the log-replay check's <layer>.lr_* lines (see LogReplayFromGuest);
// and, per layer, the JSON reports (`tierbench run
// --output-format json`) of three runs of the jobs below:
// lab/power-cut/<layer>-write.json (boot 1, through the stack),
// <layer>-origin.json (boot 2, the bare origin before the stack is put back)
// and <layer>-verify.json (boot 2, through the recovered stack).
#ifndef TIERBENCH_LAB_POWER_CUT_RECORD_H_
#define TIERBENCH_LAB_POWER_CUT_RECORD_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "report/power_cut_reporter.h"
#include "util/status.h"

namespace tierbench {

// The data the power-cut writes per layer: 16 MiB in 32 KiB blocks.
inline constexpr uint64_t kPowerCutBytes = 16ull << 20;
inline constexpr uint64_t kPowerCutBlockBytes = 32ull << 10;

// The write job: sequential 32 KiB O_DIRECT writes of kPowerCutBytes with
// fio's verify=crc32c headers, no verify phase, end_fsync=1 (every write
// acknowledged and flushed before the job ends). With `verify_only` the
// same job reads everything back and checks it instead (verify_only=1,
// continue_on_error=verify: every bad block is counted, none stops it).
std::string PowerCutJobText(bool verify_only);

// The same job named `name` on [offset, offset + bytes) (whole KiB).
std::string VerifiedWriteJobText(const std::string& name, uint64_t offset,
                                 uint64_t bytes, bool verify_only);

// The log-replay check (scripts/lab/power-cut lr_check): kLogReplayRounds
// rounds of kLogReplayRoundBytes each, round N at N x kLogReplayRoundBytes,
// each acknowledged, flushed and then marked "rN" in the dm-log-writes log.
inline constexpr int kLogReplayRounds = 4;
inline constexpr uint64_t kLogReplayRoundBytes = 2ull << 20;
std::string LogReplayJobText(int round, bool verify_only);

// "<layer>.<key>" -> value of power-cut.txt. Lines without '=' or without
// a '.' before it are ignored; a later line wins.
using PowerCutRecord = std::map<std::string, std::string>;
PowerCutRecord ParsePowerCutRecord(const std::string& text);

// The params of a `dmsetup table|status` line "<start> <length> <target>
// <params...>" of target `target`; false when it is not one.
bool DmParams(const std::string& line, const std::string& target,
              std::string* params);

// The value of "<layer>.<key>", nullptr when the record has none.
const std::string* FindRecordLine(const PowerCutRecord& record,
                                  const std::string& layer,
                                  const std::string& key);

// The one job of a `tierbench run --output-format json` report.
struct PowerCutJobReport {
  uint64_t write_ios = 0;  // write.total_ios
  uint64_t verify_blocks = 0;
  uint64_t verify_errors = 0;
  std::string error;  // error_message ("" when none)
};
// InvalidArgument when `json` is not such a report (not JSON, no job,
// more than one job, no verify counts).
Status ParsePowerCutJobReport(const std::string& json, PowerCutJobReport* out);

// The dirty data of `layer` at the cut from its record lines: bcache's
// dirty_data; dm-cache's dirty blocks x cache block size; dm-writecache's
// used blocks (total - free) x its block size. *text is how the layer
// shows it ("16.0M", "512 x 32 KiB"). InvalidArgument when the lines are
// missing or do not parse.
Status PowerCutDirtyAtCut(const std::string& layer,
                          const PowerCutRecord& record, uint64_t* bytes,
                          std::string* text);

// One row from the record and the three JSON reports (their texts; "" for
// a missing file). InvalidArgument naming what is missing or malformed.
Status PowerCutLayerFromGuest(const std::string& layer,
                              const PowerCutRecord& record,
                              const std::string& write_json,
                              const std::string& origin_json,
                              const std::string& verify_json,
                              PowerCutLayer* out);

// The marks of `layer`'s log-replay check from its <layer>.lr_* record
// lines (lr_marks = the number of rounds when it finished, lr_m<K>_replay
// = replay-log's line, lr_m<K>_state = the layer's state on the replayed
// cache) and the verify reports log-replay/<layer>/m<K>-r<N>.json (mark K,
// round N <= K + 1), which `read_json` returns by that name ("" when
// missing). InvalidArgument naming what is missing or malformed.
Status LogReplayFromGuest(
    const std::string& layer, const PowerCutRecord& record, int rounds,
    const std::function<std::string(const std::string&)>& read_json,
    std::vector<LogReplayMark>* out);

}  // namespace tierbench

#endif  // TIERBENCH_LAB_POWER_CUT_RECORD_H_
