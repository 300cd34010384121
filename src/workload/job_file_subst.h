// Substitutions fio makes in a job-file option line before parsing it
// (fio's fio_option_dup_subs and fio_keyword_replace):
//  - ${VARNAME} becomes the value of the environment variable VARNAME; an
//    unset variable becomes the empty string, as in fio (the note then names
//    it, so a resulting parse error can say why the value is empty). A bare
//    $VARNAME is left as written (fio expands only the braced form).
//  - the reserved keywords $pagesize, $mb_memory and $ncpus become the page
//    size, the megabytes of physical memory and the number of configured CPUs.
// fio's arithmetic on the result (through bc) is not done: such a value is
// then refused by the option's own parser.
//
// Pure apart from reading the environment and sysconf; thread-safe.
#ifndef TIERBENCH_WORKLOAD_JOB_FILE_SUBST_H_
#define TIERBENCH_WORKLOAD_JOB_FILE_SUBST_H_

#include <string>
#include <string_view>

namespace tierbench {

struct ExpandedLine {
  std::string text;
  std::string note;  // "${SIZE} is unset" or "" when nothing was unset/empty
};

ExpandedLine ExpandLine(std::string_view line);

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_JOB_FILE_SUBST_H_
