// The "Run status group" line of the normal report: fio's aggregate
// bandwidth, then the slowest and fastest job's bandwidth
// ("bw=A (a), MIN-MAX (min-max), io=..."), as fio's show_group_stats().
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "report/console_reporter.h"
#include "util/units.h"

namespace tierbench {
namespace {

JobResult ReadJob(const std::string& name, uint64_t mib, uint64_t ms) {
  JobResult j;
  j.name = name;
  j.runtime_ns = ms * kNsPerMs;
  j.dir[0].ios = mib;
  j.dir[0].bytes = mib << 20;
  return j;
}

std::string Report(const RunResult& r) {
  std::ostringstream out;
  WriteConsoleReport(r, out);
  return out.str();
}

TEST(ReportGroupBwTest, SlowestAndFastestJobOfTheGroup) {
  RunResult r;
  r.jobs.push_back(ReadJob("slow", 10, 1000));
  r.jobs.push_back(ReadJob("fast", 60, 2000));
  // Aggregate: 70 MiB over the longest run (2 s) = 35 MiB/s; jobs: 10 MiB/s
  // and 30 MiB/s.
  EXPECT_NE(Report(r).find("   READ: bw=35.0MiB/s (36.7MB/s), "
                           "10.0MiB/s-30.0MiB/s (10.5MB/s-31.5MB/s), "
                           "io=70.0MiB (73.4MB), run=1000-2000msec\n"),
            std::string::npos)
      << Report(r);
}

TEST(ReportGroupBwTest, OneJobIsItsOwnRange) {
  RunResult r;
  r.jobs.push_back(ReadJob("only", 16, 4000));
  EXPECT_NE(Report(r).find("   READ: bw=4096KiB/s (4194kB/s), "
                           "4096KiB/s-4096KiB/s (4194kB/s-4194kB/s), "
                           "io=16.0MiB (16.8MB), run=4000-4000msec\n"),
            std::string::npos)
      << Report(r);
}

}  // namespace
}  // namespace tierbench
