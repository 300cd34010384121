// Helpers of the lab tests (tierbench_lab_tests): they run the real
// `tierbench lab` (a QEMU guest with Debian's kernel and real bcache) as a
// black box and read the CSVs it brings back.
#ifndef TIERBENCH_TESTS_LAB_LAB_TEST_UTIL_H_
#define TIERBENCH_TESTS_LAB_LAB_TEST_UTIL_H_

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

// Runs `tierbench lab <args>` to completion; returns its exit status and
// stores stdout+stderr in *output.
int RunLab(const std::vector<std::string>& args, std::string* output);

// A CSV file as rows of column name -> value (RFC 4180 quoting).
using CsvRow = std::map<std::string, std::string>;
std::vector<CsvRow> ReadCsv(const std::string& path);

// The whole text of `path` ("" when unreadable).
std::string ReadText(const std::string& path);

// A fresh directory under the build tree's temp dir, removed on destruction.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace tierbench::labtest

#endif  // TIERBENCH_TESTS_LAB_LAB_TEST_UTIL_H_
