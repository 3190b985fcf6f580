// AntSwarm: N Ants (2 to 16) push a heavy box to a goal, sharing one reward. The ants start
// on a circle around the box (spread so that their legs do not overlap), the goal lies
// `goal_distance` away in a random direction, and every ant touches every other ant and the
// box. The team earns the box's speed towards the goal, a bonus when the box's centre comes
// within `goal_radius` of it (which ends the episode), and pays the ants' mean control cost.
//
// Each ant observes its Ant-v5 observation, then, in its heading frame: the box's position and
// velocity relative to it, the goal relative to it and to the box, and the relative positions
// of its two nearest ants (zeros for a missing one).
#pragma once

#include "marl/multi_agent_task.h"
#include "tasks/task_params.h"

#include <memory>

namespace joltgym {

struct AntSwarmParams {
  int num_ants = 4;
  float goal_distance = 5.0f;
  float goal_radius = 0.5f;
  float progress_weight = 1.0f;   // per m/s of the box towards the goal
  float success_reward = 100.0f;
  float ctrl_cost_weight = 0.5f;  // Ant-v5's, on the mean of the ants' |a|^2
  int frame_skip = 5;

  template <class Visit>
  void VisitFields(Visit&& visit) {
    visit("num_ants", num_ants);
    visit("goal_distance", goal_distance);
    visit("goal_radius", goal_radius);
    visit("progress_weight", progress_weight);
    visit("success_reward", success_reward);
    visit("ctrl_cost_weight", ctrl_cost_weight);
    visit("frame_skip", frame_skip);
  }
};

class AntSwarmTask final : public MultiAgentTask {
 public:
  static constexpr int kMaxAnts = 16;

  // models: the ant's and the box's.
  AntSwarmTask(const std::vector<ModelPtr>& models, const AntSwarmParams& params);

  void InitWorkspace(MultiAgentWorkspace& ws) const override;
  void Reset(EnvWorld world, Rng& rng, MultiAgentWorkspace& ws, double* infos) const override;
  void Observe(EnvWorld world, MultiAgentWorkspace& ws, float* obs, float* state) const override;
  void Prepare(EnvWorld world, const float* actions, MultiAgentWorkspace& ws) const override;
  void Score(EnvWorld world, const float* actions, int elapsed, MultiAgentWorkspace& ws, float* rewards,
             bool* terminated, double* infos) const override;
  std::vector<FloorMark> FloorMarks(const MultiAgentWorkspace& ws) const override;

 private:
  int box() const { return params_.num_ants; }  // the box's robot index
  float BoxToGoal(EnvWorld world, const MultiAgentWorkspace& ws) const;

  AntSwarmParams params_;
  std::shared_ptr<const Task> ant_task_;
  float start_radius_;
  InfoSlot box_distance_, success_, reward_progress_, reward_ctrl_;
};

}  // namespace joltgym
