#include "db/pgbench/pgbench_script.h"

#include <strings.h>

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "util/errors.h"

namespace tierbench {

namespace {

bool IsNameStartChar(char c) {
  return (static_cast<unsigned char>(c) & 0x80) != 0 ||
         std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool IsNameChar(char c) {
  return IsNameStartChar(c) || std::isdigit(static_cast<unsigned char>(c));
}

std::string Trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string FirstLine(const std::string& s) {
  return Trim(s.substr(0, s.find('\n')));
}

// Statements that do not change data: a script made only of these reads.
bool SqlWrites(const std::string& sql) {
  size_t e = 0;
  while (e < sql.size() && std::isalpha(static_cast<unsigned char>(sql[e]))) {
    ++e;
  }
  const std::string word = sql.substr(0, e);
  for (const char* ro : {"select", "begin", "end", "commit", "start",
                         "rollback", "show", "set", "values"}) {
    if (strcasecmp(word.c_str(), ro) == 0) return false;
  }
  return true;
}

// Parses one script; keeps track of which variables are set so far.
class ScriptParser {
 public:
  ScriptParser(ScriptSet* set, const std::string& origin)
      : set_(set), origin_(origin) {
    for (int slot : {set->scale_slot, set->client_id_slot,
                     set->random_seed_slot, set->default_seed_slot}) {
      defined_.insert(set->vars.Name(slot));
    }
    for (const auto& [slot, value] : set->defines) {
      defined_.insert(set->vars.Name(slot));
    }
  }

  void Parse(const std::string& text, PgScript* script) {
    script_ = script;
    size_t i = 0;
    int line = 1;
    const size_t n = text.size();
    while (i < n) {
      // Skip blanks and comment lines between commands.
      const char c = text[i];
      if (c == '\n') {
        ++line;
        ++i;
        continue;
      }
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
        continue;
      }
      if (c == '-' && i + 1 < n && text[i + 1] == '-') {
        while (i < n && text[i] != '\n') ++i;
        continue;
      }
      const int start_line = line;
      if (c == '\\') {
        std::string meta;
        while (i < n && text[i] != '\n') {
          // A backslash at the end of a line continues the command.
          if (text[i] == '\\' && i + 1 < n && text[i + 1] == '\n' &&
              !meta.empty()) {
            i += 2;
            ++line;
            meta += ' ';
            continue;
          }
          meta += text[i++];
        }
        script->commands.push_back(Meta(Trim(meta), start_line));
        continue;
      }
      std::string sql;
      char quote = 0;
      bool ended = false;
      while (i < n) {
        const char d = text[i];
        if (quote) {
          if (d == quote) quote = 0;
        } else if (d == '\'' || d == '"') {
          quote = d;
        } else if (d == '-' && i + 1 < n && text[i + 1] == '-') {
          while (i < n && text[i] != '\n') ++i;
          continue;
        } else if (d == ';') {
          sql += d;
          ++i;
          ended = true;
          break;
        }
        if (d == '\n') ++line;
        sql += d;
        ++i;
      }
      if (quote && !ended) {
        Fail(start_line, "unterminated quoted string",
             "close the quote and end the command with ';'");
      }
      script->commands.push_back(Sql(Trim(sql), start_line));
    }
    if (script->commands.empty()) {
      Fail(line, "the script contains no command",
           "add SQL commands or \\set/\\sleep lines");
    }
    if (!open_ifs_.empty()) {
      Fail(script->commands[open_ifs_.back().front()].line,
           "\\if without matching \\endif", "close it with \\endif");
    }
  }

 private:
  [[noreturn]] void Fail(int line, const std::string& what,
                         const std::string& fix) {
    throw ConfigError(origin_ + ":" + std::to_string(line) + ": " + what +
                      " (pgbench script). Fix: " + fix);
  }

  void Use(const std::string& name, int line) {
    if (defined_.count(name) == 0) {
      Fail(line, "undefined variable \"" + name + "\"",
           "\\set " + name + " ... on an earlier line, or pass -D " + name +
               "=VALUE");
    }
  }

  ScriptCommand Sql(const std::string& text, int line) {
    ScriptCommand cmd;
    cmd.type = ScriptCommandType::kSql;
    cmd.line = line;
    cmd.first_line = FirstLine(text);
    std::string body = text;
    if (!body.empty() && body.back() == ';') body.pop_back();
    body = Trim(body);
    std::string piece;
    for (size_t i = 0; i < body.size();) {
      if (body[i] != ':') {
        piece += body[i++];
        continue;
      }
      if (i + 1 < body.size() && IsNameStartChar(body[i + 1])) {
        size_t e = i + 1;
        while (e < body.size() && IsNameChar(body[e])) ++e;
        const std::string name = body.substr(i + 1, e - i - 1);
        Use(name, line);
        cmd.pieces.push_back(piece);
        piece.clear();
        cmd.params.push_back(set_->vars.Slot(name));
        i = e;
        continue;
      }
      // "::type" and other colons stay as they are.
      while (i < body.size() && body[i] == ':') {
        piece += ':';
        ++i;
      }
    }
    cmd.pieces.push_back(piece);
    // Rebuild the $n text: pieces interleaved with $1..$n.
    cmd.sql.clear();
    for (size_t k = 0; k < cmd.pieces.size(); ++k) {
      cmd.sql += cmd.pieces[k];
      if (k < cmd.params.size()) cmd.sql += "$" + std::to_string(k + 1);
    }
    return cmd;
  }

  ScriptCommand Meta(const std::string& text, int line) {
    ScriptCommand cmd;
    cmd.line = line;
    cmd.first_line = text;
    std::istringstream words(text.substr(1));
    std::string name;
    words >> name;
    if (strcasecmp(name.c_str(), "set") == 0) {
      std::string var;
      words >> var;
      if (!IsVariableName(var)) {
        Fail(line, "\\set needs a valid variable name, got \"" + var + "\"",
             "\\set name expression");
      }
      std::string rest;
      std::getline(words, rest);
      if (Trim(rest).empty()) {
        Fail(line, "missing expression after \\set " + var,
             "\\set " + var + " expression");
      }
      std::vector<std::string> used;
      std::unique_ptr<ExprNode> expr;
      Status st = ParseExpression(rest, &set_->vars, &expr, &used);
      if (!st.ok()) {
        Fail(line, "\\set " + var + ": " + st.message(),
             "see pgbench's expression syntax");
      }
      for (const auto& u : used) Use(u, line);
      cmd.type = ScriptCommandType::kSet;
      cmd.set_slot = set_->vars.Slot(var);
      cmd.expr = std::move(expr);
      defined_.insert(var);
      return cmd;
    }
    if (strcasecmp(name.c_str(), "sleep") == 0) {
      std::string arg, unit, extra;
      words >> arg >> unit >> extra;
      cmd.type = ScriptCommandType::kSleep;
      if (arg.empty() || !extra.empty()) {
        Fail(line, "\\sleep takes a duration and an optional unit",
             "\\sleep 10 ms");
      }
      if (arg[0] == ':') {
        const std::string var = arg.substr(1);
        if (!IsVariableName(var)) {
          Fail(line, "invalid variable \"" + arg + "\" in \\sleep",
               "\\sleep :name [us|ms|s]");
        }
        Use(var, line);
        cmd.sleep_slot = set_->vars.Slot(var);
      } else {
        errno = 0;
        char* end = nullptr;
        long long v = std::strtoll(arg.c_str(), &end, 10);
        if (errno != 0 || *end != '\0' || v < 0) {
          Fail(line, "invalid sleep time \"" + arg + "\", must be an integer",
               "\\sleep 10 ms");
        }
        cmd.sleep_value = v;
      }
      if (unit.empty() || strcasecmp(unit.c_str(), "s") == 0) {
        cmd.sleep_unit_us = 1000000;
      } else if (strcasecmp(unit.c_str(), "ms") == 0) {
        cmd.sleep_unit_us = 1000;
      } else if (strcasecmp(unit.c_str(), "us") == 0) {
        cmd.sleep_unit_us = 1;
      } else {
        Fail(line, "unrecognized time unit \"" + unit + "\" in \\sleep",
             "use us, ms or s");
      }
      return cmd;
    }
    for (const char* kw : {"if", "elif", "else", "endif"}) {
      if (strcasecmp(name.c_str(), kw) == 0) return Conditional(kw, words, cmd);
    }
    Fail(line, "unsupported meta-command \"\\" + name + "\"",
         "tierbench supports \\set, \\sleep and \\if/\\elif/\\else/"
         "\\endif");
  }

  // \if / \elif / \else / \endif: checks the nesting and links each branch
  // to the next one of the same \if and all of them to its \endif.
  ScriptCommand Conditional(const std::string& kw, std::istringstream& words,
                            ScriptCommand& cmd) {
    const int index = static_cast<int>(script_->commands.size());
    const int line = cmd.line;
    std::string rest;
    std::getline(words, rest);
    const bool has_expr = kw == "if" || kw == "elif";
    if (has_expr && Trim(rest).empty()) {
      Fail(line, "missing expression after \\" + kw, "\\" + kw + " expression");
    }
    if (!has_expr && !Trim(rest).empty()) {
      Fail(line, "unexpected argument to \\" + kw, "\\" + kw + " alone");
    }
    if (has_expr) {
      std::vector<std::string> used;
      std::unique_ptr<ExprNode> expr;
      Status st = ParseExpression(rest, &set_->vars, &expr, &used);
      if (!st.ok()) {
        Fail(line, "\\" + kw + ": " + st.message(),
             "see pgbench's expression syntax");
      }
      for (const auto& u : used) Use(u, line);
      cmd.expr = std::move(expr);
    }
    if (kw == "if") {
      cmd.type = ScriptCommandType::kIf;
      open_ifs_.push_back({index});
      else_seen_.push_back(false);
      return cmd;
    }
    if (open_ifs_.empty()) {
      Fail(line, "\\" + kw + " without matching \\if", "add an \\if before it");
    }
    if (else_seen_.back() && kw != "endif") {
      Fail(line, "\\" + kw + " after \\else", "\\else must be the last branch");
    }
    std::vector<int>& branches = open_ifs_.back();
    script_->commands[static_cast<size_t>(branches.back())].next_branch = index;
    if (kw == "endif") {
      cmd.type = ScriptCommandType::kEndif;
      for (int b : branches) {
        script_->commands[static_cast<size_t>(b)].endif = index;
      }
      open_ifs_.pop_back();
      else_seen_.pop_back();
      return cmd;
    }
    cmd.type =
        kw == "elif" ? ScriptCommandType::kElif : ScriptCommandType::kElse;
    else_seen_.back() = kw == "else";
    branches.push_back(index);
    return cmd;
  }

  ScriptSet* set_;
  std::string origin_;
  std::set<std::string> defined_;
  PgScript* script_ = nullptr;
  std::vector<std::vector<int>> open_ifs_;  // branches of each open \if
  std::vector<bool> else_seen_;
};

}  // namespace

ScriptSet::ScriptSet() {
  scale_slot = vars.Slot("scale");
  client_id_slot = vars.Slot("client_id");
  random_seed_slot = vars.Slot("random_seed");
  default_seed_slot = vars.Slot("default_seed");
}

void ScriptSet::Define(const std::string& assignment) {
  const size_t eq = assignment.find('=');
  const std::string name = assignment.substr(0, eq);
  if (eq == std::string::npos || !IsVariableName(name)) {
    throw ConfigError("invalid -D/--define '" + assignment +
                      "'. Fix: -D NAME=VALUE with a valid variable name");
  }
  const int slot = vars.Slot(name);
  for (auto& d : defines) {
    if (d.first == slot) {
      d.second = PgValue::FromText(assignment.substr(eq + 1));
      return;
    }
  }
  defines.emplace_back(slot, PgValue::FromText(assignment.substr(eq + 1)));
}

void ScriptSet::AddText(const std::string& text, const std::string& origin,
                        const std::string& desc, int weight) {
  PgScript script;
  script.desc = desc;
  script.weight = weight;
  ScriptParser(this, origin).Parse(text, &script);
  for (const auto& c : script.commands) {
    if (c.type == ScriptCommandType::kSql && SqlWrites(c.sql)) {
      script.writes = true;
    }
  }
  total_weight += weight;
  scripts.push_back(std::move(script));
}

void ScriptSet::AddBuiltin(Builtin b, int weight) {
  AddText(BuiltinScriptText(b), std::string("builtin ") + BuiltinName(b),
          std::string("<builtin: ") + BuiltinDescription(b) + ">", weight);
}

void ScriptSet::AddFile(const std::string& path, int weight) {
  std::ifstream in(path);
  if (!in) {
    throw ConfigError("cannot read script file. File: " + path + "; SysErr: " +
                      std::strerror(errno) + "; Fix: check the -f path");
  }
  std::stringstream text;
  text << in.rdbuf();
  AddText(text.str(), path, path, weight);
}

void ScriptSet::Finish() {
  if (scripts.empty()) AddBuiltin(Builtin::kTpcbLike, 1);
  if (total_weight <= 0) {
    throw ConfigError(
        "total script weight must not be zero. Fix: give at least one "
        "script a weight > 0 (NAME@WEIGHT)");
  }
}

bool ScriptSet::AnyWrites() const {
  for (const auto& s : scripts) {
    if (s.writes) return true;
  }
  return false;
}

void SplitScriptWeight(const std::string& arg, const char* option,
                       std::string* name, int* weight) {
  const size_t at = arg.rfind('@');
  *name = arg.substr(0, at);
  *weight = 1;
  if (at == std::string::npos) return;
  const std::string w = arg.substr(at + 1);
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(w.c_str(), &end, 10);
  if (w.empty() || *end != '\0' || errno != 0 || v < 0 || v > INT_MAX) {
    throw ConfigError(std::string("invalid weight specification in ") + option +
                      " '" + arg +
                      "'. Fix: NAME@WEIGHT with an integer weight >= 0");
  }
  *weight = static_cast<int>(v);
}

std::string BuiltinScriptText(Builtin b) {
  const std::string sets =
      "\\set aid random(1, 100000 * :scale)\n"
      "\\set bid random(1, 1 * :scale)\n"
      "\\set tid random(1, 10 * :scale)\n"
      "\\set delta random(-5000, 5000)\n";
  const std::string update_accounts =
      "UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = "
      ":aid;\n";
  const std::string select_account =
      "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n";
  const std::string insert_history =
      "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES "
      "(:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);\n";
  switch (b) {
    case Builtin::kTpcbLike:
      return "-- tpcb-like\n" + sets + "BEGIN;\n" + update_accounts +
             select_account +
             "UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE "
             "tid = :tid;\n"
             "UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE "
             "bid = :bid;\n" +
             insert_history + "END;\n";
    case Builtin::kSimpleUpdate:
      return "-- simple-update\n" + sets + "BEGIN;\n" + update_accounts +
             select_account + insert_history + "END;\n";
    case Builtin::kSelectOnly:
      return "-- select-only\n\\set aid random(1, 100000 * :scale)\n" +
             select_account;
  }
  return "";
}

std::string RenderSql(const ScriptCommand& cmd,
                      const std::vector<PgValue>& vars) {
  std::string out = cmd.pieces[0];
  for (size_t k = 0; k < cmd.params.size(); ++k) {
    out += ValueText(vars[static_cast<size_t>(cmd.params[k])]);
    out += cmd.pieces[k + 1];
  }
  return out;
}

}  // namespace tierbench
