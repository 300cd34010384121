// Every committed fuzz input -- the crashes scripts/fuzz found, kept in
// tests/fuzz/regressions/TARGET/, and the hand-made seeds in
// tests/fuzz/seeds/TARGET/ -- goes through the same entry point as its
// libFuzzer target (tests/fuzz/fuzz_entries.h), here in the GCC build: the
// parser must accept it or reject it with its documented error and a
// one-line message; any other exception fails.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_entries.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> InputsOf(const std::string& target) {
  std::vector<fs::path> files;
  for (const char* kind : {"regressions", "seeds"}) {
    const fs::path dir =
        fs::path(TIERBENCH_SOURCE_DIR) / "tests/fuzz" / kind / target;
    if (!fs::is_directory(dir)) continue;
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.is_regular_file()) files.push_back(e.path());
    }
  }
  return files;
}

std::string FuzzReadAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(FuzzRegressionsTest, EveryCommittedInputIsHandled) {
  for (const FuzzEntry& entry : FuzzEntries()) {
    for (const fs::path& file : InputsOf(entry.name)) {
      const std::string data = FuzzReadAll(file);
      try {
        entry.run(data);
      } catch (const std::exception& e) {
        ADD_FAILURE() << entry.name << ": " << file.string()
                      << " escaped the parser: " << e.what();
      }
    }
  }
  // The sysfs value and write log seeds are committed: none found means a
  // wrong path.
  EXPECT_FALSE(InputsOf("sysfs_values").empty());
  EXPECT_FALSE(InputsOf("write_log").empty());
}

TEST(FuzzRegressionsTest, RegressionDirectoriesNameKnownTargets) {
  const fs::path dir =
      fs::path(TIERBENCH_SOURCE_DIR) / "tests/fuzz/regressions";
  ASSERT_TRUE(fs::is_directory(dir));
  for (const auto& e : fs::directory_iterator(dir)) {
    if (!e.is_directory()) continue;
    EXPECT_NE(FindFuzzEntry(e.path().filename().string()), nullptr)
        << e.path().string() << " names no fuzz target";
  }
}

}  // namespace
}  // namespace tierbench
