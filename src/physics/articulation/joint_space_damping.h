// A tree's joint damping taken after its constraint forces, as MuJoCo's Euler step takes it
// (SolverDesc::mujoco_euler; MuJoCo's eulerdamp): (M + h D) qacc = forces + the constraint forces,
// those found against M with the damping explicit. An iteration's joint-space solve finds the rates
// x1 with each drive row carrying its damping explicitly (JointAxisParams::damping_after_constraints);
// the implicit damping's rates x2 then follow from
//   (T^T M T + diag(a + h c)) (x2 - x1) = sum s e h c (rate_before - rate1),
// the limits and contacts held. Under a stiff row on light links (a quadruped's coupled leg joints,
// damping 30 on links of a few kilograms) solving the damping with the rows instead moves the rates
// visibly off MuJoCo's.
#pragma once

#include "physics/articulation/joint_space_system.h"

namespace joltgym {

class JointSpaceDamping {
 public:
  void SetTree(const std::vector<int>& parent) { damped_.SetTree(parent); }

  // Once per update, after `system` has its matrix T^T M T and its rows: the damped matrix's factor.
  void Build(UpdateScratch& scratch, JointSpaceSystem& system) {
    const int n = system.num_rates();
    damped_.Reset(scratch);
    for (int r = 0; r < n; ++r)  // every entry the factorisation reads: the lower triangle
      for (int c = 0; c <= r; ++c) damped_.a(r, c) = system.a(r, c);
    num_drives_ = 0;
    for (int k = 0; k < system.num_rows(); ++k) {
      const JointSpaceSystem::Row& row = system.row(k);
      if (row.is_limit || row.bound > 0.0) continue;  // constraint rows: only the drives carry damping
      AxisRowState& damped = rows_[num_drives_];
      damped.softness = float(1.0 / (1.0 / row.softness + double(row.state->damping_h)));
      damped.bias = damped.total = 0.0f;
      damped_.AddRow(&damped, row.rate, row.sign, false, true, row.hinge);
      drives_[num_drives_++] = {row.state, row.rate, row.sign};
    }
    damped_.Factorise();
  }

  // After an iteration's solve left the rates x1 in `system`: the change x2 - x1 (then change(r)), and
  // each drive's impulse as delivered, the damping at the new rate.
  void Solve(const JointSpaceSystem& system) {
    damped_.ClearRhs();
    for (int j = 0; j < num_drives_; ++j) {
      const Drive& d = drives_[j];
      const double rate1 = d.sign * system.x(d.rate);
      damped_.rhs(d.rate) += d.sign * double(d.state->damping_h) * (double(d.state->rate_before) - rate1);
    }
    damped_.Solve([](int, float) {});  // no limit rows: never releases
    for (int j = 0; j < num_drives_; ++j) {
      const Drive& d = drives_[j];
      const double rate1 = d.sign * system.x(d.rate);
      const double change = d.sign * damped_.x(d.rate);
      const double h_c = d.state->damping_h;
      d.state->total += float(h_c * (double(d.state->rate_before) - rate1) - (1.0 / rows_[j].softness) * change);
    }
  }
  double change(int rate) const { return damped_.x(rate); }

 private:
  struct Drive {
    AxisRowState* state;
    int rate;
    double sign;
  };
  JointSpaceSystem damped_;
  AxisRowState rows_[JointSpaceSystem::kMaxRates];  // damped_'s rows: each drive's a + h c, no bias
  Drive drives_[JointSpaceSystem::kMaxRates];      // this update's drive rows
  int num_drives_ = 0;
};

}  // namespace joltgym
