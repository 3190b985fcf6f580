// A robot's whole state, saved and restored mid-episode (Robot::SaveState): what Jolt holds
// of it, and what the robot carries from update to update itself.
#include "physics/articulation/tree_constraint.h"
#include "physics/world/robot.h"

namespace joltgym {

void Robot::SaveState(StateBuffer& out) const {
  for (int p = 0; p < kRobotParameters; ++p) out.WriteVector(parameters_[size_t(p)]);
  SaveJoltState(out);
  for (const TreeConstraint* tree : trees_) tree->SavePlacement(out);
  out.WriteVector(ctrl_);
  out.WriteVector(act_);
  out.WriteVector(angle_);
  out.WriteVector(last_raw_angle_);
  out.WriteVector(row_effort_);
  out.WriteVector(qfrc_actuator_);
  out.WriteVector(actuator_force_);
  out.WriteVector(external_force_);
  out.Write(has_external_force_);
  out.WriteVector(linear_velocity_before_);
  out.WriteVector(angular_velocity_before_);
  out.WriteVector(linear_damping_change_);
  out.WriteVector(angular_damping_change_);
  out.WriteVector(position_before_);
  out.WriteVector(rotation_before_);
  out.Write(updated_since_state_set_);
  out.Write(last_update_dt_);
}

bool Robot::RestoreState(StateBuffer& in) {
  // The parameters first: a body's mass or a row's armature is not Jolt state, and each one
  // set again refreshes what depends on it. Unchanged ones (most restores) cost nothing.
  std::vector<float> values;
  for (int p = 0; p < kRobotParameters; ++p) {
    values.resize(parameters_[size_t(p)].size());
    in.ReadVectorInto(values);
    if (in.IsFailed()) return false;
    if (values != parameters_[size_t(p)]) SetParameter(RobotParameter(p), values.data());
  }
  RestoreJoltState(in);
  for (TreeConstraint* tree : trees_) tree->RestorePlacement(in);
  in.ReadVectorInto(ctrl_);
  in.ReadVectorInto(act_);
  in.ReadVectorInto(angle_);
  in.ReadVectorInto(last_raw_angle_);
  in.ReadVectorInto(row_effort_);
  in.ReadVectorInto(qfrc_actuator_);
  in.ReadVectorInto(actuator_force_);
  in.ReadVectorInto(external_force_);
  in.Read(has_external_force_);
  in.ReadVectorInto(linear_velocity_before_);
  in.ReadVectorInto(angular_velocity_before_);
  in.ReadVectorInto(linear_damping_change_);
  in.ReadVectorInto(angular_damping_change_);
  in.ReadVectorInto(position_before_);
  in.ReadVectorInto(rotation_before_);
  in.Read(updated_since_state_set_);
  in.Read(last_update_dt_);
  RefreshGimbals();
  biases_fresh_ = false;
  ++state_sets_;  // the sensors' cached frames are of the state before
  return !in.IsFailed();
}

}  // namespace joltgym
