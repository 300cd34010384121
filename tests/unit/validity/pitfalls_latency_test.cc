// The latency pitfalls of PitfallTable() (validity/rule_table.h: rows 18
// and X4, both prevented): a closed loop's latency hides the queueing a
// client at a fixed rate would see (coordinated omission), so rated jobs
// record the scheduled latency (sched_lat) and the reports call a closed
// loop's p99 the completion latency (clat), or for transactions the
// transaction latency. The cases read what real lab runs recorded
// (tests/unit/data/lab-kernel/: the demo's and the fleet's IO cells, the
// pgbench run's DB cells; runs.csv, comparison.csv, compare.log) through
// tierbench's report code (RunFolder, ReportWriter, ResultColumns), and run
// the lab's randwrite-4k job on a test engine that serves every IO in the
// recorded raw SSD cell's median time. The meta-test is in
// tests/unit/validity/pitfalls_test.cc.
#include <gtest/gtest.h>
#include <time.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "io/engine_registry.h"
#include "present/pages/report_writer.h"
#include "present/run_folder.h"
#include "report/result_columns.h"
#include "support/report_fixture.h"
#include "unit/validity/pitfalls_replay.h"
#include "util/clock.h"
#include "util/csv_reader.h"
#include "workload/runner.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

using pitfalls::JobsOfText;
using pitfalls::LabCsv;
using pitfalls::LabText;
using pitfalls::RepoPath;
using pitfalls::RowOf;
using pitfalls::ShippedJobs;

constexpr char kEngine[] = "pitfall-recorded-ssd";

// Completes every IO inside Queue() after a fixed service time.
class FixedServiceEngine : public IoEngine {
 public:
  explicit FixedServiceEngine(uint64_t service_ns) : service_ns_(service_ns) {}
  const char* name() const override { return kEngine; }
  Status Init(int, uint32_t) override { return Status::Ok(); }
  Status Queue(IoRequest* req, QueueResult* result) override {
    req->issue_ns = NowNs();
    timespec ts{0, static_cast<long>(service_ns_)};
    while (nanosleep(&ts, &ts) != 0) {
    }
    req->result = req->length;
    *result = QueueResult::kCompleted;
    return Status::Ok();
  }
  Status Commit(uint32_t* submitted) override {
    *submitted = 0;
    return Status::Ok();
  }
  Status Reap(uint32_t, uint32_t, uint64_t, std::vector<IoRequest*>*) override {
    return Status::Ok();
  }
  void Cleanup() override {}

 private:
  uint64_t service_ns_;
};

// The shipped randwrite-4k job as the lab ran it, `extra` lines added to
// its section, on a FixedServiceEngine serving every IO in `service_ns`;
// its runs.csv columns (name -> value).
std::map<std::string, std::string> RunLabJob(const std::string& extra,
                                             uint64_t service_ns) {
  EngineRegistry::Default().Register(
      {kEngine, "fixed service time (pitfall tests)", false, [service_ns] {
         return std::make_unique<FixedServiceEngine>(service_ns);
       }});
  std::ifstream in(RepoPath("workloads/randwrite-4k.fio"));
  std::stringstream text;
  text << in.rdbuf()
       << "filename=/tmp/tierbench-pitfall-unused\nnumber_ios=200\n"
       << extra;
  Workload w;
  w.jobs = JobsOfText(text.str());
  EXPECT_EQ(w.jobs.size(), 1u);
  for (JobSpec& j : w.jobs) {
    j.ioengine = kEngine;
    j.time_based = false;  // number_ios=200 ends it, not the 5 s runtime
  }
  RunOptions options;
  options.progress = false;
  const RunResult r = RunWorkload(w, options);
  std::map<std::string, std::string> out;
  if (r.jobs.size() != 1) {
    ADD_FAILURE() << r.jobs.size() << " jobs";
    return out;
  }
  EXPECT_EQ(r.jobs[0].dir[static_cast<int>(IoDir::kWrite)].ios, 200u);
  const std::vector<std::string> names = ResultColumnNames();
  const std::vector<std::string> values =
      ResultColumnValues(r.jobs[0], IoDir::kWrite);
  for (size_t i = 0; i < names.size() && i < values.size(); ++i) {
    out[names[i]] = values[i];
  }
  return out;
}

double Num(const std::map<std::string, std::string>& row,
           const std::string& col) {
  auto it = row.find(col);
  return it == row.end() || it->second.empty() ? -1 : std::stod(it->second);
}

const char* const kSchedColumns[] = {"sched_lat_min_us",  "sched_lat_mean_us",
                                     "sched_lat_max_us",  "sched_lat_stddev_us",
                                     "sched_lat_p50_us",  "sched_lat_p99_us",
                                     "sched_lat_p99_9_us"};

// Pitfall 18. Prevented: rated jobs (rate_iops=) record the scheduled
// latency. Valid: the lab's randwrite-4k job asking the raw SSD cell's
// 5099 IOPS (demo-runs.csv) of a target that serves one IO in that cell's
// clat p50 (424 us) at a time: sched_lat_* are filled and its p99 is many
// times the clat p99 (the IOs waited for their turn; a closed loop would
// not have seen that wait). Invalid: closed loops, where no scheduled time
// exists: the same job without rate_iops=, and every recorded lab row (the
// demo's, the fleet's and pgbench's jobs, none rated): sched_lat_* empty,
// never 0, beside a measured clat (IO) or transaction latency (tx).
TEST(ValidityPitfallsTest, Row18CoordinatedOmission) {
  const CsvDocument demo = LabCsv("demo-runs.csv");
  const size_t ssd = RowOf(demo, "ssd", "randwrite-4k");
  ASSERT_LT(ssd, demo.row_count());
  const uint64_t service_ns =
      static_cast<uint64_t>(demo.Number(ssd, "clat_p50_us").value_or(0) * 1000);
  const int rate = static_cast<int>(demo.Number(ssd, "iops").value_or(0));
  EXPECT_EQ(service_ns, 423936u);
  EXPECT_EQ(rate, 5099);

  const auto rated =
      RunLabJob("rate_iops=" + std::to_string(rate) + "\n", service_ns);
  for (const char* col : kSchedColumns) {
    EXPECT_GT(Num(rated, col), 0) << col;
  }
  EXPECT_GE(Num(rated, "clat_p99_us"), 423.9);
  EXPECT_GT(Num(rated, "sched_lat_p99_us"), 10 * Num(rated, "clat_p99_us"));
  EXPECT_GE(Num(rated, "sched_lat_min_us"), Num(rated, "lat_min_us"));

  const auto closed = RunLabJob("", service_ns);
  EXPECT_GE(Num(closed, "clat_p99_us"), 423.9);
  for (const char* col : kSchedColumns) {
    EXPECT_EQ(closed.at(col), "") << col;
  }
  for (const char* file : {"randwrite-4k.fio", "randread-zipf.fio"}) {
    for (const JobSpec& j : ShippedJobs(file)) {
      EXPECT_EQ(j.rate_iops[0] + j.rate_iops[1], 0u) << file;
    }
  }
  for (const char* file :
       {"demo-runs.csv", "fleet-20000-runs.csv", "pgbench-runs.csv"}) {
    const CsvDocument runs = LabCsv(file);
    ASSERT_GT(runs.row_count(), 0u) << file;
    for (size_t r = 0; r < runs.row_count(); ++r) {
      SCOPED_TRACE(std::string(file) + " " + runs.Get(r, "mode") + "/" +
                   runs.Get(r, "workload"));
      const bool tx = runs.Get(r, "unit") == "tx";
      EXPECT_GT(runs.Number(r, tx ? "lat_p99_us" : "clat_p99_us").value_or(0),
                0);
      for (const char* col : kSchedColumns) {
        EXPECT_EQ(runs.Get(r, col), "") << col;
      }
    }
  }
}

// A run folder of the recorded `prefix`-runs.csv, -comparison.csv and
// -manifest.json, read back.
class RecordedRunFolder {
 public:
  explicit RecordedRunFolder(const std::string& prefix)
      : recorded_(prefix),
        run_(std::make_unique<RunFolder>(RunFolder::Read(recorded_.path()))) {}
  const RunFolder& run() const { return *run_; }
  // The figure of `mode` in `workload`; a test failure and null if none.
  const ReportFigure* Figure(const std::string& mode,
                             const std::string& workload) const {
    for (const ReportFigure* f : run_->FiguresOf(workload)) {
      if (f->mode == mode) return f;
    }
    ADD_FAILURE() << "no figure " << mode << "/" << workload;
    return nullptr;
  }
  // The `kind` chart of `workload` (caption + SVG text).
  std::string Chart(const std::string& workload,
                    const std::string& kind) const {
    ReportWriter writer(*run_);
    for (const ChartFile& c : writer.charts()) {
      if (c.workload == workload && c.kind == kind) {
        return c.caption + "\n" + c.svg;
      }
    }
    ADD_FAILURE() << "no " << kind << " chart of " << workload;
    return "";
  }

 private:
  RecordedLabRun recorded_;
  std::unique_ptr<RunFolder> run_;
};

// Pitfall X4. Prevented: the reports present a closed loop's p99 as what
// it is. Valid: the demo's raw SSD cells, where the lab measured clat p99
// 9502.72 us and lat p99 (with the submission) 9633.79 us for
// randread-zipf, 2801.66 and 3194.88 us for randwrite-4k: compare.log
// printed the clat p99 ("p99 9503us", "p99 2802us"), the report's figures
// are clat's and its latency and percentile charts say "completion
// latency". Invalid (a closed loop a reader takes for clients'
// latency, the labels must act): pgbench's cells, 4 clients in a closed
// loop: the figure is the transaction latency's p99 (lat_p99_us, the none
// cell's 775946.24 us) and the charts say "transaction latency", never
// "completion latency".
TEST(ValidityPitfallsTest, RowX4ClosedLoopP99AsClientLatency) {
  const CsvDocument demo = LabCsv("demo-runs.csv");
  const std::string log = LabText("demo-compare.log");
  const RecordedRunFolder folder("demo");
  for (const char* w : {"randread-zipf", "randwrite-4k"}) {
    SCOPED_TRACE(w);
    const size_t row = RowOf(demo, "ssd", w);
    ASSERT_LT(row, demo.row_count());
    const double clat = demo.Number(row, "clat_p99_us").value_or(-1);
    const double lat = demo.Number(row, "lat_p99_us").value_or(-1);
    EXPECT_GT(lat, clat * 1.01);
    const ReportFigure* f = folder.Figure("ssd", w);
    ASSERT_NE(f, nullptr);
    EXPECT_DOUBLE_EQ(f->p99_us, clat);
    char printed[64];
    std::snprintf(printed, sizeof printed, "IOPS p99 %.0fus\n", clat);
    EXPECT_NE(log.find("ssd/" + std::string(w) + " #1: "), std::string::npos);
    EXPECT_NE(log.find(printed), std::string::npos) << printed;
    for (const char* kind : {"latency", "percentiles"}) {
      const std::string chart = folder.Chart(w, kind);
      EXPECT_NE(chart.find("completion latency"), std::string::npos) << kind;
    }
  }
  EXPECT_NE(folder.Chart("randread-zipf", "percentiles")
                .find("completion latency (log scale)"),
            std::string::npos);

  const CsvDocument pg = LabCsv("pgbench-runs.csv");
  const RecordedRunFolder db("pgbench");
  const ReportFigure* f = db.Figure("none", "pgbench-tpcb-in-ram");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->unit, "tx");
  EXPECT_DOUBLE_EQ(f->p99_us, 775946.24);
  EXPECT_DOUBLE_EQ(
      f->p99_us,
      pg.Number(RowOf(pg, "none", "pgbench-tpcb-in-ram"), "lat_p99_us")
          .value_or(-1));
  const std::string pct = db.Chart("pgbench-tpcb-in-ram", "percentiles");
  EXPECT_NE(pct.find("transaction latency (log scale)"), std::string::npos);
  EXPECT_EQ(pct.find("completion latency (log scale)"), std::string::npos);
  EXPECT_NE(db.Chart("pgbench-tpcb-in-ram", "latency")
                .find("transaction latency for tps"),
            std::string::npos);
}

}  // namespace
}  // namespace tierbench
