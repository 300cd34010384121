// A device's IO recorded with blktrace (capture/block_capture.h).
#include "capture/block_capture.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/process.hpp>
#include <boost/process/extend.hpp>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "tracefile/trace_reader.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/log.h"
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
  const bool caller_runs_io = r.caller_runs_io;
  if (!caller_runs_io && has_command == has_duration) {
    throw ConfigError(
        std::string("tierbench capture needs ") +
        (has_command ? "either --duration or a command, not both"
                     : "--duration S or a command after --") +
        ". Fix: `tierbench capture --device DEV -- COMMAND ARGS...` traces "
        "while COMMAND runs; `--duration S` traces for S seconds");
  }
  if (!caller_runs_io && has_duration && !(r.duration_s > 0)) {
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
  if (has_command && !caller_runs_io) {
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

struct BlockCapture::Tracer {
  bp::child child;
  bool stopped = false;
  bool exited_early = false;  // it ended before it was stopped
  int exit = -1;              // blktrace's status once stopped
};

BlockCapture::BlockCapture(const CaptureRequest& r, const CapturePlan& plan)
    : request_(r),
      plan_(plan),
      raw_(CaptureRawDir(r)),
      log_(raw_ + "/blktrace.log"),
      tracer_(std::make_unique<Tracer>()) {
  std::error_code ec;
  fs::create_directories(raw_, ec);
  if (ec) {
    throw SysError("Cannot create " + raw_ + ": " + ec.message() +
                   ". Fix: check that the output folder's parent is "
                   "writable");
  }
  bp::child& tracer = tracer_->child;
  try {
    // Stop() ends it with SIGINT, so it starts with SIGINT's default
    // action: a process started in the background of a shell without job
    // control has SIGINT ignored, its children inherit that, and a tracer
    // that does not set its own handler (a shell script: a trap cannot
    // take a signal ignored on entry) would never stop (CI, 2026-12-05:
    // the unit tests' stand-in blktrace hung both shards).
    tracer = bp::child(
        bp::exe = plan.blktrace,
        bp::args = std::vector<std::string>{"-d", r.device, "-D", raw_, "-o",
                                            plan.name},
        (bp::std_out & bp::std_err) > log_, bp::std_in < bp::null,
        bp::extend::on_exec_setup = [](auto&) {
          ::signal(SIGINT, SIG_DFL);
          ::signal(SIGTERM, SIG_DFL);
        });
  } catch (const bp::process_error& e) {
    throw SysError("cannot run '" + plan.blktrace + "'. SysErr: " + e.what());
  }
  // blktrace prints nothing when it starts: its per-CPU files show that it
  // set the trace up.
  const uint64_t deadline =
      NowNs() + uint64_t{kCaptureStartTimeoutMs} * 1'000'000;
  while (!CaptureTraceFileExists(raw_, plan.name)) {
    if (!tracer.running()) {
      // It may have set the trace up and ended between the two checks
      // (ci60, under ASan): its files say which. Ended after setting up, it
      // is a trace cut short, which Finish() refuses.
      if (CaptureTraceFileExists(raw_, plan.name)) break;
      tracer.wait();
      tracer_->stopped = true;
      throw SysError("blktrace exited (status " +
                     std::to_string(CaptureExitOf(tracer)) +
                     ") before tracing " + r.device + ": " +
                     TailForMessage(CaptureReadFile(log_)) + ". Log: " + log_ +
                     "; Fix: check that the kernel has blktrace "
                     "(CONFIG_BLK_DEV_IO_TRACE) and debugfs is mounted");
    }
    if (NowNs() > deadline) {
      Stop();  // SIGINT: SIGKILL would leave the trace set up
      throw SysError("blktrace did not start tracing " + r.device + " within " +
                     std::to_string(kCaptureStartTimeoutMs) + " ms (no " +
                     raw_ + "/" + plan.name + ".blktrace.N). Log: " + log_);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(kCaptureSettleMs));
}

BlockCapture::~BlockCapture() { Stop(); }

void BlockCapture::Stop() noexcept {
  if (tracer_->stopped) return;
  tracer_->stopped = true;
  try {
    bp::child& tracer = tracer_->child;
    if (!tracer.valid()) return;
    if (tracer.running()) {
      ::kill(tracer.id(), SIGINT);
    } else {
      tracer_->exited_early = true;
    }
    tracer.wait();
    tracer_->exit = CaptureExitOf(tracer);
  } catch (...) {
  }
}

CaptureOutcome BlockCapture::Finish(int command_exit) {
  CaptureOutcome outcome;
  Stop();
  const int tracer_exit = tracer_->exit;
  const std::string tracer_log = CaptureReadFile(log_);
  // A trace blktrace ended on its own, or that lost events, is not the IO
  // that ran: refused rather than replayed as if whole.
  if (tracer_->exited_early) {
    throw RunError("blktrace exited (status " + std::to_string(tracer_exit) +
                   ") before the capture of " + request_.device +
                   " ended: the trace is cut short. " +
                   TailForMessage(tracer_log) + " Log: " + log_);
  }
  for (size_t at = tracer_log.find("(dropped "); at != std::string::npos;
       at = tracer_log.find("(dropped ", at + 1)) {
    const unsigned long long dropped =
        std::strtoull(tracer_log.c_str() + at + 9, nullptr, 10);
    if (dropped > 0) {
      throw RunError("blktrace dropped " + std::to_string(dropped) +
                     " events while it traced " + request_.device +
                     ": the trace is incomplete. Log: " + log_ +
                     "; Fix: capture again on a less busy machine");
    }
  }
  if (tracer_exit != 0 && tracer_exit != 128 + SIGINT) {
    LogWarning("blktrace exited with status " + std::to_string(tracer_exit) +
               " (log: " + log_ + ")");
  }
  const CaptureRequest& r = request_;
  outcome.blkparse_text = r.out_dir + "/" + plan_.name + ".blkparse.txt";
  const ProcessOutcome parsed =
      RunProcess({plan_.blkparse, "-i", plan_.name, "-D", raw_, "-o",
                  outcome.blkparse_text});
  if (parsed.exit_code != 0) {
    throw SysError(
        "blkparse failed (status " + std::to_string(parsed.exit_code) +
        "): " + TailForMessage(parsed.output) + ". Raw files: " + raw_);
  }
  ParsedTrace trace;
  try {
    trace = ParseTrace(CaptureReadFile(outcome.blkparse_text),
                       outcome.blkparse_text, TraceFormat::kBlkparse);
  } catch (const ConfigError& e) {
    throw RunError("The capture of " + r.device +
                   " holds no request: " + e.what() +
                   (command_exit < 0 ? ""
                                     : " (the command exited with " +
                                           std::to_string(command_exit) + ")"));
  }
  uint32_t volume = 0;
  const auto it =
      std::find(trace.volumes.begin(), trace.volumes.end(), plan_.volume);
  if (it != trace.volumes.end()) {
    volume = static_cast<uint32_t>(it - trace.volumes.begin());
  } else if (trace.volumes.size() != 1) {
    throw RunError("The capture of " + r.device + " (" + plan_.volume +
                   ") holds requests of other devices only. Trace: " +
                   outcome.blkparse_text);
  }
  const CaptureIoLog log =
      CaptureIoLogOf(trace, volume, r.device, plan_.start_bytes);
  outcome.counts = log.counts;
  outcome.iolog = r.out_dir + "/" + plan_.name + ".iolog";
  WriteFileAtomically(outcome.iolog, log.text,
                      "check that the output folder is writable");
  return outcome;
}

}  // namespace tierbench
