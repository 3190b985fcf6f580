// Single-environment task cores. They convert and validate inputs, release the
// GIL around native work and return fresh arrays; the logic lives in src/tasks.
#include "bindings/array_convert.h"
#include "bindings/bindings.h"
#include "bindings/world_arrays.h"

#include "envs/single_env.h"
#include "tasks/ant.h"
#include "tasks/humanoid.h"
#include "tasks/humanoid_standup.h"
#include "tasks/inverted_double_pendulum.h"
#include "tasks/inverted_pendulum.h"
#include "tasks/planar_runner.h"
#include "tasks/reacher.h"
#include "tasks/swimmer.h"

#include <pybind11/stl.h>

#include <limits>
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
            std::vector<float> info(self.task().reset_info_keys().size());
            {
              py::gil_scoped_release release;
              self.Reset(seed, obs.mutable_data(), info.data());
            }
            return py::make_tuple(obs, InfoDict(self.task().reset_info_keys(), info));
          },
          py::arg("seed"), "Reset with the given 64-bit seed; returns (obs, info).")
      .def(
          "step",
          [](Self& self, const py::object& action) {
            auto a = AsFloatArray(action, {self.task().act_dim()}, "action");
            py::array_t<float> obs(self.task().obs_dim());
            std::vector<float> info(self.task().info_keys().size());
            StepOutcome outcome;
            {
              py::gil_scoped_release release;
              outcome = self.Step(a.data(), obs.mutable_data(), info.data());
            }
            return py::make_tuple(obs, double(outcome.reward), outcome.terminated,
                                  InfoDict(self.task().info_keys(), info));
          },
          py::arg("action"), "One environment step; returns (obs, reward, terminated, info).")
      .def(
          "observe",
          [](Self& self) {
            py::array_t<float> obs(self.task().obs_dim());
            self.Observe(obs.mutable_data());
            return obs;
          },
          "The task's observation of the current state (e.g. after set_state).");
  DefineWorldViews(cls, [](Self& s, auto&& f) { return s.WithWorld(f); });
}

// One C++ type per Python class: pybind11 registers each type once.
class TaskCore final : public SingleEnv {
 public:
  using SingleEnv::SingleEnv;
};
class HalfCheetahCore final : public SingleEnv {
 public:
  using SingleEnv::SingleEnv;
};
class HumanoidCore final : public SingleEnv {
 public:
  using SingleEnv::SingleEnv;
};

// The observation and reset arguments both humanoid tasks end with, in v5's order.
HumanoidObservationParams HumanoidBody(float reset_noise_scale, bool exclude_positions, bool cinert, bool cvel,
                                       bool qfrc_actuator, bool cfrc_ext, int frame_skip) {
  HumanoidObservationParams p;
  p.reset_noise_scale = reset_noise_scale;
  p.exclude_current_positions_from_observation = exclude_positions;
  p.include_cinert_in_observation = cinert;
  p.include_cvel_in_observation = cvel;
  p.include_qfrc_actuator_in_observation = qfrc_actuator;
  p.include_cfrc_ext_in_observation = cfrc_ext;
  p.frame_skip = frame_skip;
  return p;
}
#define HUMANOID_BODY_ARGS                                                                                   \
  py::arg("reset_noise_scale") = 1e-2f, py::arg("exclude_current_positions_from_observation") = true,        \
      py::arg("include_cinert_in_observation") = true, py::arg("include_cvel_in_observation") = true,       \
      py::arg("include_qfrc_actuator_in_observation") = true, py::arg("include_cfrc_ext_in_observation") = true, \
      py::arg("frame_skip") = 5
// A pybind11 factory taking Humanoid-v5's arguments that hands HumanoidParams to `make`.
template <class Make>
auto HumanoidFactory(Make make) {
  return [make](std::shared_ptr<CompiledModel> model, float forward_reward_weight, float ctrl_cost_weight,
                float contact_cost_weight, std::array<float, 2> contact_cost_range, float healthy_reward,
                bool terminate_when_unhealthy, std::array<float, 2> healthy_z_range, float reset_noise_scale,
                bool exclude_positions, bool cinert, bool cvel, bool qfrc_actuator, bool cfrc_ext, int frame_skip) {
    HumanoidParams p;
    p.body = HumanoidBody(reset_noise_scale, exclude_positions, cinert, cvel, qfrc_actuator, cfrc_ext, frame_skip);
    p.forward_reward_weight = forward_reward_weight;
    p.ctrl_cost_weight = ctrl_cost_weight;
    p.contact_cost_weight = contact_cost_weight;
    p.contact_cost_range = contact_cost_range;
    p.healthy_reward = healthy_reward;
    p.terminate_when_unhealthy = terminate_when_unhealthy;
    p.healthy_z_range = healthy_z_range;
    return make(model, p);
  };
}
// v5's contact/impact cost range: (-inf, 10].
const std::array<float, 2> kOpenAboveTen{-std::numeric_limits<float>::infinity(), 10.0f};

// The parameters every planar runner shares (HalfCheetah uses only these).
PlanarRunnerParams RunnerParams(float forward_reward_weight, float ctrl_cost_weight, float reset_noise_scale,
                                bool exclude_current_positions_from_observation, int frame_skip) {
  PlanarRunnerParams p;
  p.forward_reward_weight = forward_reward_weight;
  p.ctrl_cost_weight = ctrl_cost_weight;
  p.reset_noise_scale = reset_noise_scale;
  p.exclude_current_positions_from_observation = exclude_current_positions_from_observation;
  p.frame_skip = frame_skip;
  return p;
}

}  // namespace

void BindEnvs(py::module_& m) {
  py::class_<Task, std::shared_ptr<Task>>(m, "Task", "Task logic shared by the single env, the pool and multi-agent envs.")
      .def_property_readonly("obs_dim", &Task::obs_dim)
      .def_property_readonly("act_dim", &Task::act_dim)
      .def_property_readonly("frame_skip", &Task::frame_skip)
      .def_property_readonly("info_keys", &Task::info_keys)
      .def_property_readonly("reset_info_keys", &Task::reset_info_keys);

  py::class_<PlanarRunnerTask, Task, std::shared_ptr<PlanarRunnerTask>>(
      m, "PlanarRunnerTask", "HalfCheetah, Hopper and Walker2d (Gymnasium v5 conventions as parameters).")
      .def(py::init([](std::shared_ptr<CompiledModel> model, float forward_reward_weight, float ctrl_cost_weight,
                       float reset_noise_scale, bool exclude_current_positions_from_observation, int frame_skip,
                       bool uniform_velocity_noise, float qvel_clip, bool has_health, float healthy_reward,
                       bool terminate_when_unhealthy, std::array<float, 2> healthy_z_range,
                       std::array<float, 2> healthy_angle_range, bool check_state_range,
                       std::array<float, 2> healthy_state_range) {
             PlanarRunnerParams p = RunnerParams(forward_reward_weight, ctrl_cost_weight, reset_noise_scale,
                                                 exclude_current_positions_from_observation, frame_skip);
             p.uniform_velocity_noise = uniform_velocity_noise;
             p.qvel_clip = qvel_clip;
             p.has_health = has_health;
             p.healthy_reward = healthy_reward;
             p.terminate_when_unhealthy = terminate_when_unhealthy;
             p.healthy_z_range = healthy_z_range;
             p.healthy_angle_range = healthy_angle_range;
             p.check_state_range = check_state_range;
             p.healthy_state_range = healthy_state_range;
             return std::make_shared<PlanarRunnerTask>(*model, p);
           }),
           py::arg("model"), py::arg("forward_reward_weight") = 1.0f, py::arg("ctrl_cost_weight") = 0.1f,
           py::arg("reset_noise_scale") = 0.1f, py::arg("exclude_current_positions_from_observation") = true,
           py::arg("frame_skip") = 5, py::arg("uniform_velocity_noise") = false, py::arg("qvel_clip") = 0.0f,
           py::arg("has_health") = false, py::arg("healthy_reward") = 1.0f,
           py::arg("terminate_when_unhealthy") = true,
           py::arg("healthy_z_range") = std::array<float, 2>{0.0f, 0.0f},
           py::arg("healthy_angle_range") = std::array<float, 2>{0.0f, 0.0f}, py::arg("check_state_range") = false,
           py::arg("healthy_state_range") = std::array<float, 2>{-100.0f, 100.0f});

  py::class_<InvertedPendulumTask, Task, std::shared_ptr<InvertedPendulumTask>>(m, "InvertedPendulumTask")
      .def(py::init([](std::shared_ptr<CompiledModel> model, float reset_noise_scale, int frame_skip) {
             return std::make_shared<InvertedPendulumTask>(*model, InvertedPendulumParams{reset_noise_scale, frame_skip});
           }),
           py::arg("model"), py::arg("reset_noise_scale") = 0.01f, py::arg("frame_skip") = 2);

  py::class_<InvertedDoublePendulumTask, Task, std::shared_ptr<InvertedDoublePendulumTask>>(
      m, "InvertedDoublePendulumTask")
      .def(py::init([](std::shared_ptr<CompiledModel> model, float healthy_reward, float reset_noise_scale,
                       int frame_skip) {
             return std::make_shared<InvertedDoublePendulumTask>(
                 *model, InvertedDoublePendulumParams{healthy_reward, reset_noise_scale, frame_skip});
           }),
           py::arg("model"), py::arg("healthy_reward") = 10.0f, py::arg("reset_noise_scale") = 0.1f,
           py::arg("frame_skip") = 5);

  py::class_<AntTask, Task, std::shared_ptr<AntTask>>(m, "AntTask", "Ant (Gymnasium Ant-v5 conventions).")
      .def(py::init([](std::shared_ptr<CompiledModel> model, float forward_reward_weight, float ctrl_cost_weight,
                       float contact_cost_weight, float healthy_reward, bool terminate_when_unhealthy,
                       std::array<float, 2> healthy_z_range, std::array<float, 2> contact_force_range,
                       float reset_noise_scale, bool exclude_current_positions_from_observation,
                       bool include_cfrc_ext_in_observation, int frame_skip, int main_body) {
             AntParams p;
             p.forward_reward_weight = forward_reward_weight;
             p.ctrl_cost_weight = ctrl_cost_weight;
             p.contact_cost_weight = contact_cost_weight;
             p.healthy_reward = healthy_reward;
             p.terminate_when_unhealthy = terminate_when_unhealthy;
             p.healthy_z_range = healthy_z_range;
             p.contact_force_range = contact_force_range;
             p.reset_noise_scale = reset_noise_scale;
             p.exclude_current_positions_from_observation = exclude_current_positions_from_observation;
             p.include_cfrc_ext_in_observation = include_cfrc_ext_in_observation;
             p.frame_skip = frame_skip;
             p.main_body = main_body;
             return std::make_shared<AntTask>(*model, p);
           }),
           py::arg("model"), py::arg("forward_reward_weight") = 1.0f, py::arg("ctrl_cost_weight") = 0.5f,
           py::arg("contact_cost_weight") = 5e-4f, py::arg("healthy_reward") = 1.0f,
           py::arg("terminate_when_unhealthy") = true, py::arg("healthy_z_range") = std::array<float, 2>{0.2f, 1.0f},
           py::arg("contact_force_range") = std::array<float, 2>{-1.0f, 1.0f}, py::arg("reset_noise_scale") = 0.1f,
           py::arg("exclude_current_positions_from_observation") = true,
           py::arg("include_cfrc_ext_in_observation") = true, py::arg("frame_skip") = 5, py::arg("main_body") = 0);

  py::class_<SwimmerTask, Task, std::shared_ptr<SwimmerTask>>(m, "SwimmerTask", "Swimmer (Gymnasium Swimmer-v5).")
      .def(py::init([](std::shared_ptr<CompiledModel> model, float forward_reward_weight, float ctrl_cost_weight,
                       float reset_noise_scale, bool exclude_current_positions_from_observation, int frame_skip) {
             return std::make_shared<SwimmerTask>(
                 *model, SwimmerParams{forward_reward_weight, ctrl_cost_weight, reset_noise_scale,
                                       exclude_current_positions_from_observation, frame_skip});
           }),
           py::arg("model"), py::arg("forward_reward_weight") = 1.0f, py::arg("ctrl_cost_weight") = 1e-4f,
           py::arg("reset_noise_scale") = 0.1f, py::arg("exclude_current_positions_from_observation") = true,
           py::arg("frame_skip") = 4);

  // Humanoid-v5's keyword arguments and defaults, shared by HumanoidTask and HumanoidCore.
  auto humanoid_args = [](auto& cls, auto init) {
    cls.def(std::move(init), py::arg("model"), py::arg("forward_reward_weight") = 1.25f,
            py::arg("ctrl_cost_weight") = 0.1f, py::arg("contact_cost_weight") = 5e-7f,
            py::arg("contact_cost_range") = kOpenAboveTen, py::arg("healthy_reward") = 5.0f,
            py::arg("terminate_when_unhealthy") = true, py::arg("healthy_z_range") = std::array<float, 2>{1.0f, 2.0f},
            HUMANOID_BODY_ARGS);
  };
  py::class_<HumanoidTask, Task, std::shared_ptr<HumanoidTask>> humanoid_task(
      m, "HumanoidTask", "Humanoid (Gymnasium Humanoid-v5 conventions).");
  humanoid_args(humanoid_task, py::init(HumanoidFactory([](std::shared_ptr<CompiledModel> model, const HumanoidParams& p) {
                  return std::make_shared<HumanoidTask>(*model, p);
                })));

  py::class_<HumanoidStandupTask, Task, std::shared_ptr<HumanoidStandupTask>>(
      m, "HumanoidStandupTask", "HumanoidStandup (Gymnasium HumanoidStandup-v5 conventions).")
      .def(py::init([](std::shared_ptr<CompiledModel> model, float uph_cost_weight, float ctrl_cost_weight,
                       float impact_cost_weight, std::array<float, 2> impact_cost_range, float reset_noise_scale,
                       bool exclude_positions, bool cinert, bool cvel, bool qfrc_actuator, bool cfrc_ext,
                       int frame_skip) {
             HumanoidStandupParams p;
             p.body = HumanoidBody(reset_noise_scale, exclude_positions, cinert, cvel, qfrc_actuator, cfrc_ext,
                                   frame_skip);
             p.uph_cost_weight = uph_cost_weight;
             p.ctrl_cost_weight = ctrl_cost_weight;
             p.impact_cost_weight = impact_cost_weight;
             p.impact_cost_range = impact_cost_range;
             return std::make_shared<HumanoidStandupTask>(*model, p);
           }),
           py::arg("model"), py::arg("uph_cost_weight") = 1.0f, py::arg("ctrl_cost_weight") = 0.1f,
           py::arg("impact_cost_weight") = 0.5e-6f, py::arg("impact_cost_range") = kOpenAboveTen, HUMANOID_BODY_ARGS);

  py::class_<ReacherTask, Task, std::shared_ptr<ReacherTask>>(m, "ReacherTask", "Reacher (Gymnasium Reacher-v5).")
      .def(py::init([](std::shared_ptr<CompiledModel> model, float reward_dist_weight, float reward_control_weight,
                       int frame_skip, int fingertip, int target) {
             return std::make_shared<ReacherTask>(
                 *model, ReacherParams{reward_dist_weight, reward_control_weight, frame_skip, fingertip, target});
           }),
           py::arg("model"), py::arg("reward_dist_weight") = 1.0f, py::arg("reward_control_weight") = 1.0f,
           py::arg("frame_skip") = 2, py::arg("fingertip") = -1, py::arg("target") = -1);

  py::class_<TaskCore> core(m, "TaskCore", "The single-environment face of any task.");
  core.def(py::init([](std::shared_ptr<CompiledModel> model, std::shared_ptr<Task> task) {
             return std::make_unique<TaskCore>(model, task);
           }),
           py::arg("model"), py::arg("task"));
  DefineCoreMethods(core);

  py::class_<HalfCheetahCore> cheetah(m, "HalfCheetahCore", "HalfCheetah task logic (Gymnasium HalfCheetah-v5 conventions).");
  cheetah.def(py::init([](std::shared_ptr<CompiledModel> model, float forward_reward_weight, float ctrl_cost_weight,
                          float reset_noise_scale, bool exclude_current_positions_from_observation, int frame_skip) {
                PlanarRunnerParams p = RunnerParams(forward_reward_weight, ctrl_cost_weight, reset_noise_scale,
                                                    exclude_current_positions_from_observation, frame_skip);
                return std::make_unique<HalfCheetahCore>(model, std::make_shared<PlanarRunnerTask>(*model, p));
              }),
              py::arg("model"), py::arg("forward_reward_weight") = 1.0f, py::arg("ctrl_cost_weight") = 0.1f,
              py::arg("reset_noise_scale") = 0.1f, py::arg("exclude_current_positions_from_observation") = true,
              py::arg("frame_skip") = 5);
  DefineCoreMethods(cheetah);

  py::class_<HumanoidCore> humanoid(m, "HumanoidCore", "Humanoid task logic (Gymnasium Humanoid-v5 conventions).");
  humanoid_args(humanoid, py::init(HumanoidFactory([](std::shared_ptr<CompiledModel> model, const HumanoidParams& p) {
                  return std::make_unique<HumanoidCore>(model, std::make_shared<HumanoidTask>(*model, p));
                })));
  DefineCoreMethods(humanoid);
}

}  // namespace joltgym::bindings
