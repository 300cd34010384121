// Output tests of the three report formats (google/benchmark style): a
// deterministic RunResult is rendered and compared with the golden files in
// tests/golden/, plus targeted regex checks of the fio layout.
//
// To regenerate the golden files after an intended format change:
//   TIERBENCH_UPDATE_GOLDEN=1 build/tests/tierbench_tests
//       --gtest_filter='ReportOutputTest.*'
// and review the diff.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "report/console_reporter.h"
#include "report/json_reporter.h"
#include "report/reporters.h"
#include "report/result_columns.h"
#include "support/golden_file.h"
#include "util/errors.h"
#include "util/units.h"

namespace tierbench {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Fills one direction with `n` IOs whose latencies follow simple integer
// patterns, spread evenly over `runtime_ns`.
void Fill(DirectionStats* s, uint64_t n, uint64_t bytes_per_io,
          uint64_t base_clat_ns, uint64_t spread_ns, uint64_t runtime_ns,
          bool with_slat) {
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t slat = with_slat ? 800 + (i * 37) % 3000 : 0;
    const uint64_t clat = base_clat_ns + (i * 7919 * 104729) % spread_ns;
    s->ios++;
    s->issued++;
    s->bytes += bytes_per_io;
    if (with_slat) {
      s->slat.Add(static_cast<double>(slat));
      s->clat.Add(static_cast<double>(clat));
      s->clat_hist.Add(clat);
    }
    s->lat.Add(static_cast<double>(slat + clat));
    s->lat_hist.Add(slat + clat);
    s->series.Add(i * runtime_ns / n, bytes_per_io);
  }
}

RunResult SampleRun() {
  setenv("TZ", "UTC", 1);  // the pid= line's date is local time
  tzset();
  RunResult run;
  run.wall_ns = 9 * kNsPerSec;
  run.notices.push_back("option 'gtod_reduce' is accepted and ignored");

  JobResult rr;  // random reads, group of 2 threads
  rr.name = "randread-4k";
  rr.jobs = 2;
  rr.spec.name = rr.name;
  rr.spec.filename = "/dev/loop0";
  rr.spec.rw = RwPattern::kRandRead;
  rr.spec.iodepth = 32;
  rr.spec.numjobs = 2;
  rr.spec.direct = true;
  rr.spec.ioengine = "libaio";
  rr.runtime_ns = 3 * kNsPerSec + 250 * kNsPerMs;
  Fill(&rr.dir[0], 6000, 4096, 60'000, 900'000, rr.runtime_ns, true);
  rr.usr_cpu_sec = 0.41;
  rr.sys_cpu_sec = 1.93;
  rr.ctx_switches = 12345;
  rr.depth_hist[0] = 2;
  rr.depth_hist[5] = 60;
  rr.depth_hist[6] = 5938;
  rr.majf = 1;
  rr.minf = 37;
  rr.pid = 4242;
  rr.end_time = 1700000000;  // Tue Nov 14 22:13:20 2023 UTC
  rr.submit_hist[1] = 6000;  // one IO per io_submit
  rr.complete_hist[1] = 6000 - 2 * 32;
  rr.complete_hist[5] = 2;  // each thread's final reap of its 32
  run.jobs.push_back(rr);

  JobResult mix;  // mixed 1 MiB IO, slow HDD-like, with an error
  mix.name = "rw-1m";
  mix.group_id = 1;
  mix.spec.rw = RwPattern::kReadWrite;
  mix.spec.bs[0] = {1 << 20, 1 << 20, {}};
  mix.spec.bs[1] = {1 << 20, 1 << 20, {}};
  mix.runtime_ns = 2 * kNsPerSec;
  Fill(&mix.dir[0], 90, 1 << 20, 4'000'000, 150'000'000, mix.runtime_ns, true);
  Fill(&mix.dir[1], 30, 1 << 20, 9'000'000, 40'000'000, mix.runtime_ns, true);
  mix.dir[1].errors = 1;
  mix.dir[1].issued++;
  mix.dir[1].short_ios = 1;
  mix.pid = 4243;
  mix.end_time = 1700000000;
  mix.submit_hist[1] = 121;
  mix.complete_hist[1] = 121;
  mix.error = "short write at offset 1048576 on /dev/loop1";
  mix.usr_cpu_sec = 0.01;
  mix.sys_cpu_sec = 0.02;
  mix.ctx_switches = 240;
  mix.depth_hist[0] = 120;
  run.jobs.push_back(mix);

  JobResult tx;  // database transactions
  tx.name = "tpcb-like";
  tx.unit = "tx";
  tx.group_id = 2;
  tx.jobs = 8;
  tx.runtime_ns = 2 * kNsPerSec;
  Fill(&tx.dir[1], 2500, 0, 1'500'000, 9'000'000, tx.runtime_ns, false);
  run.jobs.push_back(tx);

  JobResult failed;  // failed before its first IO
  failed.name = "broken";
  failed.group_id = 3;
  failed.spec.rw = RwPattern::kWrite;
  failed.error = "open /dev/nope: No such file or directory";
  run.jobs.push_back(failed);

  JobResult rated;  // rate_iops=500 on a target that fell behind
  rated.name = "rated-4k";
  rated.group_id = 4;
  rated.spec.rw = RwPattern::kRandRead;
  rated.spec.rate_iops[0] = 500;
  rated.pid = 4245;
  rated.end_time = 1700000001;
  rated.minf = 2;
  rated.submit_hist[1] = 1000;
  rated.complete_hist[1] = 1000;
  rated.runtime_ns = 2 * kNsPerSec;
  Fill(&rated.dir[0], 1000, 4096, 100'000, 50'000, rated.runtime_ns, true);
  for (uint64_t i = 0; i < 1000; ++i) {  // the schedule slips 0.5 ms per IO
    const uint64_t sched = 101'000 + i * 500'000;
    rated.dir[0].sched_lat.Add(static_cast<double>(sched));
    rated.dir[0].sched_lat_hist.Add(sched);
  }
  SteadyStateResult& ss = rated.steadystate;
  ss.enabled = ss.evaluated = ss.attained = true;
  ss.spec.metric = SteadyStateMetric::kIops;
  ss.spec.slope = false;
  ss.spec.percent = true;
  ss.spec.limit = 5;
  ss.spec.dur_ns = 2 * kNsPerSec;
  ss.iops = {500, 502};
  ss.bw = {500 * 4096, 502 * 4096};
  ss.max_deviation = 1;
  ss.criterion = 100.0 / 501;
  run.jobs.push_back(rated);
  return run;
}

TEST(ReportOutputTest, ConsoleMatchesGolden) {
  std::ostringstream out;
  WriteRunReport(SampleRun(), "normal", out);
  ExpectGolden("report_normal.txt", out.str());
}

TEST(ReportOutputTest, CsvMatchesGolden) {
  std::ostringstream out;
  WriteRunReport(SampleRun(), "csv", out);
  ExpectGolden("report.csv", out.str());
}

TEST(ReportOutputTest, JsonMatchesGolden) {
  nlohmann::json doc = RunResultToJson(SampleRun(), 1700000000);
  doc["version"] = "VERSION";  // independent of the project version
  ExpectGolden("report.json", doc.dump(2) + "\n");
}

TEST(ReportOutputTest, ConsoleLayout) {
  std::ostringstream out;
  WriteConsoleReport(SampleRun(), out);
  const std::string s = out.str();
  const char* patterns[] = {
      R"(^randread-4k: \(groupid=0, jobs=2\): err= 0: pid=4242: Tue Nov 14 22:13:20 2023$)",
      R"(^  read: IOPS=1846, BW=7385KiB/s \(7562kB/s\)\(23\.4MiB/3250msec\)$)",
      R"(^    slat \(nsec\): min=800, max=3799, avg=\d+\.\d\d, stdev=\d+\.\d\d$)",
      R"(^    clat \(usec\): min=60, max=959, avg=\d+\.\d\d, stdev=\d+\.\d\d$)",
      R"(^    clat percentiles \(usec\):$)",
      R"(^     \|  1\.00th=\[ +\d+\],  5\.00th=\[ +\d+\], 10\.00th=\[ +\d+\], 20\.00th=\[ +\d+\],$)",
      R"(^     \| 99\.99th=\[ +\d+\]$)",
      R"(^   iops        : min= 1846, max= 1847, avg=1846\.33, stdev= 0\.58, samples=3$)",
      R"(^   bw \(  KiB/s\): min= 7384, max= 7388, per=100\.00%, avg=7385\.33, stdev= 2\.31, samples=3$)",
      R"(^  lat \(usec\)   : 100=4\.40%, 250=16\.57%, 500=27\.77%, 750=28\.18%, 1000=23\.08%$)",
      R"(^  cpu          : usr=6\.31%, sys=29\.69%, ctx=12345, majf=1, minf=37$)",
      R"(^    clat \(msec\): min=4, max=152, avg=78\.36, stdev=44\.07$)",
      R"(^    clat percentiles \(msec\):$)",
      R"(^  IO depths    : 1=0\.0%, 2=0\.0%, 4=0\.0%, 8=0\.0%, 16=0\.0%, 32=1\.0%, >=64=99\.0%$)",
      R"(^     submit    : 0=0\.0%, 4=100\.0%, 8=0\.0%, 16=0\.0%, 32=0\.0%, 64=0\.0%, >=64=0\.0%$)",
      R"(^     complete  : 0=0\.0%, 4=100\.0%, 8=0\.0%, 16=0\.0%, 32=0\.0%, 64=0\.1%, >=64=0\.0%$)",
      R"(^     issued rwts: total=6000,0,0,0 short=0,0,0,0 dropped=0,0,0,0$)",
      R"(^     issued rwts: total=90,31,0,0 short=0,1,0,0 dropped=0,0,0,0$)",
      R"(^     latency   : target=0, window=0, percentile=100\.00%, depth=32$)",
      R"(^rw-1m: \(groupid=1, jobs=1\): err= 1: short write at offset 1048576 on /dev/loop1$)",
      R"(^  write: IOPS=15, BW=15\.0MiB/s .*, errors=1$)",
      R"(^  write: tps=1250 \(2500 tx/2000msec\)$)",
      R"(^     lat \(usec\): min=1500, max=10489, avg=\d+\.\d\d, stdev=\d+\.\d\d$)",
      R"(^    lat percentiles \(usec\):$)",
      R"(^   tps         : min= 1250, max= 1250, avg=1250\.00, stdev= 0\.00, samples=2$)",
      R"(^broken: \(groupid=3, jobs=1\): err= 1: open /dev/nope: No such file or directory$)",
      R"(^Run status group 0 \(all jobs\):$)",
      R"(^   READ: bw=7385KiB/s \(7562kB/s\), 7385KiB/s-7385KiB/s \(7562kB/s-7562kB/s\), io=23\.4MiB \(24\.6MB\), run=3250-3250msec$)",
      R"(^  WRITE: tps=1250, tx=2500, run=2000-2000msec$)",
      R"(^  lat \(msec\)   : 2=5\.56%, 4=22\.24%, 10=66\.28%, 20=5\.92%$)",
  };
  for (const char* p : patterns) {
    EXPECT_TRUE(std::regex_search(s, std::regex(p, std::regex::multiline)))
        << "no line matches " << p << " in:\n"
        << s;
  }
  // The random-read job has no write line, the tx job neither IOPS nor BW.
  EXPECT_THAT(
      s, Not(HasSubstr(
             "randread-4k: (groupid=0, jobs=2): err= 0\n  read: IOPS=1846, "
             "BW=7385KiB/s (7562kB/s)(23.4MiB/3250msec)\n  write")));
  const std::string tx_block =
      s.substr(s.find("tpcb-like:"), s.find("broken:") - s.find("tpcb-like:"));
  EXPECT_THAT(tx_block, Not(HasSubstr("IOPS=")));
  EXPECT_THAT(tx_block, Not(HasSubstr("BW=")));
  EXPECT_THAT(tx_block, Not(HasSubstr("clat")));
  EXPECT_THAT(tx_block, Not(HasSubstr("submit")));
  EXPECT_THAT(tx_block, Not(HasSubstr("issued rwts")));
  EXPECT_THAT(tx_block, Not(HasSubstr(": pid=")));
}

TEST(ReportOutputTest, CsvHeaderIsTheColumnList) {
  std::ostringstream out;
  WriteCsvReport(SampleRun(), out);
  std::istringstream lines(out.str());
  std::string header;
  std::getline(lines, header);
  std::string want = "schema_version";
  for (const std::string& c : ResultColumnNames()) want += "," + c;
  EXPECT_EQ(header, want);
  // Rows: randread-4k read; rw-1m read + write; tpcb-like write; broken write.
  int rows = 0;
  for (std::string line; std::getline(lines, line);) ++rows;
  EXPECT_EQ(rows, 6);
  EXPECT_THAT(out.str(), HasSubstr("broken,3,1,write,io,0,0,"));
  EXPECT_THAT(out.str(),
              HasSubstr(",open /dev/nope: No such file or directory\n"));
}

TEST(ReportOutputTest, JsonFields) {
  RunResult run = SampleRun();
  run.jobs[1].issued_syncs = 2;
  const nlohmann::json doc = RunResultToJson(run, 1700000000);
  EXPECT_EQ(doc["schema_version"], 4);
  EXPECT_EQ(doc["tool"], "tierbench");
  EXPECT_EQ(doc["timestamp"], 1700000000);
  ASSERT_EQ(doc["jobs"].size(), 5u);
  const nlohmann::json& rr = doc["jobs"][0];
  EXPECT_EQ(rr["jobname"], "randread-4k");
  EXPECT_EQ(rr["read"]["total_ios"], 6000);
  EXPECT_EQ(rr["read"]["io_bytes"], 6000 * 4096);
  EXPECT_EQ(rr["read"]["runtime"], 3250);
  EXPECT_EQ(rr["read"]["clat_ns"]["N"], 6000);
  EXPECT_TRUE(rr["read"]["clat_ns"]["percentile"].contains("99.990000"));
  EXPECT_EQ(rr["read"]["iops_samples"], 3);
  EXPECT_EQ(rr["read"]["series"].size(), 4u);
  EXPECT_EQ(rr["write"]["total_ios"], 0);
  EXPECT_EQ(rr["sync"]["total_ios"], 0);
  EXPECT_EQ(doc["jobs"][1]["sync"]["total_ios"], 2);
  EXPECT_EQ(rr["read"]["short_ios"], 0);
  EXPECT_EQ(rr["read"]["drop_ios"], 0);
  EXPECT_EQ(rr["majf"], 1);
  EXPECT_EQ(rr["minf"], 37);
  EXPECT_EQ(rr["iodepth_submit"]["4"], 100.0);
  EXPECT_EQ(rr["iodepth_submit"]["0"], 0.0);
  EXPECT_NEAR(rr["iodepth_complete"]["4"].get<double>(), 99.966, 0.001);
  EXPECT_EQ(rr["iodepth_complete"]["64"], 0.1);  // fio's 0.1 % floor
  EXPECT_EQ(rr["latency_depth"], 32);
  EXPECT_EQ(rr["latency_percentile"], 100.0);
  EXPECT_EQ(doc["jobs"][1]["write"]["short_ios"], 1);
  EXPECT_EQ(doc["jobs"][1]["write"]["total_ios"], 31);  // issued, incl. short
  EXPECT_FALSE(doc["jobs"][2].contains("iodepth_submit"));  // tx
  EXPECT_EQ(rr["error"], 0);
  EXPECT_EQ(rr["job options"]["rw"], "randread");
  EXPECT_EQ(doc["jobs"][1]["error"], 1);
  const nlohmann::json& tx = doc["jobs"][2];
  EXPECT_EQ(tx["unit"], "tx");
  EXPECT_FALSE(tx["write"]["clat_ns"].contains("percentile"));
  EXPECT_TRUE(tx["write"]["lat_ns"].contains("percentile"));
  double total = 0;
  for (const auto& b : tx["write"]["latency_buckets"])
    total += b["fraction"].get<double>();
  EXPECT_NEAR(total, 1.0, 1e-9);
}

TEST(ReportOutputTest, RatedJobShowsScheduledLatencyAndSteadyState) {
  std::ostringstream text;
  WriteConsoleReport(SampleRun(), text);
  const char* patterns[] = {
      R"(^    sched_lat \(usec\): min=101, max=499601, avg=249851\.00, stdev=144409\.72$)",
      R"(^    sched_lat percentiles \(msec\):$)",
      R"(^  steadystate  : attained=yes, bw=2004KiB/s \(2052kB/s\), iops=501, iops mean dev=0\.200%$)",
  };
  for (const char* p : patterns) {
    EXPECT_TRUE(
        std::regex_search(text.str(), std::regex(p, std::regex::multiline)))
        << "no line matches " << p << " in:\n"
        << text.str();
  }
  // Unrated jobs print no sched_lat line.
  const std::string first = text.str().substr(0, text.str().find("rw-1m:"));
  EXPECT_THAT(first, Not(HasSubstr("sched_lat")));

  const nlohmann::json doc = RunResultToJson(SampleRun(), 1700000000);
  const nlohmann::json& rated = doc["jobs"][4];
  EXPECT_EQ(rated["read"]["sched_lat_ns"]["N"], 1000);
  EXPECT_EQ(rated["read"]["sched_lat_ns"]["max"], 101'000 + 999 * 500'000);
  EXPECT_TRUE(
      rated["read"]["sched_lat_ns"]["percentile"].contains("99.000000"));
  EXPECT_EQ(doc["jobs"][0]["read"]["sched_lat_ns"]["N"], 0);
  EXPECT_FALSE(doc["jobs"][0].contains("steadystate"));
  const nlohmann::json& ss = rated["steadystate"];
  EXPECT_EQ(ss["ss"], "iops:5.000000%");
  EXPECT_EQ(ss["duration"], 2);
  EXPECT_EQ(ss["attained"], 1);
  EXPECT_EQ(ss["criterion"], "0.199601%");
  EXPECT_EQ(ss["data"]["iops_mean"], 501);
  EXPECT_EQ(ss["data"]["iops"], nlohmann::json({500, 502}));
  EXPECT_EQ(ss["data"]["bw_mean"], 501 * 4096);

  std::ostringstream csv;
  WriteCsvReport(SampleRun(), csv);
  const std::vector<std::string> names = ResultColumnNames();
  const auto col = [&](const std::string& name) {
    return std::find(names.begin(), names.end(), name) - names.begin();
  };
  std::istringstream lines(csv.str());
  std::string line;
  std::vector<std::string> last;
  while (std::getline(lines, line)) {
    last.clear();
    std::stringstream fields(line);
    for (std::string f; std::getline(fields, f, ',');) last.push_back(f);
    if (!line.empty() && line.back() == ',') last.push_back("");
  }
  ASSERT_EQ(last.size(), names.size() + 1);  // schema_version first
  EXPECT_EQ(last[0], "2");
  EXPECT_EQ(last[1 + col("job")], "rated-4k");
  EXPECT_EQ(last[1 + col("sched_lat_max_us")], "499601.000");
  EXPECT_EQ(last[1 + col("ss_attained")], "1");
  EXPECT_EQ(last[1 + col("ss_criterion")], "0.199601");
}

TEST(ReportOutputTest, UnknownFormatIsAConfigError) {
  std::ostringstream out;
  try {
    WriteRunReport(SampleRun(), "terse", out);
    FAIL() << "no error for format 'terse'";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("--output-format"));
    EXPECT_THAT(e.what(), HasSubstr("'terse'"));
    EXPECT_THAT(e.what(), HasSubstr("normal, json, csv"));
    EXPECT_EQ(e.exit_code(), kExitConfig);
  }
  EXPECT_TRUE(out.str().empty());
}

TEST(FioNum2StrTest, MatchesFio) {
  struct {
    uint64_t num;
    int maxlen;
    bool pow2;
    const char* unit;
    const char* want;
  } cases[] = {
      {0, 4, false, "", "0"},
      {999, 4, false, "", "999"},
      {4553, 4, false, "", "4553"},
      {12345, 4, false, "", "12.3k"},
      {104000, 4, false, "", "104k"},
      {1234567, 4, false, "", "1235k"},
      {12960, 4, false, "", "13.0k"},
      {99999, 4, false, "", "100k"},
      {1657600, 6, false, "", "1657.6k"},
      {681009, 6, false, "", "681009"},
      {1193500000, 4, true, "B/s", "1138MiB/s"},
      {1193500000, 4, false, "B/s", "1194MB/s"},
      {143881404416, 4, true, "B", "134GiB"},
      {4096, 4, true, "B", "4096B"},
      {24576000, 4, true, "B", "23.4MiB"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(FioNum2Str(c.num, c.maxlen, c.pow2, c.unit), c.want) << c.num;
  }
}

}  // namespace
}  // namespace tierbench
