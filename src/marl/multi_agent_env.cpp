#include "marl/multi_agent_env.h"

#include "envs/action_check.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace joltgym {

namespace {

const MultiAgentTask& Checked(const std::shared_ptr<const MultiAgentTask>& task) {
  if (!task) throw std::invalid_argument("a multi-agent env needs a task");
  return *task;
}

}  // namespace

MultiAgentEnv::MultiAgentEnv(std::shared_ptr<const MultiAgentTask> task, int max_episode_steps)
    : task_(std::move(task)),
      own_world_(std::make_unique<World>(Checked(task_).robots(), task_->collision_rule())),
      view_(*own_world_, 0, own_world_->num_robots()),
      max_episode_steps_(max_episode_steps) {
  InitScratch();
}

MultiAgentEnv::MultiAgentEnv(std::shared_ptr<const MultiAgentTask> task, int max_episode_steps, World& world,
                             int first_robot)
    : task_(std::move(task)),
      view_(world, first_robot, int(Checked(task_).robots().size())),
      max_episode_steps_(max_episode_steps) {
  if (!task_->CanPack())
    throw std::invalid_argument("this multi-agent task's robots touch bodies through Jolt: its envs cannot share a world");
  if (first_robot < 0 || first_robot + view_.num_robots() > world.num_robots())
    throw std::out_of_range("robots [" + std::to_string(first_robot) + ", " +
                            std::to_string(first_robot + view_.num_robots()) + ") are not all in a world of " +
                            std::to_string(world.num_robots()));
  InitScratch();
}

void MultiAgentEnv::InitScratch() {
  task_->InitWorkspace(ws_);
  actions_.assign(size_t(task_->num_agents()) * size_t(task_->max_act_dim()), 0.0f);
  live_.assign(size_t(task_->num_agents()), 0);
}

bool MultiAgentEnv::episode_over() const {
  return std::none_of(live_.begin(), live_.end(), [](unsigned char l) { return l != 0; });
}

void MultiAgentEnv::Reset(std::uint64_t seed, float* obs, float* state, double* infos) {
  rng_.Seed(seed);
  if (own_world_) {
    own_world_->RestoreInitialState();
  } else {
    for (int i = 0; i < view_.num_robots(); ++i) view_.world().RestoreRobotInitialState(view_.first_robot() + i);
  }
  const size_t info_size = size_t(task_->info_layout().size());
  std::fill(infos, infos + size_t(task_->num_agents()) * info_size, 0.0);
  task_->Reset(view_, rng_, ws_, infos);
  task_->Observe(view_, ws_, obs, state);
  std::fill(live_.begin(), live_.end(), 1);
  elapsed_ = 0;
}

void MultiAgentEnv::Step(const float* actions, StepContext& ctx, const MultiAgentStepOutput& out) {
  const int n = task_->num_agents(), width = task_->max_act_dim();
  if (episode_over()) throw std::invalid_argument("the episode is over (every agent is done): call reset()");
  for (int i = 0; i < n; ++i) {
    const float* row = actions + size_t(i) * size_t(width);
    const AgentSpec& agent = task_->agent(i);
    const int bad = live_[size_t(i)] ? FirstUnusableActionValue(row, agent.act_dim) : -1;
    if (bad >= 0)
      throw std::invalid_argument("the action of " + agent.name + " contains " + UnusableActionWhat(row[bad]) +
                                  " at index " + std::to_string(bad));
  }
  Prepare(actions);
  for (int s = 0; s < task_->frame_skip(); ++s) world().Step(ctx);
  Finish(out);
}

void MultiAgentEnv::Prepare(const float* actions) {
  const int n = task_->num_agents(), width = task_->max_act_dim();
  for (int i = 0; i < n; ++i) {
    float* row = actions_.data() + size_t(i) * size_t(width);
    if (live_[size_t(i)])
      std::copy(actions + size_t(i) * size_t(width), actions + size_t(i + 1) * size_t(width), row);
    else
      std::fill(row, row + width, 0.0f);
  }
  task_->Prepare(view_, actions_.data(), ws_);
}

void MultiAgentEnv::Finish(const MultiAgentStepOutput& out) {
  const int n = task_->num_agents();
  ++elapsed_;
  const size_t info_size = size_t(task_->info_layout().size());
  std::fill(out.infos, out.infos + size_t(n) * info_size, 0.0);
  task_->Score(view_, actions_.data(), elapsed_, ws_, out.rewards, out.terminated, out.infos);
  const bool diverged = view_.AnyRobotDiverged();
  if (out.diverged) *out.diverged = diverged;
  const bool time_up = (max_episode_steps_ > 0 && elapsed_ >= max_episode_steps_) || diverged;
  for (int i = 0; i < n; ++i) {
    if (!live_[size_t(i)]) {
      out.rewards[i] = 0.0f;
      out.terminated[i] = true;
      out.truncated[i] = false;
      continue;
    }
    out.truncated[i] = time_up && !out.terminated[i];
    if (out.terminated[i] || out.truncated[i]) live_[size_t(i)] = 0;
  }
  task_->Observe(view_, ws_, out.obs, out.state);
}

}  // namespace joltgym
