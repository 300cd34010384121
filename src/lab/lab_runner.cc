#include "lab/lab_runner.h"

#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <utility>

#include "lab/lab_boot.h"
#include "lab/lab_cpu_loop.h"
#include "lab/lab_guest.h"
#include "lab/lab_layers.h"
#include "lab/lab_qemu.h"
#include "lab/lab_workspace.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/log.h"
#include "util/units.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

std::string Basename(const std::string& path) {
  return fs::path(path).filename().string();
}

std::string LabRunId() { return FormatUtcNow("lab-%Y%m%d-%H%M%S"); }

// Passes of the calibration loop: the host's are cheap (~70 ms each), the
// guest's cost F times as much.
constexpr int kHostCalibrationRepeat = 5;
constexpr int kGuestCalibrationRepeat = 3;
// How long the guest waits for the host's answer (the host answers within
// two QMP round trips), and how long the host waits for the guest's calib
// line from QEMU's start (boot, modules, input tar, the guest's passes).
constexpr int kGuestAnswerTimeoutS = 60;
constexpr uint64_t kHandshakeTimeoutS = 180;

// The files of LabOptions::loop_stack, copied from the source tree that
// holds `scripts_dir` (<src>/scripts/lab) into `dst`: loop-stack (mode
// kept: the guest runs it through its #!/usr/bin/env bash), the two mode
// files and the workload its compare uses.
void AddLoopStackInputs(const std::string& scripts_dir,
                        const std::string& dst) {
  fs::path lab = fs::path(scripts_dir).lexically_normal();
  if (!lab.has_filename()) lab = lab.parent_path();
  const fs::path scripts = lab.parent_path();
  const fs::path source = scripts.parent_path();
  MakeLabDirs(dst + "/modes");
  MakeLabDirs(dst + "/workloads");
  const std::pair<fs::path, std::string> files[] = {
      {scripts / "loop-stack", dst + "/loop-stack"},
      {source / "modes/writethrough.json", dst + "/modes/writethrough.json"},
      {source / "modes/writearound.json", dst + "/modes/writearound.json"},
      {source / "workloads/randwrite-4k.fio",
       dst + "/workloads/randwrite-4k.fio"}};
  for (const auto& [from, to] : files) {
    std::error_code ec;
    fs::copy_file(from, to, ec);
    if (ec) {
      throw SysError("Cannot copy an input of --loop-stack. Path: " +
                     from.string() + "; SysErr: " + ec.message() +
                     "; Fix: pass --guest-scripts <source tree>/scripts/lab");
    }
  }
}

}  // namespace

std::vector<std::string> DiffKnobLines(const std::string& before,
                                       const std::string& after) {
  auto parse = [](const std::string& text) {
    std::map<std::string, std::string> kv;
    std::stringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
      size_t eq = line.find('=');
      if (eq != std::string::npos) kv[line.substr(0, eq)] = line.substr(eq + 1);
    }
    return kv;
  };
  std::map<std::string, std::string> b = parse(before), a = parse(after);
  std::vector<std::string> diffs;
  for (const auto& [name, value] : b) {
    auto it = a.find(name);
    std::string now = it == a.end() ? "(missing)" : it->second;
    if (now != value) diffs.push_back(name + ": " + value + " -> " + now);
  }
  return diffs;
}

std::vector<std::pair<std::string, std::string>> LabLabels(
    const LabOptions& o, const LabMachine& m) {
  auto cache = [](const LabDrive& d) {
    return d.direct_io ? "none" : "writeback";
  };
  return {{"lab.accel", m.kvm ? "kvm" : "tcg"},
          {"lab.cpus", std::to_string(o.cpus)},
          {"lab.memory_mib", std::to_string(o.memory_mib)},
          {"lab.hdd_bytes", std::to_string(o.hdd_bytes)},
          {"lab.ssd_bytes", std::to_string(o.ssd_bytes)},
          {"lab.bucket", o.bucket},
          {"lab.hdd_cache", cache(m.hdd)},
          {"lab.ssd_cache", cache(m.ssd)},
          {"lab.hdd_iops_real", std::to_string(o.hdd_iops)},
          {"lab.hdd_bw_real", std::to_string(o.hdd_bytes_per_sec)},
          {"lab.ssd_iops_real", std::to_string(o.ssd_iops)},
          {"lab.ssd_bw_real", std::to_string(o.ssd_bytes_per_sec)}};
}

std::string LabHandshakeConfText() {
  return "CALIBRATE=on\nCALIBRATE_REPEAT=" +
         std::to_string(kGuestCalibrationRepeat) +
         "\nANSWER_TIMEOUT_S=" + std::to_string(kGuestAnswerTimeoutS) + "\n";
}

LabLimits LabRealLimits(const LabOptions& o) {
  return {o.hdd_iops, o.hdd_bytes_per_sec, o.ssd_iops, o.ssd_bytes_per_sec};
}

std::string LabConfText(const LabOptions& options, const std::string& run_id) {
  std::ostringstream conf;
  conf << "RUN_ID='" << run_id << "'\n"
       << "HDD_SECTORS=" << options.hdd_bytes / kLabSectorBytes << "\n"
       << "SSD_SECTORS=" << options.ssd_bytes / kLabSectorBytes << "\n"
       << "BUCKET='" << options.bucket << "'\n"
       << "INTERRUPT=" << (options.interrupt_compare ? "on-change" : "off")
       << "\n"
       << "INTERRUPT_SIGNAL=" << options.interrupt_signal << "\n"
       << "LOOP_STACK=" << (options.loop_stack ? "on" : "off") << "\n"
       << "HANG_SETUP_ONCE=" << (options.hang_setup_once ? "on" : "off")
       << "\n";
  if (!options.guest_tests.empty())
    conf << "GUEST_TESTS_FILTER='" << options.guest_tests_filter << "'\n";
  std::string layers;
  for (const std::string& l : options.layers)
    layers += (layers.empty() ? "" : " ") + l;
  conf << "LAYERS='" << layers << "'\n"
       << "PART_BCACHE=" << kLabBcachePartition << "\n"
       << "PART_DMCACHE=" << kLabDmCachePartition << "\n"
       << "PART_WRITECACHE=" << kLabWritecachePartition << "\n"
       << "PART_RAW=" << kLabRawPartition << "\n"
       << "DMCACHE_META_SECTORS=" << kLabDmCacheMetaBytes / kLabSectorBytes
       << "\n";
  return conf.str();
}

LabRunner::LabRunner(LabOptions options,
                     std::function<void(const std::string&)> out)
    : options_(std::move(options)), out_(std::move(out)) {}

LabOutcome LabRunner::Run() {
  const LabOptions& o = options_;
  // --- inputs ---------------------------------------------------------------
  Status layers_ok = CheckLabLayers(o.layers);
  if (!layers_ok.ok()) {
    throw ConfigError("Bad lab layers: " + layers_ok.message() +
                      ". Fix: pass --layers with a comma-separated list");
  }
  if (o.workload_files.empty()) {
    throw ConfigError(
        "No workload for the lab. Fix: pass --workloads FILE... or --quick");
  }
  std::set<std::string> names;
  for (const auto* list : {&o.mode_files, &o.workload_files}) {
    for (const std::string& f : *list) {
      if (!fs::is_regular_file(f)) {
        throw ConfigError("Mode or workload file not found. Path: " + f +
                          "; Fix: check --modes/--workloads");
      }
      if (!names.insert(Basename(f)).second) {
        throw ConfigError(
            "Two lab input files share a name. File: " + Basename(f) +
            "; Fix: rename one (the guest keeps them in one directory)");
      }
    }
  }
  std::string run_id = o.run_id.empty() ? LabRunId() : o.run_id;
  const std::string run_dir = CheckLabRunStart(o.results_dir, run_id, o.qemu);

  // --- the guest, the disks, the input tar ---------------------------------
  LabGuest guest = EnsureLabGuest(o);
  const LabAccelChoice accel = ChooseLabAccelFor(o, guest);
  const std::string scripts = LabScriptsDir(o);
  LabWorkspace ws(o);
  const std::string& tmp = ws.dir();
  LabMachine machine = ws.Machine(guest, accel.kvm);
  machine.qmp_socket = ws.qmp_socket();
  NoticeLabDriveCache(machine, LabNoticePrefix(o));
  const std::string in_dir = ws.in_dir();
  MakeLabDirs(in_dir + "/modes");
  MakeLabDirs(in_dir + "/workloads");
  std::ostringstream args;
  auto add_files = [&](const std::string& option, const std::string& sub,
                       const std::vector<std::string>& files) {
    if (files.empty()) return;
    args << option << "\n";
    for (const std::string& f : files) {
      std::error_code ec;
      fs::copy_file(f, in_dir + "/" + sub + "/" + Basename(f), ec);
      if (ec)
        throw SysError("Cannot copy a lab input. Path: " + f +
                       "; SysErr: " + ec.message());
      args << sub << "/" << Basename(f) << "\n";
    }
  };
  add_files("--modes", "modes", o.mode_files);
  add_files("--workloads", "workloads", o.workload_files);
  // The emulated machine, as labels: what tells two lab runs apart when
  // `tierbench report` merges them.
  for (const auto& [key, value] : LabLabels(o, machine)) {
    args << "--label\n" << key << "=" << value << "\n";
  }
  for (const std::string& a : o.compare_args) args << a << "\n";
  WriteLabTextFile(in_dir + "/compare.args", args.str());
  if (!o.guest_tests.empty()) {
    if (!fs::is_regular_file(o.guest_tests)) {
      throw ConfigError("The guest test binary is missing. Path: " +
                        o.guest_tests + "; Fix: build it (scripts/build)");
    }
    const std::string dst = in_dir + "/guest-tests";
    std::error_code ec;
    fs::copy_file(o.guest_tests, dst, ec);
    if (ec) {
      throw SysError("Cannot copy the guest test binary. Path: " +
                     o.guest_tests + "; SysErr: " + ec.message());
    }
    // Debug info only bloats the input disk (50 MB -> 3 MB).
    RunLabToolOrThrow({"strip", "--strip-debug", dst},
                      "Cannot strip the guest test binary (binutils' strip)");
  }
  if (o.loop_stack) AddLoopStackInputs(scripts, in_dir + "/loop-stack");
  WriteLabTextFile(in_dir + "/lab.conf",
                   LabConfText(o, run_id) + LabHandshakeConfText());
  ws.PackInput();

  // --- the host's calibration, boot -----------------------------------------
  CpuLoopTimes host_loop;
  Status loop_ok = TimeCpuCalibrationLoop(kHostCalibrationRepeat, &host_loop);
  if (!loop_ok.ok()) {
    throw SysError::From("Cannot run the CPU calibration loop on the host",
                         loop_ok);
  }
  LabHandshake handshake(o.dilation, host_loop, LabRealLimits(o),
                         QmpThrottleControl(machine.qmp_socket));
  LogNotice(LabNoticePrefix(o) + "booting kernel " + guest.kernel_release +
            " in QEMU (" + (accel.kvm ? "KVM" : "TCG") + ", " +
            std::to_string(o.cpus) + " CPUs, " + std::to_string(o.memory_mib) +
            " MiB); HDD " + FormatBytes(o.hdd_bytes) + " at " +
            std::to_string(o.hdd_iops) + " IOPS, SSD " +
            FormatBytes(o.ssd_bytes) + " at " + std::to_string(o.ssd_iops) +
            " IOPS, divided by the dilation (" + LabDilationName(o.dilation) +
            ") once the guest has timed its CPU");
  std::ofstream console(tmp + "/console.log");
  LabBootOptions boot_options;
  boot_options.timeout_s = o.timeout_s;
  boot_options.handshake_timeout_s = kHandshakeTimeoutS;
  bool told_dilation = false;
  boot_options.notice_prefix = LabNoticePrefix(o);
  boot_options.answer_calibration = [&](const std::string& payload) {
    const std::string answer = handshake.Answer(payload);
    const LabHandshakeResult& r = handshake.result();
    const std::string f = FormatLabDilationFactor(r.factor);
    LogNotice(LabNoticePrefix(o) + "guest CPU " +
              FormatLabDilationFactor(r.slowdown) +
              "x slower than the host (calibration loop " +
              std::to_string(r.guest_ns / 1000000) + " ms against " +
              std::to_string(r.host_ns / 1000000) + " ms); dilation " + f +
              ": HDD " + std::to_string(r.effective.hdd_iops) + " IOPS, SSD " +
              std::to_string(r.effective.ssd_iops) + " IOPS in force");
    // Once: a boot again after a kernel hang keeps the first one's factor.
    if (o.on_dilation && !told_dilation) o.on_dilation(r);
    told_dilation = true;
    return answer;
  };
  std::string hung;
  const LabBootResult boot = BootLabGuestAgainAfterAHang(
      ws, machine, boot_options, run_id, console, out_,
      [&handshake] { handshake.NewBoot(); }, &hung);
  console.close();
  const int done_rc = boot.done_rc;
  const std::string& guest_failure = boot.guest_failure;
  const bool timed_out = boot.timed_out;
  LabOutcome outcome;
  outcome.guest_seconds = boot.seconds;
  outcome.kernel_release = guest.kernel_release;
  outcome.run_dir = run_dir;
  outcome.compare_exit_code = done_rc;
  outcome.kvm = accel.kvm;
  outcome.accel_how = accel.how;
  outcome.dilation = handshake.result();
  outcome.setup_hang = hung;

  // --- results back ---------------------------------------------------------
  ws.StoreResults(done_rc >= 0, run_dir);
  if (handshake.answered()) {
    MakeLabDirs(run_dir + "/lab");
    WriteLabTextFile(run_dir + "/lab/dilation.txt",
                     LabDilationReport(o.dilation, handshake.result()));
  }
  std::error_code ec;
  bool failed = timed_out || done_rc != 0 || !guest_failure.empty();
  const int interrupted_rc = ExpectedInterruptExitCode(o.interrupt_signal);
  if (o.interrupt_compare && done_rc == interrupted_rc &&
      guest_failure.empty()) {
    failed = false;
  }
  if (failed || !hung.empty()) {
    MakeLabDirs(run_dir + "/lab");
    fs::copy_file(tmp + "/console.log", run_dir + "/lab/console.log",
                  fs::copy_options::overwrite_existing, ec);
  }
  std::string logs = "; Console: " + run_dir + "/lab/console.log";
  if (boot.handshake_timed_out) {
    throw SysError(
        "The lab guest sent no CPU calibration line (@@LAB:calib) within " +
        std::to_string(kHandshakeTimeoutS) + " s of QEMU's start. Tail: " +
        JoinLabTail(boot.tail) + LabKernelProblemsText(boot) + logs +
        "; Fix: see the console log (a guest built from older "
        "scripts/lab/init? remove the lab cache dir)");
  }
  if (timed_out) {
    throw SysError(
        "The lab guest timed out. Timeout: " + std::to_string(o.timeout_s) +
        " s; Tail: " + JoinLabTail(boot.tail) + LabKernelProblemsText(boot) +
        logs + "; Fix: raise --timeout or shorten the workloads (--runtime)");
  }
  if (!guest_failure.empty()) {
    throw SysError("The lab guest failed: " + guest_failure + ". Tail: " +
                   JoinLabTail(boot.tail) + LabKernelProblemsText(boot) + logs +
                   "; Kernel log: " + run_dir + "/lab/dmesg.txt");
  }
  if (done_rc < 0) {
    throw SysError(
        "The lab guest stopped before it finished. QemuExit: " +
        std::to_string(boot.qemu_exit) + "; Tail: " + JoinLabTail(boot.tail) +
        LabKernelProblemsText(boot) + logs +
        "; Fix: see the console log (out of memory: raise --memory)");
  }
  if (!o.guest_tests.empty()) {
    const std::string text =
        ReadLabTextFile(run_dir + "/lab/guest-tests-exit-code");
    outcome.guest_tests_exit_code = text.empty() ? -1 : std::atoi(text.c_str());
    if (outcome.guest_tests_exit_code != 0) {
      throw RunError("The tests in the lab guest failed. ExitCode: " +
                     std::to_string(outcome.guest_tests_exit_code) +
                     "; Log: " + run_dir + "/lab/guest-tests.log");
    }
  }
  if (o.loop_stack) {
    const std::string text =
        ReadLabTextFile(run_dir + "/lab/loop-stack-exit-code");
    outcome.loop_stack_exit_code = text.empty() ? -1 : std::atoi(text.c_str());
    if (outcome.loop_stack_exit_code != 0) {
      throw RunError("scripts/loop-stack in the lab guest failed. ExitCode: " +
                     std::to_string(outcome.loop_stack_exit_code) +
                     " (1 up, 2 compare, 3 down); Log: " + run_dir +
                     "/lab/loop-stack.log");
    }
  }
  if (o.interrupt_compare) {
    if (done_rc != interrupted_rc) {
      throw RunError("The interrupted compare (SIG" + o.interrupt_signal +
                     ") in the lab did not exit with " +
                     std::to_string(interrupted_rc) +
                     ". ExitCode: " + std::to_string(done_rc) +
                     "; Log: " + run_dir + "/lab/compare.log");
    }
    auto read_rc = [&run_dir](const std::string& name) {
      std::string text = ReadLabTextFile(run_dir + "/lab/" + name);
      return text.empty() ? -1 : std::atoi(text.c_str());
    };
    outcome.compare_again_exit_code = read_rc("compare-again-exit-code");
    outcome.restore_exit_code = read_rc("restore-exit-code");
    outcome.knobs_not_restored =
        DiffKnobLines(ReadLabTextFile(run_dir + "/lab/knobs-before.txt"),
                      ReadLabTextFile(run_dir + "/lab/knobs-after.txt"));
    return outcome;
  }
  if (done_rc != 0) {
    throw HarnessError("The compare inside the lab guest failed. ExitCode: " +
                           std::to_string(done_rc) + "; Log: " + run_dir +
                           "/lab/compare.log" + logs,
                       done_rc);
  }
  return outcome;
}

std::string LabNoticePrefix(const LabOptions& o) {
  return o.log_label.empty() ? "lab: " : "lab [" + o.log_label + "]: ";
}

int ExpectedInterruptExitCode(const std::string& signal) {
  if (signal == "INT") return 128 + SIGINT;
  if (signal == "TERM") return 128 + SIGTERM;
  if (signal == "KILL") return 128 + SIGKILL;
  return -1;
}

}  // namespace tierbench
