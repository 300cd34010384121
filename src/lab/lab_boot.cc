#include "lab/lab_boot.h"

#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "lab/lab_child.h"
#include "util/errors.h"
#include "util/interrupt.h"
#include "util/log.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

constexpr size_t kConsoleTailLines = 12;
constexpr int kPollMs = 200;

}  // namespace

LabBootResult BootLabGuest(const LabMachine& m, const LabBootOptions& options,
                           std::ostream& console_log,
                           const std::function<void(const std::string&)>& out) {
  LabBootResult r;
  const auto start = std::chrono::steady_clock::now();
  auto elapsed_s = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  };
  LabChild qemu;
  const bool handshake = static_cast<bool>(options.answer_calibration);
  Status s = qemu.Start(QemuArgv(m), "", handshake);
  if (!s.ok()) {
    throw SysError::From("Cannot start QEMU. Program: " + m.qemu +
                             "; Fix: ./scripts/install-deps",
                         s);
  }
  std::string line;
  int last_progress = -1;
  double hang_deadline_s = 0;
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
    if (elapsed_s() > static_cast<double>(options.timeout_s)) {
      r.timed_out = true;
      qemu.KillGroup();
      break;
    }
    if (!r.kernel_hang.empty() && elapsed_s() > hang_deadline_s) {
      // The hung kernel blocked the guest's hand-back too.
      qemu.KillGroup();
      break;
    }
    if (handshake && !r.handshake_done &&
        elapsed_s() > static_cast<double>(options.handshake_timeout_s)) {
      r.handshake_timed_out = true;
      qemu.KillGroup();
      break;
    }
    LabChild::Read read = qemu.ReadLine(kPollMs, &line);
    if (read == LabChild::Read::kEof) break;
    if (read == LabChild::Read::kTimeout) {
      const int sec = static_cast<int>(elapsed_s());
      if (sec != last_progress) {
        DrawProgressLine("lab: guest running, " + std::to_string(sec) + " s");
        last_progress = sec;
      }
      continue;
    }
    console_log << line << "\n";
    const LabConsoleLine c = ParseLabConsoleLine(line);
    switch (c.kind) {
      case LabConsoleLine::Kind::kStep: {
        // The seconds since QEMU started: where a lab run's time goes.
        char at[32];
        std::snprintf(at, sizeof at, "guest at %.0f s: ", elapsed_s());
        LogNotice(options.notice_prefix + at + c.text);
        break;
      }
      case LabConsoleLine::Kind::kOut:
        ClearProgressLine();
        out(c.text);
        break;
      case LabConsoleLine::Kind::kFail:
        r.guest_failure = c.text;
        break;
      case LabConsoleLine::Kind::kUnplug:
        if (!options.unplug) {
          r.guest_failure = "the guest asked to unplug drive " + c.text +
                            ", which this lab scenario does not do";
          qemu.KillGroup();
          break;
        }
        try {
          options.unplug(c.text);
        } catch (...) {
          qemu.KillGroup();
          qemu.Wait();
          ClearProgressLine();
          throw;
        }
        LogNotice(options.notice_prefix + "guest at " +
                  std::to_string(static_cast<int>(elapsed_s())) + " s: drive " +
                  c.text + " unplugged (QMP device_del)");
        break;
      case LabConsoleLine::Kind::kHang:
        if (r.kernel_hang.empty()) {
          r.kernel_hang = c.text;
          hang_deadline_s = elapsed_s() + kLabHangGraceS;
          LogNotice(options.notice_prefix +
                    "the guest's kernel hung: " + c.text);
        }
        break;
      case LabConsoleLine::Kind::kDone:
        r.done_rc = c.code;
        break;
      case LabConsoleLine::Kind::kCut:
        if (options.kill_at_cut && !r.cut) {
          // The power cut: no guest shutdown, nothing flushed by the guest.
          qemu.KillGroup();
          r.cut = true;
          r.cut_at_s = elapsed_s();
        }
        break;
      case LabConsoleLine::Kind::kCalib:
        if (!handshake) {
          r.guest_failure =
              "the guest asked for the host's CPU calibration answer, which "
              "this lab scenario does not give (lab.conf CALIBRATE)";
          qemu.KillGroup();
        } else if (!r.handshake_done) {
          std::string answer;
          try {
            answer = options.answer_calibration(c.text);
          } catch (...) {
            qemu.KillGroup();
            qemu.Wait();
            ClearProgressLine();
            throw;
          }
          Status w = qemu.WriteInput(answer + "\n");
          if (!w.ok()) {
            qemu.KillGroup();
            qemu.Wait();
            ClearProgressLine();
            throw SysError::From(
                "Cannot answer the lab guest's CPU calibration on its "
                "console (QEMU's stdin)",
                w);
          }
          r.handshake_done = true;
        }
        break;
      case LabConsoleLine::Kind::kOther:
        if (r.kernel_problems.size() < kLabKernelProblemLines &&
            IsKernelProblemLine(line)) {
          r.kernel_problems.push_back(line);
        }
        break;
    }
    if (c.kind != LabConsoleLine::Kind::kOut) {
      r.tail.push_back(line);
      if (r.tail.size() > kConsoleTailLines) r.tail.pop_front();
    }
  }
  r.qemu_exit = qemu.Wait();
  r.seconds = elapsed_s();
  ClearProgressLine();
  console_log.flush();
  return r;
}

std::string JoinLabTail(const std::deque<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += (s.empty() ? "" : " | ") + l;
  return s;
}

std::string LabKernelProblemsText(const LabBootResult& r) {
  std::string s;
  for (const std::string& l : r.kernel_problems) {
    s += (s.empty() ? "; Kernel: " : " | ") + l;
  }
  return s;
}

std::string LabSelfExecutable() {
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

bool LabOnPath(const std::string& program) {
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

std::string CheckLabRunStart(const std::string& results_dir,
                             const std::string& run_id,
                             const std::string& qemu) {
  const std::string run_dir = results_dir + "/" + run_id;
  if (fs::exists(run_dir)) {
    throw ConfigError(
        "The results directory of this run exists already. Path: " + run_dir +
        "; Fix: pass another --run-id or remove it");
  }
  if (!LabOnPath(qemu)) {
    throw SysError("QEMU not found. Program: " + qemu +
                   "; Fix: ./scripts/install-deps (package qemu-system-x86)");
  }
  return run_dir;
}

void MakeLabDirs(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    throw SysError("Cannot create a directory. Path: " + dir +
                   "; SysErr: " + ec.message());
  }
}

void WriteLabTextFile(const std::string& path, const std::string& text) {
  std::ofstream file(path);
  file << text;
  if (!file) throw SysError("Cannot write a lab file. Path: " + path);
}

std::string ReadLabTextFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void RunLabToolOrThrow(const std::vector<std::string>& argv,
                       const std::string& what) {
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

}  // namespace tierbench
