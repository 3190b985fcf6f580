#include "pool/bare_loop.h"

#include "pool/world_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <thread>

namespace joltgym {

BareLoop::BareLoop(ModelPtr model, std::shared_ptr<const Task> task, int num_envs, int max_episode_steps,
                   std::uint64_t seed, int worlds)
    : task_(std::move(task)),
      num_envs_(num_envs),
      packing_(worlds > 0 ? Packing(num_envs, worlds) : ChoosePacking(model, num_envs, 1, 0)),
      max_episode_steps_(max_episode_steps),
      slots_(size_t(num_envs)),
      obs_(size_t(num_envs) * size_t(task_->obs_dim())),
      infos_(size_t(num_envs) * size_t(task_->info_layout().size())) {
  for (int g = 0; g < packing_.worlds(); ++g)
    groups_.push_back(std::make_unique<EnvGroup>(model, task_, packing_.SizeOf(g)));
  contexts_.push_back(std::make_unique<StepContext>(TempBytesFor(groups_.front()->world())));
  for (int i = 0; i < num_envs; ++i) {
    slots_[size_t(i)].seed_state = seed + std::uint64_t(i);
    ResetEnv(i);
  }
}

void BareLoop::ResetEnv(int i) {
  groups_[size_t(packing_.WorldOf(i))]->Reset(packing_.IndexInWorld(i), slots_[size_t(i)].Begin(),
                                               obs_.data() + size_t(i) * obs_dim(),
                                               infos_.data() + size_t(i) * task_->info_layout().size());
}

void BareLoop::StepGroup(int g, const float* actions, StepContext& ctx) {
  EnvGroup& group = *groups_[size_t(g)];
  const int first = packing_.FirstOf(g);
  bool any_steps = false;
  for (int k = 0; k < group.size(); ++k) {
    if (slots_[size_t(first + k)].done) continue;  // NextStep: reset by this step instead
    group.Prepare(k, actions + size_t(first + k) * act_dim());
    any_steps = true;
  }
  if (any_steps) group.StepPhysics(ctx);
  for (int k = 0; k < group.size(); ++k) {
    const int i = first + k;
    EpisodeSlot& slot = slots_[size_t(i)];
    if (slot.done) {
      ResetEnv(i);
      continue;
    }
    const StepOutcome out = group.Finish(k, actions + size_t(i) * act_dim(), obs_.data() + size_t(i) * obs_dim(),
                                         infos_.data() + size_t(i) * task_->info_layout().size());
    slot.Count(out, max_episode_steps_);
  }
}

// Every thread waits here after each step until all have finished it, spinning: the least a
// synchronous vector step needs (all envs of step s done before step s + 1 is handed out).
class SpinBarrier {
 public:
  explicit SpinBarrier(int threads) : threads_(threads) {}
  void Wait() {
    const int generation = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == threads_) {
      arrived_.store(0, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_acq_rel);
      return;
    }
    while (generation_.load(std::memory_order_acquire) == generation) std::this_thread::yield();
  }

 private:
  const int threads_;
  std::atomic<int> arrived_{0};
  std::atomic<int> generation_{0};
};

void BareLoop::RunGroups(int first, int last, const float* actions, int batches, int steps, StepContext& ctx,
                         SpinBarrier* barrier) {
  const size_t batch = size_t(num_envs_) * size_t(act_dim());
  for (int s = 0; s < steps; ++s) {
    for (int g = first; g < last; ++g) StepGroup(g, actions + size_t(s % batches) * batch, ctx);
    if (barrier) barrier->Wait();
  }
}

BareLoopSeconds BareLoop::Run(const float* actions, int batches, int steps, int threads) {
  const int groups = int(groups_.size());
  threads = std::max(1, std::min(threads, groups));
  while (int(contexts_.size()) < threads)
    contexts_.push_back(std::make_unique<StepContext>(TempBytesFor(groups_.front()->world())));
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  if (threads == 1) {
    RunGroups(0, groups, actions, batches, steps, *contexts_.front(), nullptr);
  } else {
    SpinBarrier barrier(threads);
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t)
      workers.emplace_back([this, t, threads, groups, actions, batches, steps, &barrier] {
        RunGroups(groups * t / threads, groups * (t + 1) / threads, actions, batches, steps, *contexts_[size_t(t)],
                  &barrier);
      });
    for (std::thread& w : workers) w.join();
  }
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
          double(std::clock() - cpu_start) / CLOCKS_PER_SEC};
}

std::vector<float> RandomActions(const CompiledModel& model, int act_dim, int num_envs, int batches, std::uint64_t seed) {
  Rng rng(seed);
  const auto& actuators = model.actuators();
  std::vector<float> actions(size_t(act_dim) * size_t(num_envs) * size_t(batches));
  for (size_t i = 0; i < actions.size(); ++i) {
    const size_t j = i % size_t(act_dim);
    const bool ranged = act_dim == int(actuators.size()) && actuators[j].ctrllimited;
    actions[i] = ranged ? rng.Uniform(actuators[j].ctrl_lo, actuators[j].ctrl_hi) : rng.Uniform(-1.0f, 1.0f);
  }
  return actions;
}

}  // namespace joltgym
