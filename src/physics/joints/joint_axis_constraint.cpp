#include "physics/joints/joint_axis_constraint.h"

#include "physics/core/own_constraint_settings.h"

#include <Jolt/Physics/Body/Body.h>
#include <Jolt/Physics/StateRecorder.h>

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace joltgym {

// Solved after the joints (priority 1; Jolt solves higher priorities later) unless the reference
// switch says otherwise: the armature row carries most of a joint's inertia, and the last rows
// solved are the ones the iterations converge best, so the motion follows MuJoCo's closer.
constexpr JPH::uint32 kRowsFirstPriority = 0;
constexpr JPH::uint32 kRowsLastPriority = 2;
namespace {

// Fraction of a limit violation (from drift or a state set outside the range)
// removed per step.
constexpr float kLimitRecovery = 0.2f;
// The limit row engages this far ahead of the limit, beyond what the current
// rate covers in two steps, so that a strong torque cannot jump past it.
constexpr float kAngularLookahead = 0.05f;  // rad
constexpr float kLinearLookahead = 0.01f;   // m

}  // namespace

JointAxisConstraint::JointAxisConstraint(JPH::Body& parent, JPH::Body& child, const JointAxisParams& params)
    : OwnConstraint(parent, child, params.after_joints ? kRowsLastPriority : kRowsFirstPriority),
      params_(params),
      has_drive_(params.armature != 0.0f || params.damping != 0.0f),
      linear_(params.angular ? nullptr : std::make_unique<LinearRows>()) {}

void JointAxisConstraint::ResetWarmStart() {
  if (linear_)
    for (JPH::AxisConstraintPart* row : {&linear_->drive, &linear_->limit, &linear_->friction}) row->Deactivate();
  angular_drive_.total = angular_limit_.total = angular_friction_.total = 0.0f;
}

JointAxisConstraint::ArticulatedRows JointAxisConstraint::PrepareForArticulation(float dt) {
  world_axis_ = mBody1->GetRotation() * params_.axis_local1;
  SetupAngularRows(dt);  // the articulation has its own masses: no axis inertia needed
  ArticulatedRows rows;
  rows.axis = world_axis_;
  rows.drive = has_drive_ ? &angular_drive_ : nullptr;
  rows.limit = limit_side_ != LimitSide::None ? &angular_limit_ : nullptr;
  rows.lower_limit = limit_side_ == LimitSide::Lower;
  rows.friction = params_.frictionloss > 0.0f ? &angular_friction_ : nullptr;
  rows.friction_bound = friction_bound_;
  return rows;
}

namespace {

// One of the rows along a joint's axis as a scalar problem in the joint's rate r: its total is
// -(r + bias) / softness, clamped to [lo, hi].
struct ScalarRow {
  double softness, bias, total, lo, hi;
  double TotalAt(double rate) const { return std::clamp(-(rate + bias) / softness, lo, hi); }
};

// The joint rate r where rate_now + k sum (TotalAt(r) - total) = r: a piecewise linear equation,
// increasing in r, whose pieces change where a row reaches a bound. It is solved piece by
// piece until the root lies within its own piece.
double SolveScalarRows(const ScalarRow* rows, int count, double rate_now, double k) {
  double breaks[2 * 3];
  int num_breaks = 0;
  for (int i = 0; i < count; ++i) {
    for (double bound : {rows[i].lo, rows[i].hi})
      if (std::isfinite(bound)) breaks[num_breaks++] = -(rows[i].bias + rows[i].softness * bound);
  }
  std::sort(breaks, breaks + num_breaks);
  for (int piece = 0; piece <= num_breaks; ++piece) {
    const double from = piece > 0 ? breaks[piece - 1] : -INFINITY;
    const double to = piece < num_breaks ? breaks[piece] : INFINITY;
    const double probe = std::isfinite(from) && std::isfinite(to) ? 0.5 * (from + to)
                         : std::isfinite(from)                    ? from + 1.0
                         : std::isfinite(to)                      ? to - 1.0
                                                                  : 0.0;
    double slope = 1.0, constant = rate_now;
    for (int i = 0; i < count; ++i) {
      const ScalarRow& row = rows[i];
      const double free_total = -(probe + row.bias) / row.softness;
      if (free_total < row.lo) constant += k * (row.lo - row.total);
      else if (free_total > row.hi) constant += k * (row.hi - row.total);
      else {
        slope += k / row.softness;
        constant -= k * (row.bias / row.softness + row.total);
      }
    }
    const double rate = constant / slope;
    if (rate >= from && rate <= to) return rate;
  }
  return rate_now;  // not reached: the equation is increasing, so one piece holds its root
}

}  // namespace

void JointAxisConstraint::SetupVelocityConstraint(float dt) {
  world_axis_ = params_.axis_from_step ? step_axis_ : mBody1->GetRotation() * params_.axis_local1;
  if (params_.angular) {
    SetupAngular(dt);
    return;
  }
  r2_ = mBody2->GetRotation() * params_.anchor_local2;
  // r1 + u in Jolt's terms: body 2's anchor seen from body 1's COM.
  r1_plus_u_ = JPH::Vec3(mBody2->GetCenterOfMassPosition() - mBody1->GetCenterOfMassPosition()) + r2_;
  if (has_drive_) {
    const float a = params_.armature;
    const float c = params_.damping;
    const float softness = 1.0f / (a + dt * c);
    const float bias = -softness * (a * rate_before_ + dt * effort_);
    linear_->drive.CalculateConstraintPropertiesWithStiffnessAndDamping(
        dt, *mBody1, r1_plus_u_, *mBody2, r2_, world_axis_, bias, 0.0f, kNegligibleStiffness, c + a / dt);
  }
  if (params_.frictionloss > 0.0f) {
    float softness, target;
    params_.friction.Row(0.0f, rate_before_, dt, softness, target);
    friction_bound_ = params_.frictionloss * dt;
    linear_->friction.CalculateConstraintPropertiesWithStiffnessAndDamping(
        dt, *mBody1, r1_plus_u_, *mBody2, r2_, world_axis_, -target, 0.0f, kNegligibleStiffness, 1.0f / (dt * softness));
  }
  float softness, bias;
  if (!params_.limited || !LimitRow(dt, softness, bias)) return;
  if (softness > 0.0f)  // Jolt's softness is 1 / (dt (damping + dt stiffness))
    linear_->limit.CalculateConstraintPropertiesWithStiffnessAndDamping(
        dt, *mBody1, r1_plus_u_, *mBody2, r2_, world_axis_, bias, 0.0f, kNegligibleStiffness, 1.0f / (dt * softness));
  else
    linear_->limit.CalculateConstraintProperties(*mBody1, r1_plus_u_, *mBody2, r2_, world_axis_, bias);
}

void JointAxisConstraint::SetLimitSide(LimitSide side) {
  if (side != limit_side_) {
    if (linear_) linear_->limit.Deactivate();
    angular_limit_.total = 0.0f;
  }
  limit_side_ = side;
}

bool JointAxisConstraint::LimitRow(float dt, float& softness, float& bias) {
  const float gap_lo = q_ - params_.range_lo;
  const float gap_hi = params_.range_hi - q_;
  const bool lower = gap_lo < gap_hi;
  const float gap = lower ? gap_lo : gap_hi;
  if (params_.soft) {
    if (!(gap < params_.soft_limit.margin)) {  // MuJoCo's activation: within the margin at the step's start
      SetLimitSide(LimitSide::None);
      return false;
    }
    // The limit's row runs along +rate at the lower limit and -rate at the upper; Jolt's row
    // runs along +rate, so its bias is -sign * target (see soft_limit.h).
    const float sign = lower ? 1.0f : -1.0f;
    float target;
    params_.soft_limit.Row(gap, sign * rate_before_, dt, softness, target);
    bias = -sign * target;
  } else {
    const float lookahead =
        2.0f * std::abs(rate_before_) * dt + (params_.angular ? kAngularLookahead : kLinearLookahead);
    if (gap > lookahead) {
      SetLimitSide(LimitSide::None);
      return false;
    }
    // The row drives the joint rate towards -bias; one-sided, it only keeps the rate
    // from exceeding gap/dt towards the limit (or pushes out of a violation).
    const float allowed = (gap >= 0.0f ? gap : kLimitRecovery * gap) / dt;
    bias = lower ? allowed : -allowed;
    softness = 0.0f;
  }
  SetLimitSide(lower ? LimitSide::Lower : LimitSide::Upper);
  return true;
}

void JointAxisConstraint::SetupAngular(float dt) {
  inv_i1_axis_ = mBody1->IsDynamic()
                     ? mBody1->GetMotionProperties()->MultiplyWorldSpaceInverseInertiaByVector(mBody1->GetRotation(), world_axis_)
                     : JPH::Vec3::sZero();
  inv_i2_axis_ = mBody2->IsDynamic()
                     ? mBody2->GetMotionProperties()->MultiplyWorldSpaceInverseInertiaByVector(mBody2->GetRotation(), world_axis_)
                     : JPH::Vec3::sZero();
  axis_inv_inertia_ = world_axis_.Dot(inv_i1_axis_ + inv_i2_axis_);
  SetupAngularRows(dt);
}

void JointAxisConstraint::SetupAngularRows(float dt) {
  if (has_drive_ && params_.damping_after_constraints) {
    // A joint without armature keeps a row this light (kg m^2) to carry the explicit damping.
    constexpr float kLeastArmature = 1.0e-6f;
    const float a = std::max(params_.armature, kLeastArmature);
    angular_drive_.damping_h = dt * params_.damping;
    angular_drive_.rate_before = rate_before_;
    angular_drive_.softness = 1.0f / a;
    angular_drive_.bias = -angular_drive_.softness * (a * rate_before_ + dt * effort_ - angular_drive_.damping_h * rate_before_);
  } else if (has_drive_) {
    const float a = params_.armature;
    angular_drive_.softness = 1.0f / (a + dt * params_.damping);
    angular_drive_.bias = -angular_drive_.softness * (a * rate_before_ + dt * effort_);
  } else {
    angular_drive_ = AngularRow();
  }
  if (!params_.limited || !LimitRow(dt, angular_limit_.softness, angular_limit_.bias)) angular_limit_.total = 0.0f;
  if (params_.frictionloss > 0.0f) {
    float target;
    params_.friction.Row(0.0f, rate_before_, dt, angular_friction_.softness, target);
    angular_friction_.bias = -target;
    friction_bound_ = params_.frictionloss * dt;
  }
}

void JointAxisConstraint::ApplyAngularImpulse(float impulse) {
  if (mBody1->IsDynamic()) mBody1->GetMotionProperties()->SubAngularVelocityStep(impulse * inv_i1_axis_);
  if (mBody2->IsDynamic()) mBody2->GetMotionProperties()->AddAngularVelocityStep(impulse * inv_i2_axis_);
}

void JointAxisConstraint::WarmStartVelocityConstraint(float ratio) {
  if (params_.angular) {
    angular_drive_.total *= ratio;
    angular_limit_.total *= ratio;
    angular_friction_.total *= ratio;
    ApplyAngularImpulse(angular_drive_.total + angular_limit_.total + angular_friction_.total);
    return;
  }
  for (JPH::AxisConstraintPart* row : {&linear_->drive, &linear_->limit, &linear_->friction})
    row->WarmStart(*mBody1, *mBody2, world_axis_, ratio);
}

bool JointAxisConstraint::SolveAngularWithFriction(float k, float rate) {
  ScalarRow rows[3];
  AngularRow* states[3];
  int count = 0;
  if (has_drive_) {
    rows[count] = {angular_drive_.softness, angular_drive_.bias, angular_drive_.total, -INFINITY, INFINITY};
    states[count++] = &angular_drive_;
  }
  if (limit_side_ != LimitSide::None) {
    const bool lower = limit_side_ == LimitSide::Lower;  // a hard limit: stiff enough to stand for one
    rows[count] = {std::max(double(angular_limit_.softness), 1.0e-9), angular_limit_.bias, angular_limit_.total,
                   lower ? 0.0 : -INFINITY, lower ? INFINITY : 0.0};
    states[count++] = &angular_limit_;
  }
  rows[count] = {angular_friction_.softness, angular_friction_.bias, angular_friction_.total, -double(friction_bound_),
                 double(friction_bound_)};
  states[count++] = &angular_friction_;
  const double rate_after = SolveScalarRows(rows, count, rate, k);
  float impulse = 0.0f;
  for (int i = 0; i < count; ++i) {
    const float total = float(rows[i].TotalAt(rate_after));
    impulse += total - states[i]->total;
    states[i]->total = total;
  }
  if (impulse == 0.0f) return false;
  ApplyAngularImpulse(impulse);
  return true;
}

bool JointAxisConstraint::SolveAngular() {
  const float k = axis_inv_inertia_;
  if (k <= 0.0f) return false;
  const float rate = world_axis_.Dot(mBody2->GetAngularVelocity() - mBody1->GetAngularVelocity());
  if (params_.frictionloss > 0.0f) return SolveAngularWithFriction(k, rate);
  AngularRow& d = angular_drive_;
  AngularRow& l = angular_limit_;
  float dd = 0.0f, dl = 0.0f;
  const float rd = rate + d.softness * d.total + d.bias;
  if (limit_side_ == LimitSide::None) {
    if (!has_drive_) return false;
    dd = -rd / (k + d.softness);
  } else {
    const float rl = rate + l.softness * l.total + l.bias;
    if (has_drive_ && l.softness > 0.0f) {  // both rows at once: [k + sd, k; k, k + sl] (dd, dl) = -(rd, rl)
      const float det = k * (d.softness + l.softness) + d.softness * l.softness;
      dd = -((k + l.softness) * rd - k * rl) / det;
      dl = -((k + d.softness) * rl - k * rd) / det;
    } else if (has_drive_) {  // a hard limit: the drive row, then the limit row on what it left
      dd = -rd / (k + d.softness);
      dl = -(rl + k * dd) / k;
    } else {
      dl = -rl / (k + l.softness);
    }
    // Positive impulses raise the joint rate: a lower limit may only push up, an upper one down.
    const float clamped = limit_side_ == LimitSide::Lower ? std::max(0.0f, l.total + dl) : std::min(0.0f, l.total + dl);
    if (clamped != l.total + dl) {
      dl = clamped - l.total;
      if (has_drive_) dd = -(rd + k * dl) / (k + d.softness);
    }
  }
  d.total += dd;
  l.total += dl;
  const float impulse = dd + dl;
  if (impulse == 0.0f) return false;
  ApplyAngularImpulse(impulse);
  return true;
}

bool JointAxisConstraint::SolveLinear(JPH::AxisConstraintPart& row, float min_lambda, float max_lambda) {
  return row.IsActive() && row.SolveVelocityConstraint(*mBody1, *mBody2, world_axis_, min_lambda, max_lambda);
}

bool JointAxisConstraint::SolveVelocityConstraint(float) {
  if (params_.angular) return SolveAngular();
  bool applied = has_drive_ && SolveLinear(linear_->drive, -FLT_MAX, FLT_MAX);
  if (params_.frictionloss > 0.0f) applied |= SolveLinear(linear_->friction, -friction_bound_, friction_bound_);
  // Positive impulses raise the joint rate: a lower limit may only push up.
  if (limit_side_ == LimitSide::Lower) applied |= SolveLinear(linear_->limit, 0.0f, FLT_MAX);
  if (limit_side_ == LimitSide::Upper) applied |= SolveLinear(linear_->limit, -FLT_MAX, 0.0f);
  return applied;
}

void JointAxisConstraint::SaveState(JPH::StateRecorder& stream) const {
  JPH::TwoBodyConstraint::SaveState(stream);
  if (linear_)
    for (const JPH::AxisConstraintPart* row : {&linear_->drive, &linear_->limit, &linear_->friction}) row->SaveState(stream);
  stream.Write(angular_drive_.total);
  stream.Write(angular_limit_.total);
  stream.Write(angular_friction_.total);
  stream.Write(limit_side_);
}

void JointAxisConstraint::RestoreState(JPH::StateRecorder& stream) {
  JPH::TwoBodyConstraint::RestoreState(stream);
  if (linear_)
    for (JPH::AxisConstraintPart* row : {&linear_->drive, &linear_->limit, &linear_->friction}) row->RestoreState(stream);
  stream.Read(angular_drive_.total);
  stream.Read(angular_limit_.total);
  stream.Read(angular_friction_.total);
  stream.Read(limit_side_);
}

}  // namespace joltgym
