#include "physics/contacts/contact_forces.h"

#include <Jolt/Physics/Body/Body.h>
#include <Jolt/Physics/Body/BodyLock.h>
#include <Jolt/Math/Vector.h>
#include <Jolt/Physics/Collision/Shape/SubShapeIDPair.h>

namespace joltgym {
namespace {

template <class T>
T ReadValue(StateBuffer& in) {
  T value{};
  in.Read(value);
  return value;
}

}  // namespace

void ContactForceReader::Read(const JPH::PhysicsSystem& system, float dt, std::vector<ContactForce>& out) {
  out.clear();
  buffer_.Clear();
  system.SaveState(buffer_, JPH::EStateRecorderState::Contacts);
  buffer_.Rewind();
  ReadValue<JPH::EStateRecorderState>(buffer_);
  const JPH::BodyLockInterfaceNoLock& locks = system.GetBodyLockInterfaceNoLock();
  const float inv_dt = dt > 0.0f ? 1.0f / dt : 0.0f;

  const auto num_pairs = ReadValue<JPH::uint32>(buffer_);
  for (JPH::uint32 p = 0; p < num_pairs && !buffer_.IsFailed(); ++p) {
    ReadValue<JPH::BodyPair>(buffer_);
    ReadValue<JPH::Float3>(buffer_);  // cached delta position
    ReadValue<JPH::Float3>(buffer_);  // cached delta rotation
    const auto num_manifolds = ReadValue<JPH::uint32>(buffer_);
    for (JPH::uint32 m = 0; m < num_manifolds && !buffer_.IsFailed(); ++m) {
      const auto key = ReadValue<JPH::SubShapeIDPair>(buffer_);
      const auto num_points = ReadValue<JPH::uint16>(buffer_);
      const auto normal_in_2 = ReadValue<JPH::Float3>(buffer_);
      const JPH::Body* body1 = locks.TryGetBody(key.GetBody1ID());
      const JPH::Body* body2 = locks.TryGetBody(key.GetBody2ID());
      // Impulses act on body 2 along +normal/+tangents and on body 1 the opposite way.
      const JPH::Vec3 normal = body2 ? (body2->GetRotation() * JPH::Vec3(normal_in_2)).Normalized() : JPH::Vec3::sAxisZ();
      const JPH::Vec3 t1 = normal.GetNormalizedPerpendicular();
      const JPH::Vec3 t2 = normal.Cross(t1);
      const JPH::uint64 tag1 = body1 ? body1->GetShape()->GetSubShapeUserData(key.GetSubShapeID1()) : 0;
      const JPH::uint64 tag2 = body2 ? body2->GetShape()->GetSubShapeUserData(key.GetSubShapeID2()) : 0;
      for (JPH::uint16 i = 0; i < num_points && !buffer_.IsFailed(); ++i) {
        const auto position1 = ReadValue<JPH::Float3>(buffer_);  // COM-relative, body 1's rotation
        const auto position2 = ReadValue<JPH::Float3>(buffer_);
        const auto normal_lambda = ReadValue<float>(buffer_);
        const auto friction_lambda = ReadValue<JPH::Vector<2>>(buffer_);
        if (!body1 || !body2) continue;
        const JPH::Vec3 impulse = normal_lambda * normal + friction_lambda[0] * t1 + friction_lambda[1] * t2;
        const JPH::Vec3 force = impulse * inv_dt;
        out.push_back({body2->GetID(), -1, -1, tag2,
                       body2->GetCenterOfMassPosition() + body2->GetRotation() * JPH::Vec3(position2), force, normal});
        out.push_back({body1->GetID(), -1, -1, tag1,
                       body1->GetCenterOfMassPosition() + body1->GetRotation() * JPH::Vec3(position1), -force, -normal});
      }
    }
  }
}

}  // namespace joltgym
