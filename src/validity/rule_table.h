// The table of every pitfall that makes cache benchmarks lie
// (reference-notes §7(c) 1-30, and X1-X5 found in the committed sample),
// with how tierbench handles each: prevented by the protocol, flagged by a
// validity rule (util/finding.h rule ids of validity/*_rules.h and the
// layers' cache/*_diagnosis.h), or both. results/README.md "Validity"
// prints it; a unit test checks that every rule id the rules emit is in
// the table and that the README lists every row.
//
// Also the short reason each rule id gives in a verdict ("cold cache: its
// reads went to the HDD"), for the sentences that name an invalid cell.
// Immutable data; thread-safe.
#ifndef TIERBENCH_VALIDITY_RULE_TABLE_H_
#define TIERBENCH_VALIDITY_RULE_TABLE_H_

#include <string>
#include <vector>

namespace tierbench {

struct PitfallEntry {
  std::string pitfall;   // "1" .. "30", "X1" .. "X5"
  std::string title;     // the pitfall in a few words
  std::string handling;  // "prevented", "flagged", "prevented, flagged",
                         // "not applicable"
  std::vector<std::string> rules;  // rule ids that flag it (may be empty)
  std::string evidence;            // what the protocol or the rule reads
  std::string fix;                 // what a user does about it
};

const std::vector<PitfallEntry>& PitfallTable();

// Every rule id any rule can emit, in table order (each once).
std::vector<std::string> AllRuleIds();

// A few words for a verdict naming a cell this rule judged ("CPU-bound");
// "" for an id the table does not know.
std::string ShortReason(const std::string& rule);

}  // namespace tierbench

#endif  // TIERBENCH_VALIDITY_RULE_TABLE_H_
