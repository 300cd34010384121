// AlignedBuffer: a heap buffer whose address is a multiple of kIoAlignment
// (4096), as O_DIRECT needs. Move-only; freed on destruction.
//
// Thread-safety: none; a buffer belongs to one job thread.
#ifndef TIERBENCH_IO_ALIGNED_BUFFER_H_
#define TIERBENCH_IO_ALIGNED_BUFFER_H_

#include <cstddef>
#include <cstdint>

namespace tierbench {

inline constexpr size_t kIoAlignment = 4096;

class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  // Allocates `size` bytes (rounded up to kIoAlignment). Throws
  // std::bad_alloc when memory is exhausted.
  explicit AlignedBuffer(size_t size);
  ~AlignedBuffer();
  AlignedBuffer(AlignedBuffer&& other) noexcept;
  AlignedBuffer& operator=(AlignedBuffer&& other) noexcept;
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;

  void* data() const { return data_; }
  size_t size() const { return size_; }

  // Fills the whole buffer with pseudo-random bytes from `seed` (xorshift64*),
  // so written data does not compress or deduplicate.
  void FillRandom(uint64_t seed);

 private:
  void* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace tierbench

#endif  // TIERBENCH_IO_ALIGNED_BUFFER_H_
