#include "io/aligned_buffer.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace tierbench {

AlignedBuffer::AlignedBuffer(size_t size) {
  size_ = (size + kIoAlignment - 1) / kIoAlignment * kIoAlignment;
  if (size_ == 0) size_ = kIoAlignment;
  if (posix_memalign(&data_, kIoAlignment, size_) != 0) {
    data_ = nullptr;
    size_ = 0;
    throw std::bad_alloc();
  }
  std::memset(data_, 0, size_);
}

AlignedBuffer::~AlignedBuffer() { std::free(data_); }

AlignedBuffer::AlignedBuffer(AlignedBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

AlignedBuffer& AlignedBuffer::operator=(AlignedBuffer&& other) noexcept {
  if (this != &other) {
    std::free(data_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

void AlignedBuffer::FillRandom(uint64_t seed) {
  uint64_t x = seed ? seed : 0x9E3779B97F4A7C15ull;
  auto* words = static_cast<uint64_t*>(data_);
  for (size_t i = 0; i < size_ / sizeof(uint64_t); ++i) {
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    words[i] = x * 0x2545F4914F6CDD1Dull;
  }
}

}  // namespace tierbench
