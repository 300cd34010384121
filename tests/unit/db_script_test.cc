// Unit tests of the built-in scripts, random values and DB workload files.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "db/db_cell.h"
#include "db/tpcb_driver.h"
#include "db/tpcb_script.h"
#include "util/errors.h"

namespace tierbench {
namespace {

TEST(DbScriptTest, TpcbLikeIsPgbenchsScript) {
  const auto& s = BuiltinScript(Builtin::kTpcbLike);
  ASSERT_EQ(s.size(), 7u);
  TxValues v;
  v.v[kAid] = 123;
  v.v[kBid] = 2;
  v.v[kTid] = 17;
  v.v[kDelta] = -42;
  const char* want[] = {
      "BEGIN",
      "UPDATE pgbench_accounts SET abalance = abalance + -42 WHERE aid = 123",
      "SELECT abalance FROM pgbench_accounts WHERE aid = 123",
      "UPDATE pgbench_tellers SET tbalance = tbalance + -42 WHERE tid = 17",
      "UPDATE pgbench_branches SET bbalance = bbalance + -42 WHERE bid = 2",
      "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (17, "
      "2, 123, -42, CURRENT_TIMESTAMP)",
      "END"};
  for (size_t i = 0; i < s.size(); ++i) {
    EXPECT_EQ(RenderSimple(s[i], v), want[i]) << i;
  }
  EXPECT_EQ(BuiltinScript(Builtin::kSimpleUpdate).size(), 5u);
  EXPECT_EQ(BuiltinScript(Builtin::kSelectOnly).size(), 1u);
}

TEST(DbScriptTest, NamesAndModes) {
  struct Case {
    const char* text;
    bool ok;
    Builtin want;
  } cases[] = {{"tpcb-like", true, Builtin::kTpcbLike},
               {"tpcb", true, Builtin::kTpcbLike},
               {"select-only", true, Builtin::kSelectOnly},
               {"s", false, Builtin::kTpcbLike},  // ambiguous prefix
               {"tpcc", false, Builtin::kTpcbLike}};
  for (const auto& c : cases) {
    Builtin b = Builtin::kTpcbLike;
    EXPECT_EQ(ParseBuiltin(c.text, &b).ok(), c.ok) << c.text;
    if (c.ok) {
      EXPECT_EQ(b, c.want) << c.text;
    }
  }
  QueryMode m;
  EXPECT_TRUE(ParseQueryMode("extended", &m).ok());
  EXPECT_EQ(m, QueryMode::kExtended);
  EXPECT_FALSE(ParseQueryMode("Simple", &m).ok());
  EXPECT_STREQ(BuiltinDescription(Builtin::kTpcbLike), "TPC-B (sort of)");
}

TEST(DbScriptTest, ValuesStayInPgbenchRanges) {
  TxRandom rng(1);
  int64_t min_aid = INT64_MAX, max_aid = 0, min_delta = 0, max_delta = 0;
  for (int i = 0; i < 200000; ++i) {
    TxValues v = DrawTxValues(rng, 3);
    ASSERT_GE(v.v[kBid], 1);
    ASSERT_LE(v.v[kBid], 3);
    ASSERT_GE(v.v[kTid], 1);
    ASSERT_LE(v.v[kTid], 30);
    min_aid = std::min(min_aid, v.v[kAid]);
    max_aid = std::max(max_aid, v.v[kAid]);
    min_delta = std::min(min_delta, v.v[kDelta]);
    max_delta = std::max(max_delta, v.v[kDelta]);
  }
  EXPECT_GE(min_aid, 1);
  EXPECT_LE(max_aid, 300000);
  EXPECT_GT(max_aid, 290000);  // the whole range is reached
  EXPECT_EQ(min_delta, -5000);
  EXPECT_EQ(max_delta, 5000);
}

TEST(DbScriptTest, SeedMakesStreamsRepeatable) {
  TxRandom a(99), b(99), c(100);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    uint64_t x = a.Next();
    EXPECT_EQ(x, b.Next());
    differs |= x != c.Next();
  }
  EXPECT_TRUE(differs);
}

TEST(DbScriptTest, ProgressLineFormat) {
  EXPECT_EQ(FormatProgressLine(5.0, 812.34, 1.2314, 0.4021, 0),
            "progress: 5.0 s, 812.3 tps, lat 1.231 ms stddev 0.402, 0 failed");
}

class DbWorkloadFileTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& text) {
    path_ = std::filesystem::temp_directory_path() /
            ("db_workload_test_" + std::to_string(::getpid()) + ".json");
    std::ofstream(path_) << text;
    return path_.string();
  }
  void TearDown() override { std::filesystem::remove(path_); }
  std::filesystem::path path_;
};

TEST_F(DbWorkloadFileTest, ShippedWorkloadsLoad) {
  DbWorkload w = LoadDbWorkload(std::string(TIERBENCH_SOURCE_DIR) +
                                "/workloads/pgbench-tpcb.json");
  EXPECT_EQ(w.name, "pgbench-tpcb");
  EXPECT_EQ(w.scale, 2);
  EXPECT_EQ(w.clients, 4);
  EXPECT_EQ(w.threads, 1);
  EXPECT_EQ(w.duration_ns, 10ull * 1000000000ull);
  EXPECT_EQ(w.builtin, "tpcb-like");
  EXPECT_TRUE(w.random_seed_set);
  DbWorkload seed = LoadDbWorkload(std::string(TIERBENCH_SOURCE_DIR) +
                                   "/workloads/pgbench-tpcb-s10-c10.json");
  EXPECT_EQ(seed.scale, 10);
  EXPECT_EQ(seed.clients, 10);
  EXPECT_EQ(seed.postgres_settings.at("shared_buffers"), "128MB");
  EXPECT_TRUE(IsDbWorkloadFile(std::string(TIERBENCH_SOURCE_DIR) +
                               "/workloads/pgbench-tpcb.json"));
  EXPECT_FALSE(IsDbWorkloadFile(std::string(TIERBENCH_SOURCE_DIR) +
                                "/workloads/randread-4k.fio"));
}

TEST_F(DbWorkloadFileTest, FullFile) {
  DbWorkload w = LoadDbWorkload(Write(R"({"kind": "pgbench", "scale": 3,
      "clients": 6, "threads": 2, "duration": "2m", "query_mode": "prepared",
      "builtin": "select", "postgres": {"fsync": false, "max_wal_size": 512}})"));
  EXPECT_EQ(w.scale, 3);
  EXPECT_EQ(w.duration_ns, 120ull * 1000000000ull);
  EXPECT_EQ(w.query_mode, "prepared");
  EXPECT_EQ(w.builtin, "select-only");
  EXPECT_EQ(w.postgres_settings.at("fsync"), "off");
  EXPECT_EQ(w.postgres_settings.at("max_wal_size"), "512");
  EXPECT_FALSE(w.random_seed_set);
  EXPECT_EQ(DbTxDirection(w.builtin), IoDir::kRead);
  EXPECT_EQ(DbTxDirection("tpcb-like"), IoDir::kWrite);
}

TEST_F(DbWorkloadFileTest, ErrorsNameTheKey) {
  struct Case {
    const char* json;
    const char* key;
  } cases[] = {
      {R"({"scale": 1, "duration": 5})", "kind"},
      {R"({"kind": "fio", "duration": 5})", "kind"},
      {R"({"kind": "pgbench", "scale": 0, "duration": 5})", "scale"},
      {R"({"kind": "pgbench", "clients": "4", "duration": 5})", "clients"},
      {R"({"kind": "pgbench", "clients": 2, "threads": 3, "duration": 5})",
       "threads"},
      {R"({"kind": "pgbench", "duration": "fast"})", "duration"},
      {R"({"kind": "pgbench"})", "duration"},
      {R"({"kind": "pgbench", "duration": 5, "query_mode": "x"})",
       "query_mode"},
      {R"({"kind": "pgbench", "duration": 5, "scael": 2})", "scael"},
      {R"({"kind": "pgbench", "duration": 5, "postgres": {"a": [1]}})",
       "postgres.a"},
      {R"({"kind": "pgbench", "duration": 5, "schema_version": 2})",
       "schema_version"},
      {R"(not json)", "JSON"},
  };
  for (const auto& c : cases) {
    std::string path = Write(c.json);
    try {
      LoadDbWorkload(path);
      ADD_FAILURE() << "accepted: " << c.json;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(c.key), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace tierbench
