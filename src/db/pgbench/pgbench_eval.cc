// EvaluateExpression (declared in db/pgbench/pgbench_expr.h): pgbench 15's
// evaluation rules for `\set` expressions.
#include <cmath>
#include <cstdio>
#include <numbers>

#include "db/pgbench/pgbench_expr.h"
#include "db/pgbench/pgbench_random.h"

namespace tierbench {

namespace {

const char* TypeName(const PgValue& v) {
  switch (v.type) {
    case PgValue::kNull:
      return "null";
    case PgValue::kBool:
      return "boolean";
    case PgValue::kInt:
      return "int";
    case PgValue::kDouble:
      return "double";
    case PgValue::kString:
      return "string";
    case PgValue::kNone:
      break;
  }
  return "none";
}

Status Err(const std::string& what) { return Status::InvalidArgument(what); }

std::string F(const char* fmt, double v) {
  char buf[128];
  std::snprintf(buf, sizeof(buf), fmt, v);
  return buf;
}

Status ToInt(const PgValue& v, int64_t* out) {
  if (v.type == PgValue::kInt) {
    *out = v.i;
    return Status::Ok();
  }
  if (v.type == PgValue::kDouble) {
    const double r = std::rint(v.d);
    // The doubles that fit: [-2^63, 2^63).
    if (std::isnan(r) || r < -9223372036854775808.0 ||
        r >= 9223372036854775808.0) {
      return Err(F("double to int overflow for %f", r));
    }
    *out = static_cast<int64_t>(r);
    return Status::Ok();
  }
  return Err(std::string("cannot coerce ") + TypeName(v) + " to int");
}

Status ToDouble(const PgValue& v, double* out) {
  if (v.type == PgValue::kDouble) {
    *out = v.d;
    return Status::Ok();
  }
  if (v.type == PgValue::kInt) {
    *out = static_cast<double>(v.i);
    return Status::Ok();
  }
  return Err(std::string("cannot coerce ") + TypeName(v) + " to double");
}

Status ToBool(const PgValue& v, bool* out) {
  if (v.type == PgValue::kBool) {
    *out = v.b;
    return Status::Ok();
  }
  return Err(std::string("cannot coerce ") + TypeName(v) + " to boolean");
}

// FNV-1a over the 8 bytes of v (least significant first), the offset basis
// xor-ed with the seed.
int64_t HashFnv1a(int64_t v, uint64_t seed) {
  uint64_t h = 0xcbf29ce484222325ull ^ seed;
  uint64_t x = static_cast<uint64_t>(v);
  for (int i = 0; i < 8; ++i) {
    h ^= x & 0xff;
    h *= 0x100000001b3ull;
    x >>= 8;
  }
  return static_cast<int64_t>(h);
}

// MurmurHash64A of one 8-byte key.
int64_t HashMurmur2(int64_t v, uint64_t seed) {
  constexpr uint64_t m = 0xc6a4a7935bd1e995ull;
  constexpr int r = 47;
  uint64_t h = seed ^ (8 * m);
  uint64_t k = static_cast<uint64_t>(v);
  k *= m;
  k ^= k >> r;
  k *= m;
  h ^= k;
  h *= m;
  h ^= h >> r;
  h *= m;
  h ^= h >> r;
  return static_cast<int64_t>(h);
}

class Evaluator {
 public:
  Evaluator(const std::vector<PgValue>& vars, TxRandom& rng)
      : vars_(vars), rng_(rng) {}

  Status Eval(const ExprNode& e, PgValue* out) {
    switch (e.kind) {
      case ExprNode::kConst:
        *out = e.value;
        return Status::Ok();
      case ExprNode::kVar: {
        const PgValue& v = vars_[static_cast<size_t>(e.slot)];
        if (v.type == PgValue::kNone) {
          return Err("undefined variable \"" + e.name + "\"");
        }
        if (v.type == PgValue::kString) {
          return Err("malformed variable \"" + e.name + "\" value: \"" + v.s +
                     "\"");
        }
        *out = v;
        return Status::Ok();
      }
      case ExprNode::kCall:
        if (e.func == ExprFunc::kAnd || e.func == ExprFunc::kOr) {
          return Lazy(e, out);
        }
        return Call(e, out);
    }
    return Err("bad expression");
  }

 private:
  // AND / OR evaluate their right side only when needed.
  Status Lazy(const ExprNode& e, PgValue* out) {
    PgValue a;
    Status st = Eval(*e.args[0], &a);
    if (!st.ok()) return st;
    if (a.type == PgValue::kNull) {
      *out = PgValue::Null();
      return Status::Ok();
    }
    bool ba = false;
    if (!(st = ToBool(a, &ba)).ok()) return st;
    const bool is_and = e.func == ExprFunc::kAnd;
    if (is_and != ba) {  // false AND ..., true OR ...
      *out = PgValue::Bool(ba);
      return Status::Ok();
    }
    PgValue b;
    if (!(st = Eval(*e.args[1], &b)).ok()) return st;
    if (b.type == PgValue::kNull) {
      *out = PgValue::Null();
      return Status::Ok();
    }
    bool bb = false;
    if (!(st = ToBool(b, &bb)).ok()) return st;
    *out = PgValue::Bool(bb);
    return Status::Ok();
  }

  Status Call(const ExprNode& e, PgValue* out) {
    std::vector<PgValue> a(e.args.size());
    bool has_null = false;
    for (size_t k = 0; k < e.args.size(); ++k) {
      Status st = Eval(*e.args[k], &a[k]);
      if (!st.ok()) return st;
      has_null |= a[k].type == PgValue::kNull;
    }
    if (e.func == ExprFunc::kIsNull) {
      *out = PgValue::Bool(a[0].type == PgValue::kNull);
      return Status::Ok();
    }
    if (has_null) {
      *out = PgValue::Null();
      return Status::Ok();
    }
    switch (e.func) {
      case ExprFunc::kAdd:
      case ExprFunc::kSub:
      case ExprFunc::kMul:
      case ExprFunc::kDiv:
      case ExprFunc::kMod:
      case ExprFunc::kEq:
      case ExprFunc::kNe:
      case ExprFunc::kLt:
      case ExprFunc::kLe:
        return Arith(e.func, a[0], a[1], out);
      case ExprFunc::kBitAnd:
      case ExprFunc::kBitOr:
      case ExprFunc::kBitXor:
      case ExprFunc::kShl:
      case ExprFunc::kShr:
        return Bits(e.func, a[0], a[1], out);
      case ExprFunc::kNot: {
        bool b = false;
        Status st = ToBool(a[0], &b);
        if (st.ok()) *out = PgValue::Bool(!b);
        return st;
      }
      case ExprFunc::kAbs:
        if (a[0].type == PgValue::kInt) {
          *out = PgValue::Int(a[0].i < 0 ? -a[0].i : a[0].i);
          return Status::Ok();
        }
        if (a[0].type == PgValue::kDouble) {
          *out = PgValue::Double(std::fabs(a[0].d));
          return Status::Ok();
        }
        return Err(std::string("cannot coerce ") + TypeName(a[0]) + " to int");
      case ExprFunc::kPi:
        *out = PgValue::Double(std::numbers::pi);
        return Status::Ok();
      case ExprFunc::kDouble:
      case ExprFunc::kSqrt:
      case ExprFunc::kLn:
      case ExprFunc::kExp: {
        double d = 0;
        Status st = ToDouble(a[0], &d);
        if (!st.ok()) return st;
        if (e.func == ExprFunc::kSqrt) d = std::sqrt(d);
        if (e.func == ExprFunc::kLn) d = std::log(d);
        if (e.func == ExprFunc::kExp) d = std::exp(d);
        *out = PgValue::Double(d);
        return Status::Ok();
      }
      case ExprFunc::kInt: {
        int64_t i = 0;
        Status st = ToInt(a[0], &i);
        if (st.ok()) *out = PgValue::Int(i);
        return st;
      }
      case ExprFunc::kPow: {
        double x = 0, y = 0;
        Status st = ToDouble(a[0], &x);
        if (st.ok()) st = ToDouble(a[1], &y);
        if (st.ok()) *out = PgValue::Double(std::pow(x, y));
        return st;
      }
      case ExprFunc::kGreatest:
      case ExprFunc::kLeast:
        return Extremum(e.func == ExprFunc::kGreatest, a, out);
      case ExprFunc::kRandom:
      case ExprFunc::kRandomExponential:
      case ExprFunc::kRandomGaussian:
      case ExprFunc::kRandomZipfian:
        return Random(e.func, a, out);
      case ExprFunc::kHashFnv1a:
      case ExprFunc::kHashMurmur2: {
        int64_t v = 0, seed = 0;
        Status st = ToInt(a[0], &v);
        if (st.ok()) st = ToInt(a[1], &seed);
        if (!st.ok()) return st;
        *out = PgValue::Int(e.func == ExprFunc::kHashFnv1a
                                ? HashFnv1a(v, static_cast<uint64_t>(seed))
                                : HashMurmur2(v, static_cast<uint64_t>(seed)));
        return Status::Ok();
      }
      case ExprFunc::kAnd:
      case ExprFunc::kOr:
      case ExprFunc::kIsNull:
        break;
    }
    return Err("bad function");
  }

  Status Arith(ExprFunc f, const PgValue& l, const PgValue& r, PgValue* out) {
    Status st;
    if ((l.type == PgValue::kDouble || r.type == PgValue::kDouble) &&
        f != ExprFunc::kMod) {
      double x = 0, y = 0;
      if (!(st = ToDouble(l, &x)).ok() || !(st = ToDouble(r, &y)).ok()) {
        return st;
      }
      switch (f) {
        case ExprFunc::kAdd:
          *out = PgValue::Double(x + y);
          break;
        case ExprFunc::kSub:
          *out = PgValue::Double(x - y);
          break;
        case ExprFunc::kMul:
          *out = PgValue::Double(x * y);
          break;
        case ExprFunc::kDiv:
          *out = PgValue::Double(x / y);
          break;
        case ExprFunc::kEq:
          *out = PgValue::Bool(x == y);
          break;
        case ExprFunc::kNe:
          *out = PgValue::Bool(x != y);
          break;
        case ExprFunc::kLt:
          *out = PgValue::Bool(x < y);
          break;
        default:
          *out = PgValue::Bool(x <= y);
          break;
      }
      return Status::Ok();
    }
    int64_t x = 0, y = 0, res = 0;
    if (!(st = ToInt(l, &x)).ok() || !(st = ToInt(r, &y)).ok()) return st;
    switch (f) {
      case ExprFunc::kAdd:
        if (__builtin_add_overflow(x, y, &res)) {
          return Err("bigint add out of range");
        }
        *out = PgValue::Int(res);
        return Status::Ok();
      case ExprFunc::kSub:
        if (__builtin_sub_overflow(x, y, &res)) {
          return Err("bigint sub out of range");
        }
        *out = PgValue::Int(res);
        return Status::Ok();
      case ExprFunc::kMul:
        if (__builtin_mul_overflow(x, y, &res)) {
          return Err("bigint mul out of range");
        }
        *out = PgValue::Int(res);
        return Status::Ok();
      case ExprFunc::kDiv:
      case ExprFunc::kMod:
        if (y == 0) return Err("division by zero");
        if (y == -1) {
          if (f == ExprFunc::kMod) {
            *out = PgValue::Int(0);
          } else if (x == INT64_MIN) {
            return Err("bigint div out of range");
          } else {
            *out = PgValue::Int(-x);
          }
          return Status::Ok();
        }
        *out = PgValue::Int(f == ExprFunc::kDiv ? x / y : x % y);
        return Status::Ok();
      case ExprFunc::kEq:
        *out = PgValue::Bool(x == y);
        return Status::Ok();
      case ExprFunc::kNe:
        *out = PgValue::Bool(x != y);
        return Status::Ok();
      case ExprFunc::kLt:
        *out = PgValue::Bool(x < y);
        return Status::Ok();
      default:
        *out = PgValue::Bool(x <= y);
        return Status::Ok();
    }
  }

  Status Bits(ExprFunc f, const PgValue& l, const PgValue& r, PgValue* out) {
    int64_t x = 0, y = 0;
    Status st;
    if (!(st = ToInt(l, &x)).ok() || !(st = ToInt(r, &y)).ok()) return st;
    const uint64_t ux = static_cast<uint64_t>(x);
    switch (f) {
      case ExprFunc::kBitAnd:
        *out = PgValue::Int(x & y);
        break;
      case ExprFunc::kBitOr:
        *out = PgValue::Int(x | y);
        break;
      case ExprFunc::kBitXor:
        *out = PgValue::Int(x ^ y);
        break;
      case ExprFunc::kShl:
        *out = PgValue::Int(static_cast<int64_t>(ux << (y & 63)));
        break;
      default:
        *out = PgValue::Int(x >> (y & 63));
        break;
    }
    return Status::Ok();
  }

  Status Extremum(bool greatest, const std::vector<PgValue>& a, PgValue* out) {
    bool any_double = false;
    for (const auto& v : a) any_double |= v.type == PgValue::kDouble;
    Status st;
    if (any_double) {
      double best = 0;
      for (size_t k = 0; k < a.size(); ++k) {
        double d = 0;
        if (!(st = ToDouble(a[k], &d)).ok()) return st;
        if (k == 0 || (greatest ? d > best : d < best)) best = d;
      }
      *out = PgValue::Double(best);
      return Status::Ok();
    }
    int64_t best = 0;
    for (size_t k = 0; k < a.size(); ++k) {
      int64_t i = 0;
      if (!(st = ToInt(a[k], &i)).ok()) return st;
      if (k == 0 || (greatest ? i > best : i < best)) best = i;
    }
    *out = PgValue::Int(best);
    return Status::Ok();
  }

  Status Random(ExprFunc f, const std::vector<PgValue>& a, PgValue* out) {
    int64_t lo = 0, hi = 0, width = 0;
    Status st;
    if (!(st = ToInt(a[0], &lo)).ok() || !(st = ToInt(a[1], &hi)).ok()) {
      return st;
    }
    if (lo > hi) return Err("empty range given to random");
    if (__builtin_sub_overflow(hi, lo, &width) ||
        __builtin_add_overflow(width, 1, &width)) {
      return Err("random range is too large");
    }
    if (f == ExprFunc::kRandom) {
      *out = PgValue::Int(RandomUniform(rng_, lo, hi));
      return Status::Ok();
    }
    double p = 0;
    if (!(st = ToDouble(a[2], &p)).ok()) return st;
    if (f == ExprFunc::kRandomGaussian) {
      if (p < kMinGaussianParam) {
        return Err(
            F("gaussian parameter must be at least 2.000000 (not %f)", p));
      }
      *out = PgValue::Int(RandomGaussian(rng_, lo, hi, p));
    } else if (f == ExprFunc::kRandomZipfian) {
      if (p < kMinZipfianParam || p > kMaxZipfianParam) {
        return Err(
            F("zipfian parameter must be in range [1.001, 1000] (not "
              "%f)",
              p));
      }
      *out = PgValue::Int(RandomZipfian(rng_, lo, hi, p));
    } else {
      if (p <= 0.0) {
        return Err(
            F("exponential parameter must be greater than zero (not "
              "%f)",
              p));
      }
      *out = PgValue::Int(RandomExponential(rng_, lo, hi, p));
    }
    return Status::Ok();
  }

  const std::vector<PgValue>& vars_;
  TxRandom& rng_;
};

}  // namespace

Status EvaluateExpression(const ExprNode& e, const std::vector<PgValue>& vars,
                          TxRandom& rng, PgValue* out) {
  return Evaluator(vars, rng).Eval(e, out);
}

}  // namespace tierbench
