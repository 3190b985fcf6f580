#include "envs/randomization.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace joltgym {
namespace {

constexpr std::uint64_t kStreamSalt = 0x9E3779B97F4A7C15ull;  // keeps these draws apart from the task's stream

}  // namespace

Randomization::Randomization(const CompiledModel& model, std::vector<ParameterDraw> draws) : draws_(std::move(draws)) {
  for (const ParameterDraw& d : draws_) {
    const std::string name = RobotParameterName(d.parameter);
    if (!std::isfinite(d.low) || !std::isfinite(d.high) || d.low > d.high)
      throw std::invalid_argument("randomization of " + name + ": needs a finite range low <= high, got (" +
                                  std::to_string(d.low) + ", " + std::to_string(d.high) + ")");
    const int n = RobotParameterSize(model, d.parameter);
    for (int k : d.elements)
      if (k < 0 || k >= n)
        throw std::invalid_argument("randomization of " + name + ": element " + std::to_string(k) + " is out of range; model '" +
                                    model.desc().name + "' has " + std::to_string(n));
    drawn_[size_t(d.parameter)] = true;
  }
}

void Randomization::Apply(Robot& robot, std::uint64_t seed) const {
  Rng rng(seed ^ kStreamSalt);
  float values[256];
  for (int p = 0; p < kRobotParameters; ++p) {
    if (!drawn_[size_t(p)]) continue;
    const RobotParameter parameter = RobotParameter(p);
    const int n = robot.ParameterSize(parameter);
    std::vector<float> heap;
    float* v = values;
    if (n > 256) {
      heap.resize(size_t(n));
      v = heap.data();
    }
    robot.GetModelParameter(parameter, v);
    for (const ParameterDraw& d : draws_) {
      if (d.parameter != parameter) continue;
      const int count = d.elements.empty() ? n : int(d.elements.size());
      float u = 0.0f;
      for (int i = 0; i < count; ++i) {
        const int k = d.elements.empty() ? i : d.elements[size_t(i)];
        if (i == 0 || !d.shared) u = rng.Uniform(d.low, d.high);
        switch (d.mode) {
          case ParameterDraw::Mode::Set: v[k] = u; break;
          case ParameterDraw::Mode::Scale: v[k] *= u; break;
          case ParameterDraw::Mode::Add: v[k] += u; break;
        }
      }
    }
    robot.SetParameter(parameter, v);
  }
}

}  // namespace joltgym
