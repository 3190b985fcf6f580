#include "pool/bare_loop.h"

#include <chrono>
#include <vector>

namespace joltgym {

double RunBareLoop(ModelPtr model, std::shared_ptr<const Task> task, int num_envs, int steps, int max_episode_steps,
                   std::uint64_t seed) {
  std::vector<std::unique_ptr<EnvInstance>> envs;
  for (int i = 0; i < num_envs; ++i) envs.push_back(std::make_unique<EnvInstance>(model, task));
  const int od = task->obs_dim(), ad = task->act_dim();
  std::vector<float> obs(static_cast<size_t>(od));
  std::vector<double> info(size_t(task->info_layout().size()));
  Rng rng(seed);
  std::vector<float> actions(size_t(ad) * 1024);
  for (float& a : actions) a = rng.Uniform(-1.0f, 1.0f);
  for (int i = 0; i < num_envs; ++i) envs[i]->Reset(seed + std::uint64_t(i), obs.data(), info.data());
  StepContext ctx;
  std::vector<int> elapsed(size_t(num_envs), 0);
  const auto start = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < num_envs; ++i) {
      const float* a = actions.data() + size_t((s * num_envs + i) % 1024) * ad;
      const StepOutcome out = envs[i]->Step(a, ctx, obs.data(), info.data());
      if (out.terminated || (max_episode_steps > 0 && ++elapsed[i] >= max_episode_steps)) {
        envs[i]->Reset(rng.Unit() * 1e18, obs.data(), info.data());
        elapsed[i] = 0;
      }
    }
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace joltgym
