// `tierbench capture` (issue 30 item 1): a device's block IO recorded with
// Debian's blktrace while a command runs (or for a duration), merged with
// blkparse and written as a fio iolog that read_iolog= replays
// (capture/block_capture.h: the checks and the steps), then the iolog's
// profile (trace/trace_profile.h, as trace-stats prints it).
//
// Errors: CheckCapture's and BlockCapture's (capture/block_capture.h); a
// command that cannot be started -> SysError (3).
//
// Not thread-safe (it starts processes and waits for them).
#ifndef TIERBENCH_CLI_CAPTURE_SESSION_H_
#define TIERBENCH_CLI_CAPTURE_SESSION_H_

#include <ostream>

#include "capture/block_capture.h"

namespace tierbench {

// Traces r.device while r.command runs (or for r.duration_s), then writes
// the iolog and prints the counts and the profile to `out`. Throws as
// above.
CaptureOutcome RunCapture(const CaptureRequest& request,
                          const CapturePlan& plan, std::ostream& out);

}  // namespace tierbench

#endif  // TIERBENCH_CLI_CAPTURE_SESSION_H_
