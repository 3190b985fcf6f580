// What EnvPool's ports of Playground's humanoid joystick tasks (G1, Berkeley Humanoid, T1) share: the
// reset (scattered on the floor, joints scaled by U(0.5, 1.5)), the gait phase of the two feet, the
// pushes, the dict observation ("state": noisy IMU, command, joints less home, joint velocities,
// previous action, phase; "privileged_state": that, then the true sensors, height, actuator forces,
// feet contacts, velocities and air times), the feet's contact bookkeeping and the command redrawn
// every 500 steps. Each robot's task adds its reward terms.
#pragma once

#include "tasks/floor_contact.h"
#include "tasks/task.h"

#include <array>
#include <string>
#include <vector>

namespace joltgym {

// A robot's parts and the reset's gait draw, as the robot's task declares them.
struct HumanoidJoystickSetup {
  std::string task;                 // names the task in errors
  std::string robot;
  int joints = 0;
  std::string keyframe = "home";   // the default pose
  std::string imu = "imu";         // the observation's
  std::array<std::string, 2> foot_sites;
  std::array<std::vector<std::string>, 2> foot_geoms;  // a foot touches when any of its geoms does
  float gait_hz_min = 1.25f, gait_hz_max = 1.5f;
  bool phase_rests_without_command = false;  // the phase held at pi while the command is zero (T1)
  bool clip_reward = true;                   // the reward clipped to [0, 10000] (all but G1's)
  std::vector<float> pose_weights;           // each joint's weight in the pose cost (default 1)
};

// The config fields the shared parts read, copied from the task's own parameters.
struct HumanoidJoystickCommon {
  float ctrl_dt, sim_dt, action_scale, soft_joint_pos_limit_factor, max_foot_height;
  float noise_level, noise_joint_vel, noise_gravity, noise_linvel, noise_gyro;
  bool push_enable;
  float push_interval_min, push_interval_max, push_magnitude_min, push_magnitude_max;
  std::array<float, 3> command_low, command_high;

  template <class Params>
  static HumanoidJoystickCommon Of(const Params& p) {
    return {p.ctrl_dt, p.sim_dt, p.action_scale, p.soft_joint_pos_limit_factor, p.max_foot_height, p.noise_level,
            p.noise_joint_vel,
            p.noise_gravity, p.noise_linvel, p.noise_gyro, p.push_enable, p.push_interval_min, p.push_interval_max,
            p.push_magnitude_min, p.push_magnitude_max, {p.lin_vel_x_min, p.lin_vel_y_min, p.ang_vel_yaw_min},
            {p.lin_vel_x_max, p.lin_vel_y_max, p.ang_vel_yaw_max}};
  }
};

class HumanoidJoystickTask : public Task {
 public:
  static constexpr int kFeet = 2;
  static constexpr int kMaxRewardTerms = 32;

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const final;
  void ResetInfo(const Robot& robot, TaskWorkspace& ws, InfoRow info) const final;
  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const final;

 protected:
  // What a step's reward terms read besides the robot (qpos and qvel are in ws): the step's events
  // and the sums the robots' terms share, unscaled.
  struct StepState {
    std::array<bool, kFeet> contact{}, first_contact{};
    std::array<float, kFeet> foot_z{};
    JPH::Vec3 command;
    bool terminated = false;
    int contacts = 0;            // feet touching the floor
    float torques = 0.0f;        // sum |actuator force|
    float energy = 0.0f;         // sum |joint velocity| |actuator force|
    float dof_acc = 0.0f;        // sum of the joints' squared mean accelerations over the step
    float action_rate = 0.0f;    // sum (a - last a)^2
    float deviation = 0.0f;      // sum |q - default|
    float limits = 0.0f;         // how far the joints are past their soft limits
    float pose = 0.0f;           // sum weight (q - default)^2
    float clearance = 0.0f;      // sum |foot z - max_foot_height| |foot speed|^(1/2)
    float feet_height = 0.0f;    // at touchdowns, sum (swing peak / max_foot_height - 1)^2
    float air_time = 0.0f;       // at touchdowns, sum min(air time - 0.2, 0.3)
    float phase_error = 0.0f;    // sum (foot z - the gait's swing target)^2
  };

  // joint_noise: each joint's position noise scale; reward_names in EnvPool's order.
  HumanoidJoystickTask(const CompiledModel& model, const HumanoidJoystickSetup& setup,
                       const HumanoidJoystickCommon& common, const std::vector<float>& joint_noise,
                       const std::vector<const char*>& reward_names);

  // The step's reward terms, in the order of reward_names, into `terms`.
  virtual void Terms(const Robot& robot, const TaskWorkspace& ws, const StepState& step, float* terms) const = 0;
  // The episode ends when the IMU's up vector points down or the state is not finite.
  virtual bool Terminated(const Robot& robot, const TaskWorkspace& ws) const;

  int joints() const { return setup_.joints; }
  int imu() const { return imu_; }
  int foot_site(int f) const { return foot_sites_[size_t(f)]; }
  float default_pose(int i) const { return default_pose_[size_t(i)]; }
  float soft_lower(int i) const { return soft_lower_[size_t(i)]; }
  float soft_upper(int i) const { return soft_upper_[size_t(i)]; }

 private:
  void BeforePhysics(const Robot& robot, TaskWorkspace& ws) const final;
  void Actuate(Robot& robot, const float* action, TaskWorkspace& ws) const final;
  StepOutcome Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const final;
  bool Touching(const Robot& robot, int foot) const;
  void SampleCommand(Rng& rng, double* command) const;

  // Where each piece of the episode's memory sits; the per-joint blocks follow.
  enum Memory : int {
    kCommand = 0, kStep = 3, kPushStep = 4, kPushInterval = 5, kPhase = 6, kPhaseDt = 8, kAirTime = 9,
    kLastContact = 11, kSwingPeak = 13,
    // What the next observation shows: the step's values before its bookkeeping, as EnvPool's.
    kObservedCommand = 15, kObservedPhase = 18, kObservedAirTime = 20,
    kLastAction = 22,  // then the observed action, then the velocities before the physics
  };
  int ObservedAction() const { return kLastAction + setup_.joints; }
  int VelocityBefore() const { return kLastAction + 2 * setup_.joints; }

  HumanoidJoystickSetup setup_;
  HumanoidJoystickCommon common_;
  std::vector<float> home_qpos_, default_pose_, soft_lower_, soft_upper_, joint_noise_;
  int imu_ = -1;
  std::array<int, kFeet> foot_sites_{};
  std::array<std::vector<FloorContact>, kFeet> foot_floor_;
  InfoSlot command_;
  std::vector<InfoSlot> reward_slots_;
};

}  // namespace joltgym
