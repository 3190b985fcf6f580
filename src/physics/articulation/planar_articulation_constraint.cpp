#include "physics/articulation/planar_articulation_constraint.h"

#include <Jolt/Physics/Body/MotionProperties.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace joltgym {

PlanarArticulationConstraint::PlanarArticulationConstraint(std::vector<JPH::Body*> bodies,
                                                           std::vector<ArticulatedHinge> hinges, int normal_axis,
                                                           JPH::uint32 priority, bool mujoco_euler,
                                                           JPH::Vec3Arg root_anchor)
    : TreeConstraint(bodies, priority),
      hinges_(std::move(hinges)),
      mujoco_euler_(mujoco_euler),
      root_anchor_(root_anchor) {
  const JPH::Vec3 axes[3] = {JPH::Vec3::sAxisX(), JPH::Vec3::sAxisY(), JPH::Vec3::sAxisZ()};
  n_ = axes[normal_axis];
  u_ = axes[(normal_axis + 1) % 3];  // (n, u, w) right-handed: n x u = w
  w_ = axes[(normal_axis + 2) % 3];
  const bool world_hinged = std::any_of(hinges_.begin(), hinges_.end(), [](const ArticulatedHinge& h) { return h.parent < 0; });
  root_rates_ = world_hinged ? 0 : 3;
  if (int(bodies.size()) > kMaxBodies || root_rates_ + int(hinges_.size()) > kMaxRates)
    throw std::invalid_argument("planar articulation: at most " + std::to_string(kMaxBodies) + " bodies per tree, got " +
                                std::to_string(bodies.size()));
  bodies_.resize(bodies.size());
  for (size_t i = 0; i < bodies.size(); ++i) {
    BodyInfo& b = bodies_[i];
    b.body = bodies[i];
    const JPH::MotionProperties* mp = b.body->GetMotionProperties();
    b.inv_inertia = n_.Dot(mp->GetInverseInertiaForRotation(JPH::Mat44::sRotation(b.body->GetRotation())) * n_);
    b.mass = 1.0 / double(mp->GetInverseMass());
    b.inertia = 1.0 / double(b.inv_inertia);
  }
  parent_of_.assign(bodies_.size(), -1);
  hinge_of_.assign(bodies_.size(), -1);
  for (size_t k = 0; k < hinges_.size(); ++k) {
    const ArticulatedHinge& h = hinges_[k];
    parent_of_[size_t(h.body)] = h.parent;
    hinge_of_[size_t(h.body)] = int(k);
    const JPH::Body* parent = h.parent >= 0 ? bodies_[size_t(h.parent)].body : nullptr;
    const JPH::Vec3 axis = parent ? parent->GetRotation() * h.axis_local1 : h.axis_local1;
    axis_sign_.push_back(axis.Dot(n_) >= 0.0f ? 1.0f : -1.0f);
  }
  motion_.resize(bodies_.size());
  system_.SetTree(RateParents(root_rates_, hinges_));
  if (mujoco_euler_) damping_.SetTree(RateParents(root_rates_, hinges_));
  damping_linear_.assign(bodies_.size(), JPH::Vec3::sZero());
  damping_angular_.assign(bodies_.size(), JPH::Vec3::sZero());
}

void PlanarArticulationConstraint::AddTendonEquality(TendonEqualityConstraint* equality, const std::vector<int>& joints,
                                                     const std::vector<float>& coefs) {
  equalities_.Attach(system_, equality, JointSpaceEqualities::TermsOnHinges(hinges_, root_rates_, joints, coefs, [this](int k) {
                       return double(axis_sign_[size_t(k)]);  // the hinge's rate is s x
                     }));
}

void PlanarArticulationConstraint::BuildMotions() {
  // A body moves with its parent's rates (rigidly carried to its own COM) and its own hinge's,
  // which comes after them: each body's rates are in ascending order.
  const JPH::Vec3 root(bodies_[0].body->GetCenterOfMassPosition());
  for (size_t i = 0; i < bodies_.size(); ++i) {
    BodyMotion& m = motion_[i];
    const JPH::Vec3 p(bodies_[i].body->GetCenterOfMassPosition());
    m.count = 0;
    const auto add = [&m](int rate, double tu, double tw, double turn) {
      m.rate[m.count] = rate;
      m.tu[m.count] = tu;
      m.tw[m.count] = tw;
      m.turn[m.count] = turn;
      ++m.count;
    };
    // A turning rate about point c moves p by n x (p - c) = (-(p - c)_w, (p - c)_u).
    const auto add_turn = [&](int rate, JPH::Vec3Arg c) { add(rate, -(p - c).Dot(w_), (p - c).Dot(u_), 1.0); };
    if (parent_of_[i] >= 0) {  // the parent's rates: v_parent + turn n x (p - p_parent)
      const BodyMotion& pm = motion_[size_t(parent_of_[i])];
      const JPH::Vec3 d = p - JPH::Vec3(bodies_[size_t(parent_of_[i])].body->GetCenterOfMassPosition());
      const double du = d.Dot(u_), dw = d.Dot(w_);
      for (int c = 0; c < pm.count; ++c) add(pm.rate[c], pm.tu[c] - pm.turn[c] * dw, pm.tw[c] + pm.turn[c] * du, pm.turn[c]);
    } else if (root_rates_ == 3) {  // the root's slides along u and w, and its turn about its COM
      add(0, 1.0, 0.0, 0.0);
      add(1, 0.0, 1.0, 0.0);
      add_turn(2, root);
    }
    if (hinge_of_[i] >= 0) {
      const ArticulatedHinge& h = hinges_[size_t(hinge_of_[i])];
      const JPH::Body& child = *bodies_[i].body;
      add_turn(HingeRate(hinge_of_[i]), JPH::Vec3(child.GetCenterOfMassPosition()) + child.GetRotation() * h.anchor_local2);
    }
  }
}

void PlanarArticulationConstraint::ReexpressVelocities() {
  BuildMotions();
  double x[kMaxRates] = {};
  double turn[kMaxBodies];
  for (size_t i = 0; i < bodies_.size(); ++i) turn[i] = bodies_[i].body->GetAngularVelocity().Dot(n_);
  if (root_rates_ == 3) {
    const JPH::Vec3 v = bodies_[0].body->GetLinearVelocity();
    x[0] = v.Dot(u_);
    x[1] = v.Dot(w_);
    x[2] = turn[0];
  }
  for (size_t k = 0; k < hinges_.size(); ++k) {
    const ArticulatedHinge& h = hinges_[k];
    x[HingeRate(int(k))] = turn[size_t(h.body)] - (h.parent >= 0 ? turn[size_t(h.parent)] : 0.0);
  }
  for (size_t i = 0; i < bodies_.size(); ++i) {
    double t[3];
    VelocityOf(motion_[i], [&x](int r) { return x[r]; }, t);
    JPH::MotionProperties* mp = bodies_[i].body->GetMotionProperties();
    const JPH::Vec3 v = mp->GetLinearVelocity();
    mp->SetLinearVelocity(v + float(t[0] - v.Dot(u_)) * u_ + float(t[1] - v.Dot(w_)) * w_);
  }
}

void PlanarArticulationConstraint::BuildContacts(float dt) {
  using Point = JointSpaceContacts<2>::Point;
  contacts_.Build(
      scratch(), dt, system_,
      [this](JPH::Vec3Arg axis, double* a) {  // the rest moves nothing in the plane
        a[0] = axis.Dot(u_);
        a[1] = axis.Dot(w_);
      },
      [this](int body, JPH::Vec3Arg r, double sign, Point& point) {  // moves and turns with its body: n x r = (-r_w, r_u)
        const BodyMotion& m = motion_[size_t(body)];
        const double ru = r.Dot(u_), rw = r.Dot(w_);
        for (int c = 0; c < m.count; ++c) {
          point.p[0][m.rate[c]] += sign * (m.tu[c] - m.turn[c] * rw);
          point.p[1][m.rate[c]] += sign * (m.tw[c] + m.turn[c] * ru);
        }
        return m.count > 0 ? m.rate[m.count - 1] : -1;
      });
}

void PlanarArticulationConstraint::Factorise() {
  system_.ClearMatrix();
  for (size_t i = 0; i < bodies_.size(); ++i) {  // T^T M T, M = diag(m, m, I); lower: a body's rates ascend
    const BodyMotion& m = motion_[i];
    const double mass = bodies_[i].mass, inertia = bodies_[i].inertia;
    for (int p = 0; p < m.count; ++p) {
      const double mu = mass * m.tu[p], mw = mass * m.tw[p], mt = inertia * m.turn[p];
      for (int q = 0; q <= p; ++q) system_.a(m.rate[p], m.rate[q]) += mu * m.tu[q] + mw * m.tw[q] + mt * m.turn[q];
    }
  }
  Refactorise();
}

void PlanarArticulationConstraint::Refactorise() {
  system_.Factorise();
  contacts_.FactorChanged();
  equalities_.FactorChanged();
}

void PlanarArticulationConstraint::SetupVelocityConstraint(float dt) {
  system_.Reset(scratch());
  system_.AddHingeRows(hinges_, dt, root_rates_, [this](int k) { return double(axis_sign_[size_t(k)]); });
  BuildMotions();
  BuildContacts(dt);
  equalities_.Build(dt, system_);
  Factorise();
  if (mujoco_euler_) damping_.Build(scratch(), system_);
}

void PlanarArticulationConstraint::DampAfterConstraints() {
  damping_.Solve(system_);
  for (size_t i = 0; i < bodies_.size(); ++i) {  // v += T dx
    double t[3];
    VelocityOf(motion_[i], [this](int r) { return damping_.change(r); }, t);
    damping_linear_[i] = float(t[0]) * u_ + float(t[1]) * w_;
    damping_angular_[i] = float(t[2]) * n_;
    JPH::MotionProperties* mp = bodies_[i].body->GetMotionProperties();
    mp->AddLinearVelocityStep(damping_linear_[i]);
    mp->AddAngularVelocityStep(damping_angular_[i]);
  }
}

void PlanarArticulationConstraint::ApplyRateImpulse(int hinge, float impulse) {
  if (impulse == 0.0f) return;
  const ArticulatedHinge& h = hinges_[size_t(hinge)];
  const float turn = axis_sign_[size_t(hinge)] * impulse;  // the row's rate is s x
  const BodyInfo& child = bodies_[size_t(h.body)];
  child.body->GetMotionProperties()->AddAngularVelocityStep((child.inv_inertia * turn) * n_);
  if (h.parent < 0) return;
  const BodyInfo& parent = bodies_[size_t(h.parent)];
  parent.body->GetMotionProperties()->AddAngularVelocityStep((-parent.inv_inertia * turn) * n_);
}

void PlanarArticulationConstraint::WarmStartVelocityConstraint(float ratio) {
  system_.WarmStart(ratio, [this](int hinge, float impulse) { ApplyRateImpulse(hinge, impulse); });
  contacts_.WarmStart(ratio, [this](int body, JPH::Vec3Arg r, const double* impulse) {
    // The point's impulse (i_u, i_w) at r: lin += i / m, turn += (r x i) . n / I.
    const BodyInfo& b = bodies_[size_t(body)];
    const double ru = r.Dot(u_), rw = r.Dot(w_);
    JPH::MotionProperties* mp = b.body->GetMotionProperties();
    mp->AddLinearVelocityStep(float(impulse[0] / b.mass) * u_ + float(impulse[1] / b.mass) * w_);
    mp->AddAngularVelocityStep(float(double(b.inv_inertia) * (ru * impulse[1] - rw * impulse[0])) * n_);
  });
  equalities_.WarmStart(ratio, [this](int hinge, float impulse) { ApplyRateImpulse(hinge, impulse); });
}

bool PlanarArticulationConstraint::SolveOnce() {
  system_.ClearRhs();
  for (size_t i = 0; i < bodies_.size(); ++i) {  // T^T M v
    const JPH::Body& body = *bodies_[i].body;
    const JPH::Vec3 lin = body.GetLinearVelocity();
    double* v = v_[i];
    v[0] = lin.Dot(u_);
    v[1] = lin.Dot(w_);
    v[2] = body.GetAngularVelocity().Dot(n_);
    const double pu = bodies_[i].mass * v[0], pw = bodies_[i].mass * v[1], pt = bodies_[i].inertia * v[2];
    const BodyMotion& m = motion_[i];
    for (int c = 0; c < m.count; ++c) system_.rhs(m.rate[c]) += m.tu[c] * pu + m.tw[c] * pw + m.turn[c] * pt;
  }
  if (!system_.Solve([this](int hinge, float impulse) { ApplyRateImpulse(hinge, impulse); })) return false;
  contacts_.Solve(system_);
  equalities_.Solve(system_);
  for (size_t i = 0; i < bodies_.size(); ++i) {  // v' = T x, applied as the change from v
    double t[3];
    VelocityOf(motion_[i], [this](int r) { return system_.x(r); }, t);
    JPH::MotionProperties* mp = bodies_[i].body->GetMotionProperties();
    mp->AddLinearVelocityStep(float(t[0] - v_[i][0]) * u_ + float(t[1] - v_[i][1]) * w_);
    mp->AddAngularVelocityStep(float(t[2] - v_[i][2]) * n_);
  }
  system_.AccumulateImpulses();
  return true;
}

bool PlanarArticulationConstraint::SolvePositionConstraint(float dt, float baumgarte) {
  // A correction below this is float rounding: the previous pass closed the anchors.
  constexpr float kClosed = 1.0e-6f;  // m
  const bool free_root = root_rates_ > 0;
  double mass = 0.0, shift_u = 0.0, shift_w = 0.0;  // sum m (p - placed), along u and w
  for (size_t i = 0; i < bodies_.size(); ++i) {
    const JPH::Body& body = *bodies_[i].body;
    const JPH::Vec3 p(body.GetCenterOfMassPosition());
    if (hinge_of_[i] < 0) {
      placed_[i] = p;
    } else {
      const ArticulatedHinge& h = hinges_[size_t(hinge_of_[i])];
      const JPH::Vec3 anchor =
          h.parent >= 0 ? placed_[size_t(h.parent)] + bodies_[size_t(h.parent)].body->GetRotation() * h.anchor_local1
                        : h.anchor_local1;
      placed_[i] = anchor - body.GetRotation() * h.anchor_local2;
    }
    const JPH::Vec3 d = p - placed_[i];
    mass += bodies_[i].mass;
    shift_u += bodies_[i].mass * d.Dot(u_);
    shift_w += bodies_[i].mass * d.Dot(w_);
  }
  // A tree hinged to the world stays on its anchor; a free one keeps its centre of mass, or
  // (mujoco_euler) its root goes where MuJoCo's root coordinates take it.
  JPH::Vec3 shift = free_root ? float(shift_u / mass) * u_ + float(shift_w / mass) * w_ : JPH::Vec3::sZero();
  if (free_root && mujoco_euler_) {
    if (!root_target_valid_) {
      // Jolt moved the centre c by h v and turned the root by h w (both final): undo that for
      // the anchor's start, then move the anchor by h times its own final velocity.
      const JPH::Body& root = *bodies_[0].body;
      const JPH::Vec3 v = root.GetLinearVelocity(), w = root.GetAngularVelocity();
      const JPH::Vec3 c = JPH::Vec3(root.GetCenterOfMassPosition()) - dt * v;
      const JPH::Quat turned_back = JPH::Quat::sRotation(n_, -dt * w.Dot(n_)) * root.GetRotation();
      const JPH::Vec3 arm = turned_back * root_anchor_;
      const JPH::Vec3 anchor_velocity = v + w.Cross(arm);  // MuJoCo's slide rates
      const JPH::Vec3 arm_now = root.GetRotation() * root_anchor_;
      root_target_ = c + arm + dt * anchor_velocity - arm_now;
      root_target_valid_ = true;
      // MuJoCo's rates stay as the step left them while the pose moves on: the anchor keeps its
      // velocity and the centre's follows from it at the new pose.
      bodies_[0].body->GetMotionProperties()->SetLinearVelocity(anchor_velocity - w.Cross(arm_now));
    }
    const JPH::Vec3 d = root_target_ - placed_[0];
    shift = d.Dot(u_) * u_ + d.Dot(w_) * w_;
  }
  bool moved = false;
  for (size_t i = 0; i < bodies_.size(); ++i) {
    const JPH::Vec3 d = placed_[i] + shift - JPH::Vec3(bodies_[i].body->GetCenterOfMassPosition());
    const JPH::Vec3 step = baumgarte * (d.Dot(u_) * u_ + d.Dot(w_) * w_);  // in the plane only
    if (step.Abs().ReduceMax() < kClosed) continue;
    bodies_[i].body->AddPositionStep(step);
    moved = true;
  }
  RememberPlacement();
  return moved;
}

bool PlanarArticulationConstraint::SolveVelocityConstraint(float) {
  JointSpaceSystem::SolveReleasingLimits(int(hinges_.size()), [this] { return SolveOnce(); }, [this] { Refactorise(); });
  if (mujoco_euler_) DampAfterConstraints();
  return true;
}

void PlanarArticulationConstraint::RefreshMasses() {
  for (BodyInfo& b : bodies_) b.mass = 1.0 / double(b.body->GetMotionProperties()->GetInverseMass());
}

}  // namespace joltgym
