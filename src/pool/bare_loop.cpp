#include "pool/bare_loop.h"

#include "envs/env_group.h"
#include "pool/world_pool.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <vector>

namespace joltgym {

BareLoopSeconds RunBareLoop(ModelPtr model, std::shared_ptr<const Task> task, int num_envs, int steps, int max_episode_steps,
                   std::uint64_t seed) {
  const int per_world = ChooseRobotsPerWorld(model, num_envs, 1, 0);
  std::vector<std::unique_ptr<EnvGroup>> groups;
  for (int first = 0; first < num_envs; first += per_world)
    groups.push_back(std::make_unique<EnvGroup>(model, task, std::min(per_world, num_envs - first)));
  const int od = task->obs_dim(), ad = task->act_dim();
  std::vector<float> obs(static_cast<size_t>(od));
  std::vector<double> info(size_t(task->info_layout().size()));
  Rng rng(seed);
  // Uniform over each actuator's control range, as the benchmarks' pool contenders draw from the
  // action space: the Humanoids' range is +-0.4, where [-1, 1] clipped to it held most controls at
  // their limits, another motion than the pool's.
  const auto& actuators = model->actuators();
  std::vector<float> actions(size_t(ad) * 1024);
  for (size_t i = 0; i < actions.size(); ++i) {
    const size_t j = i % size_t(ad);
    const bool ranged = ad == int(actuators.size()) && actuators[j].ctrllimited;
    actions[i] = ranged ? rng.Uniform(actuators[j].ctrl_lo, actuators[j].ctrl_hi) : rng.Uniform(-1.0f, 1.0f);
  }
  for (size_t g = 0, i = 0; g < groups.size(); ++g)
    for (int k = 0; k < groups[g]->size(); ++k, ++i) groups[g]->Reset(k, seed + i, obs.data(), info.data());
  StepContext ctx(TempBytesFor(groups.front()->world()));
  std::vector<int> elapsed(size_t(num_envs), 0);
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  for (int s = 0; s < steps; ++s) {
    int i = 0;
    for (auto& group : groups) {
      const int first = i;
      for (int k = 0; k < group->size(); ++k, ++i)
        group->Prepare(k, actions.data() + size_t((s * num_envs + i) % 1024) * ad);
      group->StepPhysics(ctx);
      i = first;
      for (int k = 0; k < group->size(); ++k, ++i) {
        const float* a = actions.data() + size_t((s * num_envs + i) % 1024) * ad;
        const StepOutcome out = group->Finish(k, a, obs.data(), info.data());
        if (out.terminated || (max_episode_steps > 0 && ++elapsed[i] >= max_episode_steps)) {
          group->Reset(k, std::uint64_t(rng.Unit() * 1e18), obs.data(), info.data());
          elapsed[i] = 0;
        }
      }
    }
  }
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
          double(std::clock() - cpu_start) / CLOCKS_PER_SEC};
}

}  // namespace joltgym
