// LabPowerCut: `tierbench lab --power-cut` - does a cache layer keep every
// acknowledged write when the power goes while it holds dirty data?
//
// Run() (1) finds or builds the guest and makes the disks
// (lab/lab_workspace.h), (2) boots guest 1 (scripts/lab/init with lab.conf
// SCENARIO=power-cut POWER_CUT_PHASE=write, which runs scripts/lab/power-cut
// from the input tar): per layer it builds the stack in writeback with
// writeback held off (bcache: writeback_running 0, writeback_delay 600,
// sequential_cutoff 0, no congestion bypass; dm-cache: migration_threshold
// 0; dm-writecache: its defaults, whose watermarks hold 16 MiB), writes
// PowerCutJobText(false) through it and records the dirty data; then it
// prints "@@LAB:cut" and the host SIGKILLs QEMU at once (no guest
// shutdown). (3) Guest 2 boots on the same image files
// (POWER_CUT_PHASE=recover): per layer it reads the bare origin with the
// verify job (the blocks it lacks held only in the cache), puts the stack
// back (bcache: register cache then backing; dm: the same tables, metadata
// kept), timing it, and reads everything back through the stack with the
// verify job. (4) The results come back into <results>/<run-id>/ (lab/
// holds both boots' files; boot 1's under lab/boot-1/; console-1.log and
// console-2.log), the rows are built (lab/power_cut_record.h) and go to the
// reporters (report/power_cut_reporter.h: power-cut.csv and a console line
// per layer).
//
// The power cut runs undilated (lab/lab_dilation.h): no CPU calibration,
// the disks at the limits given (--hdd-iops etc.), whatever --dilation
// says; it checks data, not speed.
//
// Killing QEMU keeps what QEMU already wrote to the image files, so the cut
// models losing the machine's memory, not a disk's volatile write cache.
// For that, boot 2 then runs the log-replay check per layer
// (scripts/lab/power-cut lr_layer, on the raw partitions the cut leaves
// unused): a second stack has its whole cache side under dm-log-writes;
// kLogReplayRounds verified rounds are written, each flushed and marked;
// then per mark the cache side is rebuilt from the log up to that mark
// alone (`tierbench replay-log`, io/write_log.h), the stack is put back on
// it and on a copy of the origin, every round before the mark must read
// back intact and the round after it must be missing. The rows go to
// log-replay.csv (report/power_cut_reporter.h). Its limit: only the cache
// side is logged; the origin keeps its last state (with writeback held
// off, only bcache's superblock changes there).
//
// Errors: ConfigError (a layer without a power-cut, e.g. lvmcache; the run
// directory exists), SysError (QEMU or the guest failed, timed out, the
// guest never cut, or left results that do not parse; messages name the
// console log), RunError when a layer lost a write or the cut proved
// nothing (no dirty data, or the origin had every block), and when a log
// replay mark lost a block or held the round after it: the results and
// reports are written first. InterruptedError on SIGINT/SIGTERM.
//
// Thread-safety: one LabPowerCut per thread.
#ifndef TIERBENCH_LAB_LAB_POWER_CUT_H_
#define TIERBENCH_LAB_LAB_POWER_CUT_H_

#include <ostream>
#include <string>
#include <vector>

#include "lab/lab_runner.h"
#include "report/power_cut_reporter.h"
#include "util/status.h"

namespace tierbench {

// The layers --power-cut runs by default: bcache, dm-cache, dm-writecache.
std::vector<std::string> PowerCutLayers();

// OK when every layer has a power cut; InvalidArgument naming the first
// that has none (lvmcache) and the ones that do.
Status CheckPowerCutLayers(const std::vector<std::string>& layers);

// lab.conf for one boot of the power cut: LabConfText() plus SCENARIO and
// POWER_CUT_PHASE ("write" or "recover"). Pure.
std::string PowerCutConfText(const LabOptions& options,
                             const std::string& run_id,
                             const std::string& phase);

class LabPowerCut {
 public:
  // Uses the machine, path and layer fields of `options` (the compare
  // fields must be empty: the CLI refuses them). The reporters (a
  // PowerCutReporter on <run dir> and `console`) get OnPowerCut and
  // Finalize.
  LabPowerCut(LabOptions options, std::ostream& console);

  PowerCutRun Run();

 private:
  LabOptions options_;
  std::ostream& console_;
};

}  // namespace tierbench

#endif  // TIERBENCH_LAB_LAB_POWER_CUT_H_
