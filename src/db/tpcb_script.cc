#include "db/tpcb_script.h"

#include <cstdlib>

namespace tierbench {

namespace {

struct NamedBuiltin {
  Builtin b;
  const char* name;
  const char* description;
};
constexpr NamedBuiltin kBuiltins[] = {
    {Builtin::kTpcbLike, "tpcb-like", "TPC-B (sort of)"},
    {Builtin::kSimpleUpdate, "simple-update", "simple update"},
    {Builtin::kSelectOnly, "select-only", "select only"},
};

const TxCommand kBegin{"BEGIN", {}};
const TxCommand kEnd{"END", {}};
const TxCommand kUpdateAccounts{
    "UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2",
    {kDelta, kAid}};
const TxCommand kSelectAccount{
    "SELECT abalance FROM pgbench_accounts WHERE aid = $1", {kAid}};
const TxCommand kUpdateTellers{
    "UPDATE pgbench_tellers SET tbalance = tbalance + $1 WHERE tid = $2",
    {kDelta, kTid}};
const TxCommand kUpdateBranches{
    "UPDATE pgbench_branches SET bbalance = bbalance + $1 WHERE bid = $2",
    {kDelta, kBid}};
const TxCommand kInsertHistory{
    "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) "
    "VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP)",
    {kTid, kBid, kAid, kDelta}};

}  // namespace

Status ParseBuiltin(std::string_view text, Builtin* out) {
  const NamedBuiltin* match = nullptr;
  int matches = 0;
  for (const auto& nb : kBuiltins) {
    std::string_view name(nb.name);
    if (name == text) {
      *out = nb.b;
      return Status::Ok();
    }
    if (!text.empty() && name.substr(0, text.size()) == text) {
      match = &nb;
      ++matches;
    }
  }
  if (matches == 1) {
    *out = match->b;
    return Status::Ok();
  }
  return Status::InvalidArgument(
      "unknown builtin script '" + std::string(text) +
      "' (choose tpcb-like, simple-update or select-only)");
}

const char* BuiltinName(Builtin b) {
  for (const auto& nb : kBuiltins) {
    if (nb.b == b) return nb.name;
  }
  return "?";
}

const char* BuiltinDescription(Builtin b) {
  for (const auto& nb : kBuiltins) {
    if (nb.b == b) return nb.description;
  }
  return "?";
}

bool BuiltinWrites(Builtin b) { return b != Builtin::kSelectOnly; }

Status ParseQueryMode(std::string_view text, QueryMode* out) {
  if (text == "simple") {
    *out = QueryMode::kSimple;
  } else if (text == "extended") {
    *out = QueryMode::kExtended;
  } else if (text == "prepared") {
    *out = QueryMode::kPrepared;
  } else {
    return Status::InvalidArgument("unknown query mode '" + std::string(text) +
                                   "' (choose simple, extended or prepared)");
  }
  return Status::Ok();
}

const char* QueryModeName(QueryMode m) {
  switch (m) {
    case QueryMode::kSimple:
      return "simple";
    case QueryMode::kExtended:
      return "extended";
    case QueryMode::kPrepared:
      return "prepared";
  }
  return "?";
}

const std::vector<TxCommand>& BuiltinScript(Builtin b) {
  static const std::vector<TxCommand> kTpcb = {kBegin,
                                               kUpdateAccounts,
                                               kSelectAccount,
                                               kUpdateTellers,
                                               kUpdateBranches,
                                               kInsertHistory,
                                               kEnd};
  static const std::vector<TxCommand> kSimpleUpdate = {
      kBegin, kUpdateAccounts, kSelectAccount, kInsertHistory, kEnd};
  static const std::vector<TxCommand> kSelectOnly = {kSelectAccount};
  switch (b) {
    case Builtin::kTpcbLike:
      return kTpcb;
    case Builtin::kSimpleUpdate:
      return kSimpleUpdate;
    case Builtin::kSelectOnly:
      return kSelectOnly;
  }
  return kTpcb;
}

std::string RenderSimple(const TxCommand& cmd, const TxValues& values) {
  std::string out;
  out.reserve(cmd.sql.size() + 32);
  const std::string& s = cmd.sql;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '$' && i + 1 < s.size() && s[i + 1] >= '1' && s[i + 1] <= '9') {
      size_t index = static_cast<size_t>(s[i + 1] - '1');
      out += std::to_string(values.v[cmd.params.at(index)]);
      ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

int64_t TxRandom::Uniform(int64_t lo, int64_t hi) {
  const uint64_t range = static_cast<uint64_t>(hi - lo) + 1;
  return lo + static_cast<int64_t>(rng_.Uniform(range));
}

TxValues DrawTxValues(TxRandom& rng, int scale) {
  TxValues t;
  t.v[kAid] = rng.Uniform(1, 100000LL * scale);
  t.v[kBid] = rng.Uniform(1, scale);
  t.v[kTid] = rng.Uniform(1, 10LL * scale);
  t.v[kDelta] = rng.Uniform(-5000, 5000);
  return t;
}

}  // namespace tierbench
