// The include direction of src/ (issue 28): every #include "folder/..." of
// src/**/*.{h,cc} names a folder listed in src/layers.txt no later than the
// including file's own folder, unless the include is listed there as a
// known upward one. The folders are listed bottom first; a folder is the
// file's directory relative to src/ (cache/bcache is its own folder).
// src/README.md's Source layout table follows the same list.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tierbench {
namespace {

namespace fs = std::filesystem;

const fs::path kSrc = fs::path(TIERBENCH_SOURCE_DIR) / "src";

struct Layers {
  std::vector<std::string> folders;  // bottom first
  // The known upward includes: (file relative to src/, included header).
  std::set<std::pair<std::string, std::string>> upward;
  std::vector<std::string> errors;  // lines that do not parse
};

std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  const size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

Layers ReadLayers() {
  Layers layers;
  std::ifstream in(kSrc / "layers.txt");
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::string text = Trim(line.substr(0, line.find('#')));
    if (text.empty()) continue;
    const std::string kUpward = "upward ";
    if (text.rfind(kUpward, 0) == 0) {
      const std::string rest = text.substr(kUpward.size());
      const size_t arrow = rest.find("->");
      if (arrow == std::string::npos) {
        layers.errors.push_back("line " + std::to_string(number) +
                                ": upward FILE -> HEADER expected");
        continue;
      }
      layers.upward.emplace(Trim(rest.substr(0, arrow)),
                            Trim(rest.substr(arrow + 2)));
    } else if (text.find(' ') != std::string::npos) {
      layers.errors.push_back("line " + std::to_string(number) +
                              ": one folder per line expected");
    } else {
      layers.folders.push_back(text);
    }
  }
  return layers;
}

// The folder of a path relative to src/ ("" for a file directly in src/).
std::string FolderOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

struct Include {
  std::string file;  // relative to src/
  int line = 0;
  std::string header;  // as written between the quotes
};

// Every #include "..." of src/**/*.{h,cc}, in path order.
std::vector<Include> SourceIncludes() {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(kSrc)) {
    const std::string ext = e.path().extension().string();
    if (e.is_regular_file() && (ext == ".h" || ext == ".cc")) {
      files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<Include> includes;
  for (const fs::path& path : files) {
    std::ifstream in(path);
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
      ++number;
      std::string text = Trim(line);
      if (text.empty() || text[0] != '#') continue;
      text = Trim(text.substr(1));
      if (text.rfind("include", 0) != 0) continue;
      text = Trim(text.substr(7));
      if (text.empty() || text[0] != '"') continue;
      const size_t end = text.find('"', 1);
      if (end == std::string::npos) continue;
      includes.push_back({fs::relative(path, kSrc).generic_string(), number,
                          text.substr(1, end - 1)});
    }
  }
  return includes;
}

// Each folder's place in the list (0 = bottom).
std::map<std::string, size_t> Ranks(const Layers& layers) {
  std::map<std::string, size_t> rank;
  for (size_t i = 0; i < layers.folders.size(); ++i) {
    rank.emplace(layers.folders[i], i);
  }
  return rank;
}

// The includes that point up (to a folder listed after the file's).
std::set<std::pair<std::string, std::string>> UpwardIncludes(
    const std::vector<Include>& includes,
    const std::map<std::string, size_t>& rank) {
  std::set<std::pair<std::string, std::string>> upward;
  for (const Include& inc : includes) {
    const auto from = rank.find(FolderOf(inc.file));
    const auto to = rank.find(FolderOf(inc.header));
    if (from == rank.end() || to == rank.end()) continue;
    if (to->second > from->second) upward.emplace(inc.file, inc.header);
  }
  return upward;
}

TEST(LayoutIncludeTest, LayersFileParses) {
  const Layers layers = ReadLayers();
  EXPECT_TRUE(layers.errors.empty())
      << "src/layers.txt: " << layers.errors.front();
  ASSERT_FALSE(layers.folders.empty()) << "src/layers.txt lists no folder";
  std::set<std::string> seen;
  for (const std::string& f : layers.folders) {
    EXPECT_TRUE(seen.insert(f).second)
        << "src/layers.txt lists " << f << " twice";
  }
}

TEST(LayoutIncludeTest, EverySourceFolderIsListedAndEveryListedOneExists) {
  const Layers layers = ReadLayers();
  const std::map<std::string, size_t> rank = Ranks(layers);
  std::set<std::string> folders;
  for (const auto& e : fs::recursive_directory_iterator(kSrc)) {
    const std::string ext = e.path().extension().string();
    if (!e.is_regular_file() || (ext != ".h" && ext != ".cc")) continue;
    const std::string folder =
        FolderOf(fs::relative(e.path(), kSrc).generic_string());
    if (!folder.empty()) folders.insert(folder);
  }
  for (const std::string& f : folders) {
    EXPECT_TRUE(rank.count(f)) << "src/" << f
                               << " holds sources but is not listed in "
                                  "src/layers.txt: give it its place there";
  }
  for (const std::string& f : layers.folders) {
    EXPECT_TRUE(folders.count(f))
        << "src/layers.txt lists " << f << ", which holds no .h or .cc";
  }
}

TEST(LayoutIncludeTest, IncludesPointDownOnly) {
  const Layers layers = ReadLayers();
  const std::map<std::string, size_t> rank = Ranks(layers);
  const std::vector<Include> includes = SourceIncludes();
  ASSERT_GT(includes.size(), 100u) << "no includes read below " << kSrc;
  for (const Include& inc : includes) {
    const std::string where = "src/" + inc.file + ":" +
                              std::to_string(inc.line) + " includes \"" +
                              inc.header + "\"";
    const std::string to = FolderOf(inc.header);
    if (to.empty()) {
      ADD_FAILURE() << where << ": name its folder (\"util/log.h\")";
      continue;
    }
    if (!rank.count(to)) {
      ADD_FAILURE() << where << ": folder " << to
                    << " is not listed in src/layers.txt";
      continue;
    }
    const std::string from = FolderOf(inc.file);
    if (from.empty() || !rank.count(from)) continue;  // main.cc; see above
    if (rank.at(to) > rank.at(from) &&
        !layers.upward.count({inc.file, inc.header})) {
      ADD_FAILURE() << where << ": an upward include (" << to
                    << " is listed after " << from
                    << " in src/layers.txt); move the code down or split it";
    }
  }
}

TEST(LayoutIncludeTest, EveryKnownUpwardIncludeIsStillThere) {
  const Layers layers = ReadLayers();
  const auto upward = UpwardIncludes(SourceIncludes(), Ranks(layers));
  for (const auto& [file, header] : layers.upward) {
    EXPECT_TRUE(upward.count({file, header}))
        << "src/layers.txt: upward " << file << " -> " << header
        << " is gone or no longer upward: remove its line";
  }
}

// src/README.md's "Source layout" table names the folders of src/layers.txt, in
// its order.
TEST(LayoutIncludeTest, ReadmeTableFollowsTheLayersFile) {
  std::ifstream in(fs::path(TIERBENCH_SOURCE_DIR) / "src" / "README.md");
  std::string line;
  bool in_section = false;
  std::vector<std::string> rows;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) in_section = line == "## Source layout";
    if (!in_section || line.rfind("| `", 0) != 0) continue;
    const size_t end = line.find('`', 3);
    if (end == std::string::npos) continue;
    std::string folder = line.substr(3, end - 3);
    if (!folder.empty() && folder.back() == '/') folder.pop_back();
    rows.push_back(folder);
  }
  EXPECT_EQ(rows, ReadLayers().folders)
      << "src/README.md's Source layout table and src/layers.txt differ";
}

// tests/unit/ mirrors src/: a unit test of src/<folder>/x.cc lives in
// tests/unit/<folder>/, so every folder there (but data/, the recorded
// kernel text) is a folder of src/layers.txt, and only the tests of src/ as
// a whole (this one, the fuzz regressions) lie directly in tests/unit/.
// Shared helpers live in tests/support/.
TEST(LayoutIncludeTest, UnitTestFoldersMirrorSourceFolders) {
  const Layers layers = ReadLayers();
  const std::set<std::string> listed(layers.folders.begin(),
                                     layers.folders.end());
  const fs::path unit = fs::path(TIERBENCH_SOURCE_DIR) / "tests" / "unit";
  const std::set<std::string> kWholeSource = {"layout_include_test.cc",
                                              "fuzz_regressions_test.cc"};
  size_t tests = 0;
  for (auto it = fs::recursive_directory_iterator(unit);
       it != fs::recursive_directory_iterator(); ++it) {
    const std::string rel = fs::relative(it->path(), unit).generic_string();
    if (it->is_directory()) {
      if (rel == "data") {
        it.disable_recursion_pending();
        continue;
      }
      EXPECT_TRUE(listed.count(rel))
          << "tests/unit/" << rel
          << " is no folder of src/layers.txt: put the tests of src/<folder> "
             "in tests/unit/<folder>, helpers in tests/support";
      continue;
    }
    const std::string ext = it->path().extension().string();
    if (ext != ".cc" && ext != ".h") continue;
    ++tests;
    if (rel.find('/') == std::string::npos) {
      EXPECT_TRUE(kWholeSource.count(rel))
          << "tests/unit/" << rel
          << " lies outside the folders: move it to tests/unit/<folder>/ of "
             "the src/ folder it tests";
    }
  }
  EXPECT_GT(tests, 50u) << "tests/unit/ read (almost) no test sources";
}

}  // namespace
}  // namespace tierbench
