// What a DB cell records about its host and its server from procfs: the
// host's memory (/proc/meminfo's MemTotal) and the CPU time of a process and
// its children (/proc/<pid>/stat), e.g. a PostgreSQL postmaster and its
// backends. Pure parsers for the two files, and readers that go through a
// Sysfs root (util/sysfs.h) so that tests can give them a fake /proc.
//
// Errors: the parsers and readers return a Status naming the file or the
// field; they never throw. Thread-safety: pure functions; the readers only
// read files.
#ifndef TIERBENCH_DB_PROCESS_CPU_H_
#define TIERBENCH_DB_PROCESS_CPU_H_

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "util/status.h"
#include "util/sysfs.h"

namespace tierbench {

// The fields of one /proc/<pid>/stat line that tierbench uses (proc(5)).
// Times are in clock ticks (sysconf(_SC_CLK_TCK), USER_HZ).
struct ProcStat {
  int64_t pid = 0;      // field 1
  std::string comm;     // field 2, without the parentheses
  char state = '?';     // field 3 ('R', 'S', 'Z', ...)
  int64_t ppid = 0;     // field 4
  uint64_t utime = 0;   // field 14: user time of the process
  uint64_t stime = 0;   // field 15: system time of the process
  uint64_t cutime = 0;  // field 16: user time of its reaped children
  uint64_t cstime = 0;  // field 17: system time of its reaped children
};

// Parses one /proc/<pid>/stat line. comm may hold anything, spaces and
// parentheses included ("x) y (z"): it runs from the first '(' to the LAST
// ')', and the numbered fields are read after that. InvalidArgument naming
// the field when the text is not such a line.
Status ParseProcStat(std::string_view text, ProcStat* out);

// Parses /proc/meminfo text: MemTotal ("MemTotal:  24683756 kB") in bytes.
// InvalidArgument when the line is missing or not "<number> kB".
Status ParseMemTotal(std::string_view meminfo, int64_t* bytes);

// MemTotal of proc/meminfo under `os`, in bytes; -1 when it cannot be read
// or parsed (never 0).
int64_t ReadMemTotalBytes(const Sysfs& os);

// CPU time, in clock ticks, of process `pid` and of its children: the
// process's own utime+stime, its reaped children's (cutime+cstime: a
// backend that exits is counted there once the postmaster has waited for
// it) and utime+stime of every live (or zombie) process under proc/ whose
// parent is `pid`. Read so that a child that is reaped while the children
// are listed is counted once (the parent's cutime+cstime must be equal
// before and after the listing; a few tries). The difference of two such
// readings is the CPU the family used between them, including children
// that started or ended in between. NotFound when proc/<pid>/stat is
// missing; InvalidArgument when it cannot be parsed; Busy when no
// consistent reading could be made.
Status ReadProcessFamilyCpuTicks(const Sysfs& os, pid_t pid, uint64_t* ticks);

// Clock ticks per second (sysconf(_SC_CLK_TCK); 100 when unknown).
int64_t ClockTicksPerSecond();

}  // namespace tierbench

#endif  // TIERBENCH_DB_PROCESS_CPU_H_
