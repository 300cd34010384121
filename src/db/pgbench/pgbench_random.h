// pgbench's random distributions over a client's TxRandom, with pgbench 15's
// definitions (src/bin/pgbench/pgbench.c: getrand, getExponentialRand,
// getGaussianRand, getZipfianRand, getPoissonRand):
//
//   RandomUniform(lo, hi)          uniform integer in [lo, hi]
//   RandomExponential(lo, hi, p)   -ln(cut + (1 - cut) * u) / p mapped onto
//                                  [lo, hi], cut = exp(-p), u in (0, 1]
//   RandomGaussian(lo, hi, p)      a standard normal drawn (Box-Muller) until
//                                  it lies in [-p, p), mapped onto [lo, hi]
//   RandomZipfian(lo, hi, s)       Devroye's rejection method, value k has
//                                  weight 1/k^s (k = 1 is lo)
//   PoissonDelay(center)           -ln(u) * center rounded, u in (0, 1]: the
//                                  inter-arrival delays of -R (mean center)
//
// Parameters are checked by the caller (pgbench_expr.cc) with pgbench's
// messages; the functions assume lo <= hi and valid parameters. The streams
// are this project's xoshiro256** (not pgbench's xoshiro128**), so a seed
// gives the same sequence on every machine but not pgbench's numbers.
// Thread-safety: as TxRandom (one per client or thread).
#ifndef TIERBENCH_DB_PGBENCH_PGBENCH_RANDOM_H_
#define TIERBENCH_DB_PGBENCH_PGBENCH_RANDOM_H_

#include <cstdint>

#include "db/pgbench/pgbench_builtin.h"

namespace tierbench {

inline constexpr double kMinGaussianParam = 2.0;
inline constexpr double kMinZipfianParam = 1.001;
inline constexpr double kMaxZipfianParam = 1000.0;

int64_t RandomUniform(TxRandom& rng, int64_t lo, int64_t hi);
int64_t RandomExponential(TxRandom& rng, int64_t lo, int64_t hi, double param);
int64_t RandomGaussian(TxRandom& rng, int64_t lo, int64_t hi, double param);
int64_t RandomZipfian(TxRandom& rng, int64_t lo, int64_t hi, double s);
int64_t PoissonDelay(TxRandom& rng, double center);

}  // namespace tierbench

#endif  // TIERBENCH_DB_PGBENCH_PGBENCH_RANDOM_H_
