// `tierbench check`'s decision (present/regression_check.h) on the two
// committed fixture runs, which differ only in writeback's IOPS on
// randwrite-4k (run B: 20% fewer, 95% CI -23.76% to -16.06% over 3
// repetitions each; tests/unit/present/merged_test.cc), on synthetic runs
// without intervals or with a cell missing, and its JUnit XML.
#include "present/regression_check.h"

#include <gtest/gtest.h>

#include <string>

#include "present/junit_xml.h"
#include "present/run_folder.h"
#include "support/report_fixture.h"
#include "support/xml_check.h"

namespace tierbench {
namespace {

using S = CheckCase::Status;

std::string FixtureB() {
  return std::string(TIERBENCH_SOURCE_DIR) + "/tests/golden/report-run-b";
}

const CheckCase* Find(const CheckResult& r, const std::string& mode,
                      const std::string& workload) {
  for (const CheckCase& c : r.cases) {
    if (c.mode == mode && c.workload == workload) return &c;
  }
  return nullptr;
}

TEST(RegressionCheck, TwentyPercentFewerIopsFailsATenPercentAllowance) {
  const RunFolder a = RunFolder::Read(FixtureRunDir());
  const RunFolder b = RunFolder::Read(FixtureB());
  const CheckResult r = CheckAgainstBaseline(a, b, 10);
  EXPECT_EQ(r.cases.size(), 28u);
  EXPECT_EQ(r.Count(S::kRegressed), 1);
  EXPECT_EQ(r.Count(S::kPassed), 23);
  // Three cold read cells the baseline marks invalid, and one cell with
  // two repetitions: listed, not judged.
  EXPECT_EQ(r.Count(S::kNotJudged), 4);
  const CheckCase* cold = Find(r, "writeback", "randread-4k");
  ASSERT_NE(cold, nullptr);
  EXPECT_EQ(cold->status, S::kNotJudged);
  EXPECT_NE(cold->why.find("marked invalid in the baseline: cold-reads"),
            std::string::npos)
      << cold->why;
  EXPECT_FALSE(r.Passed());
  const CheckCase* c = Find(r, "writeback", "randwrite-4k");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->status, S::kRegressed);
  ASSERT_TRUE(c->change.has_value());
  EXPECT_NEAR(c->change->high_pct, -16.06, 0.005);
  EXPECT_NE(c->why.find("4388.4 -> 3510.7 IOPS, -20.0% (95% CI -23.8% to "
                        "-16.1%): slower beyond the 10.0% allowed"),
            std::string::npos)
      << c->why;
  EXPECT_EQ(c->Name(), "writeback on randwrite-4k");
}

TEST(RegressionCheck, TheSameDropWithinTheAllowancePasses) {
  const RunFolder a = RunFolder::Read(FixtureRunDir());
  const RunFolder b = RunFolder::Read(FixtureB());
  // -20% is significant, but 25% may be lost.
  const CheckResult r = CheckAgainstBaseline(a, b, 25);
  EXPECT_EQ(r.Count(S::kRegressed), 0);
  EXPECT_TRUE(r.Passed());
  EXPECT_NE(Find(r, "writeback", "randwrite-4k")
                ->why.find("slower, within the 25.0% allowed"),
            std::string::npos);
  // The other way round, writeback got faster.
  const CheckResult back = CheckAgainstBaseline(b, a, 0);
  EXPECT_TRUE(back.Passed());
  EXPECT_NE(Find(back, "writeback", "randwrite-4k")->why.find(": faster"),
            std::string::npos);
}

TEST(RegressionCheck, NoIntervalIsNotJudgedAndAMissingCellFails) {
  ScratchDir tmp("check");
  // One repetition per cell: no interval anywhere, so nothing is judged.
  WriteSyntheticRun(tmp.path() + "/a", 3, 2, 12000);
  WriteSyntheticRun(tmp.path() + "/b", 2, 2, 12000);
  const RunFolder a = RunFolder::Read(tmp.path() + "/a");
  const RunFolder b = RunFolder::Read(tmp.path() + "/b");
  const CheckResult r = CheckAgainstBaseline(a, b, 5);
  EXPECT_EQ(r.Count(S::kPassed), 0);
  EXPECT_GT(r.Count(S::kNotJudged), 0);
  // Run b lacks the baseline's third mode: missing, a failure.
  EXPECT_GT(r.Count(S::kMissing), 0);
  EXPECT_FALSE(r.Passed());
  for (const CheckCase& c : r.cases) {
    if (c.status == S::kNotJudged) {
      EXPECT_NE(c.why.find("an interval needs 3 on each side"),
                std::string::npos)
          << c.why;
    }
  }
  // Without the missing mode it still does not pass: nothing was judged.
  const CheckResult same = CheckAgainstBaseline(b, b, 5);
  EXPECT_EQ(same.Count(S::kMissing), 0);
  EXPECT_FALSE(same.Passed());
}

TEST(JUnitXml, WellFormedWithFailuresAndSkipsCounted) {
  const std::string x = JUnitXml(
      "tierbench check b against a",
      {{"randwrite-4k", "bcache/writeback", JUnitCase::Result::kFailed,
        "regressed: 4000 -> 3000 IOPS <bad> & \"quoted\"\x01"},
       {"randread-4k", "bcache/writeback", JUnitCase::Result::kPassed,
        "passed"},
       {"randread-4k", "raw/hdd", JUnitCase::Result::kSkipped, "not judged"}});
  XmlCheck check;
  ASSERT_EQ(check.Parse(x), "") << x;
  EXPECT_NE(x.find("tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\""),
            std::string::npos)
      << x;
  EXPECT_NE(x.find("&lt;bad&gt; &amp; &quot;quoted&quot;\""), std::string::npos)
      << x;
  int failures = 0, skipped = 0;
  for (const XmlCheck::Element& e : check.elements()) {
    failures += e.name == "failure" ? 1 : 0;
    skipped += e.name == "skipped" ? 1 : 0;
  }
  EXPECT_EQ(failures, 1);
  EXPECT_EQ(skipped, 1);
}

}  // namespace
}  // namespace tierbench
