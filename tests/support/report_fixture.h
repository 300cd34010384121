// Test helpers of the report tests: the committed fake run folder
// (tests/golden/report-run/, written by its make_fixture.py), a scratch copy
// of it that a test may damage, and a synthetic run folder of any number of
// modes and workloads (only the columns the report reads). Header-only.
#ifndef TIERBENCH_TESTS_SUPPORT_REPORT_FIXTURE_H_
#define TIERBENCH_TESTS_SUPPORT_REPORT_FIXTURE_H_

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace tierbench {

inline std::string FixtureRunDir() {
  return std::string(TIERBENCH_SOURCE_DIR) + "/tests/golden/report-run";
}

inline std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A fresh directory under the system temp dir, removed on destruction.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& name) {
    path_ = (std::filesystem::temp_directory_path() /
             ("tierbench-report-" + name + "-" + std::to_string(::getpid())))
                .string();
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() { std::filesystem::remove_all(path_); }
  const std::string& path() const { return path_; }
  // Copies the fixture's three files into <path>/<sub> and returns it.
  std::string CopyFixture(const std::string& sub = "run") const {
    const std::string dir = path_ + "/" + sub;
    std::filesystem::create_directories(dir);
    for (const char* f : {"runs.csv", "comparison.csv", "manifest.json"}) {
      std::filesystem::copy_file(FixtureRunDir() + "/" + f, dir + "/" + f);
    }
    return dir;
  }

 private:
  std::string path_;
};

// A scratch copy of the recorded lab run folder tests/unit/data/lab-kernel/
// `prefix`-{runs,comparison,series}.csv and -manifest.json (series.csv when
// it was recorded), removed on destruction.
class RecordedLabRun {
 public:
  explicit RecordedLabRun(const std::string& prefix) : dir_("lab-" + prefix) {
    const std::string from =
        std::string(TIERBENCH_SOURCE_DIR) + "/tests/unit/data/lab-kernel/";
    for (const char* f :
         {"runs.csv", "comparison.csv", "manifest.json", "series.csv"}) {
      const std::string src = from + prefix + "-" + f;
      if (std::filesystem::exists(src)) {
        std::filesystem::copy_file(src, dir_.path() + "/" + f);
      }
    }
  }
  const std::string& path() const { return dir_.path(); }

 private:
  ScratchDir dir_;
};

// Writes a run folder with `modes` cache modes (long names) plus hdd and ssd,
// `workloads` workloads and one repetition; cache mode m does 200 + 500 m
// IOPS, the HDD 150, the SSD `ssd_iops`.
inline void WriteSyntheticRun(const std::string& dir, int modes, int workloads,
                              double ssd_iops = 12000) {
  std::filesystem::create_directories(dir);
  std::ofstream runs(dir + "/runs.csv");
  runs << "schema_version,mode,layer,workload,repetition,job,direction,unit,"
          "iops,clat_p50_us,clat_p99_us,clat_p99_9_us,lat_p50_us,"
          "drain_after_s,error,warnings\n";
  std::ofstream cmp(dir + "/comparison.csv");
  cmp << "schema_version,mode,layer,baseline,workload,job,direction,unit,n,"
         "iops_median,iops_min,iops_max,iops_spread_pct,lat_p99_us_median,"
         "lat_p99_us_min,lat_p99_us_max,iops_vs_hdd_pct,iops_vs_ssd_pct,"
         "iops_position,noise_vs_hdd,noise_vs_ssd,warnings\n";
  for (int w = 0; w < workloads; ++w) {
    const std::string wl = "workload-number-" + std::to_string(w) + "-qd32";
    const double hdd = 150, ssd = ssd_iops;
    for (int m = -2; m < modes; ++m) {
      const bool raw = m < 0;
      const std::string mode =
          m == -2   ? "hdd"
          : m == -1 ? "ssd"
                    : "bcache-writeback-with-a-long-name-" + std::to_string(m);
      const double iops = raw ? (m == -2 ? hdd : ssd) : 200.0 + 500.0 * m;
      runs << "3," << mode << "," << (raw ? "raw" : "bcache") << "," << wl
           << ",1," << wl << ",read,io," << iops << ",100,900,2000,105,"
           << (raw ? "" : "12.5") << ",,\n";
      cmp << "2," << mode << "," << (raw ? "raw" : "bcache") << ","
          << (raw ? mode : "") << "," << wl << "," << wl << ",read,io,1,"
          << iops << "," << iops << "," << iops << ",0.00,900,900,900,"
          << (iops - hdd) / hdd * 100 << "," << (iops - ssd) / ssd * 100 << ","
          << (iops - hdd) / (ssd - hdd) << ",,,\n";
    }
  }
  std::ofstream(dir + "/manifest.json")
      << R"({"schema_version": 2, "run_id": "synthetic", "status": "complete"})";
}

}  // namespace tierbench

#endif  // TIERBENCH_TESTS_SUPPORT_REPORT_FIXTURE_H_
