// The lab's CPU calibration loop: a fixed amount of CPU work, the same on
// the host and in the lab guest (both run it through the tierbench binary:
// `tierbench calibrate-cpu`), whose time in the guest over its time on the
// host is the guest's slowdown (lab/lab_dilation.h).
//
// The work resembles what the benchmarks burn: random 8-byte reads and
// writes over an 8 MiB buffer (TLB and cache misses: TCG's soft MMU),
// integer arithmetic with data-dependent branches, and system calls (64-byte
// write + read round trips through a pipe of the calling process). The
// amounts are constants: about 70 ms on the development host (2 cores,
// 2026), a third each. Nothing else is timed: the buffer is allocated and
// touched before the clock starts.
//
// Thread-safety: each call allocates its own buffer and pipe; calls may run
// concurrently (but then time each other).
#ifndef TIERBENCH_LAB_LAB_CPU_LOOP_H_
#define TIERBENCH_LAB_LAB_CPU_LOOP_H_

#include <cstdint>

#include "util/status.h"

namespace tierbench {

// The time of one pass, split by part (nanoseconds of CLOCK_MONOTONIC).
struct CpuLoopTimes {
  uint64_t memory_ns = 0;
  uint64_t integer_ns = 0;
  uint64_t syscall_ns = 0;
  uint64_t total_ns() const { return memory_ns + integer_ns + syscall_ns; }
};

// Runs the loop once into *times. Returns an error when the pipe cannot be
// made or a read/write on it fails (then *times is unspecified).
Status RunCpuCalibrationLoop(CpuLoopTimes* times);

// Runs the loop `repeat` times (at least 1) and keeps the pass with the
// smallest total: the least disturbed by other processes.
Status TimeCpuCalibrationLoop(int repeat, CpuLoopTimes* best);

}  // namespace tierbench

#endif  // TIERBENCH_LAB_LAB_CPU_LOOP_H_
