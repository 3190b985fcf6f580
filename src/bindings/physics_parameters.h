// Per-env physical parameters from Python (robot_parameter.h, randomization.h), shared by the
// pool (one row per env) and the single env (one row): get and set them, and the draws made at
// every reset.
#pragma once

#include "envs/randomization.h"

#include "bindings/array_convert.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace joltgym::bindings {

namespace py = pybind11;

RobotParameter ParameterNamed(const std::string& name);

// (name, mode "set" | "scale" | "add", low, high, elements or None, shared) per draw.
using DrawSpec = std::tuple<std::string, std::string, float, float, std::optional<std::vector<int>>, bool>;
std::shared_ptr<const Randomization> MakeRandomization(const CompiledModel& model, const std::vector<DrawSpec>& draws);

// The methods over `rows` envs: with_robot(self, i, f) runs f(Robot&) on env i's robot,
// set_randomization(self, ptr) hands every env the draws; `single` drops the env axis.
template <class Class, class Rows, class WithRobot, class SetRandomization>
void DefinePhysicsParameters(Class& cls, Rows rows, WithRobot with_robot, SetRandomization set_randomization, bool single) {
  using Self = typename Class::type;
  auto size_of = [with_robot](Self& self, RobotParameter p) {
    return with_robot(self, 0, [p](Robot& r) { return r.ParameterSize(p); });
  };
  cls.def(
         "get_physics",
         [rows, with_robot, size_of, single](Self& self, const std::string& name) {
           const RobotParameter p = ParameterNamed(name);
           const py::ssize_t n = rows(self), size = size_of(self, p);
           py::array_t<float> out = single ? py::array_t<float>(size) : py::array_t<float>({n, size});
           for (py::ssize_t i = 0; i < n; ++i)
             with_robot(self, int(i), [&](Robot& r) { r.GetParameter(p, out.mutable_data() + i * size); });
           return out;
         },
         py::arg("name"), "The parameter's current values (per env a row).")
      .def(
          "model_physics",
          [with_robot, size_of](Self& self, const std::string& name) {
            const RobotParameter p = ParameterNamed(name);
            py::array_t<float> out(size_of(self, p));
            with_robot(self, 0, [&](Robot& r) { r.GetModelParameter(p, out.mutable_data()); });
            return out;
          },
          py::arg("name"), "The parameter's values in the compiled model.")
      .def(
          "set_physics",
          [rows, with_robot, size_of, single](Self& self, const std::string& name, const py::handle& values) {
            const RobotParameter p = ParameterNamed(name);
            const py::ssize_t n = rows(self), size = size_of(self, p);
            std::vector<py::ssize_t> shape = single ? std::vector<py::ssize_t>{size} : std::vector<py::ssize_t>{n, size};
            FloatArray v = AsFloatArray(values, shape, name.c_str());
            for (py::ssize_t i = 0; i < n; ++i)
              with_robot(self, int(i), [&](Robot& r) { r.SetParameter(p, v.data() + i * size); });
          },
          py::arg("name"), py::arg("values"), "Sets the parameter of every env (ValueError naming a bad element).")
      .def(
          "set_randomization",
          [with_robot, set_randomization](Self& self, const std::optional<std::vector<DrawSpec>>& draws) {
            std::shared_ptr<const Randomization> r;
            if (draws) with_robot(self, 0, [&](Robot& robot) { r = MakeRandomization(robot.model(), *draws); });
            set_randomization(self, r);
          },
          py::arg("draws"),
          "Draws made for every env at each reset from now on: (name, mode, low, high, elements, shared) "
          "tuples; None: none.");
}

}  // namespace joltgym::bindings
