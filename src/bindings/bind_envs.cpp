// Tasks by name with their keyword arguments, and the single-environment core. They
// convert and validate inputs, release the GIL around native work and return fresh
// arrays; the logic lives in src/tasks.
#include "bindings/physics_parameters.h"
#include "bindings/array_convert.h"
#include "bindings/bindings.h"
#include "bindings/render_frame.h"
#include "bindings/state_bindings.h"
#include "bindings/task_params_convert.h"
#include "bindings/world_arrays.h"

#include "envs/single_env.h"
#include "tasks/suite_task.h"
#include "tasks/task_registry.h"

#include <pybind11/stl.h>

#include <memory>

namespace joltgym::bindings {
namespace {

// Info values as Gymnasium's dict: floats, or float64 arrays for keys wider than one.
py::dict InfoDict(const InfoLayout& layout, const std::vector<double>& row, bool reset_keys_only) {
  py::dict d;
  for (const InfoLayout::Key& key : layout.keys()) {
    if (reset_keys_only && !key.at_reset) continue;
    const double* values = row.data() + key.slot.offset;
    if (key.slot.width == 1) {
      d[py::str(key.name)] = values[0];
    } else {
      py::array_t<double> array(key.slot.width);
      std::copy(values, values + key.slot.width, array.mutable_data());
      d[py::str(key.name)] = array;
    }
  }
  return d;
}

std::vector<std::string> InfoKeys(const Task& task, bool reset_keys_only) {
  std::vector<std::string> keys;
  for (const InfoLayout::Key& key : task.info_layout().keys())
    if (!reset_keys_only || key.at_reset) keys.push_back(key.name);
  return keys;
}

// One C++ type per Python class: pybind11 registers each type once.
class TaskCore final : public SingleEnv {
 public:
  using SingleEnv::SingleEnv;
};

// <Name>Core for every registered task (HalfCheetahCore, HumanoidCore, ...): a TaskCore whose
// constructor builds its own task from keyword arguments. Python subclasses made here, one per
// task kind, because pybind11 binds each C++ type to one Python class.
void BindNamedCores(py::module_& m, const py::object& task_core) {
  const py::object make_type = py::module_::import("builtins").attr("type");
  for (const TaskType* kind : TaskType::All()) {
    const std::string name = kind->name() + "Core";
    py::dict attributes;
    attributes["__module__"] = m.attr("__name__");
    attributes["__doc__"] = "Single " + kind->name() + " environment (C++): " + name +
                            "(model, **kwargs) builds the task from its keyword arguments over their defaults "
                            "(task_type.defaults) on `model` (a Model); the rest is TaskCore's.";
    attributes["task_type"] = py::cast(kind, py::return_value_policy::reference);
    py::object cls = make_type(name, py::make_tuple(task_core), attributes);
    cls.attr("__init__") = py::cpp_function(
        [kind](py::handle self, std::shared_ptr<CompiledModel> model, const py::kwargs& kwargs) {
          std::shared_ptr<Task> task = CreateTask(*kind, *model, kwargs);
          py::type::of<TaskCore>().attr("__init__")(self, model, task);
        },
        py::name("__init__"), py::is_method(cls), py::arg("model"));
    m.attr(name.c_str()) = cls;
  }
}

}  // namespace

void BindEnvs(py::module_& m) {
  py::class_<Task, std::shared_ptr<Task>>(m, "Task", "Task logic shared by the single env and the pool.")
      .def_property_readonly("obs_dim", &Task::obs_dim)
      .def_property_readonly("act_dim", &Task::act_dim)
      .def_property_readonly("frame_skip", &Task::frame_skip)
      .def_property_readonly("dt", &Task::dt, "Seconds per env step: model timestep x frame_skip.")
      .def_property_readonly("info_keys", [](const Task& t) { return InfoKeys(t, false); })
      .def_property_readonly("reset_info_keys", [](const Task& t) { return InfoKeys(t, true); })
      .def_property_readonly(
          "info_layout",
          [](const Task& t) {
            py::list out;
            for (const InfoLayout::Key& k : t.info_layout().keys())
              out.append(py::make_tuple(k.name, k.slot.offset, k.slot.width, k.at_reset));
            return out;
          },
          "(key, offset, width, reported at reset) per info key; rows hold info_size float64 values.")
      .def_property_readonly("info_size", [](const Task& t) { return t.info_layout().size(); })
      .def_property_readonly(
          "observation_structure",
          [](const Task& t) {
            py::dict out;
            for (const ObservationLayout::Part& p : t.observation_layout().parts()) out[py::str(p.name)] = p.size;
            return out;
          },
          "Gymnasium's observation_structure: the observation's parts and their sizes.")
      .def_property_readonly(
          "observation_keys",
          [](const Task& t) {
            py::list out;
            for (const ObservationLayout::Key& k : t.observation_layout().keys())
              out.append(py::make_tuple(k.name, k.offset, k.size));
            return out;
          },
          "(name, offset, size) per key of a Dict observation over the vector; empty: a Box observation.")
      .def_property_readonly(
          "action_bounds",
          [](const Task& t) -> py::object {
            if (t.action_bounds().empty()) return py::none();
            py::array_t<float> out({py::ssize_t(t.action_bounds().size()), py::ssize_t(2)});
            for (size_t i = 0; i < t.action_bounds().size(); ++i)
              for (int k = 0; k < 2; ++k) out.mutable_data()[2 * i + size_t(k)] = t.action_bounds()[i][size_t(k)];
            return out;
          },
          "(act_dim, 2) low and high of each action entry, or None: the actuators' ctrlrange.");

  py::class_<TaskType> task_type(m, "TaskType", "A task kind: its keyword arguments with their defaults, and a factory.");
  DefineTaskKindBasics(task_type);
  task_type.def(
      "create",
      [](const TaskType& t, std::shared_ptr<CompiledModel> model, const py::kwargs& kwargs) {
        return CreateTask(t, *model, kwargs);
      },
      py::arg("model"), "The task for `model`, with keyword arguments over the defaults.");
  m.def("task_type", &TaskType::Find, py::arg("name"), py::return_value_policy::reference,
        "The registered task kind of this name (ValueError lists the known ones).");
  m.def("task_types", &TaskType::All, py::return_value_policy::reference, "Every registered task kind, by name.");

  py::class_<TaskCore> core(m, "TaskCore", "The single-environment face of any task.");
  core.def(py::init([](std::shared_ptr<CompiledModel> model, std::shared_ptr<Task> task) {
             return std::make_unique<TaskCore>(model, task);
           }),
           py::arg("model"), py::arg("task"))
      .def_property_readonly("obs_dim", [](const TaskCore& e) { return e.task().obs_dim(); })
      .def_property_readonly("act_dim", [](const TaskCore& e) { return e.task().act_dim(); })
      .def(
          "reset",
          [](TaskCore& self, std::uint64_t seed) {
            py::array_t<float> obs(self.task().obs_dim());
            std::vector<double> info(size_t(self.task().info_layout().size()));
            {
              py::gil_scoped_release release;
              self.Reset(seed, obs.mutable_data(), info.data());
            }
            return py::make_tuple(obs, InfoDict(self.task().info_layout(), info, /*reset_keys_only=*/true));
          },
          py::arg("seed"), "Reset with the given 64-bit seed; returns (obs, info).")
      .def(
          "step",
          [](TaskCore& self, const py::object& action) {
            auto a = AsFloatArray(action, {self.task().act_dim()}, "action");
            py::array_t<float> obs(self.task().obs_dim());
            std::vector<double> info(size_t(self.task().info_layout().size()));
            StepOutcome outcome;
            {
              py::gil_scoped_release release;
              outcome = self.Step(a.data(), obs.mutable_data(), info.data());
            }
            return py::make_tuple(obs, double(outcome.reward), outcome.terminated, outcome.diverged,
                                  InfoDict(self.task().info_layout(), info, /*reset_keys_only=*/false));
          },
          py::arg("action"),
          "One environment step; returns (obs, reward, terminated, diverged, info), diverged: the physics "
          "diverged (Robot::Diverged).")
      .def(
          "observe",
          [](TaskCore& self) {
            py::array_t<float> obs(self.task().obs_dim());
            self.Observe(obs.mutable_data());
            return obs;
          },
          "The task's observation of the current state (e.g. after set_state).")
      .def(
          "suite_reward",
          [](TaskCore& self, const py::object& action) {
            const auto* suite = dynamic_cast<const SuiteTask*>(&self.task());
            if (!suite) throw py::value_error("suite_reward: only the Control Suite's tasks score a state alone");
            auto a = AsFloatArray(action, {self.task().act_dim()}, "action");
            return self.WithRobotAndWorkspace([&](Robot& robot, TaskWorkspace& ws) {
              robot.SetControls(a.data());
              return double(suite->Reward(robot, ws));
            });
          },
          py::arg("action"),
          "A Control Suite task's reward of the current state under controls `action` (dm_control's "
          "task.get_reward(physics)); the controls stay set.")
      .def(
          "save_state",
          [](TaskCore& self, std::uint64_t seed_state, int elapsed) {
            StateBuffer out;
            {
              py::gil_scoped_release release;
              self.SaveState(EpisodeState{seed_state, elapsed, false}, out);
            }
            return StateBytes(out);
          },
          py::arg("seed_state"), py::arg("elapsed"),
          "The env's saved state (bytes), with the Python side's episode seed stream and step count.")
      .def(
          "restore_state",
          [](TaskCore& self, const py::object& state) {
            StateBuffer in;
            StateFromPython(state, in, "the state");
            EpisodeState episode;
            {
              py::gil_scoped_release release;
              episode = self.RestoreState(in);
            }
            return py::make_tuple(episode.seed_state, episode.elapsed, episode.done);
          },
          py::arg("state"), "Restores save_state's bytes; returns the (seed_state, elapsed, done) saved with them.");
  DefRender<TaskCore>(core, [](TaskCore& s, auto&& f) { s.WithWorld(f); });
  DefineWorldViews(core, [](TaskCore& s, auto&& f) { return s.WithRobot(f); });
  DefinePhysicsParameters(
      core, [](TaskCore&) { return py::ssize_t(1); },
      [](TaskCore& s, int, auto&& f) -> decltype(auto) { return s.WithRobot(f); },
      [](TaskCore& s, const std::shared_ptr<const Randomization>& r) { s.SetRandomization(r); }, true);
  BindNamedCores(m, core);
}

}  // namespace joltgym::bindings
