// DataDir: where tierbench's shipped files are (modes/, workloads/ and the
// lab guest's scripts/lab), for a binary run from a checkout's build tree
// and for an installed one alike.
//
// The places, in order; the first holding a modes/ folder wins:
//   1. $TIERBENCH_DATA_DIR, when set (then only it: a wrong value makes
//      the callers' "file not found" errors name it, never a silent
//      fallback);
//   2. <dir of the running binary>/../share/tierbench (an installed tree:
//      /usr/bin/tierbench -> /usr/share/tierbench, also under a scratch
//      root or another prefix);
//   3. the source tree the binary was built from (TIERBENCH_SOURCE_DIR);
//   4. the install prefix's data dir the build was configured with
//      (TIERBENCH_INSTALL_DATA_DIR: CMAKE_INSTALL_PREFIX's, /usr/local by
//      default; the .deb's /usr/bin/tierbench finds /usr/share/tierbench
//      by 2).
// Thread-safe (reads the environment and the file system only).
#ifndef TIERBENCH_UTIL_DATA_DIR_H_
#define TIERBENCH_UTIL_DATA_DIR_H_

#include <string>
#include <vector>

namespace tierbench {

struct DataDirLookup {
  std::string dir;  // the one found; "" when none holds modes/
  // Every place looked at, in order (for `tierbench list` and messages).
  std::vector<std::string> looked;
};

DataDirLookup FindDataDir();

// FindDataDir().dir; when none was found, $TIERBENCH_DATA_DIR if set, else
// the source tree (the callers' own "file not found" errors then name it).
std::string DataDir();

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_DATA_DIR_H_
