// A ModelDesc compiled for Jolt once: shapes, mass properties, joint frames and
// the collision table. Immutable and shared by every World built from it.
#pragma once

#include "model/model_desc.h"
#include "physics/contacts/collision_filter.h"
#include "physics/contacts/height_field.h"
#include "physics/contacts/self_contact_geom_pair.h"
#include "physics/core/soft_limit.h"
#include "physics/core/unsupported_feature.h"

#include <Jolt/Jolt.h>
#include <Jolt/Physics/Body/MassProperties.h>
#include <Jolt/Physics/Body/AllowedDOFs.h>
#include <Jolt/Physics/Collision/Shape/Shape.h>

#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace joltgym {

// How a body is attached to its parent.
enum class Attachment {
  Free,        // free joint: no constraint
  Planar,      // world root with slides and at most one hinge: restricted DOFs on the body
  Hinge,       // one hinge: HingeConstraint
  Slide,       // one slide: SliderConstraint
  Ball,        // one ball: PointConstraint
  Gimbal,      // two or three hinges on one body (gimbal.h): a GimbalConstraint, or rates of an articulation
};

// A geom's MuJoCo contact bitmasks; two geoms may touch when either's contype meets the
// other's conaffinity.
struct CollisionBits {
  int contype = 0;
  int conaffinity = 0;
};
inline bool BitmasksMeet(const CollisionBits& a, const CollisionBits& b) {
  return (a.contype & b.conaffinity) != 0 || (b.contype & a.conaffinity) != 0;
}
// Whether the geom takes part in contacts at all (MuJoCo: contype or conaffinity non-zero).
inline bool Collides(const CollisionBits& bits) { return bits.contype != 0 || bits.conaffinity != 0; }

struct CompiledBody {
  std::string name;
  int parent = -1;
  Attachment attachment = Attachment::Free;
  JPH::RefConst<JPH::Shape> shape;
  JPH::RefConst<JPH::Shape> inert_shape;  // used instead where the world's rules let nothing touch the body
  JPH::MassProperties mass;
  JPH::EAllowedDOFs allowed_dofs = JPH::EAllowedDOFs::All;
  JPH::RVec3 pos0;           // body frame origin, world, at qpos0
  JPH::Quat rot0;
  JPH::Vec3 com_local;       // COM in the body frame
  JPH::Quat inertia_frame;   // principal axes of inertia, in the body frame
  JPH::Vec3 fluid_box;       // half-sizes of the equivalent inertia box (fluid forces)
  JPH::Vec3 rel_pos0;        // body frame in the parent's body frame at qpos0
  JPH::Quat rel_rot0;
  float friction = 1.0f;
  int condim = 3;
  int collision_entry = 0;
  // Geoms of several MuJoCo bodies (welded): keep Jolt from merging their contact
  // manifolds, so each contact still names the geom (and MuJoCo body) it touches.
  bool keep_manifolds_apart = false;
  // How its colliding geoms' contact parameters differ ("geoms with different condim in one
  // body"), or empty: such a body's contacts must all be our own rows, which take each geom's.
  std::string mixed_contact;
  std::vector<int> joints;   // MuJoCo order
  // Gimbal: (a1, a2, a1 x a2) as columns, body frame; two hinges lock the third.
  JPH::Quat gimbal_basis = JPH::Quat::sIdentity();
  bool gimbal_lock_third = false;
  // Its hinges have anchors of their own (gimbal.h's GimbalAnchorOnChild); articulated trees only.
  bool gimbal_anchors_apart = false;
  // A link of a planar model (SolverDesc::planar_links): restricted to the plane, so that
  // its hinge is a point constraint (CompilePlanarLinks).
  bool planar_link = false;
  // Its tree's joint rows are solved by one ArticulationConstraint (SolverDesc::articulated_joints);
  // articulation_root: that tree's root body (CompileArticulation).
  bool articulated = false;
  int articulation_root = -1;
};

struct CompiledJoint {
  std::string name;
  JointType type = JointType::Hinge;
  int body = 0;
  int parent = -1;
  JPH::Vec3 anchor_local;    // body frame
  JPH::Vec3 axis_local;      // body frame
  int qposadr = 0;
  int dofadr = 0;
  std::vector<float> qpos0;
  bool limited = false;
  float range_lo = 0.0f, range_hi = 0.0f;
  bool rotational_dof = false;   // scalar angle that must be unwrapped across steps
  bool has_drive_row = false;    // armature or implicit damping: see JointAxisConstraint
  bool implicit_damping = true;  // ModelDesc::implicit_damping; else an explicit force (Robot::ApplyJointSprings)
  // An actuator's velocity terms on it are implicit (ModelDesc::implicit_actuator_velocity): its drive
  // row's damping changes with them every update (Robot::ApplyActuation).
  bool implicit_actuator_velocity = false;
  int gimbal_slot = -1;          // coordinate of its body's gimbal (0..2), or -1
  float gimbal_sign = 1.0f;      // -1: a third axis along -(a1 x a2)
  float armature = 0.0f, damping = 0.0f, stiffness = 0.0f, springref = 0.0f;
  SoftLimit soft_limit;          // MuJoCo's soft limit parameters (JointDesc)
  float frictionloss = 0.0f;     // the bound of its dry-friction row's force; 0: no row
  bool actfrclimited = false;    // its summed actuator force clipped to [actfrc_lo, actfrc_hi]
  float actfrc_lo = 0.0f, actfrc_hi = 0.0f;
  SoftLimit friction;            // that row's softness and damping (margin 0: dmin, no position term)
};

// A spatial tendon whose length limit joltgym solves (TendonLimitConstraint): its sites' simulated
// bodies (-1: the world) and MuJoCo's soft limit.
struct CompiledSpatialTendon {
  int site1 = -1, site2 = -1;  // indices into ModelDesc::sites
  int body1 = -1, body2 = -1;
  float range_lo = 0.0f, range_hi = 0.0f;
  SoftLimit limit;
};

struct CompiledActuator {
  std::string name;
  int joint = 0;                 // its joint; -1: it pulls a tendon
  float gear = 1.0f;
  // A tendon's transmission: each of its joints and the moment on it, gear * the tendon's coefficient
  // (MuJoCo's actuator_moment): length sum moment q, velocity sum moment qdot, joint force moment f.
  std::vector<std::pair<int, float>> tendon_moments;
  float gain = 1.0f;             // gainprm[0]
  // The rest of MuJoCo's affine gain and bias (gain_length, gain_velocity; bias, bias_length,
  // bias_velocity), all zero for a motor; affine: any of them is not.
  float gain_length = 0.0f, gain_velocity = 0.0f;
  float bias = 0.0f, bias_length = 0.0f, bias_velocity = 0.0f;
  bool affine = false;
  bool ctrllimited = false;
  float ctrl_lo = 0.0f, ctrl_hi = 0.0f;
  bool forcelimited = false;
  float force_lo = 0.0f, force_hi = 0.0f;
  ActuatorDesc::Dynamics dynamics = ActuatorDesc::Dynamics::None;  // ActuatorDesc's
  float tau = 1.0f;
  bool actlimited = false;
  float act_lo = 0.0f, act_hi = 0.0f;
  bool actearly = false;
};

struct CompiledStaticGeom {
  GeomDesc geom;             // as the model gives it (world frame)
  bool plane = false;        // a plane through plane_point with unit plane_normal
  JPH::Vec3 plane_point = JPH::Vec3::sZero();
  JPH::Vec3 plane_normal = JPH::Vec3::sAxisZ();
  // A height field, touched only through soft rows (no Jolt body): null for other geoms.
  std::shared_ptr<const HeightField> height_field;
  JPH::RefConst<JPH::Shape> shape;   // null for a height field
  JPH::RVec3 pos;
  JPH::Quat rot;
  float friction = 1.0f;
  int condim = 3;
  int collision_entry = 0;
  int world_geom = -1;       // index into ModelDesc::world_geoms
};

// A robot geom's explicit <pair> with a plane or height field of the world (contact_pairs).
struct CompiledPlanePair {
  int body = -1;
  int geom = 0;          // index into the body's BodyDesc::geoms
  int static_geom = 0;   // index into static_geoms()
  int pair = 0;          // index into ModelDesc::contact_pairs
};

// Two bodies of one articulated tree, or of two kinematic trees neither in an articulation (ball_in_cup's
// ball and cup), whose contacts joltgym finds and solves itself, as MuJoCo's soft contacts
// (self_contact_constraint.h), rather than Jolt: every pair of their geoms that may touch is a pair of
// spheres, capsules, boxes or cylinders.
struct CompiledSelfContact {
  int body1 = -1, body2 = -1;
  bool in_tree = true;  // solved by the tree's articulation; else row by row in Jolt's lists
  std::vector<std::array<int, 2>> geoms;  // (index into body1's BodyDesc::geoms, into body2's)
  std::vector<int> explicit_pair;         // per geom pair: its ModelDesc::contact_pairs index, or -1 (mixed)
  std::vector<SelfContactGeomPair> pairs;  // per geom pair: shapes, frames and parameters, for every robot
  SelfContactLayout layout;                // what the constraints read of them besides (LayOutSelfContacts)
};

class CompiledModel {
 public:
  explicit CompiledModel(const ModelDesc& desc);

  const ModelDesc& desc() const { return desc_; }
  // The site or keyframe of that name; std::invalid_argument saying that `what` needs it
  // when the model has none.
  int FindSite(const std::string& name, const std::string& what) const;
  const KeyframeDesc& FindKeyframe(const std::string& name, const std::string& what) const;
  const std::vector<CompiledBody>& bodies() const { return bodies_; }
  const std::vector<CompiledJoint>& joints() const { return joints_; }
  const std::vector<CompiledActuator>& actuators() const { return actuators_; }
  // The joints some actuator drives, in the order of their first actuator.
  const std::vector<int>& actuated_joints() const { return actuated_joints_; }
  // The fixed tendons with a spring or a damper (indices into desc().tendons).
  const std::vector<int>& passive_tendons() const { return passive_tendons_; }
  // The spatial tendons whose length limit acts (between two bodies, one of which may be the world).
  const std::vector<CompiledSpatialTendon>& limited_spatial_tendons() const { return limited_spatial_tendons_; }
  const std::vector<CompiledStaticGeom>& static_geoms() const { return static_geoms_; }
  // The collision table over entries (each body's, then each static geom's): MuJoCo's
  // bitmasks, parent-child exclusion and <exclude> pairs.
  bool EntriesCollide(int a, int b) const { return collision_filter_->Allowed(a, b); }
  CollisionBits collision_bits(int entry) const { return collision_bits_[size_t(entry)]; }
  // Whether a body's entry may touch a static geom of another scene (bitmasks, and no
  // <exclude> of the body with the world).
  bool CollidesWithWorldGeom(int entry, const CollisionBits& geom) const {
    return !excluded_from_world_[size_t(entry)] && BitmasksMeet(collision_bits_[size_t(entry)], geom);
  }
  // Whether a body's entry is <exclude>d from the world body.
  bool ExcludedFromWorld(int entry) const { return excluded_from_world_[size_t(entry)] != 0; }
  int nq() const { return desc_.nq; }
  int nv() const { return desc_.nv; }
  int nu() const { return int(actuators_.size()); }
  const std::vector<float>& qpos0() const { return qpos0_; }
  float timestep() const { return desc_.timestep; }
  const SolverDesc& solver() const { return desc_.solver; }
  int max_contacts() const { return max_contacts_; }
  // With soft contacts: the body pairs whose contacts are joltgym's (the collision table then
  // keeps them apart for Jolt).
  const std::vector<CompiledSelfContact>& self_contacts() const { return self_contacts_; }
  // Explicit pairs of a robot geom with the world's planes and height fields.
  const std::vector<CompiledPlanePair>& plane_pairs() const { return plane_pairs_; }
  bool has_fluid() const { return desc_.density > 0.0f || desc_.viscosity > 0.0f; }

 private:
  void CompileBodies();
  void CompileJoints();
  void CompileActuators();
  // Checks each fixed tendon's joints (scalar ones, in range) and lists the passive ones.
  void CompileTendons();
  // Checks each tendon equality's tendon: UnsupportedFeature, naming the equality, where one of its
  // joints' bodies is in an articulated tree.
  void CheckTendonEqualities() const;
  // Checks each spatial tendon's sites and compiles the limits that act: UnsupportedFeature, naming
  // the tendon, where a site's body is in an articulated tree (whose rows the tree solves alone).
  void CompileSpatialTendons();
  void CompileCollisionTable();
  // The self_contacts, taken out of the table; a pair with a geom CollidePair does not handle,
  // across articulated trees or within one kinematic tree outside an articulation, stays Jolt's.
  void CompileSelfContacts(ModelCollisionFilter& filter);
  // Whether two bodies' contacts can be joltgym's: in one articulated tree (true, in_tree set), or in
  // two kinematic trees, articulated or not (true, in_tree cleared: rows in Jolt's lists, which each
  // tree's articulation then carries over its joints).
  bool SelfContactsSolvable(int a, int b, bool& in_tree) const;
  // Each self-contact's geom pairs as the constraints read them (CompiledSelfContact::pairs).
  void ShapeSelfContactPairs();
  // The explicit pairs: into plane_pairs_ or self_contacts_ (UnsupportedFeature, naming the pair,
  // for a pair neither takes).
  void CompileContactPairs();
  const GeomDesc& PairGeom(const GeomRef& ref, const std::string& pair) const;
  // Two or three hinges on one body become a gimbal; false if the joints are not hinges.
  bool TryCompileGimbal(CompiledBody& body);
  // A model whose every hinge turns about one world axis and every slide runs across it
  // (HalfCheetah, Hopper, Walker2d, Swimmer, Reacher, the pendulums) moves in a plane, as
  // MuJoCo's does exactly. Every body is then restricted to that plane's three degrees of
  // freedom, and each hinge needs only a point constraint: Jolt's hinge spends half its
  // time holding axes that the restriction already holds, and the anchors hold as well.
  void CompilePlanarLinks();
  // Marks the trees an ArticulationConstraint solves (a free or world-hinged root, single
  // hinges below it); a lone body on its own slides or free joint (Reacher's target) keeps its
  // own rows. UnsupportedFeature, naming the body, for any other tree.
  void CompileArticulation();

  ModelDesc desc_;
  std::vector<CompiledBody> bodies_;
  std::vector<CompiledJoint> joints_;
  std::vector<CompiledActuator> actuators_;
  std::vector<int> actuated_joints_;
  std::vector<int> passive_tendons_;
  std::vector<CompiledSpatialTendon> limited_spatial_tendons_;
  std::vector<CompiledStaticGeom> static_geoms_;
  JPH::Ref<ModelCollisionFilter> collision_filter_;
  std::vector<CollisionBits> collision_bits_;        // per collision entry
  std::vector<unsigned char> excluded_from_world_;   // per collision entry
  std::vector<float> qpos0_;
  std::vector<CompiledSelfContact> self_contacts_;
  std::vector<CompiledPlanePair> plane_pairs_;
  int max_contacts_ = 64;
};

using ModelPtr = std::shared_ptr<const CompiledModel>;

}  // namespace joltgym
