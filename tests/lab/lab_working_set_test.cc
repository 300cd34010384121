// Lab test of what a cache is for (issue 10): on REAL bcache in the QEMU
// guest, zipf:1.2 random reads over a working set of 25% of the cache,
// warmed until steady, are served mostly from the cache and run far faster
// than the bare HDD; at 400% of the cache the same workload falls off the
// cliff. The guest's cache is shrunk to 64 MiB (--ssd-size 273M:
// 1 MiB + 4 x 64 MiB + 16 MiB dm-cache metadata) so 400% (256 MiB) fits
// the 511 MiB HDD regions and the cells stay short.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "lab_test_util.h"

namespace tierbench::labtest {
namespace {

// Share of the measured cell's reads that never reached the HDD, from the
// block counters of the stack and its origin (-1 without reads). A missing
// counter fails the test (Num) and gives NaN, which no bound accepts.
double ServedWithoutHdd(const CsvRow& r) {
  const double stack = Num(r, "stack_read_bytes");
  const double hdd = Num(r, "hdd_read_bytes");
  if (stack <= 0) return -1;
  return 100.0 * (1.0 - hdd / stack);
}

TEST(LabWorkingSet, ZipfReadsFitInTheCacheThenFallOffTheCliff) {
  TIERBENCH_REQUIRE_LAB();
  ScratchDir dir;
  ASSERT_FALSE(dir.path().empty());
  std::vector<std::string> args = {kUndilated,
                                   "--layers",
                                   "bcache",
                                   "--ssd-size",
                                   "273M",
                                   "--modes",
                                   Mode("hdd"),
                                   Mode("writeback"),
                                   "--workloads",
                                   Workload("randread-zipf"),
                                   "--working-set",
                                   "25%,400%",
                                   "--cache-state",
                                   "warm-until-steady",
                                   "--compare-arg=--warm-chunk",
                                   "--compare-arg=3",
                                   "--compare-arg=--warm-max",
                                   "--compare-arg=60",
                                   "--runtime",
                                   "5",
                                   "--ramp-time",
                                   "1",
                                   "--stats-lag",
                                   "14",
                                   "--results",
                                   dir.path(),
                                   "--run-id",
                                   "lab-ws"};
  TIERBENCH_RUN_LAB(args, 0);
  std::vector<CsvRow> rows = ReadCsv(dir.path() + "/lab-ws/runs.csv");
  const CsvRow* hdd = Find(rows, "hdd", "randread-zipf@25%", "read");
  const CsvRow* fit = Find(rows, "writeback", "randread-zipf@25%", "read");
  const CsvRow* cliff = Find(rows, "writeback", "randread-zipf@400%", "read");
  ASSERT_TRUE(hdd && fit && cliff) << output;

  // The working sets are sized from the cache the stack reports.
  const double cache = Num(*fit, "cache_bytes");
  ASSERT_GT(cache, 0);
  EXPECT_EQ(Num(*fit, "working_set_bytes"),
            static_cast<double>(static_cast<long long>(cache * 0.25)));
  EXPECT_EQ(Get(*cliff, "working_set"), "400%");
  EXPECT_EQ(Get(*fit, "cache_state"), "warm-until-steady");

  // 25%: warmed until every read hits, at least 3x the bare HDD. Steady
  // state also asks the chunks' IOPS to stay within +-10%; served from the
  // cache this cell is CPU-bound in the TCG guest, and beside the suite's
  // background work its chunks swung +-19% at 100% hits (a fresh-clone
  // run: 7870..11523 IOPS, not steady after 57 s). The tool then rightly
  // warns; the test accepts that and checks that the cache is warm.
  const bool steady = Get(*fit, "warm_steady") == "1";
  EXPECT_TRUE(steady || Num(*fit, "warm_hit_ratio_pct") >= 99)
      << Get(*fit, "warnings");
  if (!steady) {
    EXPECT_NE(Get(*fit, "warnings").find("not steady after"),
              std::string::npos);
  }
  EXPECT_GT(Num(*fit, "warm_s"), 0);
  EXPECT_GT(Num(*fit, "warm_passes"), 2);
  EXPECT_GT(Num(*fit, "read_hit_ratio_pct"), 50) << Get(*fit, "warnings");
  EXPECT_GT(ServedWithoutHdd(*fit), 50);
  const double hdd_iops = Num(*hdd, "iops"), fit_iops = Num(*fit, "iops");
  EXPECT_GE(fit_iops, 3 * hdd_iops)
      << "writeback@25% " << fit_iops << " IOPS, hdd " << hdd_iops
      << "; warnings: " << Get(*fit, "warnings");

  // 400%: the cliff. Every warm-up chunk draws anew over the same hot set
  // (JobSpec::draw_stream); when each chunk replayed one sequence, the
  // measured run read back what the warm-up had just cached, most reads
  // hit even at 400% (97.9% vs 98.6%) and the HDD's share of the read bytes
  // moved a point or two either way between runs. Measured with fresh
  // draws: 1407 vs 8377 IOPS (5.9x), 88.7% vs 99.5% hits, the HDD serving
  // 10.4% vs 0.45% of the read bytes. A guest short of CPU (work beside it
  // on the host) lowers the 25% cell most (it is CPU-bound under TCG; 3756
  // IOPS seen), hence 1.5x.
  const double cliff_iops = Num(*cliff, "iops");
  EXPECT_LT(cliff_iops, fit_iops / 1.5)
      << "writeback@400% " << cliff_iops << " IOPS vs " << fit_iops
      << " at 25%; HDD share of read bytes " << 100 - ServedWithoutHdd(*cliff)
      << "% vs " << 100 - ServedWithoutHdd(*fit) << "%";
  EXPECT_GT(100 - ServedWithoutHdd(*cliff),
            2 * (100 - ServedWithoutHdd(*fit)) + 1)
      << "HDD share of the read bytes at 400% vs 25%";
  EXPECT_LT(Num(*cliff, "read_hit_ratio_pct"), 100);

  // Valid: the warmed cell measured the settled cache. At 400% the region
  // is larger than the cache: a caution, not a reason to drop the cell.
  EXPECT_EQ(Get(*fit, "valid"), "yes") << Get(*fit, "invalid_reasons");
  EXPECT_NE(Get(*cliff, "finding_rules").find("working-set:caution"),
            std::string::npos)
      << Get(*cliff, "finding_rules");
}

// The cell above, cold (the first-touch protocol, no ramp: the first touches
// are its question), measured the cache filling up (22% of the read bytes
// from the HDD with a 1 s ramp; the rule's line is 10%, the warmed cell's
// 1.5%): invalid for the steady-state question, with the cold-read reason.
// Its job is the shipped one bounded by a count instead of a time
// (number_ios=3000, about what 5 s issued), so its whole stream is known
// before the run (workload/job_stream.h): mrc.csv has its cold LRU and OPT
// curves in bcache's block size, and the cell's measured read hits are a
// point against them, never above OPT (a cold cell invalid only because its
// cache was cold keeps its point). Not a throughput ratio: it runs beside
// the other behaviour tests.
TEST(LabWorkingSet, TheSameZipfCellColdIsInvalid) {
  TIERBENCH_REQUIRE_LAB();
  ScratchDir cold_dir;
  ASSERT_FALSE(cold_dir.path().empty());
  const std::string job = cold_dir.path() + "/randread-zipf-once.fio";
  std::ofstream(job) << "[randread-zipf-once]\nrw=randread\nbs=4k\n"
                        "random_distribution=zipf:1.2\nioengine=libaio\n"
                        "direct=1\niodepth=32\nnumber_ios=3000\n"
                        "filename=/dev/bcache0\n";
  std::vector<std::string> cold_args = {kUndilated,
                                        "--layers",
                                        "bcache",
                                        "--ssd-size",
                                        "273M",
                                        "--modes",
                                        Mode("writeback"),
                                        "--workloads",
                                        job,
                                        "--working-set",
                                        "25%",
                                        "--cache-state",
                                        "cold",
                                        "--ramp-time",
                                        "0",
                                        "--stats-lag",
                                        "14",
                                        "--results",
                                        cold_dir.path(),
                                        "--run-id",
                                        "lab-ws-cold"};
  TIERBENCH_RUN_LAB(cold_args, 0);
  const std::string run = cold_dir.path() + "/lab-ws-cold";
  const std::string workload = "randread-zipf-once@25%";
  std::vector<CsvRow> cold_rows = ReadCsv(run + "/runs.csv");
  const CsvRow* cold = Find(cold_rows, "writeback", workload, "read");
  ASSERT_TRUE(cold != nullptr) << output;
  EXPECT_EQ(Get(*cold, "cache_state"), "cold");
  EXPECT_EQ(Num(*cold, "ios"), 3000);
  EXPECT_EQ(Get(*cold, "valid"), "no") << Get(*cold, "finding_rules");
  EXPECT_NE(Get(*cold, "invalid_reasons").find("cold-reads: the cold cache"),
            std::string::npos)
      << Get(*cold, "invalid_reasons") << "; HDD share of the read bytes "
      << 100 - ServedWithoutHdd(*cold) << "%";

  // The generated stream's curves: one cold curve in bcache's block size,
  // its point at the stack's size naming writeback; zipf repeats its hot
  // blocks, so a cache could hit; the cell's hits are at most OPT's.
  std::vector<CsvRow> mrc = ReadCsv(run + "/mrc.csv");
  ASSERT_FALSE(mrc.empty()) << output;
  const CsvRow* at = nullptr;
  for (const CsvRow& p : mrc) {
    EXPECT_EQ(Get(p, "workload"), workload);
    EXPECT_EQ(Get(p, "state"), "cold");
    EXPECT_EQ(Get(p, "block_bytes"), Get(*cold, "cache_block_bytes"));
    EXPECT_GE(Num(p, "opt_read_hit_pct") + 1e-9, Num(p, "lru_read_hit_pct"));
    if (Get(p, "modes") == "writeback") at = &p;
  }
  ASSERT_NE(at, nullptr) << ReadText(run + "/mrc.csv");
  EXPECT_EQ(Get(*at, "cache_bytes"), Get(*cold, "cache_bytes"));
  EXPECT_GT(Num(*at, "opt_read_hit_pct"), 50);
  const double measured = Num(*cold, "read_hit_ratio_pct");
  EXPECT_GT(measured, 0);
  EXPECT_LE(measured, Num(*at, "opt_read_hit_pct") + 0.5);
  std::cout << "[ INFO     ] cold zipf: bcache writeback " << measured
            << "% read hits; LRU " << Num(*at, "lru_read_hit_pct") << "%, OPT "
            << Num(*at, "opt_read_hit_pct") << "%" << std::endl;
  std::string chart;  // the one read-hits chart (its name is a slug)
  for (const auto& e : std::filesystem::directory_iterator(run + "/charts")) {
    if (e.path().filename().string().rfind("read-hits-", 0) == 0) {
      chart = e.path().string();
    }
  }
  ASSERT_FALSE(chart.empty()) << output;
  // The cell keeps its point when only the cold rules judged it invalid (a
  // cold cache's read hits are what the curve models); another invalid
  // finding (a loaded host's) takes it off the chart and the verdict.
  const std::string rules = Get(*cold, "finding_rules");
  bool only_cold = true;
  std::istringstream items(rules);
  for (std::string item; std::getline(items, item, ';');) {
    const size_t colon = item.rfind(':');
    if (colon == std::string::npos || item.substr(colon) != ":invalid") {
      continue;
    }
    const std::string rule = item.substr(0, colon);
    if (rule != "cold-reads" &&
        (rule.size() < 5 || rule.substr(rule.size() - 5) != ".cold")) {
      only_cold = false;
    }
  }
  const std::string summary = ReadText(run + "/summary.md");
  EXPECT_EQ(ReadText(chart).find("class=\"mrc-cell\"") != std::string::npos,
            only_cold)
      << rules;
  EXPECT_EQ(summary.find("bcache writeback (64MiB cache) reached ") !=
                std::string::npos,
            only_cold)
      << rules << "\n"
      << summary;
}

}  // namespace
}  // namespace tierbench::labtest
