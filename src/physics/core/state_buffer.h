// A StateRecorder over a flat byte buffer: Jolt's StateRecorderImpl goes
// through a stringstream, which is slow for per-episode resets.
#pragma once

#include <Jolt/Jolt.h>
#include <Jolt/Physics/StateRecorder.h>

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace joltgym {

class StateBuffer final : public JPH::StateRecorder {
 public:
  void Clear() { data_.clear(); read_ = 0; failed_ = false; }
  void Rewind() { read_ = 0; failed_ = false; }
  size_t size() const { return data_.size(); }

  void WriteBytes(const void* data, size_t n) override {
    if (n == 0) return;
    const auto* bytes = static_cast<const unsigned char*>(data);
    data_.insert(data_.end(), bytes, bytes + n);
  }
  void ReadBytes(void* data, size_t n) override {
    if (n == 0) return;  // an empty vector's data() may be null, which memcpy may not take
    if (read_ + n > data_.size()) {
      failed_ = true;
      std::memset(data, 0, n);
      return;
    }
    std::memcpy(data, data_.data() + read_, n);
    read_ += n;
  }
  bool IsEOF() const override { return read_ >= data_.size(); }
  bool IsFailed() const override { return failed_; }

  const unsigned char* data() const { return data_.data(); }
  void Assign(const unsigned char* bytes, size_t n) {
    data_.assign(bytes, bytes + n);
    Rewind();
  }
  size_t read_position() const { return read_; }

  // A vector's length, then its elements.
  template <class T>
  void WriteVector(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const std::uint64_t n = v.size();
    Write(n);
    WriteBytes(v.data(), v.size() * sizeof(T));
  }
  // Into a vector already of the right length: one of another length marks the read failed and
  // leaves the vector as it was, so a state of another model never resizes (or overruns) it.
  template <class T>
  void ReadVectorInto(std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::uint64_t n = 0;
    Read(n);
    if (failed_ || n != v.size()) {
      failed_ = true;
      return;
    }
    ReadBytes(v.data(), v.size() * sizeof(T));
  }

 private:
  std::vector<unsigned char> data_;
  size_t read_ = 0;
  bool failed_ = false;
};

}  // namespace joltgym
