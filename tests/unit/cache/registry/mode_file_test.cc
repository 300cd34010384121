#include <gtest/gtest.h>

#include <filesystem>

#include "cache/registry/mode_file.h"
#include "util/errors.h"

namespace tierbench {
namespace {

TEST(ModeFileTest, ParsesBcacheMode) {
  ModeSpec m = ParseModeJson(R"({"schema_version": 1, "name": "wb",
      "description": "d", "layer": "bcache", "cache_mode": "writeback",
      "knobs": {"sequential_cutoff": "4M", "writeback_percent": 10,
                "writeback_running": true},
      "cache_set_knobs": {"congested_read_threshold_us": 0}})",
                             "wb.json");
  EXPECT_EQ("wb", m.name);
  EXPECT_FALSE(m.is_raw());
  EXPECT_EQ("writeback", m.cache_mode);
  ASSERT_EQ(3u, m.knobs.size());
  EXPECT_EQ((std::pair<std::string, std::string>{"sequential_cutoff", "4M"}),
            m.knobs[0]);
  EXPECT_EQ("10", m.knobs[1].second);
  EXPECT_EQ("1", m.knobs[2].second);
  ASSERT_EQ(1u, m.cache_set_knobs.size());
  EXPECT_EQ("0", m.cache_set_knobs[0].second);
  // ToJson round-trips through the parser.
  ModeSpec again = ParseModeJson(m.ToJson().dump(), "again");
  EXPECT_EQ(m.knobs, again.knobs);
  EXPECT_EQ(m.cache_set_knobs, again.cache_set_knobs);
}

TEST(ModeFileTest, ParsesRawMode) {
  ModeSpec m = ParseModeJson(R"({"schema_version": 1, "name": "ssd",
      "description": "x", "layer": "raw", "target": "ssd"})",
                             "ssd.json");
  EXPECT_TRUE(m.is_raw());
  EXPECT_EQ(RawTarget::kSsd, m.target);
  EXPECT_EQ("raw", m.layer_name());
  EXPECT_EQ("ssd", m.target_name());
}

TEST(ModeFileTest, RejectsBadFilesWithOneLineMessages) {
  const std::string head =
      R"("schema_version": 1, "name": "m", "description": "d", )";
  const struct {
    std::string json;
    const char* expect;  // Substring of the message.
  } cases[] = {
      {"{" + head + R"("layer": "bcache", "cache_mode": "fast"})",
       "unknown cache_mode \"fast\""},
      {"{" + head + R"("layer": "bcache"})", "missing key \"cache_mode\""},
      {"{" + head + R"("layer": "bcache", "cache_mode": "none", "x": 1})",
       "unknown key \"x\""},
      {"{" + head +
           R"("layer": "bcache", "cache_mode": "none", "target": "hdd"})",
       "unknown key \"target\""},
      {"{" + head +
           R"("layer": "bcache", "cache_mode": "none", "knobs": {"bogus": 1}})",
       "unknown knob \"bogus\""},
      {"{" + head + R"("layer": "bcache", "cache_mode": "none",
           "knobs": {"congested_read_threshold_us": 0}})",
       "unknown knob \"congested_read_threshold_us\" in \"knobs\""},
      {"{" + head + R"("layer": "bcache", "cache_mode": "none",
           "knobs": {"sequential_cutoff": "4 megs"}})",
       "bad value '4 megs' for bcache knob sequential_cutoff"},
      {"{" + head + R"("layer": "bcache", "cache_mode": "none",
           "knobs": {"writeback_percent": 1.5}})",
       "has a number value"},
      {"{" + head + R"("layer": "bcache", "cache_mode": "none",
           "knobs": [1]})",
       "\"knobs\" must be an object"},
      {"{" + head + R"("layer": "raw", "target": "nvme"})",
       "unknown target \"nvme\""},
      {"{" + head + R"("layer": "raw", "target": "hdd", "cache_mode": "none"})",
       "unknown key \"cache_mode\""},
      {"{" + head + R"("layer": "flashcache"})", "unknown layer"},
      {"{" + head + R"("layer": "dm-cache", "cache_mode": "none"})",
       "unknown cache_mode \"none\" for layer dm-cache"},
      {"{" + head + R"("layer": "dm-cache", "cache_mode": "writeback",
           "cache_set_knobs": {}})",
       "unknown key \"cache_set_knobs\""},
      {"{" + head + R"("layer": "dm-cache", "cache_mode": "writeback",
           "knobs": {"policy": "lru"}})",
       "unknown dm-cache policy \"lru\""},
      {"{" + head + R"("layer": "dm-writecache", "cache_mode": "writeback",
           "knobs": {"high_watermark": 101}})",
       "0..100"},
      {"{" + head + R"("layer": "dm-writecache", "cache_mode": "writeback",
           "knobs": {"cleaner": 1}})",
       "unknown dm-writecache knob \"cleaner\""},
      {R"({"name": "m", "description": "d", "layer": "raw", "target": "hdd"})",
       "missing key \"schema_version\""},
      {R"({"schema_version": 2, "name": "m", "description": "d",
           "layer": "raw", "target": "hdd"})",
       "unsupported schema_version 2"},
      {R"({"schema_version": 1, "name": "a b", "description": "d",
           "layer": "raw", "target": "hdd"})",
       "bad name"},
      {R"({"schema_version": 1, "name": "m", "layer": "raw",
           "target": "hdd"})",
       "missing key \"description\""},
      {"{" + head + R"("layer": 3})", "\"layer\" must be a string"},
      {"{ nope", "not valid JSON"},
      {"[1, 2]", "not a JSON object"},
  };
  for (const auto& c : cases) {
    try {
      ParseModeJson(c.json, "modes/m.json");
      ADD_FAILURE() << "accepted: " << c.json;
    } catch (const ConfigError& e) {
      const std::string msg = e.what();
      EXPECT_NE(std::string::npos, msg.find(c.expect)) << msg;
      EXPECT_EQ(0u, msg.find("modes/m.json: ")) << msg;
      EXPECT_NE(std::string::npos, msg.find("Fix: ")) << msg;
      EXPECT_EQ(std::string::npos, msg.find('\n')) << msg;
      EXPECT_EQ(kExitConfig, e.exit_code());
    }
  }
}

TEST(ModeFileTest, MissingFileIsConfigError) {
  EXPECT_THROW(LoadModeFile("/nonexistent/x.json"), ConfigError);
}

// Every shipped mode file is valid and the default list exists.
TEST(ModeFileTest, ShippedModesAreValid) {
  const std::string dir = std::string(TIERBENCH_SOURCE_DIR) + "/modes";
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    ModeSpec m = LoadModeFile(entry.path().string());
    EXPECT_EQ(entry.path().stem().string(), m.name) << entry.path();
    EXPECT_FALSE(m.description.empty());
    ++count;
  }
  EXPECT_GE(count, 7);
  for (const std::string& path : DefaultModePaths(dir)) {
    EXPECT_TRUE(std::filesystem::exists(path)) << path;
  }
  ModeSpec nocut = LoadModeFile(dir + "/writeback-nocutoff.json");
  EXPECT_EQ("writeback", nocut.cache_mode);
  bool has_zero_cutoff = false;
  for (const auto& [k, v] : nocut.knobs) {
    has_zero_cutoff |= k == "sequential_cutoff" && v == "0";
  }
  EXPECT_TRUE(has_zero_cutoff);
}

}  // namespace
}  // namespace tierbench
