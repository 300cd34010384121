// series.csv: the rows of a fake cell (golden), unknown values empty and
// never 0, and the per-second sampling of a layer through the whole compare
// protocol (the fake bcache sysfs; the workload hook plays two seconds and
// calls RunOptions::on_second as the runner does).
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "db/db_cell.h"
#include "orchestrate/compare_runner.h"
#include "record/cell_series.h"
#include "report/reporters.h"
#include "report/runs_csv_reporter.h"
#include "support/fake_sysfs.h"
#include "util/clock.h"
#include "util/csv_reader.h"
#include "util/csv_writer.h"
#include "util/interrupt.h"

namespace tierbench {
namespace {
namespace fs = std::filesystem;

constexpr uint64_t kSec = 1000000000ULL;

LayerSample At(uint64_t ns, int64_t hits, int64_t misses, int64_t dirty) {
  LayerSample s;
  s.taken_ns = ns;
  s.read_hits = hits;
  s.read_misses = misses;
  s.dirty_bytes = dirty;
  return s;
}

// One job of 3.4 s: reads 100, 200, 300 per second, writes 10 per second,
// and a partial fourth second that is left out.
RunResult FakeResult() {
  JobResult j;
  j.runtime_ns = 3 * kSec + 400000000ULL;
  for (uint64_t t = 0; t < 4; ++t) {
    for (uint64_t i = 0; i < (t + 1) * 100; ++i)
      j.dir[0].series.Add(t * kSec + i, 4096);
    for (uint64_t i = 0; i < 10; ++i) j.dir[1].series.Add(t * kSec + i, 4096);
  }
  RunResult r;
  r.jobs.push_back(j);
  return r;
}

// The rows as series.csv writes them (report/runs_csv_reporter.cc).
std::string Render(const std::vector<SeriesRow>& rows) {
  std::string out;
  for (const SeriesRow& r : rows) {
    out += std::string(SeriesPhaseName(r.phase)) + "," + CsvNumber(r.t_s, 1) +
           "," + CsvCount(r.read_iops) + "," + CsvCount(r.write_iops) + "," +
           CsvOptional(r.hit_ratio_pct, 1) + "," + CsvCount(r.dirty_bytes) +
           "\n";
  }
  return out;
}

TEST(SeriesTest, GoldenRowsOfAFakeCell) {
  CellSeries s;
  s.measure_start_ns = 100 * kSec;
  // Two warm seconds starting 5 s before the measured window.
  s.warm_io = {{95 * kSec, 50, 5}, {96 * kSec, 60, 6}};
  s.samples = {
      {SeriesPhase::kWarm, At(95 * kSec, 0, 0, 0)},
      {SeriesPhase::kWarm, At(96 * kSec, 10, 40, 1024)},
      {SeriesPhase::kWarm, At(97 * kSec, 30, 40, 2048)},
      // Baseline right before the IO, then one reading a second (late by
      // up to 0.1 s, as the runner's loop wakes).
      {SeriesPhase::kMeasure, At(100 * kSec - 1000, 100, 100, 0)},
      {SeriesPhase::kMeasure, At(101 * kSec + 50000000, 180, 120, 4096)},
      // No read counted in the second second: ratio empty, dirty known.
      {SeriesPhase::kMeasure, At(102 * kSec + 90000000, 180, 120, 8192)},
      // The counters went backwards (reset): ratio empty.
      {SeriesPhase::kMeasure, At(103 * kSec, 5, 1, 8192)},
      {SeriesPhase::kDrain, At(104 * kSec + 200000000, -1, -1, 4096)},
      {SeriesPhase::kDrain, At(105 * kSec + 200000000, -1, -1, 0)},
  };
  EXPECT_EQ(Render(SeriesRows(s, FakeResult())),
            "warm,-5.0,50,5,20.0,1024\n"
            "warm,-4.0,60,6,100.0,2048\n"
            "measure,0.0,100,10,80.0,4096\n"
            "measure,1.0,200,10,,8192\n"
            "measure,2.0,300,10,,8192\n"
            "drain,4.2,,,,4096\n"
            "drain,5.2,,,,0\n");
}

TEST(SeriesTest, UnknownLayerValuesAreEmptyNeverZero) {
  CellSeries s;
  s.measure_start_ns = 10 * kSec;
  // A layer without hit counters (dm-writecache before 5.15): dirty only.
  s.samples = {{SeriesPhase::kMeasure, At(10 * kSec, -1, -1, 0)},
               {SeriesPhase::kMeasure, At(11 * kSec, -1, -1, 512)}};
  const auto rows = SeriesRows(s, FakeResult());
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_FALSE(rows[0].hit_ratio_pct);
  EXPECT_EQ(rows[0].dirty_bytes, std::optional<uint64_t>(512));
  // Seconds without a reading (the layer failed or was not sampled).
  EXPECT_FALSE(rows[1].hit_ratio_pct);
  EXPECT_FALSE(rows[1].dirty_bytes);
  // A raw cell: IO only.
  CellSeries raw;
  raw.measure_start_ns = 10 * kSec;
  const auto raw_rows = SeriesRows(raw, FakeResult());
  ASSERT_EQ(raw_rows.size(), 3u);
  EXPECT_EQ(raw_rows[2].read_iops, std::optional<uint64_t>(300));
  EXPECT_FALSE(raw_rows[2].dirty_bytes);
  // A cell that never measured has no rows.
  EXPECT_TRUE(SeriesRows(CellSeries{}, FakeResult()).empty());
}

class SeriesProtocolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ResetInterruptForTest();
    char tmpl[] = "/tmp/tierbench-series-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    fs::create_directories(fake_.root() + "/dev");
    target_ = fake_.root() + "/dev/bcache0";
    for (const std::string& f :
         {target_, dir_ + "/hdd.img", dir_ + "/ssd.img"}) {
      std::ofstream(f) << "";
      fs::resize_file(f, 1 << 20);
    }
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  CompareOptions Options();
  Host TestHost();
  CsvDocument SeriesCsv();
  FakeBcacheSysfs fake_;
  std::string dir_, target_;
};

CompareOptions SeriesProtocolTest::Options() {
  CompareOptions o;
  // The cold protocol (the default warms until steady, which these
  // fake runs would loop through; its own tests set it).
  o.cache_state = CacheState::kCold;
  o.stacks = {target_};
  o.hdd = dir_ + "/hdd.img";
  o.ssd = dir_ + "/ssd.img";
  o.mode_paths = {
      Write("hdd.json",
            R"({"schema_version": 1, "name": "hdd", "description": "t", )"
            R"("layer": "raw", "target": "hdd"})"),
      Write("writeback.json",
            R"({"schema_version": 1, "name": "writeback", "description": )"
            R"("t", "layer": "bcache", "cache_mode": "writeback"})")};
  o.workload_paths = {
      Write("randread.fio",
            "[randread]\nrw=randread\nbs=4k\nsize=256k\nioengine=psync\n")};
  o.results_dir = dir_ + "/results";
  o.run_id = "s1";
  o.destructive = true;
  o.stats_lag_s = 0;
  o.drain_timeout_s = 5;
  o.sysfs_root = fake_.root();
  o.quiet = true;
  return o;
}

Host SeriesProtocolTest::TestHost() {
  Host host;
  host.sysfs = fake_.sysfs();
  host.sleep = [](double) {};
  return host;
}

CsvDocument SeriesProtocolTest::SeriesCsv() {
  std::ifstream in(dir_ + "/results/s1/series.csv");
  std::stringstream ss;
  ss << in.rdbuf();
  return CsvDocument::Parse(ss.str(), "series.csv");
}

TEST_F(SeriesProtocolTest, SamplesTheLayerOnceASecondIntoSeriesCsv) {
  const CompareOptions o = Options();
  Host host = TestHost();
  CompareHooks hooks;
  hooks.run_workload = [this](const Workload& w, const RunOptions& ro) {
    // Two seconds of IO; the layer's counters move between the runner's
    // once-a-second calls, which happen on this (the calling) thread. The
    // raw cell (no layer to sample) does not wait.
    const uint64_t start = NowNs();
    const bool cache = w.jobs[0].filename == target_;
    for (uint64_t k = 1; k <= 2 && cache; ++k) {
      BcacheStatsTotal st;
      st.cache_hits = 80 * k * k;
      st.cache_misses = 20 * k;
      fake_.SetStatsTotal(st);
      fake_.SetDirtyBytes(4096 * k);
      while (NowNs() < start + k * kSec) ::usleep(20000);
      if (ro.on_second) ro.on_second(start);
    }
    fake_.SetDirtyBytes(0);
    JobResult j;
    j.name = "randread";
    j.runtime_ns = 2 * kSec;
    for (uint64_t i = 0; i < 300; ++i) j.dir[0].series.Add(i * 1000, 4096);
    for (uint64_t i = 0; i < 500; ++i)
      j.dir[0].series.Add(kSec + i * 1000, 4096);
    j.dir[0].ios = 800;
    j.dir[0].bytes = 800 * 4096;
    RunResult r;
    r.jobs.push_back(j);
    return r;
  };
  std::ostringstream out;
  CompareRunner(o, host, hooks).Run(MakeCompareReporters(out));
  const CsvDocument doc = SeriesCsv();
  std::vector<std::string> header = {"schema_version"};
  for (const std::string& c : SeriesCsvColumns()) header.push_back(c);
  EXPECT_EQ(doc.header(), header);
  int hdd_rows = 0, wb_measure = 0;
  for (size_t r = 0; r < doc.row_count(); ++r) {
    EXPECT_EQ(doc.Get(r, "schema_version"), "1");
    if (doc.Get(r, "mode") == "hdd") {
      ++hdd_rows;
      EXPECT_EQ(doc.Get(r, "layer"), "raw");
      EXPECT_EQ(doc.Get(r, "hit_ratio_pct"), "");
      EXPECT_EQ(doc.Get(r, "dirty_bytes"), "");
      continue;
    }
    if (doc.Get(r, "phase") != "measure") continue;
    ++wb_measure;
    if (doc.Get(r, "t_s") == "0.0") {
      EXPECT_EQ(doc.Get(r, "read_iops"), "300");
      EXPECT_EQ(doc.Get(r, "dirty_bytes"), "4096");
    }
    if (doc.Get(r, "t_s") == "1.0") {
      EXPECT_EQ(doc.Get(r, "read_iops"), "500");
      // Second 1: hits 80 -> 320, misses 20 -> 40: 240 / 260.
      EXPECT_EQ(doc.Get(r, "hit_ratio_pct"), "92.3");
      EXPECT_EQ(doc.Get(r, "dirty_bytes"), "8192");
    }
  }
  EXPECT_EQ(hdd_rows, 2);
  EXPECT_EQ(wb_measure, 2);
}

// --cache-state warm-until-steady: the warm-up chunks' seconds come before
// the measured window (negative t_s, phase warm). The hook reports each
// chunk's IO start through on_second as the runner would, 8 and 6 s before
// the measured window's. The starts are fixed offsets from the first call,
// not read off the clock at each call: under ASan on a loaded machine the
// calls themselves are 0.1 s apart (CI, stop 22: -8.1 for -8.0).
TEST_F(SeriesProtocolTest, WarmUpChunksComeFirstWithNegativeSeconds) {
  CompareOptions o = Options();
  o.cache_state = CacheState::kWarmUntilSteady;
  o.warm_chunk_s = 2;
  o.warm_max_s = 4;  // two chunks
  Host host = TestHost();
  CompareHooks hooks;
  int chunks = 0;
  uint64_t base = 0;
  hooks.run_workload = [&chunks, &base](const Workload& w,
                                        const RunOptions& ro) {
    const bool chunk = w.jobs[0].time_based;
    if (base == 0) base = NowNs();
    if (chunk) ++chunks;
    const uint64_t start =
        chunk ? base + 2 * (chunks - 1) * kSec : base + 8 * kSec;
    if (ro.on_second) ro.on_second(start);
    JobResult j;
    j.name = "randread";
    j.runtime_ns = 2 * kSec;
    for (uint64_t t = 0; t < 2; ++t) {
      for (uint64_t i = 0; i < (chunk ? 50 : 400); ++i)
        j.dir[0].series.Add(t * kSec + i, 4096);
    }
    j.dir[0].ios = chunk ? 100 : 800;
    j.dir[0].bytes = j.dir[0].ios * 4096;
    RunResult r;
    r.jobs.push_back(j);
    return r;
  };
  std::ostringstream out;
  CompareRunner(o, host, hooks).Run(MakeCompareReporters(out));
  const CsvDocument doc = SeriesCsv();
  std::vector<std::string> warm_t;
  int measure = 0;
  for (size_t r = 0; r < doc.row_count(); ++r) {
    if (doc.Get(r, "mode") != "writeback") continue;
    if (doc.Get(r, "phase") == "warm") {
      warm_t.push_back(doc.Get(r, "t_s"));
      EXPECT_EQ(doc.Get(r, "read_iops"), "50");
      EXPECT_EQ(measure, 0) << "warm rows come first";
    }
    if (doc.Get(r, "phase") == "measure") {
      ++measure;
      EXPECT_EQ(doc.Get(r, "read_iops"), "400");
    }
  }
  EXPECT_EQ(chunks, 2);
  EXPECT_EQ(warm_t, (std::vector<std::string>{"-8.0", "-7.0", "-6.0", "-5.0"}));
  EXPECT_EQ(measure, 2);
}

// A DB cell: the driver's once-a-second callback (DbCellOptions::on_second)
// samples the layer; the series start at the benchmark's start, and the
// transactions of a writing script count as writes.
TEST_F(SeriesProtocolTest, DbCellsAreSampledFromTheBenchmarkStart) {
  CompareOptions o = Options();
  o.workload_paths = {Write("tpcb.json",
                            R"({"schema_version": 1, "kind": "pgbench", )"
                            R"("name": "tpcb", "scale": 1, "clients": 2, )"
                            R"("threads": 1, "duration": "1s"})")};
  Host host = TestHost();
  CompareHooks hooks;
  int callbacks = 0;
  hooks.run_db = [&](const DbWorkload& w, const std::string&,
                     const DbCellOptions& opts, DbCellInfo*) {
    // The benchmark "started" 1.2 s ago (after the load).
    if (opts.on_second) {
      ++callbacks;
      opts.on_second(NowNs() - 1200000000ULL);
    }
    JobResult r;
    r.name = w.name;
    r.unit = "tx";
    r.runtime_ns = kSec;
    DirectionStats& d = r.dir[static_cast<int>(DbTxDirection(w.builtin))];
    for (uint64_t i = 0; i < 100; ++i) {
      d.ios++;
      d.series.Add(i * 1000, 0);
    }
    return r;
  };
  std::ostringstream out;
  CompareRunner(o, host, hooks).Run(MakeCompareReporters(out));
  EXPECT_EQ(callbacks, 2);  // hdd and writeback
  const CsvDocument doc = SeriesCsv();
  int measure = 0;
  for (size_t r = 0; r < doc.row_count(); ++r) {
    if (doc.Get(r, "phase") != "measure") continue;
    ++measure;
    EXPECT_EQ(doc.Get(r, "t_s"), "0.0");
    EXPECT_EQ(doc.Get(r, "read_iops"), "0");
    EXPECT_EQ(doc.Get(r, "write_iops"), "100");
    if (doc.Get(r, "mode") == "writeback") {
      // One reading at 1.2 s: the dirty data, but no earlier reading for a
      // ratio.
      EXPECT_NE(doc.Get(r, "dirty_bytes"), "");
      EXPECT_EQ(doc.Get(r, "hit_ratio_pct"), "");
    }
  }
  EXPECT_EQ(measure, 2);
}

}  // namespace
}  // namespace tierbench
