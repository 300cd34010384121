// fio's own example job files (tests/fio-examples/, copied from fio's
// examples/; LIST names the ones tierbench supports) parse and run: each is
// run briefly in a fresh directory under the system temp dir (ext4 or
// similar, so direct=1 works), with --runtime 300ms and --size 1M, and a
// --filename there when the example points at an absolute path of its own.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "util/errors.h"
#include "util/units.h"
#include "workload/job_file.h"
#include "workload/runner.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

const fs::path kExamples =
    fs::path(TIERBENCH_SOURCE_DIR) / "tests/fio-examples";

std::vector<std::string> ListedExamples() {
  std::vector<std::string> names;
  std::ifstream in(kExamples / "LIST");
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != '#') names.push_back(line);
  }
  return names;
}

// The job's own target is outside the test directory.
bool PointsElsewhere(const Workload& w) {
  for (const JobSpec& j : w.jobs) {
    if (!j.filename.empty() && j.filename[0] == '/') return true;
    if (!j.directory.empty() && j.directory[0] == '/') return true;
  }
  return false;
}

TEST(FioExamplesTest, ListedExamplesParseAndRun) {
  const std::vector<std::string> names = ListedExamples();
  ASSERT_GE(names.size(), 10u) << "LIST is missing or short";
  const fs::path old_cwd = fs::current_path();
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const std::string path = (kExamples / name).string();
    ASSERT_TRUE(fs::exists(path));
    const fs::path dir = fs::temp_directory_path() /
                         ("tb-fio-example-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    fs::current_path(dir);
    try {
      const Workload as_is = ParseJobFiles({path}, {});
      ASSERT_FALSE(as_is.jobs.empty());
      JobOverrides o;
      o.runtime_ns = 300 * kNsPerMs;
      o.size = SizeSpec{true, false, 1u << 20, 0};
      if (PointsElsewhere(as_is)) o.filename = (dir / "target.dat").string();
      const Workload w = ParseJobFiles({path}, o);
      RunOptions options;
      options.progress = false;
      const RunResult r = RunWorkload(w, options);
      ASSERT_FALSE(r.jobs.empty());
      for (const JobResult& j : r.jobs) {
        EXPECT_TRUE(j.error.empty()) << j.error;
        EXPECT_GT(j.dir[0].ios + j.dir[1].ios, 0u) << j.name;
      }
    } catch (const HarnessError& e) {
      ADD_FAILURE() << e.what();
    }
    fs::current_path(old_cwd);
    fs::remove_all(dir);
  }
}

}  // namespace
}  // namespace tierbench
