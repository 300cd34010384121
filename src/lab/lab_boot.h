// BootLabGuest: one boot of the lab's QEMU guest, from start to power-off
// (or to the host's kill), shared by every lab scenario (lab/lab_runner.h,
// lab/lab_power_cut.h).
//
// It starts QEMU (lab/lab_qemu.h) in its own process group, reads the serial
// console line by line, writes every line to `console_log`, relays the
// guest's protocol lines (lab/lab_qemu.h: step -> LogNotice, out -> `out`)
// and draws a progress line while the guest is silent. With
// `answer_calibration` set, QEMU's stdin is a pipe into the guest's serial
// console: the first "@@LAB:calib" line is answered with the line that
// function returns (the handshake of lab/lab_dilation.h); when no such line
// came within `handshake_timeout_s` of QEMU's start, QEMU is killed
// (handshake_timed_out). Without it, a calib line fails the boot at once
// (guest_failure; QEMU killed). "@@LAB:unplug ID" lines go to `unplug`. It ends
// when QEMU exits, when the guest printed "@@LAB:cut" and `kill_at_cut` is set
// (QEMU's process group is killed with SIGKILL at once: the guest gets no
// shutdown, which is a power cut), when `timeout_s` passed (QEMU killed,
// timed_out set), or kLabHangGraceS after the guest printed "@@LAB:hang" (a
// kernel hang while it built its stacks: the guest hands back what it has and
// powers off, unless the hung kernel blocks that too; then QEMU is killed).
//
// Errors: SysError when QEMU cannot be started or the answer cannot be
// written; InterruptedError on SIGINT/SIGTERM (QEMU killed first); whatever
// `answer_calibration` or `unplug` throws (QEMU killed first). No QEMU process
// outlives the call.
//
// Also here: small host-side helpers the scenarios share. Thread-safety: no
// shared state; one boot per thread.
#ifndef TIERBENCH_LAB_LAB_BOOT_H_
#define TIERBENCH_LAB_LAB_BOOT_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "lab/lab_qemu.h"

namespace tierbench {

// How long a guest that reported a kernel hang gets to hand back its results
// and power off.
inline constexpr double kLabHangGraceS = 45;

struct LabBootOptions {
  uint64_t timeout_s = 1800;
  // SIGKILL QEMU as soon as the guest prints "@@LAB:cut".
  bool kill_at_cut = false;
  // Gets the payload of "@@LAB:calib PAYLOAD"; returns the answer line
  // (without newline). Unset: no handshake expected.
  std::function<std::string(const std::string&)> answer_calibration;
  uint64_t handshake_timeout_s = 300;
  // Gets the ID of "@@LAB:unplug ID" and removes that hot-pluggable drive
  // (QMP device_del); throws SysError when it cannot. Unset: such a line
  // fails the boot (guest_failure; QEMU killed).
  std::function<void(const std::string&)> unplug;
  // How the guest's stage notices begin ("lab: ", LabNoticePrefix).
  std::string notice_prefix = "lab: ";
};

struct LabBootResult {
  int done_rc = -1;           // N of "@@LAB:done rc=N"; -1: never printed
  std::string guest_failure;  // the text of "@@LAB:fail", if any
  std::string kernel_hang;    // the text of "@@LAB:hang", if any
  // The first console lines where the kernel reported a problem
  // (IsKernelProblemLine), at most kLabKernelProblemLines, for messages.
  std::vector<std::string> kernel_problems;
  // The last console lines that were not tierbench output (for messages).
  std::deque<std::string> tail;
  bool timed_out = false;
  bool handshake_done = false;       // the calib line was answered
  bool handshake_timed_out = false;  // no calib line in time (QEMU killed)
  bool cut = false;     // "@@LAB:cut" seen (and QEMU killed: kill_at_cut)
  double cut_at_s = 0;  // seconds from QEMU's start to the kill
  int qemu_exit = -1;   // QEMU's exit status, 128 + signal when killed
  double seconds = 0;   // QEMU wall time
};

LabBootResult BootLabGuest(const LabMachine& machine,
                           const LabBootOptions& options,
                           std::ostream& console_log,
                           const std::function<void(const std::string&)>& out);

inline constexpr size_t kLabKernelProblemLines = 4;

// The tail lines joined with " | " (for error messages).
std::string JoinLabTail(const std::deque<std::string>& lines);

// "; Kernel: LINE | LINE" of `r`'s kernel_problems, "" when none: what a
// failed or timed-out boot's message adds.
std::string LabKernelProblemsText(const LabBootResult& r);

// The running executable (what goes into the guest). Throws SysError.
std::string LabSelfExecutable();

// True when `program` (a path, or a name looked up on PATH) is executable.
bool LabOnPath(const std::string& program);

// The checks every lab run makes before it boots: returns
// `results_dir`/`run_id`, and throws ConfigError when that directory exists
// already (the fix: another --run-id) or SysError when `qemu` is not found.
std::string CheckLabRunStart(const std::string& results_dir,
                             const std::string& run_id,
                             const std::string& qemu);

// Creates `dir` and its parents; throws SysError naming it.
void MakeLabDirs(const std::string& dir);

// Writes `text` to `path`; throws SysError naming it.
void WriteLabTextFile(const std::string& path, const std::string& text);

// The whole text of `path` ("" when unreadable).
std::string ReadLabTextFile(const std::string& path);

// Runs argv to completion; throws SysError "<what>. Tool: ...; ExitCode: ...;
// Output: <last 300 bytes>" when it cannot start or exits non-zero.
void RunLabToolOrThrow(const std::vector<std::string>& argv,
                       const std::string& what);

}  // namespace tierbench

#endif  // TIERBENCH_LAB_LAB_BOOT_H_
