// ProtocolTest: the fixture of the whole-compare protocol tests
// (tests/unit/orchestrate/protocol_test.cc,
// tests/unit/orchestrate/setup_restore_test.cc): a fake bcache sysfs (cache
// module's fixture) whose bcache0 is a 1 MiB file, raw 1 MiB HDD and SSD image
// files, four mode files (hdd, ssd, bcache writeback and none) and one small
// psync job; the IO runs for real on those files. Options() returns
// CompareOptions that run them quietly (cold protocol, results under the test's
// temp dir); TestHost() routes sysfs to the fake and counts the sleeps in
// slept_ instead of sleeping. Each test starts and ends with the interrupt flag
// cleared and removes its temp dir. Header-only.
#ifndef TIERBENCH_TESTS_UNIT_ORCHESTRATE_PROTOCOL_FIXTURE_H_
#define TIERBENCH_TESTS_UNIT_ORCHESTRATE_PROTOCOL_FIXTURE_H_

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "orchestrate/compare_runner.h"
#include "report/reporters.h"
#include "support/fake_sysfs.h"
#include "util/interrupt.h"

namespace tierbench {

class ProtocolTest : public ::testing::Test {
 protected:
  static std::string ReadAll(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  static void WriteFile(const std::string& path, const std::string& content) {
    std::ofstream(path) << content;
  }

  // Splits CSV text into rows of fields (no quoted commas in these tests'
  // key columns; quoted fields are unquoted).
  static std::vector<std::vector<std::string>> ParseCsv(
      const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
      std::vector<std::string> fields;
      std::string field;
      bool quoted = false;
      for (char c : line) {
        if (c == '"') {
          quoted = !quoted;
        } else if (c == ',' && !quoted) {
          fields.push_back(field);
          field.clear();
        } else {
          field += c;
        }
      }
      fields.push_back(field);
      rows.push_back(fields);
    }
    return rows;
  }

  static size_t Col(const std::vector<std::string>& header,
                    const std::string& name) {
    for (size_t i = 0; i < header.size(); ++i) {
      if (header[i] == name) return i;
    }
    ADD_FAILURE() << "no column " << name;
    return 0;
  }

  void SetUp() override {
    ResetInterruptForTest();
    char tmpl[] = "/tmp/tierbench-compare-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    std::filesystem::create_directories(fake_.root() + "/dev");
    bcache_target_ = fake_.root() + "/dev/bcache0";
    for (const std::string& f :
         {bcache_target_, dir_ + "/hdd.img", dir_ + "/ssd.img"}) {
      WriteFile(f, "");
      std::filesystem::resize_file(f, 1 << 20);
    }
  }
  void TearDown() override {
    ResetInterruptForTest();
    std::filesystem::remove_all(dir_);
  }

  std::string Mode(const std::string& name, const std::string& body) {
    const std::string path = dir_ + "/" + name + ".json";
    WriteFile(path, "{\"schema_version\": 1, \"name\": \"" + name +
                        "\", \"description\": \"test\", " + body + "}");
    return path;
  }

  CompareOptions Options(const std::string& rw) {
    const std::string job = dir_ + "/" + rw + ".fio";
    WriteFile(job, "[" + rw + "]\nrw=" + rw +
                       "\nbs=4k\nsize=256k\nioengine=psync\ndirect=0\n");
    CompareOptions o;
    // The cold protocol (the default warms until steady, which these
    // fake runs would loop through; its own tests set it).
    o.cache_state = CacheState::kCold;
    o.stacks = {bcache_target_};
    o.hdd = dir_ + "/hdd.img";
    o.ssd = dir_ + "/ssd.img";
    o.mode_paths = {
        Mode("hdd", "\"layer\": \"raw\", \"target\": \"hdd\""),
        Mode("ssd", "\"layer\": \"raw\", \"target\": \"ssd\""),
        Mode("writeback",
             "\"layer\": \"bcache\", \"cache_mode\": \"writeback\", "
             "\"knobs\": {\"sequential_cutoff\": \"0\"}, "
             "\"cache_set_knobs\": {\"congested_read_threshold_us\": 0}"),
        Mode("none", "\"layer\": \"bcache\", \"cache_mode\": \"none\"")};
    o.workload_paths = {job};
    o.results_dir = dir_ + "/results";
    o.run_id = "t1";
    o.destructive = true;
    o.stats_lag_s = 15;
    o.drain_timeout_s = 5;
    o.sysfs_root = fake_.root();
    o.quiet = true;
    return o;
  }

  Host TestHost() {
    Host h;
    h.sysfs = fake_.sysfs();
    h.sleep = [this](double s) { slept_ += s; };
    return h;
  }

  std::string RunDir() const { return dir_ + "/results/t1"; }

  // Runs the compare of one cell `o` on `host` with `hooks`, whose after_cell
  // hook is set to store slept_ at the cell's end in *slept_at_end; returns
  // runs.csv's rows (the header and the cell's).
  std::vector<std::vector<std::string>> RunOneCell(const CompareOptions& o,
                                                   const Host& host,
                                                   CompareHooks hooks,
                                                   double* slept_at_end) {
    hooks.after_cell = [this, slept_at_end](size_t) { *slept_at_end = slept_; };
    std::ostringstream out;
    CompareRunner(o, host, hooks).Run(MakeCompareReporters(out));
    return ParseCsv(ReadAll(dir_ + "/results/" + o.run_id + "/runs.csv"));
  }
  std::string Backing(const std::string& f) { return fake_.GetBacking(f); }

  FakeBcacheSysfs fake_;
  std::string dir_;
  std::string bcache_target_;
  double slept_ = 0;
};

}  // namespace tierbench

#endif  // TIERBENCH_TESTS_UNIT_ORCHESTRATE_PROTOCOL_FIXTURE_H_
