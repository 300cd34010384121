#include "stats/thread_cpu.h"

#include <sys/resource.h>

namespace tierbench {
namespace {

double Seconds(const timeval& tv) {
  return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
}

}  // namespace

ThreadCpu ThreadCpu::Now() {
  rusage ru{};
  if (getrusage(RUSAGE_THREAD, &ru) != 0) return {};
  return {Seconds(ru.ru_utime), Seconds(ru.ru_stime),
          static_cast<uint64_t>(ru.ru_nvcsw + ru.ru_nivcsw),
          static_cast<uint64_t>(ru.ru_majflt),
          static_cast<uint64_t>(ru.ru_minflt)};
}

ThreadCpu ThreadCpu::Between(const ThreadCpu& start, const ThreadCpu& end) {
  return {end.usr_sec - start.usr_sec, end.sys_sec - start.sys_sec,
          end.ctx - start.ctx, end.majf - start.majf, end.minf - start.minf};
}

}  // namespace tierbench
