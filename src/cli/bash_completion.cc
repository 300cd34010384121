#include "cli/bash_completion.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "cli/command_line.h"

namespace tierbench {
namespace {

// The words of the "{a,b,...}" part of a CLI11 type name ("TEXT:{a,b}",
// "{bash}"); none when it has none, or when a word holds a character that
// the script's word lists do not quote (only [A-Za-z0-9._+@%-] pass).
std::vector<std::string> BashSetWords(const std::string& type) {
  const size_t open = type.find('{');
  if (open == std::string::npos || (open > 0 && type[open - 1] != ':')) {
    return {};
  }
  const size_t close = type.find('}', open);
  if (close == std::string::npos ||
      (close + 1 < type.size() && type[close + 1] != ':')) {
    return {};
  }
  std::vector<std::string> words;
  std::string word;
  for (size_t i = open + 1; i <= close; ++i) {
    const char c = type[i];
    if (c == ',' || c == '}') {
      if (word.empty()) return {};
      words.push_back(word);
      word.clear();
    } else if (std::isalnum(static_cast<unsigned char>(c)) ||
               (c != '\0' && std::strchr("._+@%-", c) != nullptr)) {
      word += c;
    } else {
      return {};
    }
  }
  return words;
}

// Whether CLI11's type name is a number's ("INT:POSITIVE", "FLOAT",
// "UINT:INT in [1 - 64]", "US:INT in [0 - 2000000000]"): nothing to offer.
bool BashNumberType(const std::string& type) {
  const std::string head = type.substr(0, type.find(':'));
  if (head == "INT" || head == "UINT" || head == "FLOAT" || head == "NUMBER") {
    return true;
  }
  return type.find(":INT") != std::string::npos ||
         type.find(":FLOAT") != std::string::npos ||
         type.find(":POSITIVE") != std::string::npos ||
         type.find(":NONNEGATIVE") != std::string::npos;
}

// What the script completes after `opt` (the values _tierbench_value
// sets): "" for a flag, else "files", "modes", "workloads" or "words W
// ..." (no word at all for a number), with a leading '+' when the option
// takes several values.
std::string BashValueKind(const CLI::Option& opt) {
  if (opt.get_expected_max() == 0) return "";
  const bool multi = opt.get_expected_max() > 1 && opt.get_allow_extra_args();
  const std::vector<std::string>& longs = opt.get_lnames();
  auto named = [&longs](const char* name) {
    return std::find(longs.begin(), longs.end(), name) != longs.end();
  };
  std::string kind = "files";
  const std::vector<std::string> words = BashSetWords(opt.get_type_name());
  if (!words.empty()) {
    kind = "words";
    for (const std::string& w : words) kind += " " + w;
  } else if (BashNumberType(opt.get_type_name())) {
    kind = "words";
  } else if (named("modes")) {
    kind = "modes";
  } else if (named("workloads")) {
    kind = "workloads";
  }
  return (multi ? "+" : "") + kind;
}

std::vector<std::string> BashOptionNames(const CLI::Option& opt) {
  std::vector<std::string> names;
  for (const std::string& s : opt.get_snames()) names.push_back("-" + s);
  for (const std::string& l : opt.get_lnames()) names.push_back("--" + l);
  return names;
}

// `words` joined by `sep`, with `line_end`, a line break and `indent`
// before a word that would pass column 79 (`column`: where the first word
// starts; `tail`: the width of what follows the last word).
std::string BashWrap(const std::vector<std::string>& words,
                     const std::string& sep, const std::string& line_end,
                     const std::string& indent, size_t column,
                     size_t tail = 0) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) {
    const size_t after = i + 1 == words.size() ? tail : line_end.size();
    if (i > 0) {
      if (column + sep.size() + words[i].size() + after > 79) {
        out += line_end + "\n" + indent;
        column = indent.size();
      } else {
        out += sep;
        column += sep.size();
      }
    }
    out += words[i];
    column += words[i].size();
  }
  return out;
}

// One command's branch of _tierbench_options and _tierbench_value.
struct BashCommand {
  std::string name;  // "" for the options before a command
  std::vector<std::string> options;
  // (kind, option names) in the order the kinds first appear; positional
  // arguments are named @arg.
  std::vector<std::pair<std::string, std::vector<std::string>>> values;
};

BashCommand DescribeForBash(const CLI::App& cmd, const std::string& name) {
  BashCommand c;
  c.name = name;
  for (const CLI::Option* o : CommandOptions(cmd, /*with_hidden=*/false)) {
    std::vector<std::string> names = BashOptionNames(*o);
    std::erase_if(names, [&c](const std::string& n) {
      return std::find(c.options.begin(), c.options.end(), n) !=
             c.options.end();
    });
    std::string kind = BashValueKind(*o);
    if (names.empty()) {  // a positional
      if (!o->get_positional()) continue;
      names = {"@arg"};
      if (!kind.empty() && kind[0] == '+') kind.erase(0, 1);
    } else {
      c.options.insert(c.options.end(), names.begin(), names.end());
    }
    if (kind.empty()) continue;
    auto it = std::find_if(c.values.begin(), c.values.end(),
                           [&kind](const auto& v) { return v.first == kind; });
    if (it == c.values.end()) {
      c.values.push_back({kind, {}});
      it = c.values.end() - 1;
    }
    it->second.insert(it->second.end(), names.begin(), names.end());
  }
  return c;
}

constexpr const char* kBashTemplate =
    R"bash(# bash completion for @PROG@, generated by `@PROG@ completion bash` from
# @PROG@'s command-line definition: regenerate it rather than edit it.
#   this shell:      source <(@PROG@ completion bash)
#   every shell:     @PROG@ completion bash \
#                      > ~/.local/share/bash-completion/completions/@PROG@
# (the Debian package installs it in /usr/share/bash-completion/completions).
# Completes the commands, each command's options and their values: a set's
# words, mode and workload files (also the shipped ones of the data dir that
# `@PROG@ completion @FLAG@` names), else file names. Only bash builtins
# are used (bash 4 or later); the bash-completion package is not needed.

# _tierbench_options COMMAND: _tierbench_r = COMMAND's options ('' names the
# options before a command).
_tierbench_options() {
  case $1 in
@OPTIONS@
    *) _tierbench_r= ;;
  esac
}

# _tierbench_value COMMAND OPTION: _tierbench_r = what OPTION's value is:
# files, modes, workloads or 'words W...', with a leading + when the option
# takes several values; empty for a flag. OPTION @arg: the positional ones.
_tierbench_value() {
  _tierbench_r=
  case $1 in
@VALUES@
  esac
}

# _tierbench_files PATTERN...: the folders, and the files matching a
# PATTERN, under the current word (all files without a PATTERN).
_tierbench_files() {
  local p
  compopt -o filenames 2>/dev/null
  if (($# == 0)); then
    mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$cur")
    return 0
  fi
  mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -d -- "$cur")
  for p in "$@"; do
    mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY \
      < <(compgen -f -X "!$p" -- "$cur")
  done
}

# _tierbench_shipped FOLDER PATTERN...: the data dir's FOLDER/PATTERN files
# whose path under FOLDER starts with the current word, as absolute paths.
# The data dir is asked of the binary being completed, once per binary,
# working directory and $TIERBENCH_DATA_DIR.
_tierbench_shipped() {
  local bin=${COMP_WORDS[0]} folder=$1 dir f p key
  shift
  bin=${bin/#\~/$HOME}
  key="$PWD|$bin|${TIERBENCH_DATA_DIR-}"
  if [[ $key != "${_tierbench_data_key-}" ]]; then
    _tierbench_data_key=$key
    _tierbench_data_dir=$("$bin" completion @FLAG@ 2>/dev/null) ||
      _tierbench_data_dir=
  fi
  dir=$_tierbench_data_dir/$folder
  [[ -n $_tierbench_data_dir && -d $dir ]] || return 0
  compopt -o filenames 2>/dev/null
  for p in "$@"; do
    while IFS= read -r f; do
      [[ -f $f && ${f#"$dir"/} == "$cur"* ]] && COMPREPLY+=("$f")
    done < <(compgen -G "$dir/$p")
  done
}

_tierbench() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev= cmd= cmdi=0 opt= last= lasti=0
  local i w kind pre= _tierbench_r
  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
  COMPREPLY=()
  # --option=value: bash splits it into --option, = and value (the word
  # completed being the value), unless COMP_WORDBREAKS lacks '=' (then the
  # word completed is the whole: the completions get --option= in front).
  if [[ $cur == = && $prev == -* ]]; then
    opt=$prev cur=
  elif [[ $prev == = ]] && ((COMP_CWORD > 1)) &&
    [[ ${COMP_WORDS[COMP_CWORD - 2]} == -* ]]; then
    opt=${COMP_WORDS[COMP_CWORD - 2]}
  elif [[ $cur == -*=* ]]; then
    opt=${cur%%=*} pre=${cur%%=*}= cur=${cur#*=}
  fi
  # The command: the first word that is not an option (the options before
  # a command take no value).
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${COMP_WORDS[i]}
    if [[ $w != -* ]]; then
      cmd=$w cmdi=$i
      break
    fi
  done
  if [[ -z $cmd ]]; then
    [[ -n $opt ]] && return 0
    _tierbench_r='@COMMANDS@'
    [[ $cur == -* ]] && _tierbench_options ''
    mapfile -t COMPREPLY < <(compgen -W "$_tierbench_r" -- "$cur")
    return 0
  fi
  if [[ -z $opt ]]; then
    if [[ $cur == -* ]]; then
      _tierbench_options "$cmd"
      mapfile -t COMPREPLY < <(compgen -W "$_tierbench_r" -- "$cur")
      return 0
    fi
    # The option before the word: its value comes right after it, the
    # values of one that takes several up to the next option.
    for ((i = cmdi + 1; i < COMP_CWORD; i++)); do
      w=${COMP_WORDS[i]}
      if [[ $w == -* ]]; then
        last=$w lasti=$i
      fi
    done
    if [[ -n $last ]]; then
      _tierbench_value "$cmd" "$last"
      if [[ -n $_tierbench_r ]] &&
        ((lasti == COMP_CWORD - 1)) || [[ $_tierbench_r == +* ]]; then
        opt=$last
      fi
    fi
  fi
  _tierbench_value "$cmd" "${opt:-@arg}"
  kind=${_tierbench_r#+}
  case $kind in
    '')
      [[ -n $opt ]] && return 0
      _tierbench_options "$cmd"
      mapfile -t COMPREPLY < <(compgen -W "$_tierbench_r" -- "$cur")
      ;;
    words)
      COMPREPLY=() ;;
    words\ *)
      mapfile -t COMPREPLY < <(compgen -W "${kind#words }" -- "$cur") ;;
    modes)
      _tierbench_files '*.json'
      _tierbench_shipped modes '*.json'
      ;;
    workloads)
      _tierbench_files '*.fio' '*.json'
      _tierbench_shipped workloads '*.fio' '*.json' '*/*.fio' '*/*.json'
      ;;
    *) _tierbench_files ;;
  esac
  [[ -z $pre ]] || COMPREPLY=("${COMPREPLY[@]/#/$pre}")
  return 0
}

complete -F _tierbench @PROG@
)bash";

void BashReplace(std::string* text, const std::string& marker,
                 const std::string& with) {
  for (size_t p = text->find(marker); p != std::string::npos;
       p = text->find(marker, p + with.size())) {
    text->replace(p, marker.size(), with);
  }
}

}  // namespace

std::string BashCompletionScript(const CLI::App& app) {
  std::vector<BashCommand> commands = {DescribeForBash(app, "")};
  std::vector<std::string> names;
  for (const CLI::App* sub : VisibleCommands(app)) {
    names.push_back(sub->get_name());
    commands.push_back(DescribeForBash(*sub, sub->get_name()));
  }
  std::string options, values;
  for (const BashCommand& c : commands) {
    const std::string label = c.name.empty() ? "''" : c.name;
    options += "    " + label + ") _tierbench_r='" +
               BashWrap(c.options, " ", "", "      ", label.size() + 20, 4) +
               "' ;;\n";
    if (c.values.empty()) continue;
    values += "    " + label + ")\n      case $2 in\n";
    for (const auto& [kind, opts] : c.values) {
      const std::string action = ") _tierbench_r='" + kind + "' ;;";
      values += "        " +
                BashWrap(opts, "|", "|\\", "        ", 8, action.size()) +
                action + "\n";
    }
    values += "      esac\n      ;;\n";
  }
  options.pop_back();
  if (!values.empty()) values.pop_back();
  std::string script = kBashTemplate;
  BashReplace(&script, "@OPTIONS@", options);
  BashReplace(&script, "@VALUES@", values);
  BashReplace(&script, "@COMMANDS@", BashWrap(names, " ", "", "    ", 18));
  BashReplace(&script, "@FLAG@", kCompletionDataDirFlag);
  BashReplace(&script, "@PROG@", app.get_name());
  return script;
}

}  // namespace tierbench
