// Single-environment task cores. They convert and validate inputs, release the
// GIL around native work and return fresh arrays; the logic lives in src/tasks.
#include "bindings/array_convert.h"
#include "bindings/bindings.h"
#include "bindings/world_arrays.h"

#include "envs/single_env.h"
#include "tasks/half_cheetah.h"

#include <pybind11/stl.h>

#include <memory>

namespace joltgym::bindings {
namespace {

py::dict InfoDict(const std::vector<std::string>& keys, const std::vector<float>& values) {
  py::dict d;
  for (size_t i = 0; i < keys.size(); ++i) d[py::str(keys[i])] = values[i];
  return d;
}

// Shared surface of every <Task>Core class.
template <class Class>
void DefineCoreMethods(Class& cls) {
  using Self = typename Class::type;
  cls.def_property_readonly("obs_dim", [](const Self& e) { return e.task().obs_dim(); })
      .def_property_readonly("act_dim", [](const Self& e) { return e.task().act_dim(); })
      .def_property_readonly("frame_skip", [](const Self& e) { return e.task().frame_skip(); })
      .def_property_readonly("info_keys", [](const Self& e) { return e.task().info_keys(); })
      .def(
          "reset",
          [](Self& self, std::uint64_t seed) {
            py::array_t<float> obs(self.task().obs_dim());
            {
              py::gil_scoped_release release;
              self.Reset(seed, obs.mutable_data());
            }
            return py::make_tuple(obs, InfoDict(self.task().reset_info_keys(), self.reset_info()));
          },
          py::arg("seed"), "Reset with the given 64-bit seed; returns (obs, info).")
      .def(
          "step",
          [](Self& self, const py::object& action) {
            auto a = AsFloatArray(action, {self.task().act_dim()}, "action");
            py::array_t<float> obs(self.task().obs_dim());
            StepOutcome outcome;
            {
              py::gil_scoped_release release;
              outcome = self.Step(a.data(), obs.mutable_data());
            }
            return py::make_tuple(obs, double(outcome.reward), outcome.terminated,
                                  InfoDict(self.task().info_keys(), self.info()));
          },
          py::arg("action"), "One environment step; returns (obs, reward, terminated, info).");
  DefineWorldViews(cls, [](Self& s) -> World& { return s.world(); });
}

// One C++ type per Python class: pybind11 registers each type once.
class HalfCheetahCore final : public SingleEnv {
 public:
  using SingleEnv::SingleEnv;
};

}  // namespace

static HalfCheetahParams MakeHalfCheetahParams(float forward_reward_weight, float ctrl_cost_weight, float reset_noise_scale,
                                        bool exclude_current_positions_from_observation, int frame_skip) {
  HalfCheetahParams p;
  p.forward_reward_weight = forward_reward_weight;
  p.ctrl_cost_weight = ctrl_cost_weight;
  p.reset_noise_scale = reset_noise_scale;
  p.exclude_current_positions_from_observation = exclude_current_positions_from_observation;
  p.frame_skip = frame_skip;
  return p;
}

void BindEnvs(py::module_& m) {
  py::class_<Task, std::shared_ptr<Task>>(m, "Task", "Task logic shared by the single env, the pool and multi-agent envs.")
      .def_property_readonly("obs_dim", &Task::obs_dim)
      .def_property_readonly("act_dim", &Task::act_dim)
      .def_property_readonly("frame_skip", &Task::frame_skip)
      .def_property_readonly("info_keys", &Task::info_keys)
      .def_property_readonly("reset_info_keys", &Task::reset_info_keys);

  py::class_<HalfCheetahTask, Task, std::shared_ptr<HalfCheetahTask>>(m, "HalfCheetahTask")
      .def(py::init([](std::shared_ptr<CompiledModel> model, float forward_reward_weight, float ctrl_cost_weight,
                       float reset_noise_scale, bool exclude_current_positions_from_observation, int frame_skip) {
             return std::make_shared<HalfCheetahTask>(
                 *model, MakeHalfCheetahParams(forward_reward_weight, ctrl_cost_weight, reset_noise_scale,
                                               exclude_current_positions_from_observation, frame_skip));
           }),
           py::arg("model"), py::arg("forward_reward_weight") = 1.0f, py::arg("ctrl_cost_weight") = 0.1f,
           py::arg("reset_noise_scale") = 0.1f, py::arg("exclude_current_positions_from_observation") = true,
           py::arg("frame_skip") = 5);

  py::class_<HalfCheetahCore> cheetah(m, "HalfCheetahCore", "HalfCheetah task logic (Gymnasium HalfCheetah-v5 conventions).");
  cheetah.def(py::init([](std::shared_ptr<CompiledModel> model, float forward_reward_weight, float ctrl_cost_weight,
                          float reset_noise_scale, bool exclude_current_positions_from_observation, int frame_skip) {
                auto task = std::make_shared<HalfCheetahTask>(
                    *model, MakeHalfCheetahParams(forward_reward_weight, ctrl_cost_weight, reset_noise_scale,
                                                  exclude_current_positions_from_observation, frame_skip));
                return std::make_unique<HalfCheetahCore>(model, task);
              }),
              py::arg("model"), py::arg("forward_reward_weight") = 1.0f, py::arg("ctrl_cost_weight") = 0.1f,
              py::arg("reset_noise_scale") = 0.1f, py::arg("exclude_current_positions_from_observation") = true,
              py::arg("frame_skip") = 5);
  DefineCoreMethods(cheetah);
}

}  // namespace joltgym::bindings
