#include "lab/lab_cpu_loop.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "util/clock.h"

namespace tierbench {
namespace {

// The amounts of work (fixed: the guest must do exactly what the host did).
constexpr size_t kBufferWords = (8u << 20) / sizeof(uint64_t);  // 8 MiB
constexpr uint64_t kMemorySteps = 9'000'000;
constexpr uint64_t kIntegerSteps = 2'500'000;
constexpr int kPipeRoundTrips = 8'000;
constexpr size_t kPipeMessageBytes = 64;

// Keeps the compiler from dropping work whose result is unused.
volatile uint64_t g_sink;

// Random read-modify-writes over the buffer (an LCG picks the word).
uint64_t MemoryPart(std::vector<uint64_t>& buf) {
  uint64_t x = 0x9E3779B97F4A7C15ull, sum = 0;
  for (uint64_t i = 0; i < kMemorySteps; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t& w = buf[(x >> 33) % kBufferWords];
    sum += w;
    w = sum ^ i;
  }
  return sum;
}

// Integer work with branches that depend on the data (not predictable).
uint64_t IntegerPart() {
  uint64_t x = 88172645463325252ull, a = 0, b = 1;
  for (uint64_t i = 0; i < kIntegerSteps; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    switch (x & 3) {
      case 0:
        a += x >> 11;
        break;
      case 1:
        b ^= a + i;
        break;
      case 2:
        a = (a << 1) | (b & 1);
        break;
      default:
        if ((x >> 9) & 1) b += a * 3;
        break;
    }
  }
  return a ^ b;
}

// Write + read round trips of a small message through a pipe.
Status SyscallPart(uint64_t* sum) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return Status::FromErrno("pipe", errno);
  char out[kPipeMessageBytes], in[kPipeMessageBytes];
  std::memset(out, 'x', sizeof(out));
  Status s = Status::Ok();
  for (int i = 0; i < kPipeRoundTrips && s.ok(); ++i) {
    out[0] = static_cast<char>(i);
    if (write(fds[1], out, sizeof(out)) != static_cast<ssize_t>(sizeof(out))) {
      s = Status::FromErrno("write to the calibration pipe", errno);
    } else if (read(fds[0], in, sizeof(in)) !=
               static_cast<ssize_t>(sizeof(in))) {
      s = Status::FromErrno("read from the calibration pipe", errno);
    } else {
      *sum += static_cast<unsigned char>(in[0]);
    }
  }
  close(fds[0]);
  close(fds[1]);
  return s;
}

}  // namespace

Status RunCpuCalibrationLoop(CpuLoopTimes* times) {
  // Allocated and touched before the clock starts: page faults are not
  // part of the loop.
  std::vector<uint64_t> buf(kBufferWords, 1);
  uint64_t t0 = NowNs();
  uint64_t sum = MemoryPart(buf);
  uint64_t t1 = NowNs();
  sum += IntegerPart();
  uint64_t t2 = NowNs();
  Status s = SyscallPart(&sum);
  uint64_t t3 = NowNs();
  g_sink = sum;
  times->memory_ns = t1 - t0;
  times->integer_ns = t2 - t1;
  times->syscall_ns = t3 - t2;
  return s;
}

Status TimeCpuCalibrationLoop(int repeat, CpuLoopTimes* best) {
  bool have = false;
  for (int i = 0; i < (repeat < 1 ? 1 : repeat); ++i) {
    CpuLoopTimes t;
    Status s = RunCpuCalibrationLoop(&t);
    if (!s.ok()) return s;
    if (!have || t.total_ns() < best->total_ns()) *best = t;
    have = true;
  }
  return Status::Ok();
}

}  // namespace tierbench
