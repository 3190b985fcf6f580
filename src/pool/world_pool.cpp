#include "pool/world_pool.h"

#include "envs/action_check.h"
#include "pool/env_list.h"
#include "pool/row_copy.h"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <stdexcept>

namespace joltgym {
void WorldPool::CheckActionsOf(const int* envs, int count, const float* actions) const {
  std::vector<int> bad;
  for (int k = 0; k < count; ++k)
    if (FirstUnusableActionValue(actions + size_t(k) * act_dim(), act_dim()) >= 0) bad.push_back(envs ? envs[k] : k);
  if (!bad.empty())
    throw std::invalid_argument("actions contain NaN, inf or values beyond ±1e18 for env(s) " + EnvList(bad));
  if (mode_ != AutoresetMode::Disabled) return;
  std::vector<int> waiting;
  for (int k = 0; k < count; ++k) {
    const int i = envs ? envs[k] : k;
    if (slots_[size_t(i)].done) waiting.push_back(i);
  }
  if (!waiting.empty())
    throw std::invalid_argument("env(s) " + EnvList(waiting) +
                                " ended their episode; with autoreset disabled, reset them with "
                                "reset(options={'reset_mask': mask}) before stepping");
}

struct WorldPool::Batch {
  WorldPool* pool;
  // Reset
  const std::uint64_t* seeds = nullptr;
  const bool* mask = nullptr;
  float* obs = nullptr;
  double* infos = nullptr;
  // Step (actions non-null)
  const float* actions = nullptr;
  const PoolStepOutput* out = nullptr;
};

Packing ChoosePacking(const ModelPtr& model, int num_envs, int num_threads, int robots_per_world) {
  if (robots_per_world < 0)
    throw std::invalid_argument("robots_per_world must be >= 0 (0: automatic), got " +
                                std::to_string(robots_per_world));
  return PackingFor(num_envs, num_threads, robots_per_world, CanShareWorld(model), int(model->bodies().size()));
}

WorldPool::WorldPool(ModelPtr model, std::shared_ptr<const Task> task, int num_envs, int num_threads,
                     int max_episode_steps, AutoresetMode mode, std::uint64_t entropy, int robots_per_world,
                     int batch_size)
    : task_(std::move(task)),
      num_envs_(num_envs),
      packing_(AsyncPacking(ChoosePacking(model, num_envs, num_threads, robots_per_world), std::max(1, num_envs),
                            batch_size, robots_per_world)),
      max_episode_steps_(max_episode_steps),
      mode_(mode),
      batch_size_(batch_size > 0 ? batch_size : num_envs),
      threads_(ThreadsFor(packing_, num_threads)) {
  if (num_envs < 1) throw std::invalid_argument("num_envs must be >= 1, got " + std::to_string(num_envs));
  if (!task_) throw std::invalid_argument("WorldPool needs a task");
  for (int g = 0; g < packing_.worlds(); ++g)
    groups_.push_back(std::make_unique<EnvGroup>(model, task_, packing_.SizeOf(g)));
  step_order_.resize(groups_.size());
  std::iota(step_order_.begin(), step_order_.end(), 0);
  step_seconds_.assign(groups_.size(), 0.0);
  slots_.resize(size_t(num_envs));
  state_kind_ = StateKind(*task_, *model);
  for (int i = 0; i < num_envs; ++i) slots_[i].seed_state = entropy + std::uint64_t(i);
  const size_t temp_bytes = TempBytesFor(groups_.front()->world());
  for (int w = 0; w < threads_.num_threads(); ++w) contexts_.push_back(std::make_unique<StepContext>(temp_bytes));
  async_ = std::make_unique<AsyncStepper>(packing_, threads_.num_threads(), &WorldPool::RunAsyncGroup, this);
}

void WorldPool::ResetEnv(int i, float* obs, double* info_row, int worker) {
  groups_[size_t(packing_.WorldOf(i))]->Reset(packing_.IndexInWorld(i), slots_[i].Begin(), obs, info_row);
  DrawEnv(i, /*fresh=*/true, worker);
}

void WorldPool::StepGroup(int g, const float* actions, const PoolStepOutput& out, StepContext& ctx, int worker,
                          const bool* reset_now) {
  EnvGroup& group = *groups_[size_t(g)];
  const int first = packing_.FirstOf(g);
  bool any_steps = false;
  for (int k = 0; k < group.size(); ++k) {
    const int i = first + k;
    // NextStep: an env whose episode ended is reset by this step instead of stepped. Its
    // robot coasts through the group's physics and is then restored: the reset overwrites
    // all of its state, and its islands are its own.
    out.was_reset[i] = (slots_[i].done && mode_ == AutoresetMode::NextStep) || (reset_now && reset_now[i]);
    if (out.was_reset[i]) continue;
    group.Prepare(k, actions + size_t(i) * act_dim());
    any_steps = true;
  }
  if (any_steps) group.StepPhysics(ctx);
  for (int k = 0; k < group.size(); ++k) FinishEnv(first + k, actions + size_t(first + k) * act_dim(), out, worker);
}

void WorldPool::FinishEnv(int i, const float* action, const PoolStepOutput& out, int worker) {
  const int od = obs_dim();
  const size_t columns = size_t(info_size());
  float* obs = out.obs + size_t(i) * od;
  double* info = out.infos + size_t(i) * columns;
  EpisodeSlot& slot = slots_[i];
  if (out.diverged) out.diverged[i] = false;
  if (out.was_reset[i]) {
    ResetEnv(i, obs, info, worker);
    out.rewards[i] = 0.0f;
    out.terminated[i] = out.truncated[i] = false;
    return;
  }
  const StepOutcome outcome =
      groups_[size_t(packing_.WorldOf(i))]->Finish(packing_.IndexInWorld(i), action, obs, info);
  const bool truncated = slot.Count(outcome, max_episode_steps_);
  if (out.diverged) out.diverged[i] = outcome.diverged;
  out.rewards[i] = outcome.reward;
  out.terminated[i] = outcome.terminated;
  out.truncated[i] = truncated;
  DrawEnv(i, /*fresh=*/false, worker);
  if (slot.done && mode_ == AutoresetMode::SameStep) {
    std::copy(obs, obs + od, out.final_obs + size_t(i) * od);
    std::copy(info, info + columns, out.final_infos + size_t(i) * columns);
    if (frames_) frames_->KeepFinal(i);
    ResetEnv(i, obs, info, worker);
    out.was_reset[i] = true;
  }
}

void WorldPool::RunGroup(void* data, int g, int worker) {
  Batch& b = *static_cast<Batch*>(data);
  WorldPool& pool = *b.pool;
  if (b.actions) {
    const int group = pool.step_order_[size_t(g)];
    const auto start = std::chrono::steady_clock::now();
    pool.StepGroup(group, b.actions, *b.out, *pool.contexts_[size_t(worker)], worker);
    pool.step_seconds_[size_t(group)] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return;
  }
  const int od = pool.obs_dim();
  const size_t columns = size_t(pool.info_size());
  const int first = pool.packing_.FirstOf(g);
  for (int i = first; i < first + pool.groups_[size_t(g)]->size(); ++i) {
    if (b.mask && !b.mask[i]) continue;
    if (b.seeds) pool.slots_[i].seed_state = b.seeds[i];
    pool.ResetEnv(i, b.obs + size_t(i) * od, b.infos + size_t(i) * columns, worker);
  }
}

void WorldPool::Reset(const std::uint64_t* seeds, const bool* mask, float* obs, double* infos) {
  std::lock_guard<std::mutex> lock(mutex_);
  async_->Drain();
  Batch batch{this};
  batch.seeds = seeds;
  batch.mask = mask;
  batch.obs = obs;
  batch.infos = infos;
  threads_.ForEach(int(groups_.size()), &WorldPool::RunGroup, &batch);
}

void WorldPool::Step(const float* actions, const PoolStepOutput& out) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (const int flying = async_->in_flight())
    throw std::invalid_argument("step() steps every env, but " + std::to_string(flying) +
                                " env(s) were sent actions that recv() has not returned yet: recv() them first "
                                "(or reset())");
  CheckActionsOf(nullptr, num_envs_, actions);
  Batch batch{this};
  batch.actions = actions;
  batch.out = &out;
  threads_.ForEachHomed(int(groups_.size()), &WorldPool::RunGroup, &batch);
  for (int w = 0; threads_.num_threads() > 1 && w < threads_.num_threads(); ++w) {
    const auto [first, last] = threads_.ShareOf(int(groups_.size()), w);  // its own groups, costliest first next step
    std::sort(step_order_.begin() + first, step_order_.begin() + last,
              [this](int a, int b) { return step_seconds_[size_t(a)] > step_seconds_[size_t(b)]; });
  }
}

void WorldPool::StageAsync() {
  if (stage_) return;
  const size_t n = size_t(num_envs_), od = size_t(obs_dim()), columns = size_t(info_size());
  auto s = std::make_unique<AsyncStage>(n);
  s->actions.resize(n * size_t(act_dim()));
  s->obs.resize(n * od);
  s->final_obs.resize(n * od);
  s->rewards.resize(n);
  s->infos.resize(n * columns);
  s->final_infos.resize(n * columns);
  for (auto* flags : {&s->terminated, &s->truncated, &s->was_reset, &s->diverged})
    *flags = std::make_unique<bool[]>(n);  // value-initialised: false
  // Recv's caller runs queued worlds too, as worker num_threads: a Jolt scratch of its own.
  contexts_.push_back(std::make_unique<StepContext>(TempBytesFor(groups_.front()->world())));
  s->out = PoolStepOutput{s->obs.data(),        s->rewards.data(),   s->terminated.get(),
                          s->truncated.get(),   s->infos.data(),     s->was_reset.get(),
                          s->final_obs.data(),  s->final_infos.data(), s->diverged.get()};
  stage_ = std::move(s);
}

void WorldPool::RunAsyncGroup(void* data, int g, int worker) {
  WorldPool& pool = *static_cast<WorldPool*>(data);
  AsyncStage& s = *pool.stage_;
  const int first = pool.packing_.FirstOf(g), last = first + pool.packing_.SizeOf(g);
  s.resets.Reseed(first, last, [&](int i) -> std::uint64_t& { return pool.slots_[size_t(i)].seed_state; });
  pool.StepGroup(g, s.actions.data(), s.out, *pool.contexts_[size_t(worker)], worker, s.resets.now.get());
  s.resets.Done(first, last);
}

void WorldPool::Send(const int* envs, int count, const float* actions) {
  std::lock_guard<std::mutex> lock(mutex_);
  async_->CheckSendable(envs, count);
  CheckActionsOf(envs, count, actions);
  StageAsync();
  const size_t ad = size_t(act_dim());
  for (int k = 0; k < count; ++k)
    std::copy(actions + size_t(k) * ad, actions + size_t(k + 1) * ad, stage_->actions.begin() + size_t(envs[k]) * ad);
  async_->Send(envs, count);
}

void WorldPool::SendReset(const std::uint64_t* seeds) {
  std::lock_guard<std::mutex> lock(mutex_);
  async_->Drain();
  StageAsync();
  std::vector<int> all(static_cast<size_t>(num_envs_));
  std::iota(all.begin(), all.end(), 0);
  stage_->resets.All(num_envs_, seeds);
  async_->Send(all.data(), num_envs_);
}

void WorldPool::Recv(int* envs, const PoolStepOutput& out) {
  std::lock_guard<std::mutex> lock(mutex_);
  async_->Recv(batch_size_, envs);
  const AsyncStage& s = *stage_;
  const size_t od = size_t(obs_dim()), columns = size_t(info_size());
  for (int k = 0; k < batch_size_; ++k) {
    const size_t i = size_t(envs[k]), b = size_t(k);
    CopyRow(s.obs.data(), i, out.obs, b, od);
    CopyRow(s.infos.data(), i, out.infos, b, columns);
    out.rewards[k] = s.rewards[i];
    out.terminated[k] = s.terminated[i];
    out.truncated[k] = s.truncated[i];
    out.was_reset[k] = s.was_reset[i];
    if (out.diverged) out.diverged[k] = s.diverged[i];
    if (s.was_reset[i] && mode_ == AutoresetMode::SameStep && (s.terminated[i] || s.truncated[i])) {
      CopyRow(s.final_obs.data(), i, out.final_obs, b, od);
      CopyRow(s.final_infos.data(), i, out.final_infos, b, columns);
    }
  }
}

}  // namespace joltgym
