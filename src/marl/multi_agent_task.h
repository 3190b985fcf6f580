// The interface of a multi-agent task: a world of one or several robots shared by
// several agents, each with its own observation, action, reward and termination. Like
// a single-robot Task it holds parameters only; an episode's values live in the
// MultiAgentWorkspace, so one task serves any number of worlds.
#pragma once

#include "marl/env_world.h"
#include "physics/world/step_context.h"
#include "physics/world/world.h"
#include "tasks/rng.h"
#include "tasks/task.h"
#include "tasks/task_layout.h"
#include "tasks/task_registry.h"

#include <limits>
#include <string>
#include <vector>

namespace joltgym {

struct AgentSpec {
  std::string name;
  int obs_dim = 0;
  int act_dim = 0;
  std::vector<float> act_low, act_high;  // the action box (the actuators' ctrlrange)
};

// One world's scratch for its task: a TaskWorkspace per robot and what a task keeps for
// the episode. Sized once by MultiAgentTask::InitWorkspace; nothing grows per step.
struct MultiAgentWorkspace {
  std::vector<float> knobs;        // the task's runtime knobs (MultiAgentTask::knobs), settable while it runs
  std::vector<TaskWorkspace> robots;
  std::vector<float> controls;     // one robot's controls assembled from several agents
  std::vector<double> robot_info;  // a single-robot task's info row
  std::vector<float> values;       // the task's per-episode values (e.g. the ring's radius)
};

// A value a running world's task reads every step and training code may change between
// steps (e.g. the weight of shaping rewards, annealed over training), within [min, max].
struct Knob {
  std::string name;
  float initial = 0.0f;
  float min = -std::numeric_limits<float>::infinity();
  float max = std::numeric_limits<float>::infinity();
};

// Throws std::invalid_argument naming the knob unless `value` is finite and within its bounds.
void CheckKnobValue(const Knob& knob, float value);

// A circle on the floor that shows the task's arena (a sumo ring, a goal): drawn, never
// simulated. Coordinates are the world's.
struct FloorMark {
  float x = 0.0f, y = 0.0f, radius = 1.0f;
  bool filled = false;  // a disc, else a ring
};

class MultiAgentTask {
 public:
  virtual ~MultiAgentTask() = default;

  int num_agents() const { return int(agents_.size()); }
  const AgentSpec& agent(int i) const { return agents_[size_t(i)]; }
  int max_obs_dim() const;
  int max_act_dim() const;
  int state_dim() const { return state_dim_; }  // the global state (for centralised critics)
  int frame_skip() const { return frame_skip_; }
  float dt() const { return dt_; }
  const InfoLayout& info_layout() const { return info_; }  // every agent's info row
  const std::vector<RobotPlacement>& robots() const { return robots_; }
  const CollisionRule& collision_rule() const { return rule_; }
  const std::vector<Knob>& knobs() const { return knobs_; }
  // Whether several envs of this task can share one Jolt world (a multi-agent pool's packing):
  // its robots touch nothing through Jolt (CanShareWorld), each other included, so that one
  // env's robots can be reset alone and never feel another env's.
  bool CanPack() const;

  // Sizes a world's workspace; the default gives each robot a TaskWorkspace and sets the knobs.
  virtual void InitWorkspace(MultiAgentWorkspace& ws) const;
  // Draws the episode's start on the restored world, and writes each agent's reset info.
  virtual void Reset(EnvWorld world, Rng& rng, MultiAgentWorkspace& ws, double* infos) const = 0;
  // Each agent's observation (rows of max_obs_dim, zero past obs_dim) and the global state.
  virtual void Observe(EnvWorld world, MultiAgentWorkspace& ws, float* obs, float* state) const = 0;
  // Agents' actions (rows of max_act_dim; zero rows for agents that are done) become the
  // robots' controls.
  virtual void Prepare(EnvWorld world, const float* actions, MultiAgentWorkspace& ws) const = 0;
  // After frame_skip world steps: each agent's reward, termination and info row.
  // `elapsed` counts the env steps of the episode, this one included.
  virtual void Score(EnvWorld world, const float* actions, int elapsed, MultiAgentWorkspace& ws, float* rewards,
                     bool* terminated, double* infos) const = 0;
  // The arena's marks in the episode of `ws`, for drawing (none by default).
  virtual std::vector<FloorMark> FloorMarks(const MultiAgentWorkspace&) const { return {}; }

 protected:
  MultiAgentTask(int frame_skip, float timestep);

  std::vector<AgentSpec> agents_;  // declared by each task's constructor, as are the rest
  int state_dim_ = 0;
  InfoLayout info_;
  std::vector<RobotPlacement> robots_;
  CollisionRule rule_;
  std::vector<Knob> knobs_;

 private:
  int frame_skip_;
  float dt_;
};

// The action box of actuators `indices` of `model` (their ctrlrange; +-inf if unlimited).
void SetActionBox(const CompiledModel& model, const std::vector<int>& indices, AgentSpec& agent);

using MultiAgentTaskType = TaskKind<MultiAgentTask, std::vector<ModelPtr>>;

// JOLTGYM_REGISTER_MULTI_AGENT_TASK("SumoAnts", SumoTask, SumoAntsParams) in the task's .cpp;
// the task is built from the models Python loads for it (its table row's model files).
#define JOLTGYM_REGISTER_MULTI_AGENT_TASK(name, TaskClass, Params)                                              \
  static const ::joltgym::MultiAgentTaskType::Registration JOLTGYM_TASK_CONCAT(kMultiAgentTaskRegistration, \
                                                                               __LINE__)(                     \
      ::joltgym::MakeTaskKind<::joltgym::MultiAgentTaskType, TaskClass, Params>(name))

}  // namespace joltgym
