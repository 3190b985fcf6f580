// A StateRecorder over a flat byte buffer: Jolt's StateRecorderImpl goes
// through a stringstream, which is slow for per-episode resets.
#pragma once

#include <Jolt/Jolt.h>
#include <Jolt/Physics/StateRecorder.h>

#include <cstring>
#include <vector>

namespace joltgym {

class StateBuffer final : public JPH::StateRecorder {
 public:
  void Clear() { data_.clear(); read_ = 0; failed_ = false; }
  void Rewind() { read_ = 0; failed_ = false; }
  size_t size() const { return data_.size(); }

  void WriteBytes(const void* data, size_t n) override {
    const auto* bytes = static_cast<const unsigned char*>(data);
    data_.insert(data_.end(), bytes, bytes + n);
  }
  void ReadBytes(void* data, size_t n) override {
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

 private:
  std::vector<unsigned char> data_;
  size_t read_ = 0;
  bool failed_ = false;
};

}  // namespace joltgym
