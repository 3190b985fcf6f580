// What a task reports besides its reward: the parts of its observation (Gymnasium's
// observation_structure) and its info keys, each declared once where the task is
// built and written through the slot that declaration returns.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace joltgym {

class ObservationLayout {
 public:
  struct Part {
    std::string name;
    int size;
    bool in_observation;  // false for bookkeeping entries such as v5's "skipped_qpos"
  };

  // A part of the observation vector, in order.
  void Add(std::string name, int size) { parts_.push_back({std::move(name), size, true}); size_ += size; }
  // An entry of observation_structure that is not in the vector (v5's "skipped_qpos").
  void Note(std::string name, int size) { parts_.push_back({std::move(name), size, false}); }

  // A named key of a Dict observation: the vector's entries [offset, offset + size). A task
  // that declares keys is observed as a Dict of them (EnvPool's "state", "privileged_state").
  struct Key {
    std::string name;
    int offset;
    int size;
  };
  void AddKey(std::string name, int offset, int size) { keys_.push_back({std::move(name), offset, size}); }

  int size() const { return size_; }
  const std::vector<Part>& parts() const { return parts_; }
  const std::vector<Key>& keys() const { return keys_; }

 private:
  std::vector<Part> parts_;
  std::vector<Key> keys_;
  int size_ = 0;
};

// Where one info key's values sit in an info row; a default slot is absent.
struct InfoSlot {
  int offset = -1;
  int width = 0;
};

class InfoLayout {
 public:
  struct Key {
    std::string name;
    InfoSlot slot;
    bool at_reset;  // also reported by reset (Gymnasium's _get_reset_info)
  };

  InfoSlot Add(std::string name, bool at_reset = false, int width = 1) {
    const InfoSlot slot{size_, width};
    keys_.push_back({std::move(name), slot, at_reset});
    size_ += width;
    return slot;
  }

  int size() const { return size_; }  // values per row
  const std::vector<Key>& keys() const { return keys_; }

 private:
  std::vector<Key> keys_;
  int size_ = 0;
};

// One env's info values for one step or reset; writes to absent slots are dropped.
class InfoRow {
 public:
  explicit InfoRow(double* values) : values_(values) {}
  void Set(InfoSlot slot, double value) const {
    if (slot.width > 0) values_[slot.offset] = value;
  }
  double* Values(InfoSlot slot) const { return slot.width > 0 ? values_ + slot.offset : nullptr; }

 private:
  double* values_;
};

}  // namespace joltgym
