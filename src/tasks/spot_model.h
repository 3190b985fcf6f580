// What the Spot tasks of EnvPool's Playground ports share: the checks that the model is Spot as the
// task set it up (timestep, PD gains) and that the config asks for nothing EnvPool's Spot lacks, and
// the parts they read: home, the control ranges, the IMU and the four feet.
#pragma once

#include "tasks/floor_contact.h"
#include "tasks/spot_params.h"

#include <array>
#include <string>
#include <vector>

namespace joltgym::spot {

constexpr int kJoints = 12;
constexpr int kFeet = 4;
constexpr int kHistory = 3;  // EnvPool's fixed history_len

struct Parts {
  // std::invalid_argument naming `task` when the model or the config does not fit.
  Parts(const CompiledModel& model, const SpotParams& params, const std::string& task);

  bool Touching(const Robot& robot, int foot) const { return feet[size_t(foot)].Touching(robot); }

  std::vector<float> home_qpos;
  std::array<float, kJoints> default_pose{}, lower{}, upper{};  // lower, upper: the control ranges
  int imu = -1;
  std::array<int, kFeet> foot_sites{};  // FL, FR, HL, HR
  std::vector<FloorContact> feet;
};

}  // namespace joltgym::spot
