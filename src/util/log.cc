#include "util/log.h"

#include <unistd.h>

#include <atomic>
#include <mutex>

namespace tierbench {
namespace {

std::atomic<bool> g_quiet{false};
std::mutex g_mu;
bool g_progress_shown = false;  // Guarded by g_mu.

void WriteAll(const std::string& s) {
  size_t off = 0;
  while (off < s.size()) {
    ssize_t n = ::write(STDERR_FILENO, s.data() + off, s.size() - off);
    if (n <= 0) return;
    off += static_cast<size_t>(n);
  }
}

void Emit(const std::string& line) {
  std::lock_guard<std::mutex> lock(g_mu);
  std::string out;
  if (g_progress_shown) {
    out = "\r\033[K";
    g_progress_shown = false;
  }
  out += line;
  out += '\n';
  WriteAll(out);
}

}  // namespace

void LogNotice(const std::string& msg) {
  if (!g_quiet.load()) Emit("tierbench: notice: " + msg);
}
void LogWarning(const std::string& msg) { Emit("tierbench: warning: " + msg); }
void LogError(const std::string& msg) { Emit("tierbench: " + msg); }
void SetQuiet(bool quiet) { g_quiet.store(quiet); }
bool IsQuiet() { return g_quiet.load(); }

bool StderrIsTerminal() { return ::isatty(STDERR_FILENO) == 1; }

void DrawProgressLine(const std::string& line) {
  if (!StderrIsTerminal()) return;
  std::lock_guard<std::mutex> lock(g_mu);
  WriteAll("\r\033[K" + line);
  g_progress_shown = true;
}

void ClearProgressLine() {
  if (!StderrIsTerminal()) return;
  std::lock_guard<std::mutex> lock(g_mu);
  if (g_progress_shown) WriteAll("\r\033[K");
  g_progress_shown = false;
}

}  // namespace tierbench
