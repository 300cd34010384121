// The built-in pgbench scripts (tpcb-like, simple-update, select-only) as
// lists of SQL commands, the query modes, and the per-client random values.
//
// Commands are exactly pgbench 15's built-in scripts; `:aid` style variables
// are written as $1..$n with a parameter list, so the driver can send them as
// text (simple mode, values substituted like pgbench does), as parameters
// (extended) or through named prepared statements (prepared).
//
// All functions are pure and thread-safe; a TxRandom is per client.
#ifndef TIERBENCH_DB_TPCB_SCRIPT_H_
#define TIERBENCH_DB_TPCB_SCRIPT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/rng.h"
#include "util/status.h"

namespace tierbench {

enum class Builtin { kTpcbLike, kSimpleUpdate, kSelectOnly };
enum class QueryMode { kSimple, kExtended, kPrepared };

// "tpcb-like" | "simple-update" | "select-only" (pgbench's -b names; a
// unique prefix is accepted like pgbench, e.g. "tpcb", "simple", "select").
Status ParseBuiltin(std::string_view text, Builtin* out);
const char* BuiltinName(Builtin b);
// pgbench's description: "TPC-B (sort of)", "simple update", "select only".
const char* BuiltinDescription(Builtin b);
// True when the script modifies data (tpcb-like, simple-update).
bool BuiltinWrites(Builtin b);

// "simple" | "extended" | "prepared".
Status ParseQueryMode(std::string_view text, QueryMode* out);
const char* QueryModeName(QueryMode m);

// The script's variables, drawn once per transaction.
enum TxVar { kAid = 0, kBid, kTid, kDelta, kNumTxVars };

struct TxValues {
  int64_t v[kNumTxVars] = {0, 0, 0, 0};
};

struct TxCommand {
  std::string sql;            // with $1..$n placeholders
  std::vector<TxVar> params;  // the variable behind $1, $2, ...
};

// The commands of one transaction of `b`, in order (BEGIN ... END for the
// writing scripts; the single SELECT for select-only).
const std::vector<TxCommand>& BuiltinScript(Builtin b);

// `cmd.sql` with each $n replaced by the decimal value of its variable: the
// text pgbench sends in simple query mode.
std::string RenderSimple(const TxCommand& cmd, const TxValues& values);

// The workload's Rng (xoshiro256** seeded through splitmix64), one per
// client (a client's stream depends only on the run seed and the client
// id), with pgbench's inclusive-range draw.
class TxRandom {
 public:
  explicit TxRandom(uint64_t seed) : rng_(seed) {}
  uint64_t Next() { return rng_.Next(); }
  // Uniform integer in [lo, hi] (inclusive, lo <= hi), as pgbench random();
  // unbiased (Rng::Uniform).
  int64_t Uniform(int64_t lo, int64_t hi);

 private:
  Rng rng_;
};

// Draws the variables of one transaction at `scale` as pgbench's built-ins:
// aid in [1, 100000*scale], bid in [1, scale], tid in [1, 10*scale],
// delta in [-5000, 5000].
TxValues DrawTxValues(TxRandom& rng, int scale);

}  // namespace tierbench

#endif  // TIERBENCH_DB_TPCB_SCRIPT_H_
