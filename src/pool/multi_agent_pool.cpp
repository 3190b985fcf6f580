#include "pool/multi_agent_pool.h"

#include "envs/action_check.h"
#include "pool/packing.h"
#include "pool/row_copy.h"
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

Packing ChooseEnvPacking(const MultiAgentTask& task, int num_envs, int num_threads, int envs_per_world) {
  if (envs_per_world < 0)
    throw std::invalid_argument("envs_per_world must be >= 0 (0: automatic), got " + std::to_string(envs_per_world));
  if (envs_per_world > 1 && !task.CanPack())
    throw std::invalid_argument("envs_per_world=" + std::to_string(envs_per_world) +
                                ": this task's robots touch bodies through Jolt (each other, the floor or themselves), "
                                "so its envs cannot share a world; use 1 or 0 (automatic)");
  int bodies = 0;  // an env's: all its robots'
  for (const RobotPlacement& robot : task.robots()) bodies += int(robot.model->bodies().size());
  return PackingFor(num_envs, num_threads, envs_per_world, task.CanPack(), bodies);
}

namespace {

const MultiAgentTask& Checked(const std::shared_ptr<const MultiAgentTask>& task) {
  if (!task) throw std::invalid_argument("MultiAgentPool needs a task");
  return *task;
}

}  // namespace

MultiAgentPool::MultiAgentPool(std::shared_ptr<const MultiAgentTask> task, int num_envs, int num_threads,
                               int max_episode_steps, std::uint64_t entropy, int envs_per_world, int batch_size)
    : task_(std::move(task)),
      packing_(AsyncPacking(ChooseEnvPacking(Checked(task_), num_envs, num_threads, envs_per_world),
                            std::max(1, num_envs), batch_size, envs_per_world)),
      batch_size_(batch_size > 0 ? batch_size : num_envs),
      threads_(ThreadsFor(packing_, num_threads)) {
  if (num_envs < 1) throw std::invalid_argument("num_envs must be >= 1, got " + std::to_string(num_envs));
  const int robots = int(task_->robots().size());
  for (int w = 0; w < num_envs; ++w) {
    if (packing_.largest() == 1) {
      envs_.push_back(std::make_unique<MultiAgentEnv>(task_, max_episode_steps));
    } else {
      const int k = packing_.IndexInWorld(w);
      if (k == 0) {
        // The env's robots where its task places them, every env of the world on the same
        // spots: nothing of theirs touches through Jolt, so they may overlap.
        const int here = packing_.SizeOf(packing_.WorldOf(w));
        std::vector<RobotPlacement> placements;
        for (int e = 0; e < here; ++e)
          placements.insert(placements.end(), task_->robots().begin(), task_->robots().end());
        worlds_.push_back(std::make_unique<World>(placements, CollisionRule(here * robots, RobotContact::kNone)));
      }
      envs_.push_back(std::make_unique<MultiAgentEnv>(task_, max_episode_steps, *worlds_.back(), k * robots));
    }
    seed_state_.push_back(entropy + std::uint64_t(w));
  }
  state_kind_ = envs_.front()->StateKind();
  for (int t = 0; t < threads_.num_threads(); ++t)
    contexts_.push_back(std::make_unique<StepContext>(TempBytesFor(envs_.front()->world())));
  async_ = std::make_unique<AsyncStepper>(packing_, threads_.num_threads(), &MultiAgentPool::RunAsyncWorld, this);
}

int MultiAgentPool::num_worlds() const { return packing_.worlds(); }

std::pair<int, int> MultiAgentPool::EnvsOfWorld(int g) const {
  const int first = packing_.FirstOf(g);
  return {first, first + packing_.SizeOf(g)};
}

void MultiAgentPool::SetKnob(int index, float value) {
  std::lock_guard<std::mutex> lock(mutex_);
  async_->WaitIdle();
  for (auto& env : envs_) env->SetKnob(index, value);
}

MultiAgentStepOutput MultiAgentPool::OutputOf(int w, const MultiAgentPoolOutput& out) const {
  const MultiAgentTask& t = *task_;
  const size_t agents = size_t(t.num_agents());
  MultiAgentStepOutput o;
  o.obs = out.obs + size_t(w) * agents * size_t(t.max_obs_dim());
  o.state = out.state + size_t(w) * size_t(t.state_dim());
  o.rewards = out.rewards + size_t(w) * agents;
  o.terminated = out.terminated + size_t(w) * agents;
  o.truncated = out.truncated + size_t(w) * agents;
  o.infos = out.infos + size_t(w) * agents * size_t(t.info_layout().size());
  o.diverged = out.diverged + w;
  return o;
}

void MultiAgentPool::ResetEnv(int w, const MultiAgentPoolOutput& out) {
  const MultiAgentStepOutput o = OutputOf(w, out);
  const size_t agents = size_t(task_->num_agents());
  envs_[size_t(w)]->Reset(NextSeed(seed_state_[size_t(w)]), o.obs, o.state, o.infos);
  out.was_reset[w] = true;
  std::fill(o.rewards, o.rewards + agents, 0.0f);
  std::fill(o.terminated, o.terminated + agents, false);
  std::fill(o.truncated, o.truncated + agents, false);
  std::fill(out.acted + size_t(w) * agents, out.acted + size_t(w + 1) * agents, false);
  out.diverged[w] = false;
}

void MultiAgentPool::StepWorld(int g, const float* actions, const MultiAgentPoolOutput& out, StepContext& ctx,
                               const bool* reset_now) {
  const MultiAgentTask& t = *task_;
  const size_t agents = size_t(t.num_agents());
  const auto [first, last] = EnvsOfWorld(g);
  auto resets = [&](int w) { return envs_[size_t(w)]->episode_over() || (reset_now && reset_now[w]); };
  bool any = false;
  for (int w = first; w < last; ++w) {
    MultiAgentEnv& env = *envs_[size_t(w)];
    if (resets(w)) continue;
    for (size_t a = 0; a < agents; ++a) out.acted[size_t(w) * agents + a] = env.live(int(a));
    env.Prepare(actions + size_t(w) * agents * size_t(t.max_act_dim()));
    any = true;
  }
  // An env that resets instead keeps its last controls through the world's steps, and is
  // restored after them.
  if (any)
    for (int s = 0; s < t.frame_skip(); ++s) envs_[size_t(first)]->world().Step(ctx);
  for (int w = first; w < last; ++w) {
    if (!resets(w)) {  // as before the physics: only Finish ends an episode
      envs_[size_t(w)]->Finish(OutputOf(w, out));
      out.was_reset[w] = false;
    } else {
      ResetEnv(w, out);
    }
  }
}

void MultiAgentPool::RunWorld(void* data, int g, int worker) {
  Batch& b = *static_cast<Batch*>(data);
  MultiAgentPool& pool = *b.pool;
  if (b.actions) {
    pool.StepWorld(g, b.actions, *b.out, *pool.contexts_[size_t(worker)]);
    return;
  }
  const auto [first, last] = pool.EnvsOfWorld(g);
  for (int w = first; w < last; ++w) {
    if (b.seeds) pool.seed_state_[size_t(w)] = b.seeds[w];
    pool.ResetEnv(w, *b.out);
  }
}

void MultiAgentPool::Reset(const std::uint64_t* seeds, const MultiAgentPoolOutput& out) {
  std::lock_guard<std::mutex> lock(mutex_);
  async_->Drain();
  Batch batch{this};
  batch.seeds = seeds;
  batch.out = &out;
  threads_.ForEach(num_worlds(), &MultiAgentPool::RunWorld, &batch);
}

void MultiAgentPool::CheckActionsOf(const int* envs, int count, const float* actions) const {
  const MultiAgentTask& t = *task_;
  const int agents = t.num_agents(), width = t.max_act_dim();
  for (int k = 0; k < count; ++k) {
    const int w = envs ? envs[k] : k;
    const MultiAgentEnv& env = *envs_[size_t(w)];
    if (env.episode_over()) continue;
    for (int a = 0; a < agents; ++a) {
      const float* row = actions + (size_t(k) * size_t(agents) + size_t(a)) * size_t(width);
      const int bad = env.live(a) ? FirstUnusableActionValue(row, t.agent(a).act_dim) : -1;
      if (bad >= 0)
        throw std::invalid_argument("the action of " + t.agent(a).name + " in env " + std::to_string(w) +
                                    " contains " + UnusableActionWhat(row[bad]) + " at index " + std::to_string(bad));
    }
  }
}

void MultiAgentPool::Step(const float* actions, const MultiAgentPoolOutput& out) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (const int flying = async_->in_flight())
    throw std::invalid_argument("step() steps every env, but " + std::to_string(flying) +
                                " env(s) were sent actions that recv() has not returned yet: recv() them first "
                                "(or reset())");
  CheckActionsOf(nullptr, num_envs(), actions);
  Batch batch{this};
  batch.actions = actions;
  batch.out = &out;
  threads_.ForEachHomed(num_worlds(), &MultiAgentPool::RunWorld, &batch);  // each world on the same worker
}

void MultiAgentPool::StageAsync() {
  if (stage_) return;
  const MultiAgentTask& t = *task_;
  const size_t n = size_t(num_envs()), agents = size_t(t.num_agents());
  auto s = std::make_unique<AsyncStage>(n);
  s->actions.resize(n * agents * size_t(t.max_act_dim()));
  s->obs.resize(n * agents * size_t(t.max_obs_dim()));
  s->state.resize(n * size_t(t.state_dim()));
  s->rewards.resize(n * agents);
  s->infos.resize(n * agents * size_t(t.info_layout().size()));
  for (auto* flags : {&s->terminated, &s->truncated, &s->acted}) *flags = std::make_unique<bool[]>(n * agents);
  for (auto* flags : {&s->was_reset, &s->diverged}) *flags = std::make_unique<bool[]>(n);
  // Recv's caller runs queued worlds too, as worker num_threads: a Jolt scratch of its own.
  contexts_.push_back(std::make_unique<StepContext>(TempBytesFor(envs_.front()->world())));
  s->out = MultiAgentPoolOutput{s->obs.data(),       s->state.data(),  s->rewards.data(),
                                s->terminated.get(), s->truncated.get(), s->infos.data(),
                                s->was_reset.get(),  s->acted.get(),     s->diverged.get()};
  stage_ = std::move(s);
}

void MultiAgentPool::RunAsyncWorld(void* data, int g, int worker) {
  MultiAgentPool& pool = *static_cast<MultiAgentPool*>(data);
  AsyncStage& s = *pool.stage_;
  const auto [first, last] = pool.EnvsOfWorld(g);
  s.resets.Reseed(first, last, [&](int w) -> std::uint64_t& { return pool.seed_state_[size_t(w)]; });
  pool.StepWorld(g, s.actions.data(), s.out, *pool.contexts_[size_t(worker)], s.resets.now.get());
  s.resets.Done(first, last);
}

void MultiAgentPool::Send(const int* envs, int count, const float* actions) {
  std::lock_guard<std::mutex> lock(mutex_);
  async_->CheckSendable(envs, count);
  CheckActionsOf(envs, count, actions);
  StageAsync();
  const size_t row = size_t(task_->num_agents()) * size_t(task_->max_act_dim());
  for (int k = 0; k < count; ++k) CopyRow(actions, size_t(k), stage_->actions.data(), size_t(envs[k]), row);
  async_->Send(envs, count);
}

void MultiAgentPool::SendReset(const std::uint64_t* seeds) {
  std::lock_guard<std::mutex> lock(mutex_);
  async_->Drain();
  StageAsync();
  std::vector<int> all(static_cast<size_t>(num_envs()));
  for (int w = 0; w < num_envs(); ++w) all[size_t(w)] = w;
  stage_->resets.All(num_envs(), seeds);
  async_->Send(all.data(), num_envs());
}

void MultiAgentPool::Recv(int* envs, const MultiAgentPoolOutput& out) {
  std::lock_guard<std::mutex> lock(mutex_);
  async_->Recv(batch_size_, envs);
  const MultiAgentTask& t = *task_;
  const size_t agents = size_t(t.num_agents()), obs_row = agents * size_t(t.max_obs_dim());
  const size_t info_row = agents * size_t(t.info_layout().size()), state_row = size_t(t.state_dim());
  const AsyncStage& s = *stage_;
  for (int k = 0; k < batch_size_; ++k) {
    const size_t w = size_t(envs[k]), b = size_t(k);
    CopyRow(s.obs.data(), w, out.obs, b, obs_row);
    CopyRow(s.state.data(), w, out.state, b, state_row);
    CopyRow(s.rewards.data(), w, out.rewards, b, agents);
    CopyRow(s.terminated.get(), w, out.terminated, b, agents);
    CopyRow(s.truncated.get(), w, out.truncated, b, agents);
    CopyRow(s.infos.data(), w, out.infos, b, info_row);
    CopyRow(s.acted.get(), w, out.acted, b, agents);
    out.was_reset[k] = s.was_reset[w];
    out.diverged[k] = s.diverged[w];
  }
}

}  // namespace joltgym
