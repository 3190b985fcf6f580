#include "physics/articulation_constraint.h"

#include <Jolt/Physics/Body/MotionProperties.h>
#include <Jolt/Physics/StateRecorder.h>

#include <algorithm>
#include <cmath>

namespace joltgym {
namespace {

// Cholesky factor of the leading n x n of a (symmetric positive definite), in place (lower).
template <int N>
void Factor(double (&a)[N][N], int n) {
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= i; ++j) {
      double s = a[i][j];
      for (int p = 0; p < j; ++p) s -= a[i][p] * a[j][p];
      a[i][j] = i == j ? std::sqrt(std::max(s, 1.0e-30)) : s / a[j][j];
    }
  }
}

// The inverse of the leading n x n of a (symmetric positive definite; a is overwritten by its
// Cholesky factor) into inv, zero beyond n.
template <int N, int M>
void Invert(double (&a)[N][N], int n, double (&inv)[M][M]) {
  Factor(a, n);
  for (auto& row : inv) std::fill(row, row + M, 0.0);
  for (int c = 0; c < n; ++c) {
    double x[N] = {};
    x[c] = 1.0;
    for (int i = 0; i < n; ++i) {  // L y = e_c
      double s = x[i];
      for (int p = 0; p < i; ++p) s -= a[i][p] * x[p];
      x[i] = s / a[i][i];
    }
    for (int i = n - 1; i >= 0; --i) {  // L^T x = y
      double s = x[i];
      for (int p = i + 1; p < n; ++p) s -= a[p][i] * x[p];
      x[i] = s / a[i][i];
    }
    for (int i = 0; i < n; ++i) inv[i][c] = x[i];
  }
}

void ToSix(JPH::Vec3Arg lin, JPH::Vec3Arg ang, double* out) {
  for (int i = 0; i < 3; ++i) {
    out[i] = lin[i];
    out[3 + i] = ang[i];
  }
}

// y -= A x (A: R x C).
template <int R, int C>
void Subtract(const double (&a)[R][C], const double* x_in, double* y_out) {
  double x[C], y[R];
  std::copy(x_in, x_in + C, x);
  std::copy(y_out, y_out + R, y);
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) y[r] -= a[r][c] * x[c];
  std::copy(y, y + R, y_out);
}

// y -= A^T x (A: R x C, x: R, y: C).
template <int R, int C>
void SubtractTransposed(const double (&a)[R][C], const double* x_in, double* y_out) {
  double x[R], y[C];
  std::copy(x_in, x_in + R, x);
  std::copy(y_out, y_out + C, y);
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) y[c] -= a[r][c] * x[r];
  std::copy(y, y + C, y_out);
}

// x <- A x for a square block.
template <int N>
void MultiplyInPlace(const double (&a)[N][N], double* x) {
  double y[N];
  for (int i = 0; i < N; ++i) {
    double s = 0.0;
    for (int c = 0; c < N; ++c) s += a[i][c] * x[c];
    y[i] = s;
  }
  std::copy(y, y + N, x);
}

}  // namespace

ArticulationConstraint::ArticulationConstraint(std::vector<JPH::Body*> bodies, std::vector<ArticulatedHinge> hinges,
                                               JPH::uint32 priority)
    : OwnConstraint(*bodies.at(0), *bodies.at(1), priority) {
  bodies_.resize(bodies.size());
  for (size_t i = 0; i < bodies.size(); ++i) bodies_[i].body = bodies[i];
  joints_.resize(hinges.size());
  for (size_t k = 0; k < hinges.size(); ++k) {
    joints_[k].hinge = hinges[k];
    bodies_[size_t(hinges[k].body)].joint = int(k);
  }
  for (int i = int(bodies_.size()) - 1; i >= 0; --i) {  // children before parents
    order_.push_back(i);
    if (bodies_[size_t(i)].joint >= 0) order_.push_back(-bodies_[size_t(i)].joint - 1);
  }
}

void ArticulationConstraint::ResetWarmStart() {
  for (JointNode& j : joints_) std::fill(j.rigid_total, j.rigid_total + kRigidRows, 0.0f);
}

void ArticulationConstraint::BuildRows(float dt) {
  for (BodyNode& b : bodies_) {
    for (auto& row : b.d) std::fill(row, row + 6, 0.0);
    if (!b.body->IsDynamic()) continue;
    const JPH::MotionProperties* mp = b.body->GetMotionProperties();
    b.inv_mass = mp->GetInverseMass();
    b.inv_inertia = mp->GetInverseInertiaForRotation(JPH::Mat44::sRotation(b.body->GetRotation()));
    // D starts as the body's mass: 1 / inv_mass and the inverse of its world inverse inertia.
    double m[3][3];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) m[r][c] = b.inv_inertia(r, c);
    const double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                       m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                       m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    for (int r = 0; r < 3; ++r) {
      b.d[r][r] = 1.0 / double(b.inv_mass);
      for (int c = 0; c < 3; ++c) {  // adjugate / det (symmetric)
        const int r1 = (c + 1) % 3, r2 = (c + 2) % 3, c1 = (r + 1) % 3, c2 = (r + 2) % 3;
        b.d[3 + r][3 + c] = (m[r1][c1] * m[r2][c2] - m[r1][c2] * m[r2][c1]) / det;
      }
    }
  }
  for (JointNode& j : joints_) {
    const ArticulatedHinge& h = j.hinge;
    const JPH::Body& child = *bodies_[size_t(h.body)].body;
    const JPH::Body* parent = h.parent >= 0 ? bodies_[size_t(h.parent)].body : nullptr;
    const JPH::Quat rot1 = parent ? parent->GetRotation() : JPH::Quat::sIdentity();
    const JPH::Vec3 r1 = parent ? rot1 * h.anchor_local1 : JPH::Vec3::sZero();
    const JPH::Vec3 r2 = child.GetRotation() * h.anchor_local2;
    JPH::Vec3 axis = rot1 * h.axis_local1;
    j.drive = j.limit = nullptr;
    if (h.axis_rows) h.axis_rows->PrepareForArticulation(dt, axis, j.drive, j.limit, j.lower_limit);
    if (j.limit_dropped) j.limit = nullptr;
    j.m = 0;
    const auto add = [&](JPH::Vec3Arg lin, JPH::Vec3Arg ang, JPH::Vec3Arg parent_ang, const AxisRowState* soft) {
      j.child_lin[j.m] = lin;
      j.child_ang[j.m] = ang;
      j.parent_lin[j.m] = -lin;
      j.parent_ang[j.m] = parent_ang;
      j.softness[j.m] = soft ? soft->softness : 0.0f;
      j.bias[j.m] = soft ? soft->bias : 0.0f;
      return j.m++;
    };
    for (JPH::Vec3 e : {JPH::Vec3::sAxisX(), JPH::Vec3::sAxisY(), JPH::Vec3::sAxisZ()})
      add(e, r2.Cross(e), -r1.Cross(e), nullptr);  // the anchor copies move together
    const JPH::Vec3 b = axis.GetNormalizedPerpendicular(), c = axis.Cross(b);
    for (JPH::Vec3 n : {b, c}) add(JPH::Vec3::sZero(), n, -n, nullptr);  // no turning off the axis
    j.drive_row = j.drive ? add(JPH::Vec3::sZero(), axis, -axis, j.drive) : -1;
    j.limit_row = j.limit ? add(JPH::Vec3::sZero(), axis, -axis, j.limit) : -1;
    for (int r = 0; r < j.m; ++r) {
      std::fill(j.d[r], j.d[r] + j.m, 0.0);
      j.d[r][r] = -double(j.softness[r]);
    }
  }
}

void ArticulationConstraint::Factorise() {
  for (int node : order_) {
    if (node >= 0) {
      BodyNode& b = bodies_[size_t(node)];
      Invert(b.d, 6, b.dinv);
      if (b.joint < 0) continue;
      JointNode& j = joints_[size_t(b.joint)];
      double jc[kPad][6] = {};
      for (int k = 0; k < j.m; ++k) ToSix(j.child_lin[k], j.child_ang[k], jc[k]);
      for (int a = 0; a < 6; ++a)  // F = D^-1 J_joint,body^T
        for (int k = 0; k < kPad; ++k) {
          double s = 0.0;
          for (int c = 0; c < 6; ++c) s += b.dinv[a][c] * jc[k][c];
          b.f[a][k] = s;
        }
      for (int k = 0; k < j.m; ++k)  // D_joint -= J F
        for (int l = 0; l < j.m; ++l) {
          double s = 0.0;
          for (int a = 0; a < 6; ++a) s += jc[k][a] * b.f[a][l];
          j.d[k][l] -= s;
        }
    } else {
      JointNode& j = joints_[size_t(-node - 1)];
      for (int k = 0; k < j.m; ++k)
        for (int l = 0; l < j.m; ++l) j.d[k][l] = -j.d[k][l];  // -D is positive definite
      Invert(j.d, j.m, j.dinv);
      for (auto& row : j.dinv)
        for (double& x : row) x = -x;
      if (j.hinge.parent < 0) continue;
      BodyNode& p = bodies_[size_t(j.hinge.parent)];
      double jp[kPad][6] = {};
      for (int k = 0; k < j.m; ++k) ToSix(j.parent_lin[k], j.parent_ang[k], jp[k]);
      for (int k = 0; k < kPad; ++k)  // F = D^-1 J_joint,parent
        for (int a = 0; a < 6; ++a) {
          double s = 0.0;
          for (int l = 0; l < kPad; ++l) s += j.dinv[k][l] * jp[l][a];
          j.f[k][a] = s;
        }
      for (int a = 0; a < 6; ++a)  // D_parent -= J^T F
        for (int c = 0; c < 6; ++c) {
          double s = 0.0;
          for (int k = 0; k < kPad; ++k) s += jp[k][a] * j.f[k][c];
          p.d[a][c] -= s;
        }
    }
  }
}

void ArticulationConstraint::SetupVelocityConstraint(float dt) {
  dt_ = dt;
  for (JointNode& j : joints_) j.limit_dropped = false;
  BuildRows(dt);
  Factorise();
}

void ArticulationConstraint::ApplyRowImpulse(const JointNode& j, int row, float impulse) {
  if (impulse == 0.0f) return;
  BodyNode& c = bodies_[size_t(j.hinge.body)];
  if (c.body->IsDynamic()) {
    c.body->GetMotionProperties()->AddLinearVelocityStep(c.inv_mass * impulse * j.child_lin[row]);
    c.body->GetMotionProperties()->AddAngularVelocityStep(c.inv_inertia.Multiply3x3(impulse * j.child_ang[row]));
  }
  if (j.hinge.parent < 0) return;
  BodyNode& p = bodies_[size_t(j.hinge.parent)];
  if (p.body->IsDynamic()) {
    p.body->GetMotionProperties()->AddLinearVelocityStep(p.inv_mass * impulse * j.parent_lin[row]);
    p.body->GetMotionProperties()->AddAngularVelocityStep(p.inv_inertia.Multiply3x3(impulse * j.parent_ang[row]));
  }
}

void ArticulationConstraint::ApplyVelocity(BodyNode& b, const double* dv) {
  if (!b.body->IsDynamic()) return;
  b.body->GetMotionProperties()->AddLinearVelocityStep(JPH::Vec3(float(dv[0]), float(dv[1]), float(dv[2])));
  b.body->GetMotionProperties()->AddAngularVelocityStep(JPH::Vec3(float(dv[3]), float(dv[4]), float(dv[5])));
}

void ArticulationConstraint::WarmStartVelocityConstraint(float ratio) {
  for (JointNode& j : joints_)
    for (int k = 0; k < j.m; ++k) {
      const float total = Total(j, k) * ratio;
      AddTotal(j, k, total - Total(j, k));
      ApplyRowImpulse(j, k, total);
    }
}

bool ArticulationConstraint::SolveOnce(bool& applied) {
  for (BodyNode& b : bodies_) std::fill(b.rhs, b.rhs + 6, 0.0);
  for (JointNode& j : joints_) {
    std::fill(j.rhs, j.rhs + kPad, 0.0);
    const JPH::Body& child = *bodies_[size_t(j.hinge.body)].body;
    const JPH::Body* parent = j.hinge.parent >= 0 ? bodies_[size_t(j.hinge.parent)].body : nullptr;
    for (int k = 0; k < j.m; ++k) {
      float rate = j.child_lin[k].Dot(child.GetLinearVelocity()) + j.child_ang[k].Dot(child.GetAngularVelocity());
      if (parent)
        rate += j.parent_lin[k].Dot(parent->GetLinearVelocity()) + j.parent_ang[k].Dot(parent->GetAngularVelocity());
      j.rhs[k] = -(double(rate) + double(j.softness[k]) * Total(j, k) + double(j.bias[k]));
    }
  }
  // H z = (0, -residual), leaves first: z = (velocity changes, minus the rows' impulses).
  for (int node : order_) {
    if (node >= 0) {
      const BodyNode& b = bodies_[size_t(node)];
      if (b.joint < 0) continue;
      JointNode& j = joints_[size_t(b.joint)];
      SubtractTransposed(b.f, b.rhs, j.rhs);
    } else {
      const JointNode& j = joints_[size_t(-node - 1)];
      if (j.hinge.parent < 0) continue;
      BodyNode& p = bodies_[size_t(j.hinge.parent)];
      SubtractTransposed(j.f, j.rhs, p.rhs);
    }
  }
  for (BodyNode& b : bodies_) MultiplyInPlace(b.dinv, b.rhs);
  for (JointNode& j : joints_) MultiplyInPlace(j.dinv, j.rhs);
  for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
    const int node = *it;
    if (node >= 0) {
      BodyNode& b = bodies_[size_t(node)];
      if (b.joint < 0) continue;
      const JointNode& j = joints_[size_t(b.joint)];
      Subtract(b.f, j.rhs, b.rhs);
    } else {
      JointNode& j = joints_[size_t(-node - 1)];
      if (j.hinge.parent < 0) continue;
      const BodyNode& p = bodies_[size_t(j.hinge.parent)];
      Subtract(j.f, p.rhs, j.rhs);
    }
  }
  // A limit may only push (lower: raise the rate, upper: lower it). One that would pull is
  // released: its impulse so far is taken back and the tree is solved again without it.
  bool dropped = false;
  for (JointNode& j : joints_) {
    if (j.limit_row < 0) continue;
    const double after = double(Total(j, j.limit_row)) - j.rhs[j.limit_row];
    if (j.lower_limit ? after >= 0.0 : after <= 0.0) continue;
    ApplyRowImpulse(j, j.limit_row, -Total(j, j.limit_row));
    j.limit->total = 0.0f;
    j.limit_dropped = true;
    dropped = true;
  }
  if (dropped) return false;
  for (BodyNode& b : bodies_) ApplyVelocity(b, b.rhs);
  for (JointNode& j : joints_)
    for (int k = 0; k < j.m; ++k) AddTotal(j, k, float(-j.rhs[k]));
  applied = true;
  return true;
}

bool ArticulationConstraint::SolveVelocityConstraint(float) {
  bool applied = false;
  // Each pass either solves or releases at least one limit, so this ends.
  for (size_t pass = 0; pass <= joints_.size(); ++pass) {
    if (SolveOnce(applied)) return applied;
    applied = true;  // a released limit's impulse was taken back
    BuildRows(dt_);
    Factorise();
  }
  return applied;
}

void ArticulationConstraint::SaveState(JPH::StateRecorder& stream) const {
  JPH::TwoBodyConstraint::SaveState(stream);
  for (const JointNode& j : joints_)
    for (float t : j.rigid_total) stream.Write(t);
}

void ArticulationConstraint::RestoreState(JPH::StateRecorder& stream) {
  JPH::TwoBodyConstraint::RestoreState(stream);
  for (JointNode& j : joints_)
    for (float& t : j.rigid_total) stream.Read(t);
}

}  // namespace joltgym
