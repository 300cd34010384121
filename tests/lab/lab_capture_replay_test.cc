// Issue 30 item 5 in the lab guest (real bcache, kernel 6.1, a real
// PostgreSQL): compare --capture-replay captures TPC-B on the raw HDD with
// blktrace and replays the capture under every mode, beside the live
// TPC-B cell, in one comparison; the report puts each cache's measured
// read hits against the capture's LRU and OPT curves.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "lab_test_util.h"

namespace tierbench::labtest {
namespace {

// In the lab run at `run`, the time the lab's HDD takes per IO at its IOPS
// limit (1e6 / the manifest's label lab.hdd_iops), in us; 0 without it.
double LabHddServiceUsOf(const std::string& run) {
  const nlohmann::json m =
      nlohmann::json::parse(ReadText(run + "/manifest.json"), nullptr, false);
  if (!m.is_object() || !m.contains("labels") ||
      !m["labels"].contains("lab.hdd_iops")) {
    return 0;
  }
  const nlohmann::json& v = m["labels"]["lab.hdd_iops"];
  const double iops = v.is_string()   ? std::stod(v.get<std::string>())
                      : v.is_number() ? v.get<double>()
                                      : 0;
  return iops > 0 ? 1e6 / iops : 0;
}

// The capture's request lines by kind ("read", "write", "sync").
std::map<std::string, double> CrIologCounts(const std::string& path) {
  std::map<std::string, double> n;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string t, file, action;
    if (f >> t >> file >> action) ++n[action];
  }
  return n;
}

// Every layer the guest holds at once (lvmcache takes dm-cache's
// partitions): bcache in writeback and writethrough, dm-cache in
// writeback, dm-writecache; the raw HDD where the capture is made. The
// live TPC-B runs on the raw HDD alone (--workload-modes NAME=hdd): its
// cells on a stack loaded a second database, 101 s of the test's 555 s
// beside the suite's other guests (ci61), for figures no assertion read;
// the replays of the other layers cost ~10 s (190 s against 180 s alone,
// 2026-12-05). pgbench-tpcb-capture drops the page cache before the run,
// so the clients' reads reach the device and the capture has reads for
// the curves; cold: the curves model a cold cache's single pass over the
// capture. Each cache has its own block size, so mrc.csv has one curve per
// size: bcache's 512 B, dm-writecache's 4 KiB, dm-cache's 32 KiB.
TEST(LabCaptureReplay, TpcbCapturedOnTheHddIsReplayedUnderEveryMode) {
  TIERBENCH_REQUIRE_LAB();
  ScratchDir dir;
  ASSERT_FALSE(dir.path().empty());
  const std::string tpcb = "pgbench-tpcb-capture";
  const std::string replay = tpcb + "-replay";
  const std::vector<std::string> modes = {"hdd", "writeback", "writethrough",
                                          "dm-cache-writeback",
                                          "dm-writecache"};
  std::vector<std::string> args = {"--dilation=auto", "--layers",
                                   "bcache,dm-cache,dm-writecache", "--modes"};
  for (const std::string& m : modes) args.push_back(Mode(m));
  for (const std::string& a : std::vector<std::string>{
           "--workloads", kSource + "/workloads/" + tpcb + ".json",
           "--capture-replay", "--compare-arg=--workload-modes",
           "--compare-arg=" + tpcb + "=hdd", "--cache-state", "cold",
           "--results", dir.path(), "--run-id", "lab-capture"}) {
    args.push_back(a);
  }
  TIERBENCH_RUN_LAB(args, 0);
  const std::string run = dir.path() + "/lab-capture";

  // The capture: blktrace's ISSUE events of the raw HDD as a fio iolog,
  // with the flushes PostgreSQL's commits sent.
  const std::string iolog = run + "/capture/" + tpcb + "/vda4.iolog";
  ASSERT_TRUE(std::filesystem::exists(iolog)) << output;
  std::map<std::string, double> captured = CrIologCounts(iolog);
  EXPECT_GT(captured["read"], 0) << "the page cache was dropped";
  EXPECT_GT(captured["write"], 0);
  EXPECT_GT(captured["sync"], 0) << "commits flush";
  EXPECT_TRUE(std::filesystem::exists(run + "/capture/" + tpcb +
                                      "/raw/vda4.blktrace.0"));

  // One comparison: the live TPC-B on the raw HDD only (--workload-modes),
  // its replay in every mode.
  std::vector<CsvRow> rows = ReadCsv(run + "/runs.csv");
  for (const std::string& m : modes) {
    const CsvRow* live = Find(rows, m, tpcb, "write");
    if (m == "hdd") {
      ASSERT_NE(live, nullptr) << m << "\n" << output;
      EXPECT_EQ(Get(*live, "error"), "") << m;
      EXPECT_GT(Num(*live, "iops"), 0) << m;
    } else {
      EXPECT_EQ(live, nullptr) << m << ": --workload-modes kept it out";
    }
    const CsvRow* rd = Find(rows, m, replay, "read");
    const CsvRow* wr = Find(rows, m, replay, "write");
    ASSERT_TRUE(rd && wr) << m << "\n" << output;
    EXPECT_EQ(Get(*rd, "error"), "") << m;
    // Every request of the capture was replayed, in every mode.
    EXPECT_EQ(Num(*rd, "ios"), captured["read"]) << m;
    EXPECT_EQ(Num(*wr, "ios"), captured["write"]) << m;
  }
  // The replay measured each mode when the capture kept the HDD at its
  // limit: writeback completes the captured writes on the SSD,
  // writethrough on the HDD as the raw HDD does (2026-12-05, alone on the
  // host: mean 1.3 ms, 43.7 ms and 43.8 ms; the 38-IOPS HDD against the
  // SSD). Below its IOPS limit the lab's HDD (a throttled file) answers in
  // the host's time with no seek. In scripts/test this chain shares 2
  // cores with two other guests, so TPC-B can be CPU-paced and its
  // capture below the HDD's limit (the official CI of 70d96cf: the raw
  // HDD's replayed writes 2.3 ms, writeback's 3.5 ms); then no latency is
  // a disk's, and the verdict must say so instead of ranking the modes.
  const auto write_lat = [&rows, &replay](const std::string& m) {
    const CsvRow* wr = Find(rows, m, replay, "write");
    if (wr == nullptr) ADD_FAILURE() << "no " << m << " replay row";
    return wr == nullptr ? std::nan("") : Num(*wr, "lat_mean_us");
  };
  const double service_us = LabHddServiceUsOf(run);
  ASSERT_GT(service_us, 0) << "the manifest's label lab.hdd_iops";
  const double hdd_read_p50 =
      Num(*Find(rows, "hdd", replay, "read"), "lat_p50_us");
  const double hdd_write_p50 =
      Num(*Find(rows, "hdd", replay, "write"), "lat_p50_us");
  const std::string summary = ReadText(run + "/summary.md");
  const bool disk_paced =
      hdd_read_p50 >= service_us && hdd_write_p50 >= service_us;
  std::cout << "[ INFO     ] the raw HDD's replay: read p50 " << hdd_read_p50
            << " us, write p50 " << hdd_write_p50 << " us; one IO at the "
            << "lab HDD's limit " << service_us << " us: "
            << (disk_paced ? "at its limit, ranked" : "below it, not ranked")
            << std::endl;
  if (disk_paced) {
    // The write caches complete the writes on the SSD (2026-12-05, alone:
    // dm-writecache's mean 1.3 ms against the raw HDD's 41.8 ms).
    EXPECT_LT(write_lat("writeback"), 0.25 * write_lat("hdd"));
    EXPECT_LT(write_lat("dm-writecache"), 0.25 * write_lat("hdd"));
    EXPECT_GT(write_lat("writethrough"), 0.5 * write_lat("hdd"));
    EXPECT_EQ(summary.find("not ranked by latency"), std::string::npos)
        << summary;
  } else {
    EXPECT_NE(summary.find("**" + replay +
                           "** replays its trace at the recorded "
                           "times (open loop), so its IOPS follow "
                           "the trace, not the modes; not ranked "
                           "by latency: the raw HDD's "),
              std::string::npos)
        << summary;
    EXPECT_EQ(summary.find("by median latency"), std::string::npos) << summary;
  }
  // The cache cells' read hits were measured (bcache's counters).
  for (size_t i = 1; i < modes.size(); ++i) {
    const CsvRow* rd = Find(rows, modes[i], replay, "read");
    ASSERT_NE(rd, nullptr);
    ASSERT_TRUE(Has(*rd, "read_hit_ratio_pct")) << modes[i];
  }

  // mrc.csv: the capture's cold LRU and OPT curves in bcache's block size,
  // with a point at the stack's cache size naming both modes; OPT is never
  // below LRU.
  std::vector<CsvRow> mrc = ReadCsv(run + "/mrc.csv");
  // The point at each stack's cache size names its modes, in the curve of
  // its layer's block size.
  const std::map<std::string, std::string> block_of = {
      {"writeback", "512"},
      {"writethrough", "512"},
      {"dm-writecache", "4096"},
      {"dm-cache-writeback", "32768"}};
  std::map<std::string, bool> at_stack;
  for (const CsvRow& p : mrc) {
    EXPECT_EQ(Get(p, "workload"), replay);
    EXPECT_GE(Num(p, "opt_read_hit_pct") + 1e-9, Num(p, "lru_read_hit_pct"));
    std::istringstream named(Get(p, "modes"));
    std::string m;
    while (std::getline(named, m, ';')) {
      if (block_of.count(m) == 0) continue;
      EXPECT_EQ(Get(p, "block_bytes"), block_of.at(m)) << m;
      at_stack[m] = true;
    }
  }
  for (const auto& [m, block] : block_of) {
    EXPECT_TRUE(at_stack[m]) << m << "\n" << ReadText(run + "/mrc.csv");
  }

  // The report: the chart with both curves and each cache's point, and a
  // verdict line per cache cell.
  const std::string chart = run + "/charts/read-hits-" + replay + ".svg";
  ASSERT_TRUE(std::filesystem::exists(chart)) << output;
  const std::string svg = ReadText(chart);
  for (const char* cls : {"mrc-lru", "mrc-opt"}) {
    EXPECT_NE(svg.find(std::string("class=\"") + cls), std::string::npos)
        << cls;
  }
  size_t points = 0;
  for (size_t at = svg.find("class=\"mrc-cell\""); at != std::string::npos;
       at = svg.find("class=\"mrc-cell\"", at + 1)) {
    ++points;
  }
  EXPECT_EQ(points, 4u) << "one point per cache mode";
  for (const char* cell : {"bcache writeback (", "bcache writethrough (",
                           "dm-cache-writeback (", "dm-writecache ("}) {
    EXPECT_NE(summary.find("**: " + std::string(cell)), std::string::npos)
        << cell << "\n"
        << summary;
  }
  EXPECT_NE(summary.find("LRU at this size"), std::string::npos) << summary;
}

}  // namespace
}  // namespace tierbench::labtest
