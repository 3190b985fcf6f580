// Building a robot's Jolt bodies and constraints in its world's system.
#include "physics/world/robot.h"

#include "physics/articulation/articulation_constraint.h"
#include "physics/articulation/planar_articulation_constraint.h"
#include "physics/contacts/geom_shapes.h"
#include "physics/core/jolt_runtime.h"
#include "physics/joints/gimbal_constraint.h"
#include "physics/joints/planar_point_constraint.h"
#include "physics/world/world.h"

#include <Jolt/Physics/Body/BodyCreationSettings.h>
#include <Jolt/Physics/Body/BodyLock.h>
#include <Jolt/Physics/Constraints/HingeConstraint.h>
#include <Jolt/Physics/Constraints/PointConstraint.h>
#include <Jolt/Physics/Constraints/SliderConstraint.h>

#include <algorithm>
#include <stdexcept>

namespace joltgym {
namespace {

// Armature this many times the link's own inertia about the joint axis routes the joint's
// forces through its drive row (JointAxisParams::forces_through_row), a threshold between the
// robots' own ratios: HalfCheetah (2-10) holds its joints better with torques on the bodies,
// Ant (120-740) and Reacher (7800) only with them through the row.
constexpr float kArmatureDominance = 50.0f;

// Jolt gives a body whose principal moments of inertia are all under 1e-6 kg m^2 a unit sphere's
// inertia (MotionProperties::SetMassProperties: "near zero" counts as a failed decomposition);
// dm_control's fish has fins of 1e-8. Such a body gets its own tensor's inverse, decomposed at unit scale.
void KeepSmallInertia(JPH::Body& body, const JPH::MassProperties& mass) {
  const JPH::uint rotations = (JPH::uint(body.GetMotionProperties()->GetAllowedDOFs()) >> 3) & 0b111;
  const float scale = std::max({mass.mInertia(0, 0), mass.mInertia(1, 1), mass.mInertia(2, 2)});
  if (rotations == 0 || !(scale > 0.0f)) return;
  JPH::MassProperties unit = mass;
  JPH::Mat44 rotation;
  JPH::Vec3 diagonal;
  if (!mass.DecomposePrincipalMomentsOfInertia(rotation, diagonal) || diagonal.IsNearZero()) {
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) unit.mInertia(r, c) = mass.mInertia(r, c) / scale;
    if (!unit.DecomposePrincipalMomentsOfInertia(rotation, diagonal) || !(diagonal.ReduceMin() > 0.0f))
      throw std::invalid_argument("a body's inertia has no positive principal moments");
    body.GetMotionProperties()->SetInverseInertia((diagonal * scale).Reciprocal(), rotation.GetQuaternion());
  }
}

// Inertia of a body about a joint's axis through the joint's anchor (body frame data).
float AxisInertia(const CompiledBody& body, const CompiledJoint& joint) {
  if (joint.type != JointType::Hinge) return body.mass.mMass;  // a slide moves the body's mass
  const JPH::Vec3 axis = joint.axis_local;
  const JPH::Vec3 r = body.com_local - joint.anchor_local;
  const JPH::Vec3 r_perp = r - r.Dot(axis) * axis;
  return axis.Dot(body.mass.mInertia.Multiply3x3(axis)) + body.mass.mMass * r_perp.LengthSq();
}

}  // namespace

Robot::Robot(ModelPtr model, World& world, int index, JPH::RVec3 origin)
    : model_(std::move(model)), world_(&world), index_(index), origin_(origin) {
  const CompiledModel& m = *model_;
  ctrl_.assign(size_t(m.nu()), 0.0f);
  act_.assign(size_t(m.nu()), 0.0f);
  angle_.assign(m.joints().size(), 0.0f);
  last_raw_angle_.assign(m.joints().size(), 0.0f);
  qfrc_actuator_.assign(size_t(m.nv()), 0.0f);
  actuator_force_.assign(size_t(m.nu()), 0.0f);
  frames_.resize(m.bodies().size());
  gimbal_.resize(m.bodies().size());
  gimbal_next_.resize(m.bodies().size());
  body_motion_.resize(m.bodies().size());
  body_bias_.resize(m.bodies().size());
  bias_accel_.resize(m.bodies().size());
  rate_now_.assign(m.joints().size(), 0.0f);
  rate_update_.assign(m.joints().size(), 0);
  row_effort_.assign(m.joints().size(), 0.0f);
  CreateBodies();
  linear_velocity_before_.assign(bodies_.size(), JPH::Vec3::sZero());
  angular_velocity_before_.assign(bodies_.size(), JPH::Vec3::sZero());
  linear_damping_change_.assign(bodies_.size(), JPH::Vec3::sZero());
  angular_damping_change_.assign(bodies_.size(), JPH::Vec3::sZero());
  tree_of_.assign(bodies_.size(), {nullptr, -1});
  position_before_.assign(bodies_.size(), JPH::RVec3::sZero());
  rotation_before_.assign(bodies_.size(), JPH::Quat::sIdentity());
  CreateJoints();
  CreateSoftContacts();
  CreateSelfContacts();
  CreateTendonLimits();
  CreateTendonEqualities();
  RefreshGimbals();
  actuator_gain_.resize(m.actuators().size());
  actuator_bias_length_.resize(m.actuators().size());
  for (size_t a = 0; a < m.actuators().size(); ++a) {
    actuator_gain_[a] = m.actuators()[a].gain;
    actuator_bias_length_[a] = m.actuators()[a].bias_length;
  }
  joint_damping_.resize(m.joints().size());
  for (size_t j = 0; j < m.joints().size(); ++j) joint_damping_[j] = m.joints()[j].damping;
  actuator_damping_.assign(m.joints().size(), 0.0f);
  external_force_.assign(m.bodies().size(), JPH::Vec3::sZero());
  for (int p = 0; p < kRobotParameters; ++p) {
    parameters_[size_t(p)].resize(size_t(ParameterSize(RobotParameter(p))));
    GetModelParameter(RobotParameter(p), parameters_[size_t(p)].data());
  }
}

void Robot::CreateBodies() {
  const CompiledModel& m = *model_;
  JPH::PhysicsSystem& system = world_->system_;
  JPH::BodyInterface& bi = system.GetBodyInterfaceNoLock();
  const JPH::BodyLockInterfaceNoLock& locks = system.GetBodyLockInterfaceNoLock();
  for (size_t i = 0; i < m.bodies().size(); ++i) {
    const CompiledBody& b = m.bodies()[i];
    const bool inert = world_->inert_bodies_[size_t(index_)][i];
    JPH::BodyCreationSettings settings(inert ? b.inert_shape : b.shape, origin_ + b.pos0, b.rot0,
                                       JPH::EMotionType::Dynamic, inert ? layers::kInert : layers::kMoving);
    settings.mOverrideMassProperties = JPH::EOverrideMassProperties::MassAndInertiaProvided;
    settings.mMassPropertiesOverride = b.mass;
    settings.mAllowedDOFs = b.allowed_dofs;
    settings.mLinearDamping = 0.0f;
    settings.mAngularDamping = 0.0f;
    // Jolt clamps velocities after integrating forces but before the constraints act. A
    // light link behind a heavy armature row (inertia 4e-5, armature 1) passes
    // through huge free velocities that the row then cancels; clamping them corrupts the step.
    settings.mMaxLinearVelocity = 1.0e8f;
    settings.mMaxAngularVelocity = 1.0e8f;
    // MuJoCo's bias forces include the gyroscopic term. Jolt's version rebuilds the
    // angular velocity without the allowed-DOF mask, so a planar body would slowly
    // leave its plane; for rotation about a single world axis the term vanishes anyway.
    settings.mApplyGyroscopicForce = b.attachment != Attachment::Planar && !b.planar_link;
    settings.mAllowSleeping = false;
    settings.mFriction = b.friction;
    settings.mUserData = JPH::uint64(b.condim);
    settings.mRestitution = 0.0f;
    settings.mUseManifoldReduction = !b.keep_manifolds_apart;
    settings.mCollisionGroup =
        JPH::CollisionGroup(world_->collision_filter_, JPH::uint32(index_), JPH::uint32(b.collision_entry));
    const JPH::BodyID id = bi.CreateAndAddBody(settings, JPH::EActivation::Activate);
    auto& owners = world_->body_of_id_;
    if (owners.size() <= id.GetIndex()) owners.resize(id.GetIndex() + 1, {-1, -1});
    owners[id.GetIndex()] = {index_, int(i)};
    bodies_.push_back(locks.TryGetBody(id));
    KeepSmallInertia(*bodies_.back(), b.mass);
  }
}

void Robot::CreateJoints() {
  const CompiledModel& m = *model_;
  axis_rows_.resize(m.joints().size());
  std::vector<ArticulatedHinge> hinges;  // body and parent: robot body indices until AddArticulations
  // Jolt solves higher priorities last, i.e. most accurately: the joints must win
  // over the soft armature/damping rows. Ranges are JointAxisConstraint's.
  constexpr JPH::uint32 kJointPriority = 1;
  for (size_t j = 0; j < m.joints().size(); ++j) {
    const CompiledJoint& joint = m.joints()[j];
    const CompiledBody& cb = m.bodies()[joint.body];
    JPH::Body& child = *bodies_[joint.body];
    JPH::Body& parent = joint.parent >= 0 ? *bodies_[joint.parent] : JPH::Body::sFixedToWorld;
    const JPH::RVec3 anchor = origin_ + cb.pos0 + cb.rot0 * joint.anchor_local;
    const JPH::Vec3 axis = cb.rot0 * joint.axis_local;
    const JPH::Vec3 normal = axis.GetNormalizedPerpendicular();
    const bool articulated = cb.articulated;  // CompiledModel::CompileArticulation

    JPH::Ref<JPH::TwoBodyConstraint> constraint;
    auto point_constraint = [&] {
      JPH::PointConstraintSettings s;
      s.mConstraintPriority = kJointPriority;
      s.mSpace = JPH::EConstraintSpace::WorldSpace;
      s.mPoint1 = s.mPoint2 = anchor;
      return s.Create(parent, child);
    };
    auto articulated_hinge = [&] {  // for the tree's articulation, which solves the joint
      ArticulatedHinge h;
      h.joint = int(j);
      h.body = joint.body;
      h.parent = joint.parent;
      h.anchor_local1 = JPH::Vec3(parent.GetInverseCenterOfMassTransform() * anchor);
      h.anchor_local2 = JPH::Vec3(child.GetInverseCenterOfMassTransform() * anchor);
      h.axis_local1 = parent.GetRotation().Conjugated() * axis;
      return h;
    };
    switch (cb.attachment) {
      case Attachment::Hinge: {
        if (articulated) hinges.push_back(articulated_hinge());  // it solves the rows' velocities
        if (cb.planar_link) {  // both bodies kept in the plane: the anchor alone is left to hold
          const JPH::Vec3 a = axis.Abs();
          const int normal_axis = a.GetX() >= a.GetY() && a.GetX() >= a.GetZ() ? 0 : a.GetY() >= a.GetZ() ? 1 : 2;
          planar_normal_ = normal_axis;
          // An articulated tree places its planar bodies itself (PlanarArticulationConstraint).
          if (!articulated) constraint = new PlanarPointConstraint(parent, child, anchor, normal_axis, kJointPriority);
          break;
        }
        if (articulated) break;  // the tree's articulation solves the hinge, positions too
        JPH::HingeConstraintSettings s;
        s.mConstraintPriority = kJointPriority;
        s.mSpace = JPH::EConstraintSpace::WorldSpace;
        s.mPoint1 = s.mPoint2 = anchor;
        s.mHingeAxis1 = s.mHingeAxis2 = axis;
        s.mNormalAxis1 = s.mNormalAxis2 = normal;
        constraint = s.Create(parent, child);
        break;
      }
      case Attachment::Slide: {
        JPH::SliderConstraintSettings s;
        s.mConstraintPriority = kJointPriority;
        s.mSpace = JPH::EConstraintSpace::WorldSpace;
        s.mPoint1 = s.mPoint2 = anchor;
        s.mSliderAxis1 = s.mSliderAxis2 = axis;
        s.mNormalAxis1 = s.mNormalAxis2 = normal;
        constraint = s.Create(parent, child);
        break;
      }
      case Attachment::Ball:
        constraint = point_constraint();
        break;
      case Attachment::Gimbal: {
        if (articulated) {  // one rate per coordinate; the articulation solves the body, positions too
          ArticulatedHinge h = articulated_hinge();
          h.gimbal_slot = joint.gimbal_slot;
          h.gimbal_sign = joint.gimbal_sign;
          h.gimbal_rest = cb.rel_rot0;
          h.gimbal_basis = cb.gimbal_basis;
          h.gimbal_lock_third = cb.gimbal_lock_third;
          h.gimbal_anchors_apart = cb.gimbal_anchors_apart;
          hinges.push_back(h);
          break;
        }
        if (joint.gimbal_slot != 0) break;  // one constraint for all of the body's hinges
        GimbalParams g;
        g.anchor_local1 = JPH::Vec3(parent.GetInverseCenterOfMassTransform() * anchor);
        g.anchor_local2 = JPH::Vec3(child.GetInverseCenterOfMassTransform() * anchor);
        g.rest_in_parent = cb.rel_rot0;
        g.basis = cb.gimbal_basis;
        g.lock_third = cb.gimbal_lock_third;
        constraint = new GimbalConstraint(parent, child, g);
        break;
      }
      case Attachment::Free:
      case Attachment::Planar:
        break;
    }
    if (constraint) AddConstraint(constraint);

    const bool scalar = cb.attachment != Attachment::Free && cb.attachment != Attachment::Ball;
    if (scalar && (joint.has_drive_row || joint.limited || joint.frictionloss > 0.0f)) {
      // A planar root's slides move its hinge's anchor (see SlidePosition), so their rows act there.
      const JPH::RVec3 row_anchor = cb.attachment == Attachment::Planar
                                        ? origin_ + cb.pos0 + cb.rot0 * m.joints()[cb.joints.back()].anchor_local
                                        : anchor;
      JointAxisParams p;
      p.angular = joint.type == JointType::Hinge;
      p.axis_from_step = joint.gimbal_slot >= 0;
      p.axis_local1 = parent.GetRotation().Conjugated() * axis;
      p.anchor_local2 = child.GetRotation().Conjugated() * JPH::Vec3(row_anchor - child.GetCenterOfMassPosition());
      p.armature = joint.armature;
      p.forces_through_row = joint.armature > kArmatureDominance * AxisInertia(cb, joint);
      p.damping = joint.implicit_damping ? joint.damping : 0.0f;
      p.limited = joint.limited;
      p.range_lo = joint.range_lo;
      p.range_hi = joint.range_hi;
      p.soft = m.solver().soft_limits;
      p.soft_limit = joint.soft_limit;
      p.after_joints = m.solver().joint_rows_last;
      p.frictionloss = joint.frictionloss;
      p.friction = joint.friction;
      // A planar root's rows act between it and the world, outside any tree's articulation.
      const bool row_in_articulation =
          articulated && (cb.attachment == Attachment::Hinge || cb.attachment == Attachment::Gimbal);
      p.damping_after_constraints = row_in_articulation && m.solver().mujoco_euler;
      axis_rows_[j] = new JointAxisConstraint(parent, child, p);
      if (row_in_articulation) {
        AddTreeRow(axis_rows_[j]);
        hinges.back().axis_rows = axis_rows_[j].GetPtr();
      } else {
        AddConstraint(axis_rows_[j]);
      }
    }
  }
  AddArticulations(hinges, kJointPriority);
}

void Robot::AddArticulations(const std::vector<ArticulatedHinge>& hinges, JPH::uint32 priority) {
  const CompiledModel& m = *model_;
  for (size_t r = 0; r < m.bodies().size(); ++r) {
    if (!m.bodies()[r].articulated || m.bodies()[r].articulation_root != int(r)) continue;
    // The tree rooted at body r, in body order (parents first), and its hinges re-indexed into it.
    std::vector<int> local(m.bodies().size(), -1);
    std::vector<JPH::Body*> tree;
    for (size_t i = r; i < m.bodies().size(); ++i)
      if (m.bodies()[i].articulation_root == int(r)) {
        local[i] = int(tree.size());
        tree.push_back(bodies_[i]);
      }
    std::vector<ArticulatedHinge> tree_hinges;
    for (ArticulatedHinge h : hinges) {
      if (local[size_t(h.body)] < 0) continue;
      h.body = local[size_t(h.body)];
      if (h.parent >= 0) h.parent = local[size_t(h.parent)];
      tree_hinges.push_back(h);
    }
    const bool touched = std::any_of(tree.begin(), tree.end(), [](const JPH::Body* b) {
      return b->GetObjectLayer() != layers::kInert;
    });
    TreeRowSolver* solver = nullptr;
    TreeConstraint* constraint = nullptr;
    if (planar_normal_ >= 0) {  // the model's hinges are planar links
      // A free root's joints act at its last joint's anchor (its hinge's, after its slides).
      const CompiledBody& root = m.bodies()[r];
      const JPH::Vec3 root_anchor =
          root.joints.empty() ? JPH::Vec3::sZero()
                              : JPH::Vec3(tree[0]->GetInverseCenterOfMassTransform() *
                                          (tree[0]->GetWorldTransform() * m.joints()[size_t(root.joints.back())].anchor_local));
      auto* articulation = new PlanarArticulationConstraint(std::move(tree), std::move(tree_hinges), planar_normal_, priority,
                                                            m.solver().mujoco_euler, root_anchor);
      if (m.solver().mujoco_euler) mujoco_euler_trees_.push_back(articulation);
      solver = articulation;
      constraint = articulation;
    } else {
      auto* articulation = new ArticulationConstraint(std::move(tree), std::move(tree_hinges), priority, m.solver().mujoco_euler);
      solver = articulation;
      constraint = articulation;
    }
    AddConstraint(constraint);
    trees_.push_back(constraint);
    if (touched) touched_trees_.push_back(constraint);
    contact_solver_of_.resize(m.bodies().size(), {nullptr, -1});
    for (size_t i = 0; i < local.size(); ++i)
      if (local[i] >= 0) contact_solver_of_[i] = {solver, local[i]}, tree_of_[i] = {constraint, local[i]};
  }
}

void Robot::CreateSoftContacts() {
  const CompiledModel& m = *model_;
  const CompiledModel& scene = *world_->scene_;
  if (!scene.solver().soft_contacts) return;
  // A model's explicit pairs name its own world geoms: they hold where it is its own scene.
  const bool own_scene = &scene == &m;
  if (!own_scene && !m.plane_pairs().empty())
    throw UnsupportedFeature("<contact><pair> '" + m.desc().contact_pairs[size_t(m.plane_pairs().front().pair)].name +
                             "': explicit pairs with a model's world geoms hold in its own scene only, not in another");
  for (const CompiledStaticGeom& plane : scene.static_geoms()) {
    if (!plane.plane && !plane.height_field) continue;
    const int plane_index = int(&plane - scene.static_geoms().data());
    const CollisionBits plane_bits{plane.geom.contype, plane.geom.conaffinity};
    for (size_t i = 0; i < m.bodies().size(); ++i) {
      const CompiledBody& cb = m.bodies()[i];
      const bool excluded = m.ExcludedFromWorld(cb.collision_entry);
      std::vector<SoftContactGeom> geoms;
      const std::vector<GeomDesc>& body_geoms = m.desc().bodies[i].geoms;
      for (int k = 0; k < int(body_geoms.size()); ++k) {
        const GeomDesc& g = body_geoms[size_t(k)];
        const CompiledPlanePair* explicit_pair = nullptr;
        for (const CompiledPlanePair& pp : m.plane_pairs())
          if (own_scene && pp.body == int(i) && pp.geom == k && pp.static_geom == plane_index) explicit_pair = &pp;
        if (!explicit_pair && (excluded || !Collides(CollisionBits{g.contype, g.conaffinity}) ||
                               !BitmasksMeet(CollisionBits{g.contype, g.conaffinity}, plane_bits)))
          continue;
        if (PlaneContactFeatures(g.type) == 0) continue;
        SoftContactGeom sg;
        sg.type = g.type;
        sg.size = g.size;
        sg.local = JPH::Mat44::sRotationTranslation(ToQuat(g.quat), ToVec3(g.pos));
        sg.pair = explicit_pair ? ExplicitContactPair(m.desc().contact_pairs[size_t(explicit_pair->pair)], plane.geom, g,
                                                      m.timestep())
                                : MixContactPair(plane.geom, g, m.timestep());
        sg.explicit_pair = explicit_pair != nullptr;
        sg.tag = JPH::uint64(g.mj_body + 1);
        sg.desc = &g;
        geoms.push_back(sg);
      }
      if (geoms.empty()) continue;
      JPH::Ref<SoftContactConstraint> c =
          plane.height_field ? new SoftContactConstraint(*bodies_[i], *plane.height_field, std::move(geoms))
                             : new SoftContactConstraint(*bodies_[i], plane.plane_point, plane.plane_normal, std::move(geoms));
      // An articulated tree's plane contacts are solved in its joint space (joint_space_contacts.h).
      if (i < contact_solver_of_.size() && contact_solver_of_[i].first) {
        AddTreeRow(c);
        contact_solver_of_[i].first->AddContacts(contact_solver_of_[i].second, c.GetPtr());
      } else {
        AddConstraint(c);
      }
      soft_contacts_.push_back(c);
      soft_contact_body_.push_back(int(i));
      soft_contact_plane_.push_back(&plane.geom);
    }
  }
}

void Robot::CreateSelfContacts() {
  const CompiledModel& m = *model_;
  self_contact_frames_.resize(bodies_.size());
  for (const CompiledSelfContact& sc : m.self_contacts()) {
    JPH::Ref<SelfContactConstraint> c = new SelfContactConstraint(*bodies_[size_t(sc.body1)], *bodies_[size_t(sc.body2)],
                                                                  sc.pairs, sc.layout, /*in_jolt=*/!sc.in_tree);
    if (sc.in_tree) {
      const auto& [solver, local1] = contact_solver_of_[size_t(sc.body1)];
      solver->AddSelfContacts(local1, contact_solver_of_[size_t(sc.body2)].second, c.GetPtr());
      AddTreeRow(c);
    } else {
      AddConstraint(c);
    }
    self_contacts_.push_back(c);
  }
}

void Robot::CreateTendonLimits() {
  const CompiledModel& m = *model_;
  for (const CompiledSpatialTendon& t : m.limited_spatial_tendons()) {
    // A tendon's end on the world is body 1's (Jolt's constraints take the world first).
    const bool swap = t.body1 < 0;
    const int sites[2] = {swap ? t.site2 : t.site1, swap ? t.site1 : t.site2};
    JPH::Body* ends[2] = {nullptr, nullptr};
    TendonLimitParams p;
    for (int k = 0; k < 2; ++k) {
      const SiteDesc& site = m.desc().sites[size_t(sites[k])];
      ends[k] = site.body >= 0 ? bodies_[size_t(site.body)] : &JPH::Body::sFixedToWorld;
      const JPH::RVec3 world = site.body >= 0 ? ends[k]->GetWorldTransform() * ToVec3(site.pos) : origin_ + ToVec3(site.pos);
      const JPH::Vec3 local = ends[k]->GetRotation().Conjugated() * JPH::Vec3(world - ends[k]->GetCenterOfMassPosition());
      (k == 0 ? p.point_local1 : p.point_local2) = local;
    }
    // Swapped ends keep the tendon's length and its range; only the direction of u turns.
    p.range_lo = t.range_lo;
    p.range_hi = t.range_hi;
    p.limit = t.limit;
    JPH::Ref<TendonLimitConstraint> c = new TendonLimitConstraint(*ends[0], *ends[1], p);
    AddConstraint(c);
    tendon_limits_.push_back(c);
  }
}

void Robot::CreateTendonEqualities() {
  const CompiledModel& m = *model_;
  for (const TendonEqualityDesc& e : m.desc().tendon_equalities) {
    const TendonDesc& tendon = m.desc().tendons[size_t(e.tendon)];
    std::vector<TendonEqualityTerm> terms;
    for (size_t k = 0; k < tendon.joints.size(); ++k) {
      const CompiledJoint& joint = m.joints()[size_t(tendon.joints[k])];
      const CompiledBody& cb = m.bodies()[size_t(joint.body)];
      TendonEqualityTerm t;
      t.child = bodies_[size_t(joint.body)];
      t.parent = joint.parent >= 0 ? bodies_[size_t(joint.parent)] : nullptr;
      t.angular = joint.type == JointType::Hinge;
      const JPH::Vec3 axis = cb.rot0 * joint.axis_local;  // world, at the model's pose
      t.axis_in_parent = t.parent ? t.parent->GetRotation().Conjugated() * axis : axis;
      // A planar root's slides move its hinge's anchor (Robot::ApplyJointEffort pushes there too).
      t.anchor_in_child = cb.attachment == Attachment::Planar ? m.joints()[size_t(cb.joints.back())].anchor_local
                                                              : joint.anchor_local;
      t.coef = tendon.coefs[k];
      terms.push_back(t);
    }
    JPH::Body& body2 = *terms.front().child;
    JPH::Body& body1 = terms.front().parent ? *terms.front().parent : JPH::Body::sFixedToWorld;
    JPH::Ref<TendonEqualityConstraint> c = new TendonEqualityConstraint(
        body1, body2, std::move(terms), e.length, SoftLimit::FromMuJoCo(e.solref, e.solimp, 0.0f, e.invweight, m.timestep()));
    // Hinges of one articulated tree (CompiledModel::CheckTendonEqualities): its joint space solves the row.
    const int first_body = m.joints()[size_t(tendon.joints.front())].body;
    if (m.bodies()[size_t(first_body)].articulated) {
      contact_solver_of_[size_t(first_body)].first->AddTendonEquality(c.GetPtr(), tendon.joints, tendon.coefs);
      AddTreeRow(c);
    } else {
      AddConstraint(c);
    }
    tendon_equalities_.push_back(c);
  }
}

void Robot::AddConstraint(JPH::Constraint* constraint) {
  world_->system_.AddConstraint(constraint);
  constraints_.emplace_back(constraint);
}

void Robot::AddTreeRow(JPH::Constraint* constraint) { constraints_.emplace_back(constraint); }

void Robot::SaveJoltState(StateBuffer& out) const {
  for (const JPH::Body* body : bodies_) world_->system_.SaveBodyState(*body, out);
  for (const auto& c : constraints_) c->SaveState(out);
}

void Robot::RestoreJoltState(StateBuffer& in) {
  for (JPH::Body* body : bodies_) world_->system_.RestoreBodyState(*body, in);
  for (const auto& c : constraints_) c->RestoreState(in);
}

}  // namespace joltgym
