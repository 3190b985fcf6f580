// The interface every task implements once; the single env, the pool and the
// multi-agent envs drive tasks through it. A task scores one robot; it holds parameters
// only (no per-episode state), so one task object serves any number of robots.
#pragma once

#include "physics/world/step_context.h"
#include "physics/world/world.h"
#include "tasks/rng.h"
#include "tasks/task_layout.h"

#include <array>
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
  std::vector<float> ctrl;            // nu: the controls a task makes of an action (Task::Actuate)
  JPH::RVec3 tracked_before;          // the point whose velocity a task rewards, before the step
  // Rewards of the control steps an env step has taken so far (Task::action_repeat), zero between env steps.
  double repeated_reward = 0.0;
  // What a task carries from step to step of an episode (a command, the last action),
  // Task::memory_size values that SampleInitialState sets.
  std::vector<double> memory;
  // The env's random stream, for tasks that also draw during an episode (observation noise,
  // new commands); null where the env kind gives none.
  Rng* rng = nullptr;
};

class Task {
 public:
  virtual ~Task() = default;

  int obs_dim() const { return observation_.size(); }
  int act_dim() const { return act_dim_; }
  int frame_skip() const { return frame_skip_; }
  // Control steps per env step (dm_control's action repeat): the frame_skip physics steps are this many
  // control steps, each scored by ControlStepReward and summed into the env step's reward.
  int action_repeat() const { return action_repeat_; }
  float dt() const { return dt_; }  // model timestep x frame_skip
  int memory_size() const { return memory_size_; }
  // Physics steps the robot takes at reset, holding the controls SampleInitialState left in ws.ctrl,
  // before the episode starts from where it came to rest (EnvPool's settle_time); 0: none.
  int settle_steps() const { return settle_steps_; }
  // Gymnasium's action_space bounds per action entry; empty: the actuators' ctrlrange.
  const std::vector<std::array<float, 2>>& action_bounds() const { return action_bounds_; }
  const ObservationLayout& observation_layout() const { return observation_; }
  const InfoLayout& info_layout() const { return info_; }

  // Draws the initial generalized state (noise around qpos0) into ws.qpos / ws.qvel.
  virtual void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const = 0;
  // Writes the info keys declared at_reset for the state reset left.
  virtual void ResetInfo(const Robot& /*robot*/, TaskWorkspace& /*ws*/, InfoRow /*info*/) const {}
  // The model's world geoms this episode draws elsewhere (a target moved each episode, kept in ws):
  // how many were written to out (at most kMaxWorldGeomMoves).
  virtual int MovedWorldGeoms(const TaskWorkspace& /*ws*/, WorldGeomMove* /*out*/) const { return 0; }
  virtual void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const = 0;

  // The two halves of an env step: the action becomes the robot's controls, then after
  // frame_skip steps of its world (which may step other robots too) the task scores it.
  void Prepare(Robot& robot, const float* action, TaskWorkspace& ws) const {
    BeforePhysics(robot, ws);
    Actuate(robot, action, ws);
  }
  StepOutcome Finish(Robot& robot, const float* action, TaskWorkspace& ws, double* info) const {
    return Score(robot, action, ws, InfoRow(info));
  }
  // The reward of the control step that just ended, for tasks that repeat an action over several
  // (action_repeat() > 1); their Score adds ws.repeated_reward, the sum of the earlier ones.
  virtual float ControlStepReward(const Robot& /*robot*/, TaskWorkspace& /*ws*/) const { return 0.0f; }

 protected:
  Task(const CompiledModel& model, int frame_skip, int action_repeat = 1);

  // Called before the physics steps, e.g. to record ws.tracked_before.
  virtual void BeforePhysics(const Robot& /*robot*/, TaskWorkspace& /*ws*/) const {}
  // How an action becomes the robot's controls; by default it is the controls.
  virtual void Actuate(Robot& robot, const float* action, TaskWorkspace& /*ws*/) const { robot.SetControls(action); }
  // The env's random stream; std::logic_error if the env kind running the task gives none.
  static Rng& StreamOf(TaskWorkspace& ws);
  // Reward, termination and info of the transition that the physics steps just made.
  virtual StepOutcome Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const = 0;

  ObservationLayout observation_;  // declared by the constructor of each task
  InfoLayout info_;
  int memory_size_ = 0;
  int settle_steps_ = 0;
  std::vector<std::array<float, 2>> action_bounds_;

 private:
  int act_dim_;
  int frame_skip_;
  int action_repeat_;
  float dt_;
};

}  // namespace joltgym
