// --expect's grammar and its judgement (present/expectation.h) on the
// committed fixture run (tests/golden/report-run: writeback 4388.4 IOPS on
// randwrite-4k against the HDD's 149.1; its cold randread-4k cells marked
// invalid).
#include "present/expectation.h"

#include <gtest/gtest.h>

#include <string>

#include "present/run_folder.h"
#include "support/report_fixture.h"

namespace tierbench {
namespace {

Expectation Parsed(const std::string& text) {
  Expectation e;
  Status s = ParseExpectation(text, &e);
  EXPECT_TRUE(s.ok()) << text << ": " << s.message();
  return e;
}

TEST(ExpectationParse, EveryFormOfTheGrammar) {
  Expectation e = Parsed("writeback/randwrite-4k iops >= 5 * hdd");
  EXPECT_EQ(e.mode, "writeback");
  EXPECT_EQ(e.workload, "randwrite-4k");
  EXPECT_EQ(e.series, "");
  EXPECT_EQ(e.metric, "iops");
  EXPECT_EQ(e.op, ">=");
  EXPECT_EQ(e.factor, 5);
  EXPECT_EQ(e.ref_mode, "hdd");
  e = Parsed("writeback/anandtech-mix/write p99 <= 2.5*ssd");
  EXPECT_EQ(e.series, "write");
  EXPECT_EQ(e.metric, "p99");
  EXPECT_EQ(e.factor, 2.5);
  EXPECT_EQ(e.ref_mode, "ssd");
  e = Parsed("ssd/randread-4k iops > 1000");
  EXPECT_EQ(e.ref_mode, "");
  EXPECT_EQ(e.ref_value, 1000);
  e = Parsed("writeback/randwrite-4k iops < ssd");
  EXPECT_EQ(e.factor, 1);
  EXPECT_EQ(e.ref_mode, "ssd");
}

TEST(ExpectationParse, BadExpressionsNameTheWrongTerm) {
  struct Case {
    const char* text;
    const char* named;
  } cases[] = {
      {"writeback iops >= hdd", "the cell 'writeback' is not MODE/WORKLOAD"},
      {"writeback/ iops >= hdd", "is not MODE/WORKLOAD"},
      {"writeback/randwrite-4k tps >= hdd", "the metric 'tps'"},
      {"writeback/randwrite-4k iops => hdd", "the operator '=>'"},
      {"writeback/randwrite-4k iops >= -5 * hdd", "the factor '-5'"},
      {"writeback/randwrite-4k iops >= 5 + hdd", "'+' where '*' belongs"},
      {"writeback/randwrite-4k iops >= 0", "neither a number above 0"},
      {"", "wrong number of terms"},
  };
  for (const Case& c : cases) {
    Expectation e;
    Status s = ParseExpectation(c.text, &e);
    ASSERT_FALSE(s.ok()) << c.text;
    EXPECT_NE(s.message().find(c.named), std::string::npos)
        << c.text << ": " << s.message();
    EXPECT_NE(s.message().find("e.g. 'writeback/randwrite-4k iops >= 5 * hdd'"),
              std::string::npos);
  }
}

TEST(ExpectationEvaluate, HoldsFailsAndRefusesInvalidOrMissingCells) {
  const RunFolder run = RunFolder::Read(FixtureRunDir());
  ExpectationResult r = EvaluateExpectation(
      Parsed("writeback/randwrite-4k iops >= 5 * hdd"), run);
  EXPECT_TRUE(r.passed) << r.why;
  EXPECT_EQ(
      r.why,
      "writeback on randwrite-4k: 4388.4 IOPS >= 5.0 x hdd 149.1 = 745.5");
  r = EvaluateExpectation(Parsed("writeback/randwrite-4k iops >= 0.5*ssd"),
                          run);
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.why.find(": not so"), std::string::npos) << r.why;
  // A cold read cell the run marks invalid is never a pass.
  r = EvaluateExpectation(Parsed("writeback/randread-4k iops > 1"), run);
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.why.find("is marked invalid: cold-reads"), std::string::npos)
      << r.why;
  r = EvaluateExpectation(Parsed("writeback/no-such-workload iops > 1"), run);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.why, "the run has no cell writeback on no-such-workload");
  r = EvaluateExpectation(Parsed("writeback/randwrite-4k iops > nomode"), run);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.why, "the run has no cell nomode on randwrite-4k");
}

}  // namespace
}  // namespace tierbench
