// The latency line of an open-loop replay (present/replay_verdict.h) on the
// golden report run (tests/golden/report-run), whose randread-4k is made a
// replay in its manifest: its valid modes ordered by median latency, the
// invalid ones left out; no line for a replay as fast as possible
// (replay_no_stall) or a generated workload; the verdict carries the line
// after the workload's throughput line.
#include "present/replay_verdict.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "present/report_format.h"
#include "present/run_folder.h"
#include "present/verdict.h"
#include "support/report_fixture.h"
#include "util/csv_reader.h"
#include "util/csv_writer.h"

namespace tierbench {
namespace {

class ReplayVerdictTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = scratch_.CopyFixture(); }
  // Makes randread-4k's job a replay of a trace.
  void MakeReplay(bool no_stall) {
    nlohmann::json m = nlohmann::json::parse(ReadText(dir_ + "/manifest.json"));
    for (nlohmann::json& w : m["workloads"]) {
      if (w["name"] != "randread-4k") continue;
      for (nlohmann::json& j : w["jobs"]) {
        j["read_iolog"] = "/traces/app.iolog";
        j["replay_no_stall"] = no_stall;
      }
    }
    std::ofstream(dir_ + "/manifest.json") << m.dump(2);
  }
  // Sets the manifest's lab label lab.hdd_iops (a lab run's HDD limit).
  void SetLabHddIops(double iops) {
    nlohmann::json m = nlohmann::json::parse(ReadText(dir_ + "/manifest.json"));
    m["labels"]["lab.hdd_iops"] = std::to_string(iops);
    std::ofstream(dir_ + "/manifest.json") << m.dump(2);
  }
  // randread-4k's latency line as the run folder reads now.
  std::optional<VerdictLine> LineNow() const {
    return ReplayLatencyLine(RunFolder::Read(dir_), "randread-4k");
  }
  // Sets runs.csv's read byte counters of `mode`'s cells so that `share`
  // of the bytes it read went to the HDD.
  void SetHddReadShare(const std::string& mode, double share) {
    const std::string path = dir_ + "/runs.csv";
    const CsvDocument d = CsvDocument::Parse(ReadText(path), "runs.csv");
    const std::vector<std::string>& header = d.header();
    ASSERT_EQ(header.at(0), "schema_version");
    CsvTable t(std::vector<std::string>(header.begin() + 1, header.end()),
               std::stoi(d.Get(0, "schema_version")));
    for (size_t r = 0; r < d.row_count(); ++r) {
      std::vector<std::string> row;
      for (size_t c = 1; c < header.size(); ++c) {
        std::string v = d.Get(r, header[c]);
        if (d.Get(r, "mode") == mode) {
          if (header[c] == "stack_read_bytes") v = "1000000";
          if (header[c] == "hdd_read_bytes") v = std::to_string(share * 1e6);
        }
        row.push_back(v);
      }
      t.AddRow(std::move(row));
    }
    std::ofstream out(path);
    t.Write(out);
  }
  ScratchDir scratch_{"replay-verdict"};
  std::string dir_;
};

TEST_F(ReplayVerdictTest, AnOpenLoopReplaysModesAreOrderedByMedianLatency) {
  MakeReplay(false);
  const RunFolder run = RunFolder::Read(dir_);
  ASSERT_TRUE(IsOpenLoopReplay(run, "randread-4k"));
  EXPECT_FALSE(IsOpenLoopReplay(run, "randwrite-4k"));
  const std::optional<VerdictLine> line = ReplayLatencyLine(run, "randread-4k");
  ASSERT_TRUE(line.has_value());
  EXPECT_EQ(line->workload, "randread-4k");
  const std::string& t = line->text;
  EXPECT_EQ(t.rfind("randread-4k replays its trace at the recorded times "
                    "(open loop), so its IOPS follow the trace, not the modes; "
                    "by median latency: reads: ",
                    0),
            0u)
      << t;
  // The valid modes, in the order of their medians; the invalid ones
  // (writethrough, writeback, writearound: cold reads) are not quoted.
  std::vector<std::pair<double, std::string>> valid;
  for (const ReportFigure* f : run.FiguresOf("randread-4k")) {
    ASSERT_TRUE(f->p50_us.has_value()) << f->mode;
    if (!f->Invalid()) valid.push_back({*f->p50_us, f->mode});
  }
  std::sort(valid.begin(), valid.end());
  ASSERT_GE(valid.size(), 3u);
  size_t at = 0;
  for (const auto& [p50, mode] : valid) {
    const size_t found = t.find(" " + mode + " ", at);
    ASSERT_NE(found, std::string::npos) << mode << " in " << t;
    at = found + 1;
  }
  for (const std::string m : {"writethrough", "writeback", "writearound"}) {
    EXPECT_EQ(t.find(" " + m + " "), std::string::npos) << m;
    EXPECT_EQ(
        std::count(line->quoted_modes.begin(), line->quoted_modes.end(), m), 0)
        << m;
  }
  EXPECT_EQ(line->quoted_modes.size(), valid.size());
  // The verdict carries it, after the workload's throughput line.
  const Verdict v = BuildVerdict(run, nullptr);
  int throughput_at = -1, latency_at = -1;
  for (size_t i = 0; i < v.lines.size(); ++i) {
    if (v.lines[i].workload != "randread-4k") continue;
    if (v.lines[i].text == t) latency_at = static_cast<int>(i);
    if (throughput_at < 0) throughput_at = static_cast<int>(i);
  }
  ASSERT_GE(latency_at, 0);
  EXPECT_LT(throughput_at, latency_at);
  // The line before it ranks nothing by IOPS (they follow the trace): it
  // names only the modes the latency ranking leaves out.
  ASSERT_NE(throughput_at, latency_at);
  const std::string& before = v.lines[throughput_at].text;
  EXPECT_NE(before.find(": the latency ranking below leaves out "),
            std::string::npos)
      << before;
  for (const char* ranking :
       {"is best", "beat the raw HDD", " IOPS", "x the"}) {
    EXPECT_EQ(before.find(ranking), std::string::npos)
        << ranking << ": " << before;
  }
  for (const std::string m : {"writethrough", "writeback", "writearound"}) {
    EXPECT_NE(before.find(m + " ("), std::string::npos) << m << ": " << before;
  }
}

// The lab's HDD below its IOPS limit answers in the host's time: when the
// raw HDD's replay median is under 1 / lab.hdd_iops, the line ranks no
// mode and says why; at or above it, the modes are ranked as on real
// disks.
TEST_F(ReplayVerdictTest, ALabReplayThatLeftTheHddBelowItsLimitIsNotRanked) {
  MakeReplay(false);
  double hdd_p50 = 0;
  const RunFolder before = RunFolder::Read(dir_);  // owns the figures
  for (const ReportFigure* f : before.FiguresOf("randread-4k")) {
    if (f->baseline == "hdd" && f->p50_us) hdd_p50 = *f->p50_us;
  }
  ASSERT_GT(hdd_p50, 0);
  // One IO at the limit takes twice the HDD's median: the replay left the
  // lab's HDD below its limit.
  SetLabHddIops(1e6 / (2 * hdd_p50));
  const RunFolder idle = RunFolder::Read(dir_);
  EXPECT_NEAR(LabHddServiceUs(idle), 2 * hdd_p50, 1e-3 * hdd_p50);
  const std::optional<VerdictLine> line =
      ReplayLatencyLine(idle, "randread-4k");
  ASSERT_TRUE(line.has_value());
  EXPECT_NE(line->text.find("; not ranked by latency: the raw HDD's reads "
                            "took a median " +
                            FormatLatencyUs(hdd_p50) + ", under the "),
            std::string::npos)
      << line->text;
  EXPECT_NE(line->text.find("no mode's latency is a disk's"),
            std::string::npos);
  EXPECT_EQ(line->text.find("by median latency"), std::string::npos);
  EXPECT_TRUE(line->quoted_modes.empty());
  // At half the median the HDD was at its limit: ranked.
  SetLabHddIops(1e6 / (hdd_p50 / 2));
  const std::optional<VerdictLine> loaded = LineNow();
  ASSERT_TRUE(loaded.has_value());
  EXPECT_NE(loaded->text.find("by median latency: reads: "), std::string::npos)
      << loaded->text;
  EXPECT_EQ(LabHddServiceUs(RunFolder::Read(scratch_.CopyFixture("plain"))), 0);
}

// With the raw HDD's figures a disk's (at the lab HDD's limit), a cache
// figure can still be the host's: a direction whose bytes went mostly to
// the HDD, with a median under one IO at the limit, is left out and named;
// one the cache served, or one as slow as the HDD at its limit, is ranked.
TEST_F(ReplayVerdictTest, ALabCacheFigureTheIdleHddAnsweredIsLeftOut) {
  MakeReplay(false);
  std::map<std::string, double> p50;
  {
    const RunFolder run = RunFolder::Read(dir_);  // owns the figures
    for (const ReportFigure* f : run.FiguresOf("randread-4k")) {
      if (f->p50_us) p50[f->mode] = *f->p50_us;
    }
  }
  ASSERT_GT(p50["hdd"], 0);
  ASSERT_LT(p50["dm-cache-writeback"], 0.9 * p50["hdd"]);
  ASSERT_GE(p50["none"], 0.9 * p50["hdd"]);
  // One IO at the limit: 0.9x the raw HDD's median, so the raw HDD's
  // figures are ranked (at its limit).
  SetLabHddIops(1e6 / (0.9 * p50["hdd"]));
  SetHddReadShare("dm-cache-writeback", 0.9);
  SetHddReadShare("none", 1.0);  // to the HDD, but as slow as it: a disk's
  const std::string left_out =
      "left out: dm-cache-writeback's reads (they went to the lab's HDD, "
      "which the cache left below its IOPS limit, where it answers in the "
      "host's time with no seek";
  {
    const std::optional<VerdictLine> line = LineNow();
    ASSERT_TRUE(line.has_value());
    EXPECT_NE(line->text.find("by median latency: reads: "), std::string::npos)
        << line->text;
    EXPECT_NE(line->text.find(left_out), std::string::npos) << line->text;
    EXPECT_EQ(line->text.find("dm-cache-writeback " +
                              FormatLatencyUs(p50["dm-cache-writeback"])),
              std::string::npos)
        << line->text;
    EXPECT_NE(line->text.find("none " + FormatLatencyUs(p50["none"])),
              std::string::npos)
        << line->text;
    EXPECT_EQ(std::count(line->quoted_modes.begin(), line->quoted_modes.end(),
                         "dm-cache-writeback"),
              0);
  }
  // The cache served its reads: ranked.
  SetHddReadShare("dm-cache-writeback", 0.1);
  const std::optional<VerdictLine> line = LineNow();
  ASSERT_TRUE(line.has_value());
  EXPECT_EQ(line->text.find("left out"), std::string::npos) << line->text;
  EXPECT_NE(line->text.find("dm-cache-writeback " +
                            FormatLatencyUs(p50["dm-cache-writeback"])),
            std::string::npos)
      << line->text;
}

TEST_F(ReplayVerdictTest, AReplayAsFastAsPossibleOrAGeneratedWorkloadGetsNone) {
  const RunFolder generated = RunFolder::Read(dir_);
  EXPECT_FALSE(ReplayLatencyLine(generated, "randread-4k").has_value());
  MakeReplay(true);
  const RunFolder fast = RunFolder::Read(dir_);
  EXPECT_FALSE(IsOpenLoopReplay(fast, "randread-4k"));
  EXPECT_FALSE(ReplayLatencyLine(fast, "randread-4k").has_value());
  EXPECT_FALSE(ReplayLatencyLine(fast, "no-such-workload").has_value());
}

}  // namespace
}  // namespace tierbench
