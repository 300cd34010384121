// libFuzzer driver of one target of fuzz_entries.h; the build names it with
// TIERBENCH_FUZZ_TARGET ("job_file", ...). Anything that escapes the entry
// (an unexpected exception, a FuzzBug) aborts, which libFuzzer reports as a
// crash and saves the input.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>

#include "fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const tierbench::FuzzEntry* entry =
      tierbench::FindFuzzEntry(TIERBENCH_FUZZ_TARGET);
  if (entry == nullptr) {
    std::fprintf(stderr, "fuzz: no target %s\n", TIERBENCH_FUZZ_TARGET);
    std::abort();
  }
  try {
    entry->run(std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz %s: unexpected exception: %s\n",
                 TIERBENCH_FUZZ_TARGET, e.what());
    std::abort();
  }
  return 0;
}
