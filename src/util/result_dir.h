// ResultDir: the folder of a compare run (<results>/<run-id>/) as its
// reporters write it: created on construction, every file written whole
// through a temporary file and a rename, so a reader (or an interrupted
// run) never sees a half-written file.
//
// WriteFileAtomically() is the same write for any path (also used by
// `tierbench report`, present/pages/report_writer.h).
// Errors: SysError naming the directory or file, with `Fix:`. Thread-safe
// for distinct files.
#ifndef TIERBENCH_UTIL_RESULT_DIR_H_
#define TIERBENCH_UTIL_RESULT_DIR_H_

#include <filesystem>
#include <string>

namespace tierbench {

// Writes `content` to `path` through `path`.tmp and a rename. Throws
// SysError naming the file, ending with ". Fix: " + `fix` when it cannot
// be written.
void WriteFileAtomically(const std::filesystem::path& path,
                         const std::string& content, const std::string& fix);

class ResultDir {
 public:
  // Creates `dir` (and parents; an existing one is fine). Throws SysError
  // naming it and --results.
  explicit ResultDir(std::string dir);

  const std::string& dir() const { return dir_; }
  // `file` inside the folder.
  std::string Path(const std::string& file) const;
  // Replaces `file` with `content` (WriteFileAtomically).
  void Write(const std::string& file, const std::string& content) const;

 private:
  std::string dir_;
};

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_RESULT_DIR_H_
