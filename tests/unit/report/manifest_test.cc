// ManifestBuilder (report/manifest_builder.h): the PostgreSQL version the
// manifest records is the server's own answer from the DB cells that ran,
// never a guess from a binary at a fixed path (issue 29).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "record/cell_record.h"
#include "record/compare_options.h"
#include "record/compare_setup.h"
#include "report/manifest_builder.h"
#include "util/sysfs.h"

namespace tierbench {
namespace {

// A run of one raw mode and two workloads (fio, then a DB one), with no
// devices: what the manifest says about PostgreSQL depends on its cells.
class ManifestPostgresTest : public ::testing::Test {
 protected:
  ManifestPostgresTest()
      : sysfs_(::testing::TempDir() + "tierbench-manifest-no-sysfs") {
    ModeSpec hdd;
    hdd.name = "hdd";
    hdd.layer = "raw";
    setup_.modes = {hdd};
    PreparedWorkload fio;
    fio.name = "randread";
    PreparedWorkload db;
    db.name = "tpcb";
    db.is_db = true;
    db.db.name = "tpcb";
    setup_.workloads = {fio, db};
  }

  CellRecord Record(size_t workload, const std::string& server_version) const {
    CellRecord rec;
    rec.cell.mode = 0;
    rec.cell.workload = workload;
    rec.mode = &setup_.modes[0];
    rec.workload = &setup_.workloads[workload];
    rec.db_info.server_version = server_version;
    return rec;
  }

  // A manifest value as text: a string's own text, else its JSON ("null").
  static std::string Text(const nlohmann::json& j) {
    return j.is_string() ? j.get<std::string>() : j.dump();
  }

  CompareOptions options_;
  CompareSetup setup_;
  Sysfs sysfs_;
};

TEST_F(ManifestPostgresTest, NoDbCellSaysNothingAboutPostgres) {
  ManifestBuilder b(CompareStart{options_, setup_, sysfs_, 1});
  ASSERT_TRUE(b.manifest()["tool_versions"].contains("postgres"));
  EXPECT_TRUE(b.manifest()["tool_versions"]["postgres"].is_null());
  b.AddCell(Record(0, ""));  // a fio cell
  EXPECT_TRUE(b.manifest()["tool_versions"]["postgres"].is_null());
  // fio and pgbench are still asked for their --version (null when absent).
  EXPECT_TRUE(b.manifest()["tool_versions"].contains("fio"));
  EXPECT_TRUE(b.manifest()["tool_versions"].contains("pgbench"));
}

TEST_F(ManifestPostgresTest, TheServerTheFirstDbCellRanIsRecorded) {
  ManifestBuilder b(CompareStart{options_, setup_, sysfs_, 4});
  // A DB cell that failed before it reached its server reports none.
  b.AddCell(Record(1, ""));
  EXPECT_TRUE(b.manifest()["tool_versions"]["postgres"].is_null());
  const std::string v16 =
      "PostgreSQL 16.4 (Debian 16.4-1) on x86_64-pc-linux-gnu, compiled by "
      "gcc (Debian 12.2.0-14) 12.2.0, 64-bit";
  b.AddCell(Record(1, v16));
  EXPECT_EQ(Text(b.manifest()["tool_versions"]["postgres"]), v16);
  EXPECT_EQ(Text(b.manifest()["workloads"][1]["server"]["version"]), v16);
  // A later cell does not replace the run's version; its workload's server
  // is recorded with the workload.
  b.AddCell(Record(1, "PostgreSQL 15.10"));
  EXPECT_EQ(Text(b.manifest()["tool_versions"]["postgres"]), v16);
  EXPECT_EQ(Text(b.manifest()["workloads"][1]["server"]["version"]),
            "PostgreSQL 15.10");
  // A fio cell's (empty) DB info changes nothing.
  b.AddCell(Record(0, ""));
  EXPECT_EQ(Text(b.manifest()["tool_versions"]["postgres"]), v16);
}

}  // namespace
}  // namespace tierbench
