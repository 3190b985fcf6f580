// Per-env domain randomisation: physical parameters of each env's robot drawn at every reset
// from a stream of the episode's seed of their own (the task's draws stay as they are), starting
// from the model's values. The compiled model stays shared; each robot holds its own values.
#pragma once

#include "physics/world/robot.h"
#include "tasks/rng.h"

#include <array>
#include <vector>

namespace joltgym {

struct ParameterDraw {
  enum class Mode : int { Set = 0, Scale = 1, Add = 2 };
  RobotParameter parameter = RobotParameter::FloorFriction;
  Mode mode = Mode::Set;
  float low = 0.0f, high = 0.0f;  // the value drawn is uniform in [low, high)
  std::vector<int> elements;      // which elements; empty: all
  bool shared = false;            // one draw for all its elements, else one each
};

class Randomization {
 public:
  // std::invalid_argument naming the draw whose range or elements the model cannot take.
  Randomization(const CompiledModel& model, std::vector<ParameterDraw> draws);

  // Sets each drawn parameter on the robot: the model's values, then each draw in turn (set,
  // scale or add), from a stream seeded by `seed`.
  void Apply(Robot& robot, std::uint64_t seed) const;

 private:
  std::vector<ParameterDraw> draws_;
  std::array<bool, kRobotParameters> drawn_{};
};

}  // namespace joltgym
