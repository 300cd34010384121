// CompareScratch: the inputs of a whole-compare unit test over fake cache
// stacks: a directory with 1 MiB raw HDD/SSD image files, a small psync
// random-write job and mode files written from their layer-specific JSON
// body. Options() returns CompareOptions that run them quietly under
// `root` (the fake sysfs tree). Header-only test helper.
#ifndef TIERBENCH_TESTS_SUPPORT_COMPARE_SCRATCH_H_
#define TIERBENCH_TESTS_SUPPORT_COMPARE_SCRATCH_H_

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "record/compare_options.h"

namespace tierbench {

class CompareScratch {
 public:
  // Creates <root>/work with hdd.img, ssd.img and w.fio.
  explicit CompareScratch(const std::string& root)
      : root_(root), dir_(root + "/work") {
    std::filesystem::create_directories(dir_);
    for (const char* f : {"hdd.img", "ssd.img"}) {
      std::ofstream(dir_ + "/" + f).close();
      std::filesystem::resize_file(dir_ + "/" + f, 1 << 20);
    }
    std::ofstream(dir_ + "/w.fio")
        << "[w]\nrw=randwrite\nbs=4k\nsize=256k\nioengine=psync\ndirect=0\n";
  }

  const std::string& dir() const { return dir_; }

  // Writes <dir>/<name>.json with `body` (e.g. "\"layer\": \"raw\", ...").
  std::string Mode(const std::string& name, const std::string& body) const {
    const std::string p = dir_ + "/" + name + ".json";
    std::ofstream(p) << "{\"schema_version\": 1, \"name\": \"" << name
                     << "\", \"description\": \"t\", " << body << "}";
    return p;
  }

  // Options over `stacks` with the raw hdd mode first, then `modes`;
  // results in <dir>/results/<run_id>.
  CompareOptions Options(const std::vector<std::string>& stacks,
                         const std::vector<std::string>& modes,
                         const std::string& run_id) const {
    CompareOptions o;
    // The cold protocol (the default warms until steady, which these
    // fake runs would loop through; its own tests set it).
    o.cache_state = CacheState::kCold;
    o.stacks = stacks;
    o.hdd = dir_ + "/hdd.img";
    o.ssd = dir_ + "/ssd.img";
    o.mode_paths = {Mode("hdd", "\"layer\": \"raw\", \"target\": \"hdd\"")};
    o.mode_paths.insert(o.mode_paths.end(), modes.begin(), modes.end());
    o.workload_paths = {dir_ + "/w.fio"};
    o.results_dir = dir_ + "/results";
    o.run_id = run_id;
    o.sysfs_root = root_;
    o.destructive = true;
    o.quiet = true;
    return o;
  }

 private:
  std::string root_;
  std::string dir_;
};

}  // namespace tierbench

#endif  // TIERBENCH_TESTS_SUPPORT_COMPARE_SCRATCH_H_
