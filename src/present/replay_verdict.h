// ReplayVerdict: the latency line of a workload that replays a trace at its
// recorded times (open loop), for the verdict (present/verdict.h).
//
// Such a replay issues each IO at its recorded time whatever the device
// does (read_iolog= without replay_no_stall, every job; manifest.json's
// workloads[].jobs[] say so), so every mode that keeps up with the trace
// delivers the trace's IOPS, and throughput cannot tell the modes apart:
// what differs is how long each IO took. After the throughput line, the
// valid, steady modes are ordered by their median latency (p50, the
// median over the repetitions) per direction, each with its p99:
//   "pgbench-tpcb-replay replays its trace at the recorded times (open
//   loop), so its IOPS follow the trace, not the modes; by median latency:
//   writes: writeback 1.1 ms (p99 4.8 ms), hdd 40 ms (p99 76 ms) and
//   writethrough 41 ms (p99 77 ms); reads: ..."
// In the lab (manifest label lab.hdd_iops), the modes are not ranked when
// the raw HDD's replay had a median latency below 1 / lab.hdd_iops: the
// lab's HDD is a file QEMU throttles, which below its limit answers in the
// host's time with no seek, so no figure was a disk's; the line says so
// instead (a real HDD has its seek at any load). When the raw HDD's are a
// disk's, a cache mode's figure can still be the host's: a cache that
// took one direction's IO left the HDD below its limit for the other
// (writeback absorbing the writes, its cold reads missing). A cache
// figure whose direction sent at least half of its bytes to the HDD
// (runs.csv hdd_<dir>_bytes / stack_<dir>_bytes) with a median under
// 1 / lab.hdd_iops is left out of the ranking, and the line names it
// ("left out: writeback's reads (they went to the lab's HDD ...)").
// Invalid or drifted cells are left out (the throughput line names them);
// a direction with fewer than two such modes is left out, and without any
// direction there is no line. A workload that is no open-loop replay (or a
// manifest without its jobs) gets none.
// Pure over the run folder; thread-safe.
#ifndef TIERBENCH_PRESENT_REPLAY_VERDICT_H_
#define TIERBENCH_PRESENT_REPLAY_VERDICT_H_

#include <optional>
#include <string>

#include "present/run_folder.h"
#include "present/verdict.h"

namespace tierbench {

// Every job of `workload` (manifest.json) replays a trace at its recorded
// times.
bool IsOpenLoopReplay(const RunFolder& run, const std::string& workload);

// In a lab run, the time the lab's HDD takes per IO at its IOPS limit
// (1e6 / label lab.hdd_iops) in µs; 0 outside the lab.
double LabHddServiceUs(const RunFolder& run);

std::optional<VerdictLine> ReplayLatencyLine(const RunFolder& run,
                                             const std::string& workload);

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_REPLAY_VERDICT_H_
