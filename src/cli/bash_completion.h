// BashCompletionScript: the bash completion script of a CLI11 command line,
// generated from its definition (issue 31). `tierbench completion bash`
// prints it; the build writes it to build/completion/tierbench and the
// package installs it as /usr/share/bash-completion/completions/tierbench.
//
// What the script completes, all taken from `app` as defined:
//   - the visible subcommands (one in the group "" is hidden, as in --help)
//     and the options before them;
//   - each subcommand's options, also those of its option groups, by their
//     short and long names (an option in the group "" is left out);
//   - option values: none after a flag; the words of a set when the
//     option's type names one ("{a,b}": CLI11's IsMember check, or a
//     type_name); mode files after --modes and workload files after
//     --workloads: *.json (*.fio, *.json) and folders under the current
//     directory, and the data dir's shipped modes/*.json (workloads/*.fio,
//     *.json, one folder deep) whose name starts with the word, as absolute
//     paths, since --modes and --workloads take paths, not names
//     (`--modes wr` offers .../modes/writeback.json); file names otherwise. A
//     positional argument is completed the same way (a set's words, else file
//     names). An option that takes several values (CLI11 vector options that
//     allow extra arguments, e.g. --modes a b) keeps completing values until
//     the next word that starts with '-'.
// The data dir (util/data_dir.h) is asked at completion time of the very
// binary being completed, `<the command's word> completion --data-dir`
// (kCompletionDataDirFlag), only to complete a --modes or --workloads
// value and then once per binary, working directory and
// $TIERBENCH_DATA_DIR: the script holds no path of its own, so one script
// serves a checkout's build and an installed binary alike.
// The script uses bash builtins only (compgen, compopt, mapfile; bash 4
// or later), not bash-completion's helpers, and defines the shell functions
// _tierbench*, the variables _tierbench_data_* (the cached data dir) and
// `complete -F _tierbench <app name>`.
// Thread-safety: pure (reads `app` only).
#ifndef TIERBENCH_CLI_BASH_COMPLETION_H_
#define TIERBENCH_CLI_BASH_COMPLETION_H_

#include <CLI/CLI.hpp>
#include <string>

namespace tierbench {

// The flag of `tierbench completion` that prints the data dir.
inline constexpr const char* kCompletionDataDirFlag = "--data-dir";

std::string BashCompletionScript(const CLI::App& app);

}  // namespace tierbench

#endif  // TIERBENCH_CLI_BASH_COMPLETION_H_
