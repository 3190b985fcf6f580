// WorldPool: batched stepping into caller-owned NumPy buffers with the GIL released.
#include "bindings/array_convert.h"
#include "bindings/async_bindings.h"
#include "bindings/state_bindings.h"
#include "bindings/bindings.h"
#include "bindings/physics_parameters.h"
#include "bindings/render_frame.h"

#include "envs/action_check.h"
#include "pool/bare_loop.h"
#include "pool/seed_stream.h"
#include "pool/world_pool.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <thread>

namespace joltgym::bindings {

namespace {

// Gymnasium's vector infos from the pool's info rows [n, layout.size()]: per key a new array of
// its column(s) and a new `_key` mask of the envs it is valid for (an env reset in this call has
// only its reset keys).
py::dict StepInfos(const InfoLayout& layout, const double* rows, const bool* was_reset, py::ssize_t n) {
  const size_t columns = size_t(layout.size());
  py::dict infos;
  for (const InfoLayout::Key& key : layout.keys()) {
    const int width = key.slot.width;
    py::array_t<double> values = width == 1 ? py::array_t<double>(n) : py::array_t<double>({n, py::ssize_t(width)});
    double* v = values.mutable_data();
    for (py::ssize_t i = 0; i < n; ++i)
      for (int c = 0; c < width; ++c) v[i * width + c] = rows[size_t(i) * columns + size_t(key.slot.offset + c)];
    py::array_t<bool> valid(n);
    bool* m = valid.mutable_data();
    for (py::ssize_t i = 0; i < n; ++i) m[i] = key.at_reset || !was_reset[i];
    infos[py::str(key.name)] = values;
    infos[py::str("_" + key.name)] = valid;
  }
  return infos;
}

// The pool's step outputs in the caller's buffers of n rows (every env's, or a batch's), each
// checked for its shape and dtype by name.
PoolStepOutput StepOutputs(const WorldPool& pool, py::array& obs, py::array& rewards, py::array& terminated,
                           py::array& truncated, py::array& infos, py::array& was_reset, py::array& final_obs,
                           py::array& final_infos, py::ssize_t n) {
  const py::ssize_t columns = py::ssize_t(pool.info_size());
  PoolStepOutput out;
  out.obs = Writable<float>(obs, {n, pool.obs_dim()}, "obs");
  out.rewards = Writable<float>(rewards, {n}, "rewards");
  out.terminated = Writable<bool>(terminated, {n}, "terminated");
  out.truncated = Writable<bool>(truncated, {n}, "truncated");
  out.infos = Writable<double>(infos, {n, columns}, "infos");
  out.was_reset = Writable<bool>(was_reset, {n}, "was_reset");
  out.final_obs = Writable<float>(final_obs, {n, pool.obs_dim()}, "final_obs");
  out.final_infos = Writable<double>(final_infos, {n, columns}, "final_infos");
  return out;
}

// Gymnasium's (obs, rewards, terminated, truncated, infos) of n rows, then whether any env
// diverged and whether any was reset, so that the Python around reads two bools rather than run a
// NumPy any() whose objects are cold after the physics. Rewards are a new float64 array, or with
// `raw_rewards` the float32 buffer `rewards` itself (which the next call overwrites).
py::tuple StepResults(const WorldPool& pool, const PoolStepOutput& out, const py::array& obs, const py::array& rewards,
                      const py::array& terminated, const py::array& truncated, py::ssize_t n, bool raw_rewards) {
  py::object reward_array = rewards;
  if (!raw_rewards) {
    py::array_t<double> rewards64(n);
    std::copy(out.rewards, out.rewards + n, rewards64.mutable_data());
    reward_array = rewards64;
  }
  const bool any_diverged = std::any_of(out.diverged, out.diverged + n, [](bool d) { return d; });
  const bool any_reset = std::any_of(out.was_reset, out.was_reset + n, [](bool r) { return r; });
  return py::make_tuple(obs, reward_array, terminated, truncated,
                        StepInfos(pool.task().info_layout(), out.infos, out.was_reset, n), any_diverged, any_reset);
}

// A caller's flag buffer of n bools, or a new one for None.
py::array FlagsOrNew(const py::object& flags, py::ssize_t n) {
  return flags.is_none() ? py::array(py::array_t<bool>(n)) : flags.cast<py::array>();
}

}  // namespace

void BindPool(py::module_& m) {
  m.def(
      "next_seed",
      [](std::uint64_t state) {
        const std::uint64_t seed = NextSeed(state);
        return py::make_tuple(seed, state);
      },
      py::arg("state"),
      "One draw of the pools' per-env episode seed stream: (episode seed, next state). A pool env "
      "reset with seed s starts from state s; the single envs use the same stream, so that a single "
      "env reset with seed s runs the episodes of the vector env's env whose seed is s.");
  py::class_<BareLoop>(m, "BareLoop",
                       "Benchmark reference: the pool's work in a plain one-thread C++ loop (no threads, no "
                       "Python, no checks) with the pool's episodes: the same seed stream, episode limit and "
                       "NextStep autoreset, so with the same actions it runs JoltVectorEnv's trajectories "
                       "(reset(seed=seed), one thread).")
      .def(py::init([](std::shared_ptr<CompiledModel> model, std::shared_ptr<Task> task, int num_envs,
                       int max_episode_steps, std::uint64_t seed, int worlds) {
             if (num_envs < 1) throw py::value_error("num_envs must be >= 1, got " + std::to_string(num_envs));
             if (max_episode_steps < 0) throw py::value_error("max_episode_steps must be >= 0 (0: no limit)");
             if (worlds < 0 || worlds > num_envs)
               throw py::value_error("worlds must be in [0, num_envs] (0: automatic), got " + std::to_string(worlds));
             py::gil_scoped_release release;
             return std::make_unique<BareLoop>(model, task, num_envs, max_episode_steps, seed, worlds);
           }),
           py::arg("model"), py::arg("task"), py::arg("num_envs"), py::arg("max_episode_steps") = 1000,
           py::arg("seed") = 0, py::arg("worlds") = 0,
           "worlds: Jolt worlds the envs are packed into, evenly, as a pool packs them into as many (0: as a "
           "one-thread pool chooses); a pool's len(world_sizes) packs them as it does.")
      .def_property_readonly("num_envs", &BareLoop::num_envs)
      .def_property_readonly("num_worlds", &BareLoop::num_worlds)
      .def(
          "run",
          [](BareLoop& self, const py::object& actions, int steps, int num_threads) {
            if (steps < 0) throw py::value_error("steps must be >= 0, got " + std::to_string(steps));
            if (num_threads < 1) throw py::value_error("num_threads must be >= 1, got " + std::to_string(num_threads));
            const py::ssize_t n = self.num_envs(), ad = self.act_dim();
            const py::array raw = py::array::ensure(actions);
            const bool batched = raw && raw.ndim() == 3;
            const py::ssize_t batches = batched ? raw.shape(0) : 1;
            if (batched && batches < 1) throw py::value_error("actions must hold at least one batch");
            FloatArray a = batched ? AsFloatArray(actions, {batches, n, ad}, "actions")
                                   : AsFloatArray(actions, {n, ad}, "actions");
            const int bad = FirstUnusableActionValue(a.data(), int(a.size()));
            if (bad >= 0)
              throw py::value_error("actions contain " + UnusableActionWhat(a.data()[bad]) + " at flat index " +
                                    std::to_string(bad));
            BareLoopSeconds seconds;
            {
              py::gil_scoped_release release;
              seconds = self.Run(a.data(), int(batches), steps, num_threads);
            }
            return py::make_tuple(seconds.wall, seconds.cpu);
          },
          py::arg("actions"), py::arg("steps"), py::arg("num_threads") = 1,
          "Steps every env `steps` times, continuing where the last call stopped; step s takes "
          "actions[s % batches] (actions [batches, num_envs, act_dim], or one batch [num_envs, act_dim]). "
          "num_threads > 1 splits the worlds into that many fixed runs, each on a thread of its own, all "
          "waiting at a barrier after every step (as a synchronous vector step must). Returns (wall, CPU) seconds.")
      .def_property_readonly(
          "observations",
          [](const BareLoop& self) {
            const auto& obs = self.observations();
            py::array_t<float> out({py::ssize_t(self.num_envs()), py::ssize_t(self.obs_dim())});
            std::copy(obs.begin(), obs.end(), out.mutable_data());
            return out;
          },
          "[num_envs, obs_dim] copy of each env's latest observation");
  m.def(
      "run_bare_loop",
      [](std::shared_ptr<CompiledModel> model, std::shared_ptr<Task> task, int num_envs, int steps,
         int max_episode_steps, std::uint64_t seed) {
        if (num_envs < 1 || steps < 0) throw py::value_error("num_envs must be >= 1 and steps >= 0");
        if (max_episode_steps < 0) throw py::value_error("max_episode_steps must be >= 0 (0: no limit)");
        BareLoopSeconds seconds;
        {
          py::gil_scoped_release release;
          constexpr int kBatches = 16;
          BareLoop loop(model, task, num_envs, max_episode_steps, seed);
          const std::vector<float> actions = RandomActions(*model, task->act_dim(), num_envs, kBatches, seed);
          seconds = loop.Run(actions.data(), kBatches, steps);
        }
        return py::make_tuple(seconds.wall, seconds.cpu);
      },
      py::arg("model"), py::arg("task"), py::arg("num_envs"), py::arg("steps"), py::arg("max_episode_steps") = 1000,
      py::arg("seed") = 0,
      "Benchmark reference: a BareLoop of num_envs envs stepped `steps` times with random actions (16 "
      "batches cycled, uniform over each actuator's control range); returns (wall, CPU) seconds, building "
      "the envs excluded.");

  py::enum_<AutoresetMode>(m, "AutoresetMode")
      .value("NEXT_STEP", AutoresetMode::NextStep)
      .value("SAME_STEP", AutoresetMode::SameStep)
      .value("DISABLED", AutoresetMode::Disabled);

  auto pool = py::class_<WorldPool>(m, "WorldPool",
                        "num_envs independent environments of one task on persistent native threads.")
      .def(py::init([](std::shared_ptr<CompiledModel> model, std::shared_ptr<Task> task, int num_envs,
                       int num_threads, int max_episode_steps, AutoresetMode mode, std::uint64_t entropy,
                       int robots_per_world, int batch_size) {
             if (num_envs < 1) throw py::value_error("num_envs must be >= 1, got " + std::to_string(num_envs));
             if (batch_size < 0 || batch_size > num_envs)
               throw py::value_error("batch_size must be in [1, num_envs=" + std::to_string(num_envs) +
                                     "] (0: num_envs), got " + std::to_string(batch_size));
             if (num_threads < 0) throw py::value_error("num_threads must be >= 0 (0: automatic)");
             if (robots_per_world < 0) throw py::value_error("robots_per_world must be >= 0 (0: automatic)");
             if (num_threads == 0)
               num_threads = std::max(1, std::min(16, int(std::thread::hardware_concurrency())));
             py::gil_scoped_release release;
             return std::make_unique<WorldPool>(model, task, num_envs, num_threads, max_episode_steps, mode,
                                                entropy, robots_per_world, batch_size);
           }),
           py::arg("model"), py::arg("task"), py::arg("num_envs"), py::arg("num_threads") = 0,
           py::arg("max_episode_steps") = 0, py::arg("autoreset_mode") = AutoresetMode::NextStep,
           py::arg("entropy") = 0, py::arg("robots_per_world") = 0, py::arg("batch_size") = 0)
      .def_property_readonly("num_envs", &WorldPool::num_envs)
      .def(
          "send",
          [](WorldPool& self, const py::object& actions, const py::object& env_ids) {
            Buffer<std::int32_t> ids = EnvIds(env_ids);
            const py::ssize_t count = ids.shape(0);
            auto a = AsFloatArray(actions, {count, self.act_dim()}, "actions");
            py::gil_scoped_release release;
            self.Send(ids.data(), int(count), a.data());
          },
          py::arg("actions"), py::arg("env_ids"),
          "Send env_ids[k] the action row k and return while their worlds step.")
      .def(
          "recv_arrays",
          [](WorldPool& self, const py::object& obs, py::array rewards, py::array infos, py::array was_reset,
             py::array final_obs, py::array final_infos, py::array diverged, const py::object& terminated_out,
             const py::object& truncated_out) {
            const py::ssize_t b = self.batch_size();
            py::array obs_out = obs.is_none() ? py::array(py::array_t<float>({b, py::ssize_t(self.obs_dim())}))
                                              : obs.cast<py::array>();
            py::array terminated = FlagsOrNew(terminated_out, b), truncated = FlagsOrNew(truncated_out, b);
            py::array_t<std::int32_t> env_ids(b);
            PoolStepOutput out =
                StepOutputs(self, obs_out, rewards, terminated, truncated, infos, was_reset, final_obs, final_infos, b);
            out.diverged = Writable<bool>(diverged, {b}, "diverged");
            {
              py::gil_scoped_release release;
              self.Recv(env_ids.mutable_data(), out);
            }
            return py::make_tuple(env_ids,
                                  StepResults(self, out, obs_out, rewards, terminated, truncated, b, !obs.is_none()));
          },
          py::arg("obs"), py::arg("rewards"), py::arg("infos"), py::arg("was_reset"), py::arg("final_obs"),
          py::arg("final_infos"), py::arg("diverged"), py::arg("terminated") = py::none(),
          py::arg("truncated") = py::none(),
          "Wait for the next batch_size envs; returns (env_ids, step_arrays' results for those rows), obs "
          "into `obs` unless None. Buffers have batch_size rows.")
      .def_property_readonly("robots_per_world", &WorldPool::robots_per_world,
                             "envs whose robots share one Jolt world (they never touch): the largest world's")
      .def_property_readonly(
          "world_sizes",
          [](const WorldPool& self) {
            std::vector<int> sizes;
            for (int g = 0; g < self.packing().worlds(); ++g) sizes.push_back(self.packing().SizeOf(g));
            return sizes;
          },
          "envs in each Jolt world, consecutive envs together")
      .def_property_readonly("num_threads", &WorldPool::num_threads)
      .def_property_readonly("obs_dim", &WorldPool::obs_dim)
      .def_property_readonly("act_dim", &WorldPool::act_dim)
      .def_property_readonly("max_episode_steps", &WorldPool::max_episode_steps)
      .def_property_readonly("autoreset_mode", &WorldPool::autoreset_mode)
      .def_property_readonly("info_size", &WorldPool::info_size)
      .def(
          "reset_into",
          [](WorldPool& self, py::array obs, py::array infos, const py::object& seeds, const py::object& mask) {
            const py::ssize_t n = self.num_envs();
            float* o = Writable<float>(obs, {n, self.obs_dim()}, "obs");
            double* info = Writable<double>(infos, {n, py::ssize_t(self.info_size())}, "infos");
            Buffer<std::uint64_t> keep;
            const std::uint64_t* seed_array = SeedsOrNull(seeds, n, keep);
            Buffer<bool> mask_array;
            if (!mask.is_none()) {
              mask_array = Buffer<bool>::ensure(mask);
              if (!mask_array || mask_array.ndim() != 1 || mask_array.shape(0) != n)
                throw py::value_error("reset_mask must be a bool array of length num_envs");
            }
            py::gil_scoped_release release;
            self.Reset(seed_array, mask.is_none() ? nullptr : mask_array.data(), o, info);
          },
          py::arg("obs"), py::arg("infos"), py::arg("seeds") = py::none(), py::arg("mask") = py::none(),
          "Reset the masked envs (all by default) into the given buffers.")
      .def(
          "step_into",
          [](WorldPool& self, const py::object& actions, py::array obs, py::array rewards, py::array terminated,
             py::array truncated, py::array infos, py::array was_reset, py::array final_obs, py::array final_infos,
             const py::object& diverged) {
            const py::ssize_t n = self.num_envs();
            auto a = AsFloatArray(actions, {n, self.act_dim()}, "actions");
            PoolStepOutput out =
                StepOutputs(self, obs, rewards, terminated, truncated, infos, was_reset, final_obs, final_infos, n);
            py::array diverged_array;
            if (!diverged.is_none()) {
              diverged_array = diverged.cast<py::array>();
              out.diverged = Writable<bool>(diverged_array, {n}, "diverged");
            }
            py::gil_scoped_release release;
            self.Step(a.data(), out);
          },
          py::arg("actions"), py::arg("obs"), py::arg("rewards"), py::arg("terminated"), py::arg("truncated"),
          py::arg("infos"), py::arg("was_reset"), py::arg("final_obs"), py::arg("final_infos"),
          py::arg("diverged") = py::none(),
          "Step every env into the given buffers; `diverged` (optional, bool [n]) flags envs whose physics "
          "diverged (their episodes are truncated).")
      .def(
          "step_arrays",
          [](WorldPool& self, const py::object& actions, const py::object& obs, py::array rewards, py::array infos,
             py::array was_reset, py::array final_obs, py::array final_infos, py::array diverged,
             const py::object& terminated_out, const py::object& truncated_out) {
            const py::ssize_t n = self.num_envs();
            auto a = AsFloatArray(actions, {n, self.act_dim()}, "actions");
            py::array obs_out = obs.is_none() ? py::array(py::array_t<float>({n, py::ssize_t(self.obs_dim())}))
                                              : obs.cast<py::array>();
            py::array terminated = FlagsOrNew(terminated_out, n), truncated = FlagsOrNew(truncated_out, n);
            PoolStepOutput out =
                StepOutputs(self, obs_out, rewards, terminated, truncated, infos, was_reset, final_obs, final_infos, n);
            out.diverged = Writable<bool>(diverged, {n}, "diverged");
            {
              py::gil_scoped_release release;
              self.Step(a.data(), out);
            }
            return StepResults(self, out, obs_out, rewards, terminated, truncated, n, !obs.is_none());
          },
          py::arg("actions"), py::arg("obs"), py::arg("rewards"), py::arg("infos"), py::arg("was_reset"),
          py::arg("final_obs"), py::arg("final_infos"), py::arg("diverged"), py::arg("terminated") = py::none(),
          py::arg("truncated") = py::none(),
          "Step every env; returns Gymnasium's (obs, rewards as float64, terminated, truncated, infos) in new "
          "arrays, then whether any env diverged and whether any was reset. Given `obs` (and `terminated`, "
          "`truncated`), those buffers are returned, written, and `rewards` itself as float32. infos "
          "holds a [n] (or [n, width]) array per key and its `_key` mask: an env reset in this call reports "
          "its reset info, and only keys reported at reset. The buffers are step_into's, and hold the same "
          "afterwards.")
      // Allocating conveniences for callers that keep no buffers of their own; JoltVectorEnv
      // uses the *_into calls.
      .def(
          "reset_all",
          [](py::object self, const py::object& seed) {
            WorldPool& pool = self.cast<WorldPool&>();
            const py::ssize_t n = pool.num_envs();
            py::array_t<float> obs({n, py::ssize_t(pool.obs_dim())});
            py::array_t<double> infos({n, py::ssize_t(pool.info_size())});
            py::object seeds = py::none();
            if (!seed.is_none()) {
              py::array_t<std::uint64_t> s(n);
              for (py::ssize_t i = 0; i < n; ++i) s.mutable_at(i) = seed.cast<std::uint64_t>() + std::uint64_t(i);
              seeds = s;
            }
            self.attr("reset_into")(obs, infos, seeds, py::none());
            return obs;
          },
          py::arg("seed") = py::none(), "Reset every env (env i gets seed + i); returns observations.")
      .def(
          "reset_one",
          [](py::object self, int index, const py::object& seed) {
            WorldPool& pool = self.cast<WorldPool&>();
            const py::ssize_t n = pool.num_envs();
            if (index < 0 || index >= n) throw py::index_error("env index " + std::to_string(index) + " out of range");
            py::array_t<float> obs({n, py::ssize_t(pool.obs_dim())});
            py::array_t<double> infos({n, py::ssize_t(pool.info_size())});
            py::array_t<bool> mask(n);
            std::fill(mask.mutable_data(), mask.mutable_data() + n, false);
            mask.mutable_at(index) = true;
            py::object seeds = py::none();
            if (!seed.is_none()) {
              py::array_t<std::uint64_t> s(n);
              std::fill(s.mutable_data(), s.mutable_data() + n, seed.cast<std::uint64_t>());
              seeds = s;
            }
            self.attr("reset_into")(obs, infos, seeds, mask);
            return py::array_t<float>(obs[py::int_(index)]);
          },
          py::arg("index"), py::arg("seed") = py::none(), "Reset one env; returns its observation.")
      .def(
          "step_all",
          [](py::object self, const py::object& actions) {
            WorldPool& pool = self.cast<WorldPool&>();
            const py::ssize_t n = pool.num_envs(), od = pool.obs_dim();
            const py::ssize_t columns = py::ssize_t(pool.info_size());
            py::array_t<float> obs({n, od}), final_obs({n, od}), rewards(n);
            py::array_t<double> infos({n, columns}), final_infos({n, columns});
            py::array_t<bool> terminated(n), truncated(n), was_reset(n);
            self.attr("step_into")(actions, obs, rewards, terminated, truncated, infos, was_reset, final_obs,
                                   final_infos);
            return py::make_tuple(obs, rewards, terminated, truncated);
          },
          py::arg("actions"), "Step every env; returns (obs, rewards, terminated, truncated).");
  pool.def(
          "enable_frames",
          [](WorldPool& self, int width, int height, const py::dict& camera, int stack) {
            FrameSpec spec;
            spec.width = width, spec.height = height, spec.stack = stack;
            spec.camera = CameraSpecFrom(camera);
            py::gil_scoped_release release;
            self.EnableFrames(spec);
          },
          py::arg("width"), py::arg("height"), py::arg("camera") = py::dict(), py::arg("stack") = 1,
          "Pixel observations from now on (camera as render() takes it): each env's last `stack` frames, "
          "drawn on the pool's threads after each of its steps and resets.")
      .def(
          "frames_into",
          [](WorldPool& self, py::array out, const py::object& env_ids, bool finals) {
            const FrameSpec& spec = self.frame_spec();
            Buffer<std::int32_t> ids;
            py::ssize_t count = self.num_envs();
            if (!env_ids.is_none()) ids = EnvIds(env_ids), count = ids.shape(0);
            std::uint8_t* data = Writable<std::uint8_t>(
                out, {count, py::ssize_t(spec.stack), py::ssize_t(spec.height), py::ssize_t(spec.width), 3}, "frames");
            py::gil_scoped_release release;
            self.CopyFrames(env_ids.is_none() ? nullptr : ids.data(), int(count), finals, data);
          },
          py::arg("out"), py::arg("env_ids") = py::none(), py::arg("finals") = false,
          "The frame stacks (oldest first) of env_ids (None: every env) into out [count, stack, height, width, 3] "
          "uint8; finals: the stacks that ended episodes in same-step autoreset.");
  DefAsyncCounters<WorldPool>(pool);
  DefStateAccess<WorldPool>(pool);
  DefRenderOfEach<WorldPool>(pool, [](WorldPool& p) { return p.num_envs(); },
                             [](WorldPool& p, int env) { return p.RobotOfEnv(env); });
  DefinePhysicsParameters(
      pool, [](WorldPool& p) { return py::ssize_t(p.num_envs()); },
      [](WorldPool& p, int i, auto&& f) -> decltype(auto) { return p.WithRobotOfEnv(i, f); },
      [](WorldPool& p, const std::shared_ptr<const Randomization>& r) { p.SetRandomization(r); }, false);
}

}  // namespace joltgym::bindings
