// The interface every task implements once; the single env, the pool and the
// multi-agent envs drive tasks through it. A task scores one robot; it holds parameters
// only (no per-episode state), so one task object serves any number of robots.
#pragma once

#include "physics/world/step_context.h"
#include "physics/world/world.h"
#include "tasks/rng.h"
#include "tasks/task_layout.h"

#include <string>
#include <vector>

namespace joltgym {

struct StepOutcome {
  float reward = 0.0f;
  bool terminated = false;
  bool diverged = false;  // the robot's physics diverged (Robot::Diverged): the env truncates the episode
};

// Scratch owned by each environment instance so tasks allocate nothing per step.
struct TaskWorkspace {
  std::vector<float> qpos;
  std::vector<float> qvel;
  std::vector<float> contact_forces;  // cfrc_ext, 6 per MuJoCo body
  JPH::RVec3 tracked_before;          // the point whose velocity a task rewards, before the step
};

class Task {
 public:
  virtual ~Task() = default;

  int obs_dim() const { return observation_.size(); }
  int act_dim() const { return act_dim_; }
  int frame_skip() const { return frame_skip_; }
  float dt() const { return dt_; }  // model timestep x frame_skip
  const ObservationLayout& observation_layout() const { return observation_; }
  const InfoLayout& info_layout() const { return info_; }

  // Draws the initial generalized state (noise around qpos0) into ws.qpos / ws.qvel.
  virtual void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const = 0;
  // Writes the info keys declared at_reset for the state reset left.
  virtual void ResetInfo(const Robot& /*robot*/, TaskWorkspace& /*ws*/, InfoRow /*info*/) const {}
  virtual void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const = 0;

  // The two halves of an env step: the action becomes the robot's controls, then after
  // frame_skip steps of its world (which may step other robots too) the task scores it.
  void Prepare(Robot& robot, const float* action, TaskWorkspace& ws) const {
    BeforePhysics(robot, ws);
    robot.SetControls(action);
  }
  StepOutcome Finish(Robot& robot, const float* action, TaskWorkspace& ws, double* info) const {
    return Score(robot, action, ws, InfoRow(info));
  }

 protected:
  Task(const CompiledModel& model, int frame_skip);

  // Called before the physics steps, e.g. to record ws.tracked_before.
  virtual void BeforePhysics(const Robot& /*robot*/, TaskWorkspace& /*ws*/) const {}
  // Reward, termination and info of the transition that the physics steps just made.
  virtual StepOutcome Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const = 0;

  ObservationLayout observation_;  // declared by the constructor of each task
  InfoLayout info_;

 private:
  int act_dim_;
  int frame_skip_;
  float dt_;
};

}  // namespace joltgym
