// Multi-agent tasks and the single multi-agent env: conversion and GIL release only.
#include "bindings/array_convert.h"
#include "bindings/async_bindings.h"
#include "bindings/state_bindings.h"
#include "bindings/bindings.h"
#include "bindings/render_frame.h"
#include "bindings/task_params_convert.h"
#include "bindings/world_arrays.h"

#include "envs/saved_state.h"
#include "marl/factored_task.h"
#include "marl/multi_agent_env.h"
#include "pool/multi_agent_pool.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>

namespace joltgym::bindings {
namespace {

// The task's knob `index`; IndexError if it has none.
const Knob& KnobAt(const MultiAgentTask& task, int index) {
  if (index < 0 || index >= int(task.knobs().size())) throw py::index_error("no such knob");
  return task.knobs()[size_t(index)];
}

// A MultiAgentEnv with its own stepping scratch; its lock serialises calls from several
// Python threads (reset and step release the GIL).
struct PyMultiAgentEnv {
  PyMultiAgentEnv(std::shared_ptr<const MultiAgentTask> task, int max_episode_steps)
      : env(std::move(task), max_episode_steps), ctx(TempBytesFor(env.world())) {}
  std::mutex mutex;
  MultiAgentEnv env;
  StepContext ctx;
};

// A task's floor marks as the circles render() takes.
py::list MarksToCircles(const std::vector<FloorMark>& marks) {
  py::list out;
  for (const FloorMark& mark : marks)
    out.append(py::dict(py::arg("x") = mark.x, py::arg("y") = mark.y, py::arg("radius") = mark.radius,
                        py::arg("filled") = mark.filled));
  return out;
}

// One robot of a PyMultiAgentEnv's world, read under the env's lock.
struct PyEnvRobot {
  std::shared_ptr<PyMultiAgentEnv> owner;
  int index;
};

py::tuple Outputs(const MultiAgentTask& t) {
  const py::ssize_t n = t.num_agents();
  return py::make_tuple(py::array_t<float>({n, py::ssize_t(t.max_obs_dim())}), py::array_t<float>(t.state_dim()),
                        py::array_t<double>({n, py::ssize_t(t.info_layout().size())}));
}

// The pool's outputs in the caller's buffers of w rows (every env's, or a batch's).
MultiAgentPoolOutput PoolOutputs(MultiAgentPool& pool, const py::list& outputs, py::ssize_t w) {
  if (outputs.size() != 9) throw py::value_error("outputs: 9 buffers expected");
  const MultiAgentTask& t = pool.task();
  const py::ssize_t a = t.num_agents();
  auto at = [&](size_t i) { return outputs[i].cast<py::array>(); };
  py::array obs = at(0), state = at(1), rewards = at(2), terminated = at(3), truncated = at(4), infos = at(5),
            was_reset = at(6), acted = at(7), diverged = at(8);
  MultiAgentPoolOutput out;
  out.obs = Writable<float>(obs, {w, a, t.max_obs_dim()}, "obs");
  out.state = Writable<float>(state, {w, t.state_dim()}, "state");
  out.rewards = Writable<float>(rewards, {w, a}, "rewards");
  out.terminated = Writable<bool>(terminated, {w, a}, "terminated");
  out.truncated = Writable<bool>(truncated, {w, a}, "truncated");
  out.infos = Writable<double>(infos, {w, a, t.info_layout().size()}, "infos");
  out.was_reset = Writable<bool>(was_reset, {w}, "was_reset");
  out.acted = Writable<bool>(acted, {w, a}, "acted");
  out.diverged = Writable<bool>(diverged, {w}, "diverged");
  return out;
}

}  // namespace

void BindMarl(py::module_& m) {
  py::class_<MultiAgentTask, std::shared_ptr<MultiAgentTask>>(
      m, "MultiAgentTask", "A world of robots shared by several agents, each with its own spaces and rewards.")
      .def_property_readonly("num_agents", &MultiAgentTask::num_agents)
      .def_property_readonly(
          "agents",
          [](const MultiAgentTask& t) {
            py::list out;
            for (int i = 0; i < t.num_agents(); ++i) {
              const AgentSpec& a = t.agent(i);
              py::dict d;
              d["name"] = a.name;
              d["obs_dim"] = a.obs_dim;
              d["act_dim"] = a.act_dim;
              d["act_low"] = a.act_low;
              d["act_high"] = a.act_high;
              out.append(d);
            }
            return out;
          },
          "Per agent: name, obs_dim, act_dim, act_low, act_high.")
      .def_property_readonly("max_obs_dim", &MultiAgentTask::max_obs_dim)
      .def_property_readonly("max_act_dim", &MultiAgentTask::max_act_dim)
      .def_property_readonly("state_dim", &MultiAgentTask::state_dim)
      .def_property_readonly("frame_skip", &MultiAgentTask::frame_skip)
      .def_property_readonly("dt", &MultiAgentTask::dt)
      .def_property_readonly("num_robots", [](const MultiAgentTask& t) { return int(t.robots().size()); })
      .def_property_readonly("knobs", [](const MultiAgentTask& t) {
        py::list out;
        for (const Knob& k : t.knobs()) out.append(py::make_tuple(k.name, k.initial, k.min, k.max));
        return out;
      }, "(name, initial value, min, max) of each runtime knob (e.g. the shaping reward's weight).")
      .def_property_readonly("info_layout", [](const MultiAgentTask& t) {
        py::list out;
        for (const InfoLayout::Key& k : t.info_layout().keys())
          out.append(py::make_tuple(k.name, k.slot.offset, k.slot.width, k.at_reset));
        return out;
      });

  py::enum_<ObservationSource::Kind>(m, "ObservationSourceKind")
      .value("STATE", ObservationSource::Kind::kState)
      .value("QPOS", ObservationSource::Kind::kQpos)
      .value("QVEL", ObservationSource::Kind::kQvel)
      .value("BODY_DELTA", ObservationSource::Kind::kBodyDelta);

  py::class_<FactoredTask, MultiAgentTask, std::shared_ptr<FactoredTask>>(
      m, "FactoredTask", "One robot's actuators split among agents (MaMuJoCo's factorisation) over its single-agent task.")
      .def(py::init([](std::shared_ptr<CompiledModel> model, std::shared_ptr<Task> task, const py::list& agents) {
             std::vector<FactoredAgent> factored;
             for (const py::handle& agent : agents) {
               const auto pair = agent.cast<py::tuple>();
               FactoredAgent f;
               f.actuators = pair[0].cast<std::vector<int>>();
               for (const py::handle& source : pair[1].cast<py::list>()) {
                 const auto s = source.cast<py::tuple>();
                 ObservationSource o;
                 o.kind = s[0].cast<ObservationSource::Kind>();
                 o.index = s[1].cast<int>();
                 if (s.size() > 2) o.other = s[2].cast<int>();
                 if (s.size() > 3) o.axis = s[3].cast<int>();
                 f.observation.push_back(o);
               }
               factored.push_back(std::move(f));
             }
             return std::make_shared<FactoredTask>(model, task, std::move(factored));
           }),
           py::arg("model"), py::arg("task"), py::arg("agents"),
           "agents: per agent (actuator indices, [(ObservationSourceKind, index[, other, axis]), ...]).");

  py::class_<MultiAgentTaskType> kind(m, "MultiAgentTaskType",
                                      "A multi-agent task kind: its keyword arguments with their defaults, and a factory.");
  DefineTaskKindBasics(kind);
  kind.def(
      "create",
      [](const MultiAgentTaskType& t, const std::vector<std::shared_ptr<CompiledModel>>& models,
         const py::kwargs& kwargs) {
        const std::vector<ModelPtr> input(models.begin(), models.end());
        return CreateTask(t, input, kwargs);
      },
      py::arg("models"), "The task on these models (its table row's), with keyword arguments over the defaults.");
  m.def("multi_agent_task_type", &MultiAgentTaskType::Find, py::arg("name"), py::return_value_policy::reference);
  m.def("multi_agent_task_types", &MultiAgentTaskType::All, py::return_value_policy::reference);

  auto env = py::class_<PyMultiAgentEnv, std::shared_ptr<PyMultiAgentEnv>>(m, "MultiAgentEnv",
                                                                "One world of a multi-agent task, stepped natively.")
      .def(py::init([](std::shared_ptr<MultiAgentTask> task, int max_episode_steps) {
             if (!task) throw py::value_error("MultiAgentEnv needs a task");
             return std::make_shared<PyMultiAgentEnv>(task, max_episode_steps);
           }),
           py::arg("task"), py::arg("max_episode_steps") = 0)
      .def(
          "reset",
          [](PyMultiAgentEnv& self, std::uint64_t seed) {
            const MultiAgentTask& t = self.env.task();
            py::tuple out = Outputs(t);
            auto obs = out[0].cast<py::array_t<float>>();
            auto state = out[1].cast<py::array_t<float>>();
            auto infos = out[2].cast<py::array_t<double>>();
            {
              py::gil_scoped_release release;
              std::lock_guard<std::mutex> lock(self.mutex);
              self.env.Reset(seed, obs.mutable_data(), state.mutable_data(), infos.mutable_data());
            }
            return out;
          },
          py::arg("seed"), "Reset; returns (obs [agents, max_obs_dim], state, infos [agents, info size]).")
      .def(
          "step",
          [](PyMultiAgentEnv& self, const py::object& actions) {
            const MultiAgentTask& t = self.env.task();
            const py::ssize_t n = t.num_agents();
            auto a = AsFloatArray(actions, {n, py::ssize_t(t.max_act_dim())}, "actions");
            py::tuple out = Outputs(t);
            auto obs = out[0].cast<py::array_t<float>>();
            auto state = out[1].cast<py::array_t<float>>();
            auto infos = out[2].cast<py::array_t<double>>();
            py::array_t<float> rewards(n);
            py::array_t<bool> terminated(n), truncated(n);
            bool diverged = false;
            MultiAgentStepOutput o{obs.mutable_data(),        state.mutable_data(),     rewards.mutable_data(),
                                   terminated.mutable_data(), truncated.mutable_data(), infos.mutable_data(),
                                   &diverged};
            {
              py::gil_scoped_release release;
              std::lock_guard<std::mutex> lock(self.mutex);
              self.env.Step(a.data(), self.ctx, o);
            }
            return py::make_tuple(obs, state, rewards, terminated, truncated, infos, diverged);
          },
          py::arg("actions"),
          "One step with actions [agents, max_act_dim]; returns (obs, state, rewards, terminated, truncated, infos, "
          "diverged), diverged: the world's physics diverged and every agent still playing was truncated.")
      .def_property_readonly("task", [](PyMultiAgentEnv& self) { return &self.env.task(); },
                             py::return_value_policy::reference_internal)
      .def(
          "knob",
          [](PyMultiAgentEnv& self, int index) {
            std::lock_guard<std::mutex> lock(self.mutex);
            KnobAt(self.env.task(), index);
            return self.env.knob(index);
          },
          py::arg("index"))
      .def(
          "set_knob",
          [](PyMultiAgentEnv& self, int index, float value) {
            std::lock_guard<std::mutex> lock(self.mutex);
            CheckKnobValue(KnobAt(self.env.task(), index), value);
            self.env.SetKnob(index, value);
          },
          py::arg("index"), py::arg("value"))
      .def(
          "save_state",
          [](PyMultiAgentEnv& self, std::uint64_t seed_state) {
            StateBuffer out;
            {
              py::gil_scoped_release release;
              std::lock_guard<std::mutex> lock(self.mutex);
              WriteSavedState(out, self.env.StateKind(),
                              EpisodeState{seed_state, self.env.elapsed(), self.env.episode_over()},
                              [&](StateBuffer& o) { self.env.SaveState(o); });
            }
            return StateBytes(out);
          },
          py::arg("seed_state"), "The env's saved state (bytes), with the Python side's episode seed stream.")
      .def(
          "restore_state",
          [](PyMultiAgentEnv& self, const py::object& state) {
            StateBuffer in;
            StateFromPython(state, in, "the state");
            py::gil_scoped_release release;
            std::lock_guard<std::mutex> lock(self.mutex);
            return ReadSavedState(in, self.env.StateKind(), [&](StateBuffer& i) { return self.env.RestoreState(i); })
                .seed_state;
          },
          py::arg("state"), "Restores save_state's bytes; returns the episode seed stream saved with them.")
      .def("observe",
           [](PyMultiAgentEnv& self) {
             py::tuple out = Outputs(self.env.task());
             auto obs = out[0].cast<py::array_t<float>>();
             auto state = out[1].cast<py::array_t<float>>();
             std::lock_guard<std::mutex> lock(self.mutex);
             self.env.Observe(obs.mutable_data(), state.mutable_data());
             return py::make_tuple(obs, state);
           },
           "(obs, state) of the current state, as reset returns them.")
      .def_property_readonly("live", [](PyMultiAgentEnv& self) {
        std::lock_guard<std::mutex> lock(self.mutex);
        py::array_t<bool> out(self.env.task().num_agents());
        for (int i = 0; i < self.env.task().num_agents(); ++i) out.mutable_data()[i] = self.env.live(i);
        return out;
      }, "Per agent: still playing.")
      .def_property_readonly("elapsed", [](PyMultiAgentEnv& self) {
        std::lock_guard<std::mutex> lock(self.mutex);
        return self.env.elapsed();
      })
      .def_property_readonly("robots", [](const std::shared_ptr<PyMultiAgentEnv>& self) {
        py::list out;
        for (int i = 0; i < self->env.world().num_robots(); ++i) out.append(PyEnvRobot{self, i});
        return out;
      });
  env.def_property_readonly(
      "floor_marks",
      [](PyMultiAgentEnv& self) {
        std::lock_guard<std::mutex> lock(self.mutex);
        return MarksToCircles(self.env.floor_marks());
      },
      "The arena's marks this episode (a ring, a goal) as render()'s circles.");
  DefRender<PyMultiAgentEnv>(env, [](PyMultiAgentEnv& s, auto&& f) {
    std::lock_guard<std::mutex> lock(s.mutex);
    f(s.env.world());
  });

  auto pool = py::class_<MultiAgentPool>(m, "MultiAgentPool",
                             "num_envs envs of one multi-agent task on persistent native threads (NEXT_STEP autoreset).")
      .def(py::init([](std::shared_ptr<MultiAgentTask> task, int num_envs, int num_threads, int max_episode_steps,
                       std::uint64_t entropy, int envs_per_world, int batch_size) {
             if (!task) throw py::value_error("MultiAgentPool needs a task");
             if (num_envs < 1) throw py::value_error("num_envs must be >= 1, got " + std::to_string(num_envs));
             if (num_threads < 1) throw py::value_error("num_threads must be >= 1");
             if (batch_size < 0 || batch_size > num_envs)
               throw py::value_error("batch_size must be in [1, num_envs=" + std::to_string(num_envs) +
                                     "] (0: num_envs), got " + std::to_string(batch_size));
             py::gil_scoped_release release;
             return std::make_unique<MultiAgentPool>(task, num_envs, num_threads, max_episode_steps, entropy,
                                                     envs_per_world, batch_size);
           }),
           py::arg("task"), py::arg("num_envs"), py::arg("num_threads") = 1, py::arg("max_episode_steps") = 0,
           py::arg("entropy") = 0, py::arg("envs_per_world") = 0, py::arg("batch_size") = 0,
           "envs_per_world: envs packed into one Jolt world (0: the pool chooses; > 1 only for tasks whose robots "
           "touch nothing through Jolt, the factorised robots).")
      .def_property_readonly("num_envs", &MultiAgentPool::num_envs)
      .def_property_readonly("num_threads", &MultiAgentPool::num_threads)
      .def_property_readonly("envs_per_world", &MultiAgentPool::envs_per_world)
      .def_property_readonly(
          "world_sizes",
          [](const MultiAgentPool& self) {
            std::vector<int> sizes;
            for (int g = 0; g < self.packing().worlds(); ++g) sizes.push_back(self.packing().SizeOf(g));
            return sizes;
          },
          "envs in each Jolt world, consecutive envs together")
      .def(
          "send",
          [](MultiAgentPool& self, const py::object& actions, const py::object& env_ids) {
            const MultiAgentTask& t = self.task();
            Buffer<std::int32_t> ids = EnvIds(env_ids);
            auto a = AsFloatArray(actions, {ids.shape(0), t.num_agents(), t.max_act_dim()}, "actions");
            py::gil_scoped_release release;
            self.Send(ids.data(), int(ids.shape(0)), a.data());
          },
          py::arg("actions"), py::arg("env_ids"), "Send env_ids[k] the actions [k] and return while they step.")
      .def(
          "recv_into",
          [](MultiAgentPool& self, const py::list& outputs) {
            const py::ssize_t b = self.batch_size();
            MultiAgentPoolOutput out = PoolOutputs(self, outputs, b);
            py::array_t<std::int32_t> env_ids(b);
            {
              py::gil_scoped_release release;
              self.Recv(env_ids.mutable_data(), out);
            }
            const bool diverged = std::any_of(out.diverged, out.diverged + b, [](bool d) { return d; });
            return py::make_tuple(env_ids, diverged);
          },
          py::arg("outputs"),
          "Wait for the next batch_size envs into outputs (step_into's, batch_size rows); returns (env_ids, "
          "whether any env's physics diverged).")
      .def("set_knob", [](MultiAgentPool& self, int index, float value) {
             CheckKnobValue(KnobAt(self.task(), index), value);
             self.SetKnob(index, value);
           }, py::arg("index"), py::arg("value"))
      .def(
          "reset_into",
          [](MultiAgentPool& self, const py::list& outputs, const py::object& seeds) {
            MultiAgentPoolOutput out = PoolOutputs(self, outputs, self.num_envs());
            Buffer<std::uint64_t> keep;
            const std::uint64_t* seed_array = SeedsOrNull(seeds, self.num_envs(), keep);
            py::gil_scoped_release release;
            self.Reset(seed_array, out);
          },
          py::arg("outputs"), py::arg("seeds") = py::none(),
          "Reset every env into outputs = [obs, state, rewards, terminated, truncated, infos, was_reset, acted, diverged].")
      .def(
          "step_into",
          [](MultiAgentPool& self, const py::object& actions, const py::list& outputs) {
            const MultiAgentTask& t = self.task();
            auto a = AsFloatArray(actions, {self.num_envs(), t.num_agents(), t.max_act_dim()}, "actions");
            MultiAgentPoolOutput out = PoolOutputs(self, outputs, self.num_envs());
            {
              py::gil_scoped_release release;
              self.Step(a.data(), out);
            }
            // Read here, not by a NumPy any() in Python, whose objects are cold after the physics.
            return std::any_of(out.diverged, out.diverged + self.num_envs(), [](bool d) { return d; });
          },
          py::arg("actions"), py::arg("outputs"),
          "Step every env (actions [num_envs, agents, max_act_dim]); returns whether any env's physics diverged.");
  DefAsyncCounters<MultiAgentPool>(pool);
  DefStateAccess<MultiAgentPool>(pool);
  DefRenderOfEach<MultiAgentPool>(pool, [](MultiAgentPool& p) { return p.num_envs(); },
                                  [](MultiAgentPool& p, int env) { return p.RobotOfEnv(env); });
  pool.def(
      "floor_marks",
      [](MultiAgentPool& self, int env) {
        if (env < 0 || env >= self.num_envs()) throw py::index_error("env " + std::to_string(env) + " out of range");
        return MarksToCircles(self.FloorMarks(env));
      },
      py::arg("env"), "World env's arena marks this episode as render()'s circles.");

  py::class_<PyEnvRobot> robot(m, "MultiAgentEnvRobot", "One robot of a MultiAgentEnv's world.");
  robot.def_property_readonly("index", [](const PyEnvRobot& r) { return r.index; });
  DefineWorldViews(robot, [](PyEnvRobot& r, auto&& f) {
    std::lock_guard<std::mutex> lock(r.owner->mutex);
    return f(r.owner->env.world().robot(r.index));
  });
}

}  // namespace joltgym::bindings
