#include "bindings/physics_parameters.h"

#include <stdexcept>

namespace joltgym::bindings {

RobotParameter ParameterNamed(const std::string& name) {
  try {
    return ParseRobotParameter(name);
  } catch (const std::invalid_argument& e) {
    throw py::value_error(e.what());
  }
}

std::shared_ptr<const Randomization> MakeRandomization(const CompiledModel& model, const std::vector<DrawSpec>& draws) {
  std::vector<ParameterDraw> out;
  for (const auto& [name, mode, low, high, elements, shared] : draws) {
    ParameterDraw d;
    d.parameter = ParameterNamed(name);
    if (mode == "set") {
      d.mode = ParameterDraw::Mode::Set;
    } else if (mode == "scale") {
      d.mode = ParameterDraw::Mode::Scale;
    } else if (mode == "add") {
      d.mode = ParameterDraw::Mode::Add;
    } else {
      throw py::value_error("randomization of " + name + ": mode '" + mode + "' is not one of set, scale, add");
    }
    d.low = low;
    d.high = high;
    if (elements) d.elements = *elements;
    d.shared = shared;
    out.push_back(std::move(d));
  }
  try {
    return std::make_shared<const Randomization>(model, std::move(out));
  } catch (const std::invalid_argument& e) {
    throw py::value_error(e.what());
  }
}

}  // namespace joltgym::bindings
