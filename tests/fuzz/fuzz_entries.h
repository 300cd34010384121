// The parser entry points the fuzz targets drive (scripts/fuzz), shared with
// the regression test (tests/unit/fuzz_regressions_test.cc) so both feed an
// input through exactly the same code.
//
// Contract of every entry: parse `data` with the production parser. A
// rejection is fine when it is the parser's documented error -- a
// ConfigError (job files, mode and DB workload JSON, iologs, block traces,
// pgbench scripts)
// or a failed Status (sysfs and dm status values, dm-log-writes logs) -- with
// a message that is one non-empty line (a line break or an empty message is
// reported as a bug: FuzzBug is thrown). Any other exception escapes
// (std::out_of_range, ...), which libFuzzer reports as a crash and the
// regression test as a failure. Entries never touch devices; they read no files
// except what the input names (a job file's include); write_log works on
// memfds.
#ifndef TIERBENCH_TESTS_FUZZ_FUZZ_ENTRIES_H_
#define TIERBENCH_TESTS_FUZZ_FUZZ_ENTRIES_H_

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tierbench {

// A documented error whose message breaks the one-line contract.
class FuzzBug : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

struct FuzzEntry {
  const char* name;  // target name: scripts/fuzz, tests/fuzz/regressions/NAME
  void (*run)(std::string_view data);
};

// Every target, in a stable order.
const std::vector<FuzzEntry>& FuzzEntries();
// The entry named `name`, or nullptr.
const FuzzEntry* FindFuzzEntry(std::string_view name);

}  // namespace tierbench

#endif  // TIERBENCH_TESTS_FUZZ_FUZZ_ENTRIES_H_
