#include "pool/world_pool.h"

#include "envs/action_check.h"
#include "pool/seed_stream.h"

#include <algorithm>
#include <stdexcept>

namespace joltgym {
namespace {

std::string EnvList(const std::vector<int>& envs) {
  std::string out;
  for (size_t k = 0; k < envs.size() && k < 10; ++k) out += (k ? ", " : "") + std::to_string(envs[k]);
  if (envs.size() > 10) out += ", ... (" + std::to_string(envs.size()) + " envs)";
  return out;
}

}  // namespace

void WorldPool::CheckActions(const float* actions) const {
  std::vector<int> bad;
  for (int i = 0; i < num_envs(); ++i)
    if (FirstNonFinite(actions + size_t(i) * act_dim(), act_dim()) >= 0) bad.push_back(i);
  if (!bad.empty()) throw std::invalid_argument("actions contain NaN or inf for env(s) " + EnvList(bad));
  if (mode_ != AutoresetMode::Disabled) return;
  std::vector<int> waiting;
  for (int i = 0; i < num_envs(); ++i)
    if (slots_[i].done) waiting.push_back(i);
  if (!waiting.empty())
    throw std::invalid_argument("env(s) " + EnvList(waiting) +
                                " ended their episode; with autoreset disabled, reset them with "
                                "reset(options={'reset_mask': mask}) before stepping");
}

struct WorldPool::Batch {
  WorldPool* pool;
  int num_threads;
  // Reset
  const std::uint64_t* seeds = nullptr;
  const bool* mask = nullptr;
  float* obs = nullptr;
  double* infos = nullptr;
  // Step (actions non-null)
  const float* actions = nullptr;
  const PoolStepOutput* out = nullptr;
};

WorldPool::WorldPool(ModelPtr model, std::shared_ptr<const Task> task, int num_envs, int num_threads,
                     int max_episode_steps, AutoresetMode mode, std::uint64_t entropy)
    : task_(std::move(task)),
      max_episode_steps_(max_episode_steps),
      mode_(mode),
      threads_(std::max(1, std::min(num_threads, num_envs))) {
  if (num_envs < 1) throw std::invalid_argument("num_envs must be >= 1, got " + std::to_string(num_envs));
  if (!task_) throw std::invalid_argument("WorldPool needs a task");
  envs_.reserve(size_t(num_envs));
  slots_.resize(size_t(num_envs));
  for (int i = 0; i < num_envs; ++i) {
    envs_.push_back(std::make_unique<EnvInstance>(model, task_));
    slots_[i].seed_state = entropy + std::uint64_t(i);
  }
  for (int w = 0; w < threads_.num_threads(); ++w) contexts_.push_back(std::make_unique<StepContext>());
}

void WorldPool::ResetEnv(int i, float* obs, double* info_row) {
  envs_[i]->Reset(NextSeed(slots_[i].seed_state), obs, info_row);
  slots_[i].elapsed = 0;
  slots_[i].done = false;
}

void WorldPool::StepEnv(int i, const float* action, const PoolStepOutput& out, StepContext& ctx) {
  const int od = obs_dim();
  const size_t columns = size_t(info_size());
  float* obs = out.obs + size_t(i) * od;
  double* info = out.infos + size_t(i) * columns;
  Slot& slot = slots_[i];
  out.was_reset[i] = false;
  if (slot.done && mode_ == AutoresetMode::NextStep) {
    ResetEnv(i, obs, info);
    out.rewards[i] = 0.0f;
    out.terminated[i] = out.truncated[i] = false;
    out.was_reset[i] = true;
    return;
  }
  const StepOutcome outcome = envs_[i]->Step(action, ctx, obs, info);
  ++slot.elapsed;
  const bool truncated = max_episode_steps_ > 0 && slot.elapsed >= max_episode_steps_;
  out.rewards[i] = outcome.reward;
  out.terminated[i] = outcome.terminated;
  out.truncated[i] = truncated;
  slot.done = outcome.terminated || truncated;
  if (slot.done && mode_ == AutoresetMode::SameStep) {
    std::copy(obs, obs + od, out.final_obs + size_t(i) * od);
    std::copy(info, info + columns, out.final_infos + size_t(i) * columns);
    ResetEnv(i, obs, info);
    out.was_reset[i] = true;
  }
}

void WorldPool::RunBatch(void* data, int worker) {
  Batch& b = *static_cast<Batch*>(data);
  WorldPool& pool = *b.pool;
  const int n = pool.num_envs();
  const int begin = int(std::int64_t(n) * worker / b.num_threads);
  const int end = int(std::int64_t(n) * (worker + 1) / b.num_threads);
  const int od = pool.obs_dim();
  const size_t columns = size_t(pool.info_size());
  for (int i = begin; i < end; ++i) {
    if (b.actions) {
      pool.StepEnv(i, b.actions + size_t(i) * pool.act_dim(), *b.out, *pool.contexts_[size_t(worker)]);
    } else if (!b.mask || b.mask[i]) {
      if (b.seeds) pool.slots_[i].seed_state = b.seeds[i];
      pool.ResetEnv(i, b.obs + size_t(i) * od, b.infos + size_t(i) * columns);
    }
  }
}

void WorldPool::Reset(const std::uint64_t* seeds, const bool* mask, float* obs, double* infos) {
  std::lock_guard<std::mutex> lock(mutex_);
  Batch batch{this, threads_.num_threads()};
  batch.seeds = seeds;
  batch.mask = mask;
  batch.obs = obs;
  batch.infos = infos;
  threads_.Run(&WorldPool::RunBatch, &batch);
}

void WorldPool::Step(const float* actions, const PoolStepOutput& out) {
  std::lock_guard<std::mutex> lock(mutex_);
  CheckActions(actions);
  Batch batch{this, threads_.num_threads()};
  batch.actions = actions;
  batch.out = &out;
  threads_.Run(&WorldPool::RunBatch, &batch);
}

}  // namespace joltgym
