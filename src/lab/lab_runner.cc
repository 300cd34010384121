#include "lab/lab_runner.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <ctime>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <utility>

#include "lab/lab_child.h"
#include "lab/lab_disk.h"
#include "lab/lab_guest.h"
#include "lab/lab_layers.h"
#include "lab/lab_qemu.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/interrupt.h"
#include "util/log.h"
#include "util/scope_guard.h"
#include "util/units.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kMinHddRegionBytes = 64ull << 20;
constexpr uint64_t kMinSsdCacheBytes = 64ull << 20;
constexpr uint64_t kOutputDiskBytes = 1ull << 30;
constexpr size_t kConsoleTailLines = 12;
constexpr int kPollMs = 200;

std::string Basename(const std::string& path) {
  return fs::path(path).filename().string();
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string DefaultRunId() { return FormatUtcNow("lab-%Y%m%d-%H%M%S"); }

// The running executable (what goes into the guest).
std::string SelfExecutable() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    throw SysError(
        "Cannot find the tierbench executable. Path: /proc/self/exe; "
        "SysErr: " +
        ec.message());
  }
  return p.string();
}

bool OnPath(const std::string& program) {
  if (program.find('/') != std::string::npos) {
    return access(program.c_str(), X_OK) == 0;
  }
  const char* path = getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (!dir.empty() && access((dir + "/" + program).c_str(), X_OK) == 0)
      return true;
  }
  return false;
}

// True when files in `dir` can be opened with O_DIRECT (QEMU's cache=none);
// older kernels' tmpfs refuses it.
bool SupportsDirectIo(const std::string& image) {
  int fd = open(image.c_str(), O_RDWR | O_DIRECT | O_CLOEXEC);
  if (fd < 0) return false;
  close(fd);
  return true;
}

void MakeDirs(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    throw SysError("Cannot create a directory. Path: " + dir +
                   "; SysErr: " + ec.message());
  }
}

void WriteTextFile(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw SysError("Cannot write a lab file. Path: " + path);
}

void CheckStatus(const Status& s, const std::string& what) {
  if (!s.ok()) throw SysError::From(what, s);
}

void RunTool(const std::vector<std::string>& argv, const std::string& what) {
  int rc = -1;
  std::string output;
  Status s = RunLabTool(argv, &rc, &output);
  if (!s.ok()) throw SysError::From(what + ". Tool: " + argv[0], s);
  if (rc != 0) {
    std::string last =
        output.substr(output.size() > 300 ? output.size() - 300 : 0);
    while (!last.empty() && last.back() == '\n') last.pop_back();
    throw SysError(what + ". Tool: " + argv[0] +
                   "; ExitCode: " + std::to_string(rc) + "; Output: " + last);
  }
}

std::string JoinTail(const std::deque<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += (s.empty() ? "" : " | ") + l;
  return s;
}

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
  MakeDirs(dst + "/modes");
  MakeDirs(dst + "/workloads");
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
    const LabOptions& o) {
  return {{"lab.accel", o.kvm ? "kvm" : "tcg"},
          {"lab.cpus", std::to_string(o.cpus)},
          {"lab.memory_mib", std::to_string(o.memory_mib)},
          {"lab.hdd_bytes", std::to_string(o.hdd_bytes)},
          {"lab.hdd_iops", std::to_string(o.hdd_iops)},
          {"lab.hdd_bw", std::to_string(o.hdd_bytes_per_sec)},
          {"lab.ssd_bytes", std::to_string(o.ssd_bytes)},
          {"lab.ssd_iops", std::to_string(o.ssd_iops)},
          {"lab.ssd_bw", std::to_string(o.ssd_bytes_per_sec)},
          {"lab.bucket", o.bucket}};
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
       << "LOOP_STACK=" << (options.loop_stack ? "on" : "off") << "\n";
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
  std::string run_id = o.run_id.empty() ? DefaultRunId() : o.run_id;
  std::string run_dir = o.results_dir + "/" + run_id;
  if (fs::exists(run_dir)) {
    throw ConfigError(
        "The results directory of this run exists already. Path: " + run_dir +
        "; Fix: pass another --run-id or remove it");
  }
  if (!OnPath(o.qemu)) {
    throw SysError("QEMU not found. Program: " + o.qemu +
                   "; Fix: ./scripts/install-deps (package qemu-system-x86)");
  }

  // --- the guest ------------------------------------------------------------
  std::string self = SelfExecutable();
  std::string cache_dir = o.cache_dir.empty()
                              ? fs::path(self).parent_path().string() + "/lab"
                              : o.cache_dir;
  std::string scripts = o.guest_scripts.empty()
                            ? std::string(TIERBENCH_SOURCE_DIR) + "/scripts/lab"
                            : o.guest_scripts;
  LabGuest guest =
      LabGuestCache(cache_dir, scripts, self)
          .Ensure([](const std::string& line) { LogNotice("lab: " + line); });

  // --- the temporary directory: images, tars, console log ------------------
  std::string tmp_root = o.tmp_dir;
  if (tmp_root.empty()) {
    const char* env = getenv("TMPDIR");
    tmp_root = env && *env ? env : "/var/tmp";
  }
  std::string tmp_template = tmp_root + "/tierbench-lab.XXXXXX";
  std::vector<char> buf(tmp_template.begin(), tmp_template.end());
  buf.push_back('\0');
  if (mkdtemp(buf.data()) == nullptr) {
    throw SysError::From("Cannot create the lab's temporary directory. Path: " +
                             tmp_template + "; Fix: pass --tmp-dir DIR",
                         Status::FromErrno("mkdtemp", errno));
  }
  std::string tmp = buf.data();
  std::string ssd_dir =
      o.ssd_dir.empty() || !fs::is_directory(o.ssd_dir) ? tmp : o.ssd_dir;
  std::string ssd_image =
      ssd_dir + "/" + fs::path(tmp).filename().string() + "-ssd.img";
  if (ssd_dir == tmp) ssd_image = tmp + "/ssd.img";
  ScopeGuard cleanup([&] {
    std::error_code ec;
    fs::remove(ssd_image, ec);
    if (o.keep) {
      LogNotice("lab: kept " + tmp + " (--keep); the SSD image was removed");
    } else {
      fs::remove_all(tmp, ec);
    }
  });

  std::vector<LabPartition> hdd_layout, ssd_layout;
  Status s = LabHddLayout(o.hdd_bytes, kMinHddRegionBytes, &hdd_layout);
  if (!s.ok()) throw ConfigError("Bad --hdd-size. " + s.message());
  s = LabSsdLayout(o.ssd_bytes, kMinSsdCacheBytes, &ssd_layout);
  if (!s.ok()) throw ConfigError("Bad --ssd-size. " + s.message());
  std::string hdd_image = tmp + "/hdd.img";
  CheckStatus(CreateLabDiskImage(hdd_image, o.hdd_bytes, hdd_layout),
              "Cannot create the HDD image. Path: " + hdd_image);
  CheckStatus(CreateLabDiskImage(ssd_image, o.ssd_bytes, ssd_layout),
              "Cannot create the SSD image. Path: " + ssd_image);
  std::string out_image = tmp + "/out.img";
  CheckStatus(CreateSparseFile(out_image, kOutputDiskBytes),
              "Cannot create the output disk. Path: " + out_image);

  std::string in_dir = tmp + "/in";
  MakeDirs(in_dir + "/modes");
  MakeDirs(in_dir + "/workloads");
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
  for (const auto& [key, value] : LabLabels(o)) {
    args << "--label\n" << key << "=" << value << "\n";
  }
  for (const std::string& a : o.compare_args) args << a << "\n";
  WriteTextFile(in_dir + "/compare.args", args.str());
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
    RunTool({"strip", "--strip-debug", dst},
            "Cannot strip the guest test binary (binutils' strip)");
  }
  if (o.loop_stack) AddLoopStackInputs(scripts, in_dir + "/loop-stack");
  WriteTextFile(in_dir + "/lab.conf", LabConfText(o, run_id));
  std::string in_tar = tmp + "/in.tar";
  RunTool({"tar", "-c", "-f", in_tar, "-C", in_dir, "."},
          "Cannot pack the lab input tar");

  // --- boot -----------------------------------------------------------------
  LabMachine m;
  m.qemu = o.qemu;
  m.kernel = guest.kernel;
  m.initrd = guest.initrd;
  m.memory_mib = o.memory_mib;
  m.cpus = o.cpus;
  m.kvm = o.kvm;
  m.hdd = {hdd_image, o.hdd_iops, o.hdd_bytes_per_sec,
           SupportsDirectIo(hdd_image), false};
  m.ssd = {ssd_image, o.ssd_iops, o.ssd_bytes_per_sec,
           SupportsDirectIo(ssd_image), false};
  m.input = {in_tar, 0, 0, false, true};
  m.output = {out_image, 0, 0, false, false};
  LogNotice("lab: booting kernel " + guest.kernel_release + " in QEMU (" +
            (o.kvm ? "KVM" : "TCG") + ", " + std::to_string(o.cpus) +
            " CPUs, " + std::to_string(o.memory_mib) + " MiB); HDD " +
            FormatBytes(o.hdd_bytes) + " at " + std::to_string(o.hdd_iops) +
            " IOPS, SSD " + FormatBytes(o.ssd_bytes) + " at " +
            std::to_string(o.ssd_iops) + " IOPS");

  std::ofstream console(tmp + "/console.log");
  std::deque<std::string> tail;
  std::string guest_failure;
  int done_rc = -1;
  auto start = std::chrono::steady_clock::now();
  auto elapsed_s = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  };
  bool timed_out = false;
  int qemu_rc;
  {
    LabChild qemu;
    std::vector<std::string> argv = QemuArgv(m);
    CheckStatus(qemu.Start(argv), "Cannot start QEMU. Program: " + o.qemu +
                                      "; Fix: ./scripts/install-deps");
    std::string line;
    int last_progress = -1;
    for (;;) {
      if (Interrupted()) {
        qemu.KillGroup();
        qemu.Wait();
        ClearProgressLine();
        throw InterruptedError(
            "Interrupted: the lab guest was stopped (QEMU killed); "
            "no results were kept",
            InterruptSignal());
      }
      if (elapsed_s() > static_cast<double>(o.timeout_s)) {
        timed_out = true;
        qemu.KillGroup();
        break;
      }
      LabChild::Read r = qemu.ReadLine(kPollMs, &line);
      if (r == LabChild::Read::kEof) break;
      if (r == LabChild::Read::kTimeout) {
        int sec = static_cast<int>(elapsed_s());
        if (sec != last_progress) {
          DrawProgressLine("lab: guest running, " + std::to_string(sec) + " s");
          last_progress = sec;
        }
        continue;
      }
      console << line << "\n";
      LabConsoleLine c = ParseLabConsoleLine(line);
      switch (c.kind) {
        case LabConsoleLine::Kind::kStep:
          LogNotice("lab: guest: " + c.text);
          break;
        case LabConsoleLine::Kind::kOut:
          ClearProgressLine();
          out_(c.text);
          break;
        case LabConsoleLine::Kind::kFail:
          guest_failure = c.text;
          break;
        case LabConsoleLine::Kind::kDone:
          done_rc = c.code;
          break;
        case LabConsoleLine::Kind::kOther:
          break;
      }
      if (c.kind != LabConsoleLine::Kind::kOut) {
        tail.push_back(line);
        if (tail.size() > kConsoleTailLines) tail.pop_front();
      }
    }
    qemu_rc = qemu.Wait();
  }
  ClearProgressLine();
  console.close();
  LabOutcome outcome;
  outcome.guest_seconds = elapsed_s();
  outcome.kernel_release = guest.kernel_release;
  outcome.run_dir = run_dir;
  outcome.compare_exit_code = done_rc;

  // --- results back ---------------------------------------------------------
  std::string extract = tmp + "/out";
  MakeDirs(extract);
  if (done_rc >= 0) {
    RunTool({"tar", "-x", "-f", out_image, "-C", extract},
            "Cannot read the results the lab guest wrote. Image: " + out_image);
  }
  MakeDirs(o.results_dir);
  std::error_code ec;
  if (fs::is_directory(extract + "/" + run_id)) {
    fs::rename(extract + "/" + run_id, run_dir, ec);
    if (ec) {
      fs::copy(extract + "/" + run_id, run_dir, fs::copy_options::recursive,
               ec);
    }
    if (ec) {
      throw SysError("Cannot store the lab results. Path: " + run_dir +
                     "; SysErr: " + ec.message());
    }
  }
  bool failed = timed_out || done_rc != 0 || !guest_failure.empty();
  const int interrupted_rc = ExpectedInterruptExitCode(o.interrupt_signal);
  if (o.interrupt_compare && done_rc == interrupted_rc &&
      guest_failure.empty()) {
    failed = false;
  }
  if (failed) {
    MakeDirs(run_dir + "/lab");
    fs::copy_file(tmp + "/console.log", run_dir + "/lab/console.log",
                  fs::copy_options::overwrite_existing, ec);
  }
  std::string logs = "; Console: " + run_dir + "/lab/console.log";
  if (timed_out) {
    throw SysError(
        "The lab guest timed out. Timeout: " + std::to_string(o.timeout_s) +
        " s; Tail: " + JoinTail(tail) + logs +
        "; Fix: raise --timeout or shorten the workloads (--runtime)");
  }
  if (!guest_failure.empty()) {
    throw SysError("The lab guest failed: " + guest_failure +
                   ". Tail: " + JoinTail(tail) + logs +
                   "; Kernel log: " + run_dir + "/lab/dmesg.txt");
  }
  if (done_rc < 0) {
    throw SysError(
        "The lab guest stopped before it finished. QemuExit: " +
        std::to_string(qemu_rc) + "; Tail: " + JoinTail(tail) + logs +
        "; Fix: see the console log (out of memory: raise --memory)");
  }
  if (!o.guest_tests.empty()) {
    const std::string text = ReadFile(run_dir + "/lab/guest-tests-exit-code");
    outcome.guest_tests_exit_code = text.empty() ? -1 : std::atoi(text.c_str());
    if (outcome.guest_tests_exit_code != 0) {
      throw RunError("The tests in the lab guest failed. ExitCode: " +
                     std::to_string(outcome.guest_tests_exit_code) +
                     "; Log: " + run_dir + "/lab/guest-tests.log");
    }
  }
  if (o.loop_stack) {
    const std::string text = ReadFile(run_dir + "/lab/loop-stack-exit-code");
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
      std::string text = ReadFile(run_dir + "/lab/" + name);
      return text.empty() ? -1 : std::atoi(text.c_str());
    };
    outcome.compare_again_exit_code = read_rc("compare-again-exit-code");
    outcome.restore_exit_code = read_rc("restore-exit-code");
    outcome.knobs_not_restored =
        DiffKnobLines(ReadFile(run_dir + "/lab/knobs-before.txt"),
                      ReadFile(run_dir + "/lab/knobs-after.txt"));
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

int ExpectedInterruptExitCode(const std::string& signal) {
  if (signal == "INT") return 128 + SIGINT;
  if (signal == "TERM") return 128 + SIGTERM;
  if (signal == "KILL") return 128 + SIGKILL;
  return -1;
}

}  // namespace tierbench
