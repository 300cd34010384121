// IO directions and fio's rw= patterns: the vocabulary the engines (io/),
// the statistics (stats/), the workloads and the DB driver share. Kept in
// util/ so those modules need not depend on the workload module.
// Pure declarations and inline functions; thread-safe.
#ifndef TIERBENCH_UTIL_IO_DIR_H_
#define TIERBENCH_UTIL_IO_DIR_H_

namespace tierbench {

enum class IoDir : int { kRead = 0, kWrite = 1 };
inline constexpr int kNumDirs = 2;
inline const char* IoDirName(IoDir d) {
  return d == IoDir::kRead ? "read" : "write";
}

// fio's rw= values that tierbench supports.
enum class RwPattern {
  kRead,           // read: sequential reads
  kWrite,          // write: sequential writes
  kRandRead,       // randread
  kRandWrite,      // randwrite
  kReadWrite,      // rw / readwrite: sequential mixed
  kRandReadWrite,  // randrw: random mixed
};

inline bool PatternIsRandom(RwPattern p) {
  return p == RwPattern::kRandRead || p == RwPattern::kRandWrite ||
         p == RwPattern::kRandReadWrite;
}
inline bool PatternReads(RwPattern p) {
  return p != RwPattern::kWrite && p != RwPattern::kRandWrite;
}
inline bool PatternWrites(RwPattern p) {
  return p != RwPattern::kRead && p != RwPattern::kRandRead;
}
// fio's spelling: "read", "write", "randread", "randwrite", "rw", "randrw".
const char* RwPatternName(RwPattern p);

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_IO_DIR_H_
