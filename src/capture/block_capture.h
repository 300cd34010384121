// A block device's IO recorded with Debian's blktrace (issue 30), for
// `tierbench capture` (cli/capture_session.h) and compare's
// --capture-replay (orchestrate/capture_replay.h):
//  1. Start: blktrace -d DEV -D OUTDIR/raw -o NAME, its output in
//     OUTDIR/raw/blktrace.log. blktrace prints nothing when it starts; it
//     creates its per-CPU files (NAME.blktrace.N) while it sets up and
//     starts the trace right after, so Start waits for the first of them
//     (up to kCaptureStartTimeoutMs; blktrace exiting first is an error
//     naming its log) and then kCaptureSettleMs more.
//  2. (the caller's IO)
//  3. Finish: blktrace is stopped with SIGINT and waited for (its own
//     summary stays in its log);
//  4. blkparse -i NAME -D OUTDIR/raw -o OUTDIR/NAME.blkparse.txt (the
//     default text, the per-CPU files merged in time order);
//  5. the text is read as a blkparse trace (tracefile/trace_reader.h:
//     ISSUE (D) events, the requests as the device saw them) and the
//     device's volume (its MAJ,MIN) written as OUTDIR/NAME.iolog, a fio
//     iolog v3 (tracefile/capture_iolog.h) whose file is the device path;
//     a partition's requests are made relative to its start.
// NAME is the device's base name (loop0 for /dev/loop0).
//
// Errors: CheckCapture (before anything is written or started, in this
// order): --duration and a command both or neither given, --duration not
// positive, OUTDIR a non-empty folder or not a folder, a command not found
// -> ConfigError (2); blktrace or blkparse not on PATH (fix: apt-get
// install blktrace), DEV missing or not a block device, not root, debugfs
// not mounted (no DEBUGFS/block; fix: mount -t debugfs none
// /sys/kernel/debug) -> SysError (3). A caller that runs the IO itself
// (CaptureRequest::caller_runs_io) skips the checks of --duration and the
// command (the output folder is still checked). BlockCapture:
// blktrace that does not start, or blkparse that fails -> SysError (3)
// naming its log or output; blktrace that ended before Finish stopped it,
// or whose summary counts dropped events, or no request of DEV in the
// trace -> RunError (1).
//
// Not thread-safe (it starts processes and waits for them).
#ifndef TIERBENCH_CAPTURE_BLOCK_CAPTURE_H_
#define TIERBENCH_CAPTURE_BLOCK_CAPTURE_H_

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "tracefile/capture_iolog.h"

namespace tierbench {

inline constexpr int kCaptureStartTimeoutMs = 10'000;
inline constexpr int kCaptureSettleMs = 500;

struct CaptureRequest {
  std::string device;                // --device
  std::string out_dir;               // --out
  double duration_s = 0;             // --duration; 0: not given
  std::vector<std::string> command;  // after --; empty: not given
  // The caller runs the IO itself (compare --capture-replay): neither
  // --duration nor a command is checked.
  bool caller_runs_io = false;
};

// What the checks found and the run needs.
struct CapturePlan {
  std::string blktrace, blkparse;  // absolute paths
  std::string command_path;        // argv[0] resolved; empty for --duration
  std::string name;                // the device's base name
  std::string volume;              // "MAJ,MIN" as blkparse prints it
  // A partition's start on its disk in bytes (sysfs
  // /sys/dev/block/MAJ:MIN/start x 512; 0 for a whole device): blktrace
  // reports a partition's sectors from the disk's start.
  uint64_t start_bytes = 0;
};

// The machine's side of the checks, a seam for tests.
struct CaptureHostChecks {
  std::string debugfs = "/sys/kernel/debug";
  std::string sys_dev_block = "/sys/dev/block";  // MAJ:MIN/start
  bool root = true;  // the caller is root (geteuid() == 0)
};

// The checks above; nothing is written.
CapturePlan CheckCapture(const CaptureRequest& request,
                         const CaptureHostChecks& host);

struct CaptureOutcome {
  int command_exit = 0;      // COMMAND's exit status (128 + signal); 0 for
                             // --duration
  bool interrupted = false;  // SIGINT/SIGTERM ended the capture
  std::string blkparse_text, iolog;  // the paths written
  CaptureIoLogCounts counts;
};

// One capture: Start (step 1) in the constructor, Finish (steps 3-5). The
// destructor stops a tracer still running (SIGINT, then waits), so an
// exception between the two leaves no blktrace behind.
class BlockCapture {
 public:
  BlockCapture(const CaptureRequest& request, const CapturePlan& plan);
  ~BlockCapture();
  BlockCapture(const BlockCapture&) = delete;
  BlockCapture& operator=(const BlockCapture&) = delete;

  // Step 3 alone: the trace ends here (blktrace stopped with SIGINT and
  // waited for); Finish parses it later. Never throws; idempotent.
  void StopTracing() noexcept { Stop(); }

  // Steps 3-5 (3 unless StopTracing did it); `command_exit` (a command's
  // status, for the message when the trace is empty; -1: none). Fills every
  // field of the outcome but command_exit and interrupted. Call once.
  CaptureOutcome Finish(int command_exit = -1);

  // blktrace's log (OUTDIR/raw/blktrace.log).
  const std::string& log() const { return log_; }

 private:
  struct Tracer;
  void Stop() noexcept;

  CaptureRequest request_;
  CapturePlan plan_;
  std::string raw_, log_;
  std::unique_ptr<Tracer> tracer_;
};

}  // namespace tierbench

#endif  // TIERBENCH_CAPTURE_BLOCK_CAPTURE_H_
