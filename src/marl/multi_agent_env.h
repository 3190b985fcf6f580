// One multi-agent environment: its task's robots in a world (of its own, or one it shares
// with other envs of the task, packed by a pool), the task, its random stream and scratch.
// The unit the multi-agent bindings and the multi-agent pool step.
// Arrays are per agent, row-major: observations [agents, max_obs_dim] zero-padded,
// actions [agents, max_act_dim], info rows [agents, info size].
#pragma once

#include "marl/multi_agent_task.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace joltgym {

// Caller-owned outputs of one step.
struct MultiAgentStepOutput {
  float* obs = nullptr;        // [agents, max_obs_dim]
  float* state = nullptr;      // [state_dim]
  float* rewards = nullptr;    // [agents]
  bool* terminated = nullptr;  // [agents]
  bool* truncated = nullptr;   // [agents]
  double* infos = nullptr;     // [agents, info size]
  // Optional [1]: the world's physics diverged (EnvWorld::AnyRobotDiverged) in this step, and
  // every agent still playing was truncated.
  bool* diverged = nullptr;
};

class MultiAgentEnv {
 public:
  // max_episode_steps > 0 truncates every agent still playing after that many steps.
  // The env has a world of its own.
  MultiAgentEnv(std::shared_ptr<const MultiAgentTask> task, int max_episode_steps);
  // The env's robots are robots [first_robot, first_robot + the task's robots) of `world`,
  // which outlives it and holds other envs' robots too; the task must CanPack. The owner
  // steps the world: Prepare every env that steps, World::Step frame_skip times, Finish each.
  MultiAgentEnv(std::shared_ptr<const MultiAgentTask> task, int max_episode_steps, World& world, int first_robot);

  const MultiAgentTask& task() const { return *task_; }
  World& world() { return view_.world(); }
  // The env's first robot in world(): 0 for a world of its own.
  int first_robot() const { return view_.first_robot(); }
  int elapsed() const { return elapsed_; }
  bool live(int agent) const { return live_[size_t(agent)] != 0; }
  bool episode_over() const;
  // The task's knob `index` (MultiAgentTask::knobs) in this world; it keeps its value across resets.
  float knob(int index) const { return ws_.knobs[size_t(index)]; }
  void SetKnob(int index, float value) { ws_.knobs[size_t(index)] = value; }
  std::vector<FloorMark> floor_marks() const { return task_->FloorMarks(ws_); }

  void Reset(std::uint64_t seed, float* obs, float* state, double* infos);
  // Throws std::invalid_argument, before any physics, if a playing agent's action is not
  // finite (naming the agent) or the episode is over. Agents that are done already get
  // zero controls; their rows report reward 0, terminated, and the last observation.
  // A world whose physics diverged truncates every agent still playing (the episode is over).
  void Step(const float* actions, StepContext& ctx, const MultiAgentStepOutput& out);
  // Step in parts, for an owner that steps a shared world: Prepare takes the actions (checked
  // by the caller as Step checks them) and Finish scores the step once the world has moved.
  void Prepare(const float* actions);
  void Finish(const MultiAgentStepOutput& out);
  // The task's observations and global state of the current state (after RestoreState, say).
  void Observe(float* obs, float* state) { task_->Observe(view_, ws_, obs, state); }

  // The env's state mid-episode (multi_agent_env_state.cpp): its robots (each alone where the task
  // CanPack, else the whole world, which is then the env's own), random stream, workspace (not the knobs),
  // which agents play and the steps so far. Restored into any env of the same task, stepping on
  // is bit-identical to the env it was saved from. RestoreState returns false for a state of
  // another task (the env then in no defined state: reset it).
  void SaveState(StateBuffer& out) const;
  bool RestoreState(StateBuffer& in);
  // What the saved states are of (saved_state.h).
  std::string StateKind() const;

 private:
  void InitScratch();  // the workspace and per-agent buffers, sized for the task

  std::shared_ptr<const MultiAgentTask> task_;
  std::unique_ptr<World> own_world_;  // null when the env's robots are in a shared world
  EnvWorld view_;
  Rng rng_;
  MultiAgentWorkspace ws_;
  std::vector<float> actions_;       // the step's actions, done agents' rows zeroed
  std::vector<unsigned char> live_;  // per agent: still playing
  int elapsed_ = 0;
  int max_episode_steps_;
};

}  // namespace joltgym
