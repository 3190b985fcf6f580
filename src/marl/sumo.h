// Sumo: two robots in a ring (SumoAnts, SumoHumanoids). A robot loses when its torso falls
// below `fallen_z` or leaves the ring (torso farther than the radius from the centre); the
// other wins only if the two touched during the episode (as OpenAI's multiagent-competition);
// at the time limit both draw. Every step also pays documented shaping terms, weighted by a
// weight that training code can anneal while it runs (the "shaping_weight" knob). The
// "ring_radius_scale" knob scales the ring drawn at each reset, for a curriculum that starts
// with small rings (a short push wins) and widens them.
//
// Each agent observes its robot's Gymnasium v5 observation (Ant-v5's or Humanoid-v5's), then
// the arena: its torso's xy, the opponent's torso position and velocity relative to it and
// the opponent torso's forward and up axes (all in the agent's heading frame), the ring's
// radius, both torsos' distances to the edge, and the fraction of the time left.
#pragma once

#include "marl/multi_agent_task.h"
#include "tasks/task_params.h"

#include <memory>
#include <string>

namespace joltgym {

// The rules and rewards of a sumo bout; SumoAntsParams and SumoHumanoidsParams give each robot's defaults.
struct SumoParams {
  Range ring_radius_range{2.5f, 4.5f};  // drawn uniformly at every reset
  float ring_radius_scale = 1.0f;       // the drawn radius times this (the knob's value at the start)
  float start_distance = 1.15f;         // each torso's distance from the centre at the start
  float fallen_z = 0.3f;                // torso height below which a robot has fallen
  int max_steps = 500;                  // the bout's length: a draw after it
  float win_reward = 1000.0f;
  float loss_reward = -1000.0f;
  float draw_reward = -1000.0f;
  bool win_needs_contact = true;        // a robot wins only if the two touched during the bout
  float shaping_weight = 1.0f;          // the shaping terms' weight at the start (the knob's value)
  float center_weight = 1.0f;           // shaping: - center_weight * |torso xy|
  float alive_bonus = 5.0f;             // shaping: +alive_bonus standing, -alive_bonus fallen
  float ctrl_cost_weight = 0.1f;        // shaping: - ctrl_cost_weight * |a|^2
  float contact_cost_weight = 0.5e-6f;  // shaping: - min(contact_cost_weight * |cfrc_ext|^2, contact_cost_max)
  float contact_cost_max = 10.0f;
  // Optional shaping (RoboSumo's idea, off as in gym-compete): - approach_weight * the torsos'
  // planar distance (go to the opponent), + push_weight * the opponent torso's distance from the centre.
  float approach_weight = 0.0f;
  float push_weight = 0.0f;
  int frame_skip = 5;

  template <class Visit>
  void VisitFields(Visit&& visit) {
    visit("ring_radius_range", ring_radius_range);
    visit("ring_radius_scale", ring_radius_scale);
    visit("start_distance", start_distance);
    visit("fallen_z", fallen_z);
    visit("max_steps", max_steps);
    visit("win_reward", win_reward);
    visit("loss_reward", loss_reward);
    visit("draw_reward", draw_reward);
    visit("win_needs_contact", win_needs_contact);
    visit("shaping_weight", shaping_weight);
    visit("center_weight", center_weight);
    visit("alive_bonus", alive_bonus);
    visit("ctrl_cost_weight", ctrl_cost_weight);
    visit("contact_cost_weight", contact_cost_weight);
    visit("contact_cost_max", contact_cost_max);
    visit("approach_weight", approach_weight);
    visit("push_weight", push_weight);
    visit("frame_skip", frame_skip);
  }
};

// Two Ants: Ant-v5's robot and observation; gym-compete's ring (radius 2.5-4.5) and fall height.
struct SumoAntsParams : SumoParams {};

// Two Humanoids: Humanoid-v5's robot and observation; a smaller ring, closer starts, and a
// fall below Humanoid-v5's healthy height.
struct SumoHumanoidsParams : SumoParams {
  SumoHumanoidsParams() {
    ring_radius_range = {1.5f, 3.5f};
    start_distance = 1.0f;
    fallen_z = 1.0f;
  }
};

class SumoTask final : public MultiAgentTask {
 public:
  // models: the one robot model both agents use (ant.xml, humanoid.xml).
  SumoTask(const std::vector<ModelPtr>& models, const SumoAntsParams& params);
  SumoTask(const std::vector<ModelPtr>& models, const SumoHumanoidsParams& params);

  void InitWorkspace(MultiAgentWorkspace& ws) const override;
  void Reset(EnvWorld world, Rng& rng, MultiAgentWorkspace& ws, double* infos) const override;
  void Observe(EnvWorld world, MultiAgentWorkspace& ws, float* obs, float* state) const override;
  void Prepare(EnvWorld world, const float* actions, MultiAgentWorkspace& ws) const override;
  void Score(EnvWorld world, const float* actions, int elapsed, MultiAgentWorkspace& ws, float* rewards,
             bool* terminated, double* infos) const override;
  std::vector<FloorMark> FloorMarks(const MultiAgentWorkspace& ws) const override;

 private:
  SumoTask(const std::vector<ModelPtr>& models, const SumoParams& params, const std::string& robot_task);
  void WriteArenaInfo(EnvWorld world, const MultiAgentWorkspace& ws, double* infos) const;

  SumoParams params_;
  std::shared_ptr<const Task> robot_task_;  // the robot's single-agent task: its reset noise and observation
  int arena_obs_offset_;
  InfoSlot winner_, lost_, draw_, touched_, reward_sparse_, reward_shaping_, reward_center_, reward_survive_,
      reward_ctrl_, reward_contact_, reward_approach_, reward_push_, distance_to_edge_, ring_radius_;
};

}  // namespace joltgym
