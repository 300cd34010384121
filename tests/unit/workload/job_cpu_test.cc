// fio's CPU affinity options (workload/job_file_cpu.h): cpus_allowed lists
// and ranges, cpumask bits, the split policy's round robin over the run's
// threads, and the refusals fio makes (a CPU beyond the machine, a bad list,
// an empty mask), each naming the file, line and option.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/job_text.h"
#include "util/errors.h"
#include "workload/job_file.h"
#include "workload/job_file_cpu.h"

namespace tierbench {
namespace {

// Applies one option line to a fresh draft on a machine with `cpus` CPUs.
JobSpec Apply(const std::string& name, const std::string& value,
              long cpus = 16) {
  JobDraft draft;
  const OptionLine line{name, value, "job.fio:7", ""};
  EXPECT_TRUE(ApplyCpuOption(line, &draft, cpus));
  return draft.spec;
}

std::string CpuErrorOf(const std::string& name, const std::string& value,
                       long cpus = 16) {
  try {
    Apply(name, value, cpus);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(JobCpuOptionsTest, CpusAllowedTakesListsAndRanges) {
  EXPECT_EQ(Apply("cpus_allowed", "0,5,8-11").cpus,
            (std::vector<int>{0, 5, 8, 9, 10, 11}));
  EXPECT_EQ(Apply("cpus_allowed", " 3 , 1-2,2 ").cpus,
            (std::vector<int>{1, 2, 3}));  // sorted, once each
  EXPECT_EQ(Apply("cpus_allowed", "4,").cpus, (std::vector<int>{4}));
}

TEST(JobCpuOptionsTest, CpumaskIsABitMask) {
  EXPECT_EQ(Apply("cpumask", "34").cpus, (std::vector<int>{1, 5}));
  EXPECT_EQ(Apply("cpumask", "0x3").cpus, (std::vector<int>{0, 1}));
}

TEST(JobCpuOptionsTest, RefusalsNameTheLineOptionAndFix) {
  EXPECT_EQ(CpuErrorOf("cpus_allowed", "2", 2),
            "job.fio:7: option 'cpus_allowed': CPU 2 too large (max=1). Fix: "
            "use CPUs from 0 to 1 (this machine)");
  EXPECT_NE(CpuErrorOf("cpus_allowed", "1-x").find("'x' is not a CPU number"),
            std::string::npos);
  EXPECT_NE(CpuErrorOf("cpus_allowed", "5-3").find("runs backwards"),
            std::string::npos);
  EXPECT_NE(CpuErrorOf("cpus_allowed", "1,,2").find("an empty item"),
            std::string::npos);
  EXPECT_NE(CpuErrorOf("cpumask", "0").find("'0' is not a CPU mask"),
            std::string::npos);
  EXPECT_NE(CpuErrorOf("cpumask", "8", 2).find("CPU 3 too large"),
            std::string::npos);
  EXPECT_NE(
      CpuErrorOf("cpus_allowed_policy", "spread").find("use shared or split"),
      std::string::npos);
}

TEST(JobCpuOptionsTest, OtherOptionsAreLeftAlone) {
  JobDraft draft;
  EXPECT_FALSE(
      ApplyCpuOption(OptionLine{"bs", "4k", "job.fio:3", ""}, &draft, 16));
}

TEST(JobCpuOptionsTest, SplitGivesEachThreadOneCpuRoundRobin) {
  JobSpec spec = Apply("cpus_allowed", "2,4,6");
  EXPECT_EQ(CloneCpus(spec, 1), (std::vector<int>{2, 4, 6}));  // shared
  spec.cpus_split = true;
  EXPECT_EQ(CloneCpus(spec, 0), (std::vector<int>{2}));
  EXPECT_EQ(CloneCpus(spec, 1), (std::vector<int>{4}));
  EXPECT_EQ(CloneCpus(spec, 4), (std::vector<int>{4}));  // 4 mod 3
  EXPECT_TRUE(CloneCpus(JobSpec{}, 3).empty());          // no affinity
}

TEST(JobCpuOptionsTest, ListTextUsesRanges) {
  EXPECT_EQ(CpuListText({0, 1, 2, 5, 8, 9}), "0-2,5,8-9");
  EXPECT_EQ(CpuListText({3}), "3");
  EXPECT_EQ(CpuListText({}), "");
}

TEST(JobCpuOptionsTest, JobFilesCarryThemAndGlobalIsInherited) {
  const Workload w = ParseJobTextForTest(
      "[global]\ncpus_allowed=0\ncpus_allowed_policy=split\n"
      "[a]\nfilename=/dev/null\nsize=1m\n"
      "[b]\nfilename=/dev/null\nsize=1m\ncpumask=1\n");
  ASSERT_EQ(w.jobs.size(), 2u);
  EXPECT_EQ(w.jobs[0].cpus, (std::vector<int>{0}));
  EXPECT_TRUE(w.jobs[0].cpus_split);
  EXPECT_EQ(w.jobs[1].cpus, (std::vector<int>{0}));  // cpumask=1: CPU 0
}

}  // namespace
}  // namespace tierbench
