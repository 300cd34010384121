// `tierbench check` end to end on the committed fixture runs (run B has 20%
// fewer writeback IOPS on randwrite-4k than run A, significantly): the
// exit status a CI system gates on, the lines it prints and the JUnit file
// it writes (also as python3-junitparser reads it), and its refusals.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "junit_consumer.h"
#include "test_env.h"

namespace tierbench::testing {
namespace {

const std::string kCheckBin = TIERBENCH_BINARY;
const std::string kRunA =
    std::string(TIERBENCH_SOURCE_DIR) + "/tests/golden/report-run";
const std::string kRunB =
    std::string(TIERBENCH_SOURCE_DIR) + "/tests/golden/report-run-b";

std::string CheckReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(CheckCliTest, ARegressionFailsWithExitOneAndAJUnitFailure) {
  char dir[] = "/tmp/tierbench-check.XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string junit = std::string(dir) + "/check.xml";
  std::string out;
  EXPECT_EQ(RunShell(kCheckBin + " check " + kRunB + " --baseline " + kRunA +
                         " --max-regression 10 --junit " + junit + " 2>&1",
                     &out),
            1)
      << out;
  EXPECT_NE(out.find("  regressed: writeback on randwrite-4k: "),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("check: 1 regressed, 0 missing, 23 passed, 4 not judged, "
                     "0 new"),
            std::string::npos)
      << out;
  const std::string xml = CheckReadAll(junit);
  EXPECT_NE(xml.find("tests=\"28\" failures=\"1\" errors=\"0\" skipped=\"4\""),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<failure message=\"regressed: "), std::string::npos);
  // Within a 25% allowance it passes, and so does the faster direction.
  EXPECT_EQ(RunShell(kCheckBin + " check " + kRunB + " --baseline " + kRunA +
                         " --max-regression 25 2>&1",
                     &out),
            0)
      << out;
  EXPECT_EQ(
      RunShell(kCheckBin + " check " + kRunA + " --baseline " + kRunB + " 2>&1",
               &out),
      0)
      << out;
  std::filesystem::remove_all(dir);
}

// The JUnit file of a check with a baseline and --expect cases, read by
// python3-junitparser (a consumer CI systems' own readers resemble): the
// cases it counts, and the suite's counts it reads, are those tierbench
// printed.
TEST(CheckCliTest, JunitparserCountsWhatCheckPrinted) {
  TIERBENCH_REQUIRE_JUNITPARSER();
  TempDir tmp;
  const std::string junit = tmp.path() + "/check.xml";
  std::string out;
  ASSERT_EQ(RunShell(kCheckBin + " check " + kRunB + " --baseline " + kRunA +
                         " --max-regression 10 --expect "
                         "'writeback/randwrite-4k iops >= 5 * hdd' --expect "
                         "'writeback/randwrite-4k iops >= 25 * hdd' --junit " +
                         junit,
                     &out),
            1)
      << out;
  int regressed = -1, missing = -1, passed = -1, not_judged = -1, fresh = -1;
  std::istringstream lines(out);
  std::string line;
  int expect_passed = 0, expect_failed = 0;
  while (std::getline(lines, line)) {
    int n[5];
    if (std::sscanf(line.c_str(),
                    "check: %d regressed, %d missing, %d passed, %d not "
                    "judged, %d new",
                    &n[0], &n[1], &n[2], &n[3], &n[4]) == 5) {
      regressed = n[0], missing = n[1], passed = n[2], not_judged = n[3];
      fresh = n[4];
    }
    expect_passed += line.rfind("  expect passed: ", 0) == 0;
    expect_failed += line.rfind("  expect FAILED: ", 0) == 0;
  }
  ASSERT_GE(fresh, 0) << "no summary line:\n" << out;
  EXPECT_EQ(regressed, 1) << out;
  EXPECT_EQ(expect_passed, 1) << out;
  EXPECT_EQ(expect_failed, 1) << out;
  JUnitCounts printed;
  printed.tests = regressed + missing + passed + not_judged + fresh +
                  expect_passed + expect_failed;
  printed.failures = regressed + missing + expect_failed;
  printed.errors = 0;
  printed.skipped = not_judged + fresh;
  const JUnitParsed read = ReadWithJunitparser(junit);
  ASSERT_EQ(read.error, "");
  EXPECT_EQ(read.suites, 1);
  EXPECT_EQ(read.counted, printed) << out;
  EXPECT_EQ(read.declared, printed) << out;
}

TEST(CheckCliTest, ExpectationsWithinARunWithOrWithoutABaseline) {
  std::string out;
  EXPECT_EQ(RunShell(kCheckBin + " check " + kRunA +
                         " --expect 'writeback/randwrite-4k iops >= 5 * hdd'"
                         " 2>&1",
                     &out),
            0)
      << out;
  EXPECT_NE(out.find("  expect passed: writeback/randwrite-4k iops >= 5 * "
                     "hdd: writeback on randwrite-4k: 4388.4 IOPS >= 5.0 x "
                     "hdd 149.1 = 745.5"),
            std::string::npos)
      << out;
  // Run B's writeback holds 20 times the HDD, not 25 times.
  EXPECT_EQ(RunShell(kCheckBin + " check " + kRunB + " --baseline " + kRunA +
                         " --max-regression 25 --expect "
                         "'writeback/randwrite-4k iops >= 25 * hdd' 2>&1",
                     &out),
            1)
      << out;
  EXPECT_NE(out.find("  expect FAILED: writeback/randwrite-4k iops >= 25 * "
                     "hdd: "),
            std::string::npos)
      << out;
  EXPECT_EQ(
      RunShell(kCheckBin + " check " + kRunA + " --expect 'x/y iops >> 2' 2>&1",
               &out),
      2)
      << out;
  EXPECT_NE(out.find("the operator '>>'"), std::string::npos) << out;
}

TEST(CheckCliTest, BadFoldersAndOptionsAreOneLineErrors) {
  std::string out;
  EXPECT_EQ(RunShell(kCheckBin + " check /nonexistent-run --baseline " + kRunA +
                         " 2>&1",
                     &out),
            2)
      << out;
  EXPECT_NE(out.find("/nonexistent-run"), std::string::npos) << out;
  EXPECT_EQ(RunShell(kCheckBin + " check " + kRunB + " 2>&1", &out), 2) << out;
  EXPECT_NE(out.find("--baseline"), std::string::npos) << out;
  EXPECT_EQ(RunShell(kCheckBin + " check " + kRunB + " --baseline " + kRunA +
                         " --max-regression 150 2>&1",
                     &out),
            2)
      << out;
  EXPECT_NE(out.find("--max-regression"), std::string::npos) << out;
  // A JUnit path that cannot be written: exit 3, naming it.
  EXPECT_EQ(RunShell(kCheckBin + " check " + kRunB + " --baseline " + kRunA +
                         " --junit /nonexistent-dir/x.xml 2>&1",
                     &out),
            3)
      << out;
  EXPECT_NE(out.find("/nonexistent-dir/x.xml"), std::string::npos) << out;
}

}  // namespace
}  // namespace tierbench::testing
