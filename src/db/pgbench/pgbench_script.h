// Scripts in pgbench's script language, parsed once before a run: the
// built-in scripts (as pgbench 15 defines them, e.g. tpcb-like is four
// `\set ... random(...)` lines and seven SQL commands) and -f files.
//
// Supported (pgbench 15 semantics):
//   SQL commands, ended by ';' outside quotes (they may span lines), the
//     last one may lack the ';'; `--` comments; `:name` is the value of a
//     variable (text in simple mode, a $n parameter in extended / prepared
//     mode; `::` casts are left alone).
//   \set name expression    (db/pgbench/pgbench_expr.h)
//   \sleep n [us|ms|s]      n an integer or :variable; default unit s
//   \if expr / \elif expr / \else / \endif   (nesting checked at load;
//     an expression is true when non-zero / true, false when NULL)
// Other meta-commands (\gset, \shell, ...) are refused.
//
// Predefined variables: scale, client_id, random_seed, default_seed, plus
// -D NAME=VALUE.
// A variable used before any `\set` of it in the same script, that is not
// predefined, is refused when the script is loaded (pgbench fails at run
// time): ConfigError "<file>:<line>: undefined variable ..." (exit 2).
//
// Thread-safety: a ScriptSet is built once, then only read (shared by all
// worker threads).
#ifndef TIERBENCH_DB_PGBENCH_PGBENCH_SCRIPT_H_
#define TIERBENCH_DB_PGBENCH_PGBENCH_SCRIPT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "db/pgbench/pgbench_builtin.h"
#include "db/pgbench/pgbench_expr.h"

namespace tierbench {

enum class ScriptCommandType { kSql, kSet, kSleep, kIf, kElif, kElse, kEndif };

struct ScriptCommand {
  ScriptCommandType type = ScriptCommandType::kSql;
  int line = 0;            // 1-based line of the command in its script
  std::string first_line;  // what -r prints
  // kSql: the text with $1..$n, the variable slot of each $n, and the text
  // around the variables (pieces.size() == params.size() + 1) for simple
  // mode.
  std::string sql;
  std::vector<int> params;
  std::vector<std::string> pieces;
  // kSet (and the condition of kIf / kElif)
  int set_slot = -1;
  std::shared_ptr<const ExprNode> expr;
  // kIf / kElif / kElse: the next branch of the same \if (\elif, \else
  // or \endif) and its \endif (command indices).
  int next_branch = -1;
  int endif = -1;
  // kSleep: a constant or a variable, times the unit in microseconds.
  int sleep_slot = -1;
  int64_t sleep_value = 0;
  int64_t sleep_unit_us = 1000000;
};

struct PgScript {
  std::string desc;  // "<builtin: TPC-B (sort of)>" or the file name
  int weight = 1;
  bool writes = false;  // has SQL other than SELECT / BEGIN / END / ...
  std::vector<ScriptCommand> commands;
};

struct ScriptSet {
  ScriptSet();
  VariableTable vars;
  std::vector<PgScript> scripts;
  int64_t total_weight = 0;
  int scale_slot = -1;
  int client_id_slot = -1;
  int random_seed_slot = -1;
  int default_seed_slot = -1;                    // hash()'s default seed
  std::vector<std::pair<int, PgValue>> defines;  // -D, slot -> value

  // -D NAME=VALUE; call before adding scripts. Throws ConfigError.
  void Define(const std::string& assignment);
  // Appends a built-in script / a script file (throws ConfigError: file
  // unreadable, syntax, undefined variable, unsupported meta-command).
  void AddBuiltin(Builtin b, int weight);
  void AddFile(const std::string& path, int weight);
  // Appends the script in `text`; `origin` names it in errors.
  void AddText(const std::string& text, const std::string& origin,
               const std::string& desc, int weight);
  // Checks the total weight (> 0) after all scripts are added.
  void Finish();
  // True when any script writes.
  bool AnyWrites() const;
};

// Splits "NAME[@WEIGHT]" as pgbench's -b and -f do; weight default 1, an
// integer 0..2^31-1. Throws ConfigError naming `option`.
void SplitScriptWeight(const std::string& arg, const char* option,
                       std::string* name, int* weight);

// pgbench 15's text of a built-in script.
std::string BuiltinScriptText(Builtin b);

// The SQL text of `cmd` with every variable replaced by its value (simple
// query mode).
std::string RenderSql(const ScriptCommand& cmd,
                      const std::vector<PgValue>& vars);

}  // namespace tierbench

#endif  // TIERBENCH_DB_PGBENCH_PGBENCH_SCRIPT_H_
