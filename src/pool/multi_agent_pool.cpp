#include "pool/multi_agent_pool.h"

#include "envs/action_check.h"
#include "pool/seed_stream.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace joltgym {

struct MultiAgentPool::Batch {
  MultiAgentPool* pool;
  const std::uint64_t* seeds = nullptr;
  const float* actions = nullptr;  // null: a reset
  const MultiAgentPoolOutput* out = nullptr;
};

MultiAgentPool::MultiAgentPool(std::shared_ptr<const MultiAgentTask> task, int num_worlds, int num_threads,
                               int max_episode_steps, std::uint64_t entropy)
    : task_(std::move(task)), threads_(std::max(1, std::min(num_threads, num_worlds))) {
  if (num_worlds < 1) throw std::invalid_argument("num_envs must be >= 1, got " + std::to_string(num_worlds));
  if (!task_) throw std::invalid_argument("MultiAgentPool needs a task");
  for (int w = 0; w < num_worlds; ++w) {
    envs_.push_back(std::make_unique<MultiAgentEnv>(task_, max_episode_steps));
    seed_state_.push_back(entropy + std::uint64_t(w));
  }
  for (int t = 0; t < threads_.num_threads(); ++t)
    contexts_.push_back(std::make_unique<StepContext>(TempBytesFor(envs_.front()->world())));
}

void MultiAgentPool::SetKnob(int index, float value) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& env : envs_) env->SetKnob(index, value);
}

void MultiAgentPool::ResetWorld(int w, const MultiAgentPoolOutput& out) {
  const MultiAgentTask& t = *task_;
  const size_t agents = size_t(t.num_agents());
  envs_[size_t(w)]->Reset(NextSeed(seed_state_[size_t(w)]), out.obs + size_t(w) * agents * size_t(t.max_obs_dim()),
                          out.state + size_t(w) * size_t(t.state_dim()),
                          out.infos + size_t(w) * agents * size_t(t.info_layout().size()));
  out.was_reset[w] = true;
  std::fill(out.rewards + size_t(w) * agents, out.rewards + size_t(w + 1) * agents, 0.0f);
  std::fill(out.terminated + size_t(w) * agents, out.terminated + size_t(w + 1) * agents, false);
  std::fill(out.truncated + size_t(w) * agents, out.truncated + size_t(w + 1) * agents, false);
  std::fill(out.acted + size_t(w) * agents, out.acted + size_t(w + 1) * agents, false);
  out.diverged[w] = false;
}

void MultiAgentPool::StepWorld(int w, const float* actions, const MultiAgentPoolOutput& out, StepContext& ctx) {
  MultiAgentEnv& env = *envs_[size_t(w)];
  if (env.episode_over()) {
    ResetWorld(w, out);
    return;
  }
  const MultiAgentTask& t = *task_;
  const size_t agents = size_t(t.num_agents());
  for (size_t a = 0; a < agents; ++a) out.acted[size_t(w) * agents + a] = env.live(int(a));
  MultiAgentStepOutput o;
  o.obs = out.obs + size_t(w) * agents * size_t(t.max_obs_dim());
  o.state = out.state + size_t(w) * size_t(t.state_dim());
  o.rewards = out.rewards + size_t(w) * agents;
  o.terminated = out.terminated + size_t(w) * agents;
  o.truncated = out.truncated + size_t(w) * agents;
  o.infos = out.infos + size_t(w) * agents * size_t(t.info_layout().size());
  o.diverged = out.diverged + w;
  env.Step(actions + size_t(w) * agents * size_t(t.max_act_dim()), ctx, o);
  out.was_reset[w] = false;
}

void MultiAgentPool::RunWorld(void* data, int w, int worker) {
  Batch& b = *static_cast<Batch*>(data);
  MultiAgentPool& pool = *b.pool;
  if (b.actions) {
    pool.StepWorld(w, b.actions, *b.out, *pool.contexts_[size_t(worker)]);
  } else {
    if (b.seeds) pool.seed_state_[size_t(w)] = b.seeds[w];
    pool.ResetWorld(w, *b.out);
  }
}

void MultiAgentPool::Reset(const std::uint64_t* seeds, const MultiAgentPoolOutput& out) {
  std::lock_guard<std::mutex> lock(mutex_);
  Batch batch{this};
  batch.seeds = seeds;
  batch.out = &out;
  threads_.ForEach(num_worlds(), &MultiAgentPool::RunWorld, &batch);
}

void MultiAgentPool::Step(const float* actions, const MultiAgentPoolOutput& out) {
  std::lock_guard<std::mutex> lock(mutex_);
  const MultiAgentTask& t = *task_;
  const int agents = t.num_agents(), width = t.max_act_dim();
  for (int w = 0; w < num_worlds(); ++w) {
    const MultiAgentEnv& env = *envs_[size_t(w)];
    if (env.episode_over()) continue;
    for (int a = 0; a < agents; ++a) {
      const float* row = actions + (size_t(w) * size_t(agents) + size_t(a)) * size_t(width);
      const int bad = env.live(a) ? FirstUnusableActionValue(row, t.agent(a).act_dim) : -1;
      if (bad >= 0)
        throw std::invalid_argument("the action of " + t.agent(a).name + " in env " + std::to_string(w) +
                                    " contains " + UnusableActionWhat(row[bad]) + " at index " + std::to_string(bad));
    }
  }
  Batch batch{this};
  batch.actions = actions;
  batch.out = &out;
  threads_.ForEach(num_worlds(), &MultiAgentPool::RunWorld, &batch);
}

}  // namespace joltgym
