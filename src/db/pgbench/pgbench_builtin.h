// The names of pgbench's built-in scripts (tpcb-like, simple-update,
// select-only; their text is in db/pgbench/pgbench_script.h), the query modes,
// and the per-client random stream.
//
// All functions are pure and thread-safe; a TxRandom is per client.
#ifndef TIERBENCH_DB_PGBENCH_PGBENCH_BUILTIN_H_
#define TIERBENCH_DB_PGBENCH_PGBENCH_BUILTIN_H_

#include <cstdint>
#include <string>
#include <string_view>

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

// The workload's Rng (xoshiro256** seeded through splitmix64), one per
// client (a client's stream depends only on the run seed and the client
// id), with pgbench's inclusive-range draw.
class TxRandom {
 public:
  explicit TxRandom(uint64_t seed) : rng_(seed) {}
  uint64_t Next() { return rng_.Next(); }
  // Uniform double in [0, 1) (53 bits).
  double NextDouble() { return rng_.NextDouble(); }
  // Uniform integer in [lo, hi] (inclusive, lo <= hi), as pgbench random();
  // unbiased (Rng::Uniform).
  int64_t Uniform(int64_t lo, int64_t hi);

 private:
  Rng rng_;
};

}  // namespace tierbench

#endif  // TIERBENCH_DB_PGBENCH_PGBENCH_BUILTIN_H_
