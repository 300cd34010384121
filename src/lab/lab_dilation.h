// Time dilation of the lab: under TCG the guest's CPU runs many times slower
// than the host's while the emulated disks keep their real-disk limits, so
// CPU-heavy cells would measure the emulator. The lab therefore slows the
// disks by the same factor F as the CPU: HDD and SSD IOPS and byte limits
// are divided by F, which gives the guest the CPU-to-IO balance of this host
// with the real-machine disks (--hdd-iops etc.). Everything the guest then
// measures is in dilated time: rates are 1/F of the real machine's and
// latencies F times; ratios between modes are what the real machine's
// would be.
//
// The handshake (scripts/lab/init, lab/lab_runner.h): the guest times the
// calibration loop (lab/lab_cpu_loop.h) and prints "@@LAB:calib ns=N
// [memory_ns=N integer_ns=N syscall_ns=N]"; the host computes F from its
// own time of the same loop, sets the throttles through QMP
// (lab/lab_qmp.h) and answers on the serial console with
// "@@HOST:labels KEY=VALUE ..." (LabHostAnswerLine), the labels the guest
// passes to compare.
//
// How much: the measured slowdown S = guest_ns / host_ns is 15-35 under TCG
// on the development machines, almost all of it the soft MMU's memory
// cost; dilating by all of it gives an HDD of 4-10 IOPS, on which a 3 s
// cell does a dozen IOs and a TPC-B cell 2 tps (2026-12-03: F 31.18, HDD
// 5 IOPS, raw HDD 1.6 tps, raw SSD 118 tps, a dilated lab ~5x slower). So
//   auto  F = min(S, kLabAutoDilationCap): the disks slowed enough that
//         the HDD, not the emulated CPU, bounds the HDD-side cells, with
//         IO counts a run of minutes can gather; what the CPU still bounds
//         the validity rules flag (validity/measurement_rules.h cpu-bound);
//   full  F = S: this host's CPU-to-IO balance exactly (slow: minutes per
//         cell on the HDD);
//   off   F = 1; a number: that F.
// The labels record S (lab.cpu_slowdown) next to F (lab.dilation).
//
// Rounding contract: F = max(1, min(S, cap)) (auto), max(1, S) (full) or the given
// number, rounded to 2 decimals (half away from zero), at most 1000; the
// label lab.dilation is F with 2 decimals, and every effective limit is
// max(1, llround(limit / F)) computed from that rounded F, a 0 limit
// (unthrottled) staying 0. So lab.hdd_iops == max(1, llround(150 /
// lab.dilation)) for the default HDD.
//
// All functions are pure and thread-safe.
#ifndef TIERBENCH_LAB_LAB_DILATION_H_
#define TIERBENCH_LAB_LAB_DILATION_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "lab/lab_cpu_loop.h"
#include "util/status.h"

namespace tierbench {

inline constexpr double kLabMaxDilation = 1000;
// The most `auto` dilates by (see above).
inline constexpr double kLabAutoDilationCap = 4;

// --dilation auto|full|off|F.
struct LabDilation {
  enum class Mode { kAuto, kFull, kOff, kFixed };
  Mode mode = Mode::kAuto;
  double factor = 1;  // kFixed: the given F (rounded)
};

// Parses --dilation's value: "auto", "full", "off" or a number in [1,
// 1000].
// InvalidArgument naming the problem otherwise.
Status ParseLabDilation(const std::string& text, LabDilation* out);

// "auto", "full", "off" or the fixed factor as FormatLabDilationFactor
// prints it.
std::string LabDilationName(const LabDilation& d);

// `raw` rounded to 2 decimals, clamped to [1, kLabMaxDilation].
double RoundLabDilation(double raw);

// F with 2 decimals ("3.21").
std::string FormatLabDilationFactor(double f);

// The guest's slowdown guest_ns / host_ns (0 when host_ns is 0).
double LabCpuSlowdown(uint64_t guest_ns, uint64_t host_ns);

// The factor in force for `setting`: auto, the rounded slowdown capped at
// kLabAutoDilationCap; full, the rounded slowdown; off, 1; fixed, its
// factor.
double LabDilationFactor(const LabDilation& setting, uint64_t guest_ns,
                         uint64_t host_ns);

// The disks' limits (0: unthrottled).
struct LabLimits {
  uint64_t hdd_iops = 0;
  uint64_t hdd_bw = 0;  // bytes/s
  uint64_t ssd_iops = 0;
  uint64_t ssd_bw = 0;
  bool operator==(const LabLimits&) const = default;
};

// max(1, llround(limit / f)); 0 stays 0.
uint64_t DilateLabLimit(uint64_t limit, double f);

// Each limit of `real` dilated by `f`.
LabLimits DilateLabLimits(const LabLimits& real, double f);

// The calibration of "@@LAB:calib PAYLOAD": "ns=N" and optionally
// memory_ns=, integer_ns=, syscall_ns= (any order, space separated).
// InvalidArgument when ns is missing or zero, a value is not a whole
// number, or a key is unknown or repeated.
Status ParseLabCalibration(const std::string& payload, uint64_t* total_ns,
                           CpuLoopTimes* parts);

// The labels the guest passes to compare, in this order: lab.dilation (F),
// lab.dilation_mode (auto|full|off|fixed), lab.cpu_slowdown (guest_ns / host_ns
// with 2 decimals), lab.hdd_iops, lab.hdd_bw, lab.ssd_iops, lab.ssd_bw (the
// limits in force).
std::vector<std::pair<std::string, std::string>> LabDilationLabels(
    const LabDilation& setting, double f, double slowdown,
    const LabLimits& effective);

// "@@HOST:labels K=V K=V ..." (no newline). Keys and values must hold no
// blank (InvalidArgument otherwise: the guest splits on blanks).
Status LabHostAnswerLine(
    const std::vector<std::pair<std::string, std::string>>& labels,
    std::string* line);

}  // namespace tierbench

#endif  // TIERBENCH_LAB_LAB_DILATION_H_
