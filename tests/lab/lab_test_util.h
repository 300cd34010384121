// Helpers of the lab tests (tierbench_lab_tests): they run the real
// `tierbench lab` (a QEMU guest with Debian's kernel and real bcache) as a
// black box and read the CSVs it brings back.
#ifndef TIERBENCH_TESTS_LAB_LAB_TEST_UTIL_H_
#define TIERBENCH_TESTS_LAB_LAB_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace tierbench::labtest {

// The tierbench binary under test: $TIERBENCH_BIN, else the one built
// alongside these tests.
std::string TierbenchBinary();

// Why the lab cannot run here at all ("" when it can): TIERBENCH_SKIP_LAB is
// set, or no qemu-system-x86_64 on PATH.
std::string LabUnavailableReason();

// True when `output` of a failed lab run says the Debian kernel package could
// not be obtained (no network, no apt source): a reason to skip, not fail.
bool KernelPackageUnavailable(const std::string& output);

// The --timeout RunLab passes unless `args` hold one: each guest's limit,
// 2.4 times the longest guest of the suite
// (LabCompare.PgbenchWritebackBeatsNone, 367 s in ci34).
inline constexpr int kLabTestTimeoutS = 900;

// Runs `tierbench lab <args>` to completion (with --timeout=kLabTestTimeoutS
// unless `args` hold a --timeout); returns its exit status and
// stores stdout+stderr in *output. With TIERBENCH_LAB_LOGS set, also
// appends the command and its output to $TIERBENCH_LAB_LOGS/<Suite>.<Test>.log.
int RunLab(const std::vector<std::string>& args, std::string* output);

// A CSV file as rows of column name -> value (RFC 4180 quoting).
using CsvRow = std::map<std::string, std::string>;
std::vector<CsvRow> ReadCsv(const std::string& path);

// The whole text of `path` ("" when unreadable).
std::string ReadText(const std::string& path);

// The compare option that makes a lab run check its stacks' data across
// their modes (compare --verify, 4 MiB) before the cells.
inline const std::string kVerifyArg = "--compare-arg=--verify=4M";

// The fio-based lab tests run undilated: their thresholds, runtimes and
// drain times come from lab.md's undilated figures (an HDD at 150 IOPS).
// Dilated (lab/lab_dilation.h) at the F of ~30 a TCG host measures, the HDD
// gets 5 IOPS and a 3-8 s cell only a few dozen IOs; the DB test
// (LabCompare.PgbenchWritebackBeatsNone) is the dilated one.
inline const std::string kUndilated = "--dilation=off";

// Checks the manifest.json of run folder `run_dir` for a --verify of 4 MiB
// that verified each of `layers` (in order) with no block differing and
// dirty data in the cache after the writes; the per-stack figures go to
// stdout ("verify: <layer> dirty after the writes N B, S s").
void ExpectVerified(const std::string& run_dir,
                    const std::vector<std::string>& layers);

// The guest filter of the capture test (tests/integration/
// capture_replay_test.cc: `tierbench capture` with blktrace on a loop
// device of the guest, its iolog replayed) for --guest-tests-filter, and
// the checks of a guest-tests.log's text `guest_tests` that it ran, was not
// skipped and passed; its device counts (the capture's and the replay's
// "device counted" lines) go to stdout.
inline const std::string kCaptureReplayGuestFilter = "CaptureReplayTest.*";
void ExpectCaptureReplayPassed(const std::string& guest_tests);

// The lab option that makes the guest's first boot hang in the kernel
// while it builds its stacks (a read of a suspended dm device, 5 s), and
// the checks that the lab reported it and booted again: the notice in
// `output`, the hung boot's blocked tasks in <lab_dir>/hang/dmesg.txt and
// both boots in <lab_dir>/console.log (lab_dir ends with '/').
inline const std::string kHangSetupOnce = "--hang-setup-once";
void ExpectBootedAgainAfterTheHang(const std::string& output,
                                   const std::string& lab_dir);

// The "labels" object of run folder `run_dir`'s manifest.json (empty when
// the file or the object is missing: callers assert on the keys they need).
std::map<std::string, std::string> ManifestLabels(const std::string& run_dir);

// Checks the dilation labels of run folder `run_dir` against the real
// limits the lab was given: lab.dilation present and in [1, 1000], and
// each limit in force (lab.hdd_iops, lab.hdd_bw, lab.ssd_iops, lab.ssd_bw)
// equal to max(1, llround(real / lab.dilation)), a 0 (unthrottled) real
// limit staying 0 (lab/lab_dilation.h). A missing label fails. Stores the
// factor in *dilation (0 when missing).
void ExpectDilatedLimits(const std::string& run_dir, uint64_t hdd_iops,
                         uint64_t hdd_bw, uint64_t ssd_iops, uint64_t ssd_bw,
                         double* dilation);

// A fresh directory under the build tree's temp dir, removed on destruction.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline const std::string kSource = TIERBENCH_SOURCE_DIR;

inline std::string Mode(const std::string& name) {
  return kSource + "/modes/" + name + ".json";
}
inline std::string Workload(const std::string& name) {
  return kSource + "/workloads/" + name + ".fio";
}

// The number in column `col` of `row`. A missing column, an empty value
// (the CSVs leave an unknown value empty) or text that is not a number
// FAILS the calling test (a non-fatal failure naming the column and the
// row's mode, workload, direction, layer and mark where it has them) and
// gives NaN, so every comparison on it is false too:
// EXPECT_LT(Num(r, "x"), bound) cannot pass on missing data. Where an empty
// value is a legitimate answer ("n/a"), ask Has() first.
double Num(const CsvRow& row, const std::string& col);

// True when `row` has column `col` with a non-empty value. Never fails.
bool Has(const CsvRow& row, const std::string& col);

inline std::string Get(const CsvRow& row, const std::string& col) {
  auto it = row.find(col);
  return it == row.end() ? "" : it->second;
}

// The first row of (mode, workload, direction).
inline const CsvRow* Find(const std::vector<CsvRow>& rows,
                          const std::string& mode, const std::string& workload,
                          const std::string& direction) {
  for (const CsvRow& r : rows) {
    if (Get(r, "mode") == mode && Get(r, "workload") == workload &&
        Get(r, "direction") == direction) {
      return &r;
    }
  }
  return nullptr;
}

// A lab test that cannot run skips on a developer's machine, but with
// CI=true it FAILS: CI must not pass with its real-kernel tests skipped.
#define TIERBENCH_LAB_UNAVAILABLE(message)                                \
  do {                                                                    \
    const char* ci_env = getenv("CI");                                    \
    if (ci_env != nullptr && std::string(ci_env) == "true") {             \
      GTEST_FAIL() << "lab unavailable under CI=true (a skip would hide " \
                      "the real-kernel tests): "                          \
                   << message;                                            \
    }                                                                     \
    GTEST_SKIP() << "SKIPPED: lab: " << message;                          \
  } while (0)

#define TIERBENCH_REQUIRE_LAB()                       \
  do {                                                \
    std::string why = LabUnavailableReason();         \
    if (!why.empty()) TIERBENCH_LAB_UNAVAILABLE(why); \
  } while (0)

// Runs the lab; when the kernel package cannot be obtained it skips (fails
// under CI=true), otherwise a wrong exit code fails with the lab's output.
#define TIERBENCH_RUN_LAB(args, expected_rc)                           \
  std::string output;                                                  \
  int rc = RunLab(args, &output);                                      \
  if (rc == 3 && KernelPackageUnavailable(output))                     \
    TIERBENCH_LAB_UNAVAILABLE(                                         \
        "Debian kernel package unobtainable: " +                       \
        output.substr(output.size() > 400 ? output.size() - 400 : 0)); \
  ASSERT_EQ(rc, expected_rc) << output

}  // namespace tierbench::labtest

#endif  // TIERBENCH_TESTS_LAB_LAB_TEST_UTIL_H_
