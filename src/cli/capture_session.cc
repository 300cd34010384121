// `tierbench capture`'s checks and run (cli/capture_session.h).
#include "cli/capture_session.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <boost/process.hpp>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "trace/trace_profile.h"
#include "tracefile/trace_reader.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/interrupt.h"
#include "util/result_dir.h"
#include "util/subprocess.h"

namespace tierbench {
namespace {

namespace bp = boost::process;
namespace fs = std::filesystem;

// The tool's absolute path on PATH, or "".
std::string CaptureFindOnPath(const std::string& tool) {
  return bp::search_path(tool).string();
}

std::string CaptureRawDir(const CaptureRequest& r) {
  return r.out_dir + "/raw";
}

// A per-CPU file of blktrace's (NAME.blktrace.N) exists in `raw`.
bool CaptureTraceFileExists(const std::string& raw, const std::string& name) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(raw, ec)) {
    if (entry.path().filename().string().rfind(name + ".blktrace.", 0) == 0) {
      return true;
    }
  }
  return false;
}

std::string CaptureReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// "128 + signal" for a child killed by one, else its exit status.
int CaptureExitOf(bp::child& child) {
  const int status = child.native_exit_code();
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : status;
}

}  // namespace

CapturePlan CheckCapture(const CaptureRequest& r,
                         const CaptureHostChecks& host) {
  CapturePlan plan;
  const bool has_command = !r.command.empty();
  const bool has_duration = r.duration_s != 0;
  if (has_command == has_duration) {
    throw ConfigError(
        std::string("tierbench capture needs ") +
        (has_command ? "either --duration or a command, not both"
                     : "--duration S or a command after --") +
        ". Fix: `tierbench capture --device DEV -- COMMAND ARGS...` traces "
        "while COMMAND runs; `--duration S` traces for S seconds");
  }
  if (has_duration && !(r.duration_s > 0)) {
    throw ConfigError(
        "Bad value for --duration. Value: " + std::to_string(r.duration_s) +
        "; Fix: a number of seconds above 0");
  }
  std::error_code ec;
  if (fs::exists(r.out_dir, ec)) {
    if (!fs::is_directory(r.out_dir, ec)) {
      throw ConfigError("--out " + r.out_dir +
                        " is not a folder. Fix: pass a new or empty folder");
    }
    if (!fs::is_empty(r.out_dir, ec)) {
      throw ConfigError("--out " + r.out_dir +
                        " is not empty (capture never mixes two traces). "
                        "Fix: pass a new or empty folder");
    }
  }
  if (has_command) {
    const std::string& argv0 = r.command.front();
    plan.command_path = argv0.find('/') != std::string::npos
                            ? (access(argv0.c_str(), X_OK) == 0 ? argv0 : "")
                            : CaptureFindOnPath(argv0);
    if (plan.command_path.empty()) {
      throw ConfigError(
          "The command to capture, '" + argv0 + "', is not an executable" +
          (argv0.find('/') != std::string::npos ? std::string() : " on PATH") +
          ". Fix: give its path or install it");
    }
  }
  plan.blktrace = CaptureFindOnPath("blktrace");
  plan.blkparse = CaptureFindOnPath("blkparse");
  for (const char* tool : {"blktrace", "blkparse"}) {
    if ((tool == std::string("blktrace") ? plan.blktrace : plan.blkparse)
            .empty()) {
      throw SysError(std::string(tool) +
                     " is not on PATH (tierbench capture runs blktrace and "
                     "blkparse). Fix: apt-get install blktrace");
    }
  }
  struct stat st {};
  if (::stat(r.device.c_str(), &st) != 0) {
    throw SysError("--device " + r.device + ": " + std::strerror(errno) +
                   ". Fix: pass a block device (lsblk lists them)");
  }
  if (!S_ISBLK(st.st_mode)) {
    throw SysError("--device " + r.device +
                   " is not a block device. Fix: pass a block device "
                   "(lsblk lists them)");
  }
  plan.name = fs::path(r.device).filename().string();
  plan.volume = std::to_string(major(st.st_rdev)) + "," +
                std::to_string(minor(st.st_rdev));
  {
    // Only a partition has a start file.
    std::ifstream start(host.sys_dev_block + "/" +
                        std::to_string(major(st.st_rdev)) + ":" +
                        std::to_string(minor(st.st_rdev)) + "/start");
    uint64_t sectors = 0;
    if (start >> sectors) plan.start_bytes = sectors * 512;
  }
  if (!host.root) {
    throw SysError(
        "tierbench capture needs root: blktrace sets up the kernel's block "
        "trace. Fix: run it as root (sudo)");
  }
  if (!fs::is_directory(host.debugfs + "/block", ec)) {
    throw SysError("debugfs is not mounted (" + host.debugfs +
                   "/block is missing), where blktrace reads the trace. "
                   "Fix: mount -t debugfs none " +
                   host.debugfs);
  }
  return plan;
}

CaptureOutcome RunCapture(const CaptureRequest& r, const CapturePlan& plan,
                          std::ostream& out) {
  CaptureOutcome outcome;
  const std::string raw = CaptureRawDir(r);
  std::error_code ec;
  fs::create_directories(raw, ec);
  if (ec) {
    throw SysError("Cannot create " + raw + ": " + ec.message() +
                   ". Fix: check that --out's parent is writable");
  }
  const std::string blktrace_log = raw + "/blktrace.log";
  bp::child tracer;
  try {
    tracer = bp::child(
        bp::exe = plan.blktrace,
        bp::args = std::vector<std::string>{"-d", r.device, "-D", raw, "-o",
                                            plan.name},
        (bp::std_out & bp::std_err) > blktrace_log, bp::std_in < bp::null);
  } catch (const bp::process_error& e) {
    throw SysError("cannot run '" + plan.blktrace + "'. SysErr: " + e.what());
  }
  // blktrace prints nothing when it starts: its per-CPU files show that it
  // set the trace up.
  const uint64_t deadline =
      NowNs() + uint64_t{kCaptureStartTimeoutMs} * 1'000'000;
  while (!CaptureTraceFileExists(raw, plan.name)) {
    if (!tracer.running()) {
      tracer.wait();
      throw SysError("blktrace exited (status " +
                     std::to_string(CaptureExitOf(tracer)) +
                     ") before tracing " + r.device + ": " +
                     TailForMessage(CaptureReadFile(blktrace_log)) +
                     ". Log: " + blktrace_log +
                     "; Fix: check that the kernel has blktrace "
                     "(CONFIG_BLK_DEV_IO_TRACE) and debugfs is mounted");
    }
    if (NowNs() > deadline) {
      ::kill(tracer.id(), SIGINT);  // SIGKILL would leave the trace set up
      tracer.wait();
      throw SysError("blktrace did not start tracing " + r.device + " within " +
                     std::to_string(kCaptureStartTimeoutMs) + " ms (no " + raw +
                     "/" + plan.name + ".blktrace.N). Log: " + blktrace_log);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(kCaptureSettleMs));
  out << "capture: tracing " << r.device << " (" << plan.volume << ") into "
      << raw << "\n"
      << std::flush;
  if (r.command.empty()) {
    SleepUntilOrInterrupted(NowNs() +
                            static_cast<uint64_t>(r.duration_s * 1e9));
  } else {
    try {
      bp::child command(bp::exe = plan.command_path,
                        bp::args = std::vector<std::string>(
                            r.command.begin() + 1, r.command.end()));
      command.wait();
      outcome.command_exit = CaptureExitOf(command);
    } catch (const bp::process_error& e) {
      ::kill(tracer.id(), SIGINT);
      tracer.wait();
      throw SysError("cannot run '" + plan.command_path +
                     "'. SysErr: " + e.what());
    }
  }
  outcome.interrupted = Interrupted();
  ::kill(tracer.id(), SIGINT);
  tracer.wait();
  const int tracer_exit = CaptureExitOf(tracer);
  if (tracer_exit != 0 && tracer_exit != 128 + SIGINT) {
    out << "capture: warning: blktrace exited with status " << tracer_exit
        << " (log: " << blktrace_log << ")\n";
  }
  outcome.blkparse_text = r.out_dir + "/" + plan.name + ".blkparse.txt";
  const ProcessOutcome parsed = RunProcess(
      {plan.blkparse, "-i", plan.name, "-D", raw, "-o", outcome.blkparse_text});
  if (parsed.exit_code != 0) {
    throw SysError(
        "blkparse failed (status " + std::to_string(parsed.exit_code) +
        "): " + TailForMessage(parsed.output) + ". Raw files: " + raw);
  }
  ParsedTrace trace;
  try {
    trace = ParseTrace(CaptureReadFile(outcome.blkparse_text),
                       outcome.blkparse_text, TraceFormat::kBlkparse);
  } catch (const ConfigError& e) {
    throw RunError(
        "The capture of " + r.device + " holds no request: " + e.what() +
        (r.command.empty() ? ""
                           : " (the command exited with " +
                                 std::to_string(outcome.command_exit) + ")"));
  }
  uint32_t volume = 0;
  const auto it =
      std::find(trace.volumes.begin(), trace.volumes.end(), plan.volume);
  if (it != trace.volumes.end()) {
    volume = static_cast<uint32_t>(it - trace.volumes.begin());
  } else if (trace.volumes.size() != 1) {
    throw RunError("The capture of " + r.device + " (" + plan.volume +
                   ") holds requests of other devices only. Trace: " +
                   outcome.blkparse_text);
  }
  const CaptureIoLog log =
      CaptureIoLogOf(trace, volume, r.device, plan.start_bytes);
  outcome.counts = log.counts;
  outcome.iolog = r.out_dir + "/" + plan.name + ".iolog";
  WriteFileAtomically(outcome.iolog, log.text, "check that --out is writable");
  const CaptureIoLogCounts& c = log.counts;
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
