// The physical parameters a robot holds apart from its model (robot_parameter.h): what each
// one's elements are, and where a new value goes in the robot's own bodies and rows.
#include "physics/articulation/tree_constraint.h"
#include "physics/contacts/contact_pair.h"
#include "physics/world/robot.h"
#include "physics/world/world.h"

#include <cmath>
#include <string>

namespace joltgym {
namespace {

std::string Named(const std::string& kind, const std::string& name, int k) {
  return name.empty() ? kind + " " + std::to_string(k) : kind + " '" + name + "'";
}

std::string Element(const Robot& robot, RobotParameter p, int k) {
  const ModelDesc& d = robot.model().desc();
  switch (p) {
    case RobotParameter::FloorFriction: return "the floor";
    case RobotParameter::BodyMass: return Named("body", d.bodies[size_t(k)].name, k);
    case RobotParameter::JointFrictionloss:
    case RobotParameter::JointArmature:
    case RobotParameter::JointDamping: return Named("joint", d.joints[size_t(k)].name, k);
    case RobotParameter::ActuatorKp: return Named("actuator", d.actuators[size_t(k)].name, k);
  }
  return "?";
}

}  // namespace

int RobotParameterSize(const CompiledModel& m, RobotParameter p) {
  switch (p) {
    case RobotParameter::FloorFriction: return 1;
    case RobotParameter::BodyMass: return int(m.bodies().size());
    case RobotParameter::JointFrictionloss:
    case RobotParameter::JointArmature:
    case RobotParameter::JointDamping: return int(m.joints().size());
    case RobotParameter::ActuatorKp: return m.nu();
  }
  return 0;
}

int Robot::ParameterSize(RobotParameter p) const { return RobotParameterSize(*model_, p); }

void Robot::GetModelParameter(RobotParameter p, float* values) const {
  const CompiledModel& m = *model_;
  switch (p) {
    case RobotParameter::FloorFriction:
      values[0] = soft_contact_plane_.empty() ? 0.0f : soft_contact_plane_[0]->friction;
      break;
    case RobotParameter::BodyMass:
      for (size_t i = 0; i < m.bodies().size(); ++i) values[i] = m.bodies()[i].mass.mMass;
      break;
    case RobotParameter::JointFrictionloss:
      for (size_t j = 0; j < m.joints().size(); ++j) values[j] = m.joints()[j].frictionloss;
      break;
    case RobotParameter::JointArmature:
      for (size_t j = 0; j < m.joints().size(); ++j) values[j] = m.joints()[j].armature;
      break;
    case RobotParameter::JointDamping:
      for (size_t j = 0; j < m.joints().size(); ++j) values[j] = m.joints()[j].damping;
      break;
    case RobotParameter::ActuatorKp:
      for (size_t a = 0; a < m.actuators().size(); ++a) values[a] = m.actuators()[a].gain;
      break;
  }
}

void Robot::GetParameter(RobotParameter p, float* values) const {
  const std::vector<float>& current = parameters_[size_t(p)];
  std::copy(current.begin(), current.end(), values);
}

void Robot::SetParameter(RobotParameter p, const float* values) {
  const CompiledModel& m = *model_;
  const int n = ParameterSize(p);
  const std::string name = RobotParameterName(p);
  auto refuse = [&](int k, const std::string& why) {
    throw std::invalid_argument(name + ": " + Element(*this, p, k) + " " + why);
  };
  // Check every element before changing any.
  for (int k = 0; k < n; ++k) {
    const float v = values[k];
    if (!std::isfinite(v)) refuse(k, "takes finite values, got " + std::to_string(v));
    const bool positive_only = p == RobotParameter::BodyMass;
    if (positive_only ? !(v > 0.0f) : v < 0.0f)
      refuse(k, std::string("takes values ") + (positive_only ? "> 0" : ">= 0") + ", got " + std::to_string(v));
    switch (p) {
      case RobotParameter::FloorFriction:
        if (soft_contacts_.empty())
          throw std::invalid_argument(name + ": model '" + m.desc().name +
                                      "' touches the scene through no soft contact rows (SolverSettings soft contacts)");
        break;
      case RobotParameter::JointFrictionloss:
      case RobotParameter::JointArmature:
      case RobotParameter::JointDamping: {
        const bool changed = v != parameters_[size_t(p)][size_t(k)];
        const bool explicit_damping = p == RobotParameter::JointDamping && !m.joints()[size_t(k)].implicit_damping;
        if (changed && !explicit_damping && !axis_rows_[size_t(k)])
          refuse(k, "has no rows for it (a free or ball joint, or a joint built without armature, damping, limit "
                    "or frictionloss)");
        if (changed && p == RobotParameter::JointFrictionloss && m.joints()[size_t(k)].frictionloss == 0.0f)
          refuse(k, "has no frictionloss in its model, so no dry-friction row to scale");
        break;
      }
      case RobotParameter::ActuatorKp: {
        const CompiledActuator& a = m.actuators()[size_t(k)];
        if (v != parameters_[size_t(p)][size_t(k)] && (!a.affine || a.bias_length != -a.gain))
          refuse(k, "is not a position actuator (gain kp, bias -kp on the length)");
        break;
      }
      case RobotParameter::BodyMass:
        break;
    }
  }
  std::vector<float>& current = parameters_[size_t(p)];
  std::copy(values, values + n, current.begin());
  switch (p) {
    case RobotParameter::FloorFriction:
      for (size_t c = 0; c < soft_contacts_.size(); ++c) {
        GeomDesc plane = *soft_contact_plane_[c];
        plane.friction = values[0];
        // An explicit pair keeps its own friction, as MuJoCo's ignores the geoms' (Playground's G1
        // randomises the floor's friction, which its feet's pairs never read).
        for (size_t g = 0; g < soft_contacts_[c]->geoms().size(); ++g)
          if (!soft_contacts_[c]->geoms()[g].explicit_pair)
            soft_contacts_[c]->SetPair(g, MixContactPair(plane, *soft_contacts_[c]->geoms()[g].desc, m.timestep()));
      }
      break;
    case RobotParameter::BodyMass:
      for (size_t i = 0; i < bodies_.size(); ++i) bodies_[i]->GetMotionProperties()->SetInverseMass(1.0f / values[i]);
      for (TreeConstraint* tree : trees_) tree->RefreshMasses();
      break;
    case RobotParameter::JointFrictionloss:
      for (size_t j = 0; j < axis_rows_.size(); ++j)
        if (axis_rows_[j]) axis_rows_[j]->SetFrictionloss(values[j]);
      break;
    case RobotParameter::JointArmature:
    case RobotParameter::JointDamping: {
      const std::vector<float>& armature = parameters_[size_t(RobotParameter::JointArmature)];
      const std::vector<float>& damping = parameters_[size_t(RobotParameter::JointDamping)];
      for (size_t j = 0; j < m.joints().size(); ++j) {
        const bool implicit = m.joints()[j].implicit_damping;
        joint_damping_[j] = damping[j];
        if (axis_rows_[j]) axis_rows_[j]->SetArmatureAndDamping(armature[j], implicit ? damping[j] : 0.0f);
      }
      break;
    }
    case RobotParameter::ActuatorKp:
      for (int a = 0; a < n; ++a) {
        if (!m.actuators()[size_t(a)].affine) continue;
        actuator_gain_[size_t(a)] = values[a];
        actuator_bias_length_[size_t(a)] = -values[a];
      }
      break;
  }
}

}  // namespace joltgym
