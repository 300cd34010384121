// `tierbench capture`'s run (cli/capture_session.h).
#include "cli/capture_session.h"

#include <sys/wait.h>

#include <boost/process.hpp>
#include <string>
#include <vector>

#include "trace/trace_profile.h"
#include "tracefile/trace_reader.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/interrupt.h"

namespace tierbench {
namespace {

namespace bp = boost::process;

// "128 + signal" for a child killed by one, else its exit status.
int CaptureCommandExit(bp::child& child) {
  const int status = child.native_exit_code();
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : status;
}

}  // namespace

CaptureOutcome RunCapture(const CaptureRequest& r, const CapturePlan& plan,
                          std::ostream& out) {
  BlockCapture capture(r, plan);
  out << "capture: tracing " << r.device << " (" << plan.volume << ") into "
      << r.out_dir << "/raw\n"
      << std::flush;
  int command_exit = -1;
  if (r.command.empty()) {
    SleepUntilOrInterrupted(NowNs() +
                            static_cast<uint64_t>(r.duration_s * 1e9));
  } else {
    try {
      bp::child command(bp::exe = plan.command_path,
                        bp::args = std::vector<std::string>(
                            r.command.begin() + 1, r.command.end()));
      command.wait();
      command_exit = CaptureCommandExit(command);
    } catch (const bp::process_error& e) {
      throw SysError("cannot run '" + plan.command_path +
                     "'. SysErr: " + e.what());
    }
  }
  const bool interrupted = Interrupted();
  CaptureOutcome outcome = capture.Finish(command_exit);
  outcome.command_exit = command_exit < 0 ? 0 : command_exit;
  outcome.interrupted = interrupted;
  const CaptureIoLogCounts& c = outcome.counts;
  out << "capture: " << c.reads << " reads, " << c.writes << " writes, "
      << c.syncs << " flushes (sync lines) in " << c.span_us / 1000 << " ms";
  if (c.fua > 0) out << "; " << c.fua << " FUA writes replay as plain writes";
  if (c.dropped > 0) {
    out << "; " << c.dropped << " discards or empty requests left out";
  }
  out << "\nblkparse: " << outcome.blkparse_text
      << "\niolog:    " << outcome.iolog << "\n\n";
  if (c.reads + c.writes > 0) {
    TraceReadOptions read;
    read.format = TraceFormat::kIoLog;
    const LoadedTrace written = LoadTrace(outcome.iolog, read);
    out << FormatTraceProfile(ProfileTrace(written.log, TraceStatsOptions()));
  }
  return outcome;
}

}  // namespace tierbench
