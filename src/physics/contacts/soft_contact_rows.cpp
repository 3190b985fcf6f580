#include "physics/contacts/soft_contact_rows.h"

#include <cmath>

namespace joltgym {
namespace {

// MuJoCo's contact frame (mju_makeFrame): the first tangent is the hint made orthogonal
// to the normal, or world y (world z for normals near y) without one.
JPH::Vec3 FirstTangent(JPH::Vec3Arg normal, JPH::Vec3Arg hint) {
  JPH::Vec3 t = hint;
  if (t.LengthSq() < 0.25f) t = std::abs(normal.GetY()) < 0.5f ? JPH::Vec3::sAxisY() : JPH::Vec3::sAxisZ();
  t -= normal.Dot(t) * normal;
  const float len = t.Length();
  return len > 1.0e-6f ? t / len : normal.GetNormalizedPerpendicular();
}

}  // namespace

void SoftContactRow::SaveState(JPH::StateRecorder& stream) const {
  stream.Write(axis);
  stream.Write(bias);
  stream.Write(damping);
  stream.Write(total);
}

void SoftContactRow::RestoreState(JPH::StateRecorder& stream) {
  stream.Read(axis);
  stream.Read(bias);
  stream.Read(damping);
  stream.Read(total);
}

int SetUpSoftContactRows(const ContactPair& pair, JPH::Vec3Arg normal, JPH::Vec3Arg tangent_hint, float dist,
                         JPH::Vec3Arg velocity, JPH::Vec3Arg bias, float h, SoftContactRow rows[kMaxSoftContactRows]) {
  const JPH::Vec3 n = normal;
  JPH::Vec3 dirs[kMaxSoftContactRows];  // MuJoCo's row Jacobians, J_n +- mu J_t (not unit)
  int count;
  if (pair.frictional) {
    const JPH::Vec3 t1 = FirstTangent(n, tangent_hint);
    const JPH::Vec3 t2 = n.Cross(t1);
    const float mu = pair.friction;
    dirs[0] = n + mu * t1;
    dirs[1] = n - mu * t1;
    dirs[2] = n + mu * t2;
    dirs[3] = n - mu * t2;
    count = 4;
  } else {
    dirs[0] = n;
    count = 1;
  }
  for (int r = 0; r < count; ++r) {
    const float length = dirs[r].Length();
    float softness, target;
    pair.soft.Row(dist, dirs[r].Dot(velocity), h, softness, target);
    target += h * dirs[r].Dot(bias);
    // The unit row J/|J| carries the impulse |J| lambda: softness over |J|^2, target over |J|.
    SoftContactRow& row = rows[r];
    row.axis = dirs[r] / length;
    row.bias = -target / length;
    row.damping = 1.0f / (h * softness / (length * length));
  }
  return count;
}

}  // namespace joltgym
