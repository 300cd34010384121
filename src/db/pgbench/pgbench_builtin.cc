#include "db/pgbench/pgbench_builtin.h"

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

int64_t TxRandom::Uniform(int64_t lo, int64_t hi) {
  const uint64_t range = static_cast<uint64_t>(hi - lo) + 1;
  return lo + static_cast<int64_t>(rng_.Uniform(range));
}

}  // namespace tierbench
