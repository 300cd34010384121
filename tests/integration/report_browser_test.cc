// `tierbench report` end to end: the real binary on a copy of the committed
// fake run folder (tests/golden/report-run), its exit codes and one-line
// errors, and headless Chromium rendering report.html: the screenshot has
// the window's size and is not blank, and the DOM dump holds the charts.
// Chromium is installed by scripts/install-deps; without it the test skips
// locally but FAILS under CI=true.
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "test_env.h"

namespace tierbench::testing {
namespace {

const int kWidth = 1280, kHeight = 2400;

std::string BrowserReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string CopyFixture(const TempDir& tmp) {
  const std::string dir = tmp.path() + "/run";
  std::filesystem::create_directories(dir);
  for (const char* f :
       {"runs.csv", "comparison.csv", "manifest.json", "series.csv"}) {
    std::filesystem::copy_file(
        std::string(TIERBENCH_SOURCE_DIR) + "/tests/golden/report-run/" + f,
        dir + "/" + f);
  }
  return dir;
}

std::string Report(const std::string& args, int* rc) {
  std::string out;
  *rc = RunShell(std::string(TIERBENCH_BINARY) + " report " + args, &out);
  return out;
}

uint32_t Be32(const std::string& s, size_t at) {
  return (uint32_t(uint8_t(s[at])) << 24) |
         (uint32_t(uint8_t(s[at + 1])) << 16) |
         (uint32_t(uint8_t(s[at + 2])) << 8) | uint32_t(uint8_t(s[at + 3]));
}

// A decoded 8-bit RGB or RGBA PNG (what Chromium writes).
struct Image {
  uint32_t width = 0, height = 0, channels = 0;
  std::string pixels;  // rows of width * channels bytes
  std::string error;
};

Image DecodePng(const std::string& png) {
  Image img;
  if (png.size() < 33 || png.compare(1, 3, "PNG") != 0) {
    img.error = "not a PNG";
    return img;
  }
  std::string idat;
  int depth = 0, type = 0;
  for (size_t p = 8; p + 12 <= png.size();) {
    const uint32_t len = Be32(png, p);
    const std::string kind = png.substr(p + 4, 4);
    if (kind == "IHDR") {
      img.width = Be32(png, p + 8);
      img.height = Be32(png, p + 12);
      depth = uint8_t(png[p + 16]);
      type = uint8_t(png[p + 17]);
    } else if (kind == "IDAT") {
      idat += png.substr(p + 8, len);
    }
    p += 12 + len;
  }
  if (depth != 8 || (type != 2 && type != 6)) {
    img.error = "unexpected PNG format";
    return img;
  }
  img.channels = type == 6 ? 4 : 3;
  const size_t stride = size_t(img.width) * img.channels;
  std::string raw((stride + 1) * img.height, '\0');
  uLongf raw_len = raw.size();
  if (uncompress(reinterpret_cast<Bytef*>(raw.data()), &raw_len,
                 reinterpret_cast<const Bytef*>(idat.data()),
                 idat.size()) != Z_OK ||
      raw_len != raw.size()) {
    img.error = "cannot inflate IDAT";
    return img;
  }
  img.pixels.assign(stride * img.height, '\0');
  auto* out = reinterpret_cast<uint8_t*>(img.pixels.data());
  const auto* in = reinterpret_cast<const uint8_t*>(raw.data());
  const size_t bpp = img.channels;
  for (size_t y = 0; y < img.height; ++y) {
    const uint8_t filter = in[y * (stride + 1)];
    const uint8_t* src = in + y * (stride + 1) + 1;
    uint8_t* row = out + y * stride;
    const uint8_t* up = y > 0 ? out + (y - 1) * stride : nullptr;
    for (size_t x = 0; x < stride; ++x) {
      const int a = x >= bpp ? row[x - bpp] : 0;
      const int b = up ? up[x] : 0;
      const int c = (up && x >= bpp) ? up[x - bpp] : 0;
      int pred = 0;
      switch (filter) {
        case 0:
          pred = 0;
          break;
        case 1:
          pred = a;
          break;
        case 2:
          pred = b;
          break;
        case 3:
          pred = (a + b) / 2;
          break;
        case 4: {
          const int p = a + b - c;
          const int pa = std::abs(p - a), pb = std::abs(p - b),
                    pc = std::abs(p - c);
          pred = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
          break;
        }
        default:
          img.error = "bad PNG filter";
          return img;
      }
      row[x] = uint8_t(src[x] + pred);
    }
  }
  return img;
}

TEST(ReportCliTest, WritesTheReportAndRefusesToOverwrite) {
  TempDir tmp;
  const std::string dir = CopyFixture(tmp);
  int rc = -1;
  std::string out = Report(dir, &rc);
  ASSERT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("report.html"), std::string::npos) << out;
  EXPECT_TRUE(std::filesystem::exists(dir + "/summary.md"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/charts/iops-randwrite-4k.svg"));
  out = Report(dir, &rc);
  EXPECT_EQ(rc, 4) << out;
  EXPECT_NE(out.find("--force"), std::string::npos) << out;
  out = Report(dir + " --force", &rc);
  EXPECT_EQ(rc, 0) << out;
}

TEST(ReportCliTest, BadRunFolderIsOneLineAndExit2) {
  TempDir tmp;
  const std::string dir = CopyFixture(tmp);
  std::filesystem::remove(dir + "/comparison.csv");
  int rc = -1;
  std::string out = Report(dir, &rc);
  EXPECT_EQ(rc, 2) << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
  EXPECT_NE(out.find(dir + "/comparison.csv"), std::string::npos) << out;
  EXPECT_NE(out.find("Fix:"), std::string::npos) << out;
  out = Report(tmp.path() + "/nothing-here", &rc);
  EXPECT_EQ(rc, 2) << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
}

TEST(ReportCliTest, FleetReportNeedsOutAndWritesMergedCsv) {
  TempDir tmp;
  const std::string golden =
      std::string(TIERBENCH_SOURCE_DIR) + "/tests/golden";
  const std::string runs = golden + "/report-run " + golden + "/report-run-b";
  int rc = -1;
  std::string out = Report(runs, &rc);
  EXPECT_EQ(rc, 2) << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
  EXPECT_NE(out.find("Fix: add --out DIR"), std::string::npos) << out;
  out = Report(runs + " --out " + tmp.path() + "/fleet", &rc);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_EQ(BrowserReadAll(tmp.path() + "/fleet/merged.csv"),
            BrowserReadAll(golden + "/merged/merged.csv"));
  EXPECT_EQ(BrowserReadAll(tmp.path() + "/fleet/summary.md"),
            BrowserReadAll(golden + "/merged/summary.md"));
  EXPECT_TRUE(std::filesystem::exists(
      tmp.path() + "/fleet/charts/merged-iops-randwrite-4k.svg"));
  out = Report(runs + " --out " + tmp.path() + "/fleet", &rc);
  EXPECT_EQ(rc, 4) << out;
}

TEST(ReportBrowserTest, ChromiumRendersTheReport) {
  TIERBENCH_REQUIRE_TOOL("chromium", "Debian package chromium");
  TempDir tmp;
  const std::string dir = CopyFixture(tmp);
  int rc = -1;
  const std::string out = Report(dir, &rc);
  ASSERT_EQ(rc, 0) << out;
  const std::string url = "file://" + dir + "/report.html";
  const std::string png = tmp.path() + "/shot.png";
  // --no-sandbox: the tests run as root; a private profile dir keeps runs
  // apart.
  const std::string chromium =
      "chromium --headless --no-sandbox --disable-gpu --hide-scrollbars "
      "--user-data-dir=" +
      tmp.path() + "/profile --window-size=" + std::to_string(kWidth) + "," +
      std::to_string(kHeight);
  std::string log;
  ASSERT_EQ(
      RunShell("timeout 120 " + chromium + " --screenshot=" + png + " " + url,
               &log),
      0)
      << log;
  const Image img = DecodePng(BrowserReadAll(png));
  ASSERT_EQ(img.error, "");
  EXPECT_EQ(img.width, uint32_t(kWidth));
  EXPECT_EQ(img.height, uint32_t(kHeight));
  // Not blank: a good share of non-white pixels and many colours.
  size_t ink = 0;
  std::set<uint32_t> colors;
  const size_t n = size_t(img.width) * img.height;
  for (size_t i = 0; i < n; ++i) {
    const auto* p =
        reinterpret_cast<const uint8_t*>(img.pixels.data()) + i * img.channels;
    if (p[0] < 240 || p[1] < 240 || p[2] < 240) ++ink;
    colors.insert(uint32_t(p[0]) << 16 | uint32_t(p[1]) << 8 | p[2]);
  }
  EXPECT_GT(ink, n / 50) << "the screenshot is (almost) blank";
  EXPECT_GT(colors.size(), 50u);

  std::string dom;
  ASSERT_EQ(RunShell("timeout 120 " + chromium + " --dump-dom " + url +
                         " 2>/dev/null",
                     &dom),
            0);
  auto count = [&dom](const std::string& needle) {
    size_t c = 0;
    for (size_t p = dom.find(needle); p != std::string::npos;
         p = dom.find(needle, p + 1))
      ++c;
    return c;
  };
  EXPECT_EQ(count("<svg"), 15u);
  EXPECT_EQ(count("data-chart=\"iops\""), 3u);
  EXPECT_EQ(count("data-chart=\"latency\""), 3u);
  EXPECT_EQ(count("data-chart=\"drain\""), 2u);  // randread: all 0 s
  EXPECT_EQ(count("data-chart=\"position\""), 1u);
  EXPECT_EQ(count("data-chart=\"percentiles\""), 3u);
  EXPECT_EQ(count("data-chart=\"series\""), 3u);
  EXPECT_NE(dom.find("IOPS, read + write (1/s"), std::string::npos);
  EXPECT_NE(dom.find("percentile (%, nines scale"), std::string::npos);
  EXPECT_EQ(count("class=\"bar\""), 5u + 5u + 10u + 2u * 5u);
  EXPECT_NE(dom.find("IOPS (IOs/s, log scale)"), std::string::npos);
  EXPECT_NE(dom.find("time to clean (s)"), std::string::npos);
  EXPECT_NE(dom.find("latency (log scale)"), std::string::npos);
  // The verdict first, the details after it; the invalid cells of the
  // fixture (cold reads) hatched in the heat map, not coloured.
  const size_t verdict = dom.find(">Verdict<");
  ASSERT_NE(verdict, std::string::npos);
  const size_t details = dom.find("Details - text suggested for a paper");
  ASSERT_NE(details, std::string::npos);
  EXPECT_LT(verdict, details);
  EXPECT_EQ(count("heat-invalid"), 3u);
}

}  // namespace
}  // namespace tierbench::testing
