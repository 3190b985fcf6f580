// The physical parameters a robot may hold apart from its compiled model, for per-env domain
// randomisation: each has one value per element (one floor, each body, joint or actuator).
#pragma once

#include <stdexcept>
#include <string>

namespace joltgym {

enum class RobotParameter : int {
  FloorFriction = 0,   // 1: sliding friction of the robot's contacts with the scene's planes (the plane geom's)
  BodyMass,            // per simulated body (kg); inertia and centre of mass stay the model's, as MuJoCo's body_mass
  JointFrictionloss,   // per joint: MuJoCo's dof_frictionloss
  JointArmature,       // per joint: dof_armature
  JointDamping,        // per joint: dof_damping
  ActuatorKp,          // per actuator: a position actuator's kp (its gain, and minus its bias on the length)
};
constexpr int kRobotParameters = 6;

inline const char* RobotParameterName(RobotParameter p) {
  switch (p) {
    case RobotParameter::FloorFriction: return "floor_friction";
    case RobotParameter::BodyMass: return "body_mass";
    case RobotParameter::JointFrictionloss: return "joint_frictionloss";
    case RobotParameter::JointArmature: return "joint_armature";
    case RobotParameter::JointDamping: return "joint_damping";
    case RobotParameter::ActuatorKp: return "actuator_kp";
  }
  return "?";
}

class CompiledModel;
// How many values the parameter has for a robot of `model` (robot_parameters.cpp).
int RobotParameterSize(const CompiledModel& model, RobotParameter p);

// The parameter of that name; std::invalid_argument listing the names otherwise.
inline RobotParameter ParseRobotParameter(const std::string& name) {
  std::string known;
  for (int i = 0; i < kRobotParameters; ++i) {
    const RobotParameter p = RobotParameter(i);
    if (name == RobotParameterName(p)) return p;
    known += (known.empty() ? "" : ", ") + std::string(RobotParameterName(p));
  }
  throw std::invalid_argument("unknown physics parameter '" + name + "'; parameters: " + known);
}

}  // namespace joltgym
