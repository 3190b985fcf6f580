#include "physics/model/compiled_model.h"

#include "physics/contacts/collision_filter.h"
#include "physics/contacts/convex_pair_collision.h"
#include "physics/contacts/geom_shapes.h"
#include "physics/contacts/pair_collision.h"
#include "physics/core/inert_shape.h"
#include "physics/core/jolt_runtime.h"

#include <Jolt/Physics/Collision/Shape/PlaneShape.h>

#include <algorithm>
#include <cmath>

namespace joltgym {
namespace {

constexpr float kPlaneHalfExtent = 1000.0f;  // MuJoCo planes are infinite for collision
constexpr float kAxisTolerance = 1.0e-4f;
constexpr float kAnchorTolerance = 1.0e-5f;  // m
constexpr float kHalfPi = 0.5f * JPH::JPH_PI;
constexpr float kGimbalLockMargin = 0.035f;  // rad, 2 degrees

std::string JointLabel(const JointDesc& j) {
  return "joint '" + (j.name.empty() ? std::string("<unnamed>") : j.name) + "'";
}


// The one world axis a unit vector runs along, or -1.
int WorldAxisOf(JPH::Vec3 v) {
  for (int i = 0; i < 3; ++i)
    if (std::abs(std::abs(v[i]) - 1.0f) < kAxisTolerance) return i;
  return -1;
}

JPH::EAllowedDOFs TranslationDOF(int axis) {
  static const JPH::EAllowedDOFs dofs[3] = {JPH::EAllowedDOFs::TranslationX, JPH::EAllowedDOFs::TranslationY,
                                           JPH::EAllowedDOFs::TranslationZ};
  return dofs[axis];
}

JPH::EAllowedDOFs RotationDOF(int axis) {
  static const JPH::EAllowedDOFs dofs[3] = {JPH::EAllowedDOFs::RotationX, JPH::EAllowedDOFs::RotationY,
                                           JPH::EAllowedDOFs::RotationZ};
  return dofs[axis];
}

// How many degrees of freedom `dofs` allows.
int CountDofs(JPH::EAllowedDOFs dofs) {
  int count = 0;
  for (int bit = 0; bit < 6; ++bit) count += (int(dofs) >> bit) & 1;
  return count;
}

// (contype, conaffinity, friction, condim) of a body's colliding geoms as one Jolt body sees
// them. Where they differ, the bitmasks are their union (every pair any geom may touch) and
// `mixed` says how: only our own contact rows, which take each geom's own, may then touch the
// body (World refuses it otherwise).
struct ContactProps {
  int contype = 0, conaffinity = 0;
  float friction = 1.0f;
  int condim = 3;
  std::string mixed;
};

ContactProps BodyContactProps(const BodyDesc& body) {
  ContactProps props;
  bool first = true;
  for (const GeomDesc& g : body.geoms) {
    if (!Collides(g)) continue;
    if (first) {
      props = {g.contype, g.conaffinity, g.friction, g.condim, ""};
      first = false;
      continue;
    }
    if (props.mixed.empty()) {
      if (g.contype != props.contype || g.conaffinity != props.conaffinity) props.mixed = "contype/conaffinity";
      else if (g.friction != props.friction) props.mixed = "friction";
      else if (g.condim != props.condim) props.mixed = "condim";
    }
    props.contype |= g.contype;
    props.conaffinity |= g.conaffinity;
  }
  return props;
}

}  // namespace

CompiledModel::CompiledModel(const ModelDesc& desc) : desc_(desc) {
  EnsureJoltRuntime();
  if (!(desc_.timestep > 0.0f)) throw std::invalid_argument("model timestep must be positive");
  if (desc_.solver.substeps < 1) throw std::invalid_argument("solver substeps must be >= 1");
  CompileBodies();
  CompileJoints();
  if (desc_.solver.planar_links) CompilePlanarLinks();
  if (desc_.solver.articulated_joints) CompileArticulation();
  for (const CompiledBody& b : bodies_)  // a GimbalConstraint holds one anchor
    if (b.gimbal_anchors_apart && !b.articulated)
      throw UnsupportedFeature("body '" + b.name + "': hinges on one body with anchors of their own ('" +
                               joints_[size_t(b.joints[0])].name + "', ...) need SolverSettings(articulated_joints=True)");
  if (desc_.solver.mujoco_euler &&
      !std::any_of(bodies_.begin(), bodies_.end(), [](const CompiledBody& b) { return b.articulated; }))
    throw UnsupportedFeature("solver mujoco_euler: needs an articulated tree (articulated_joints on); set it to False");
  CompileTendons();
  CompileActuators();
  CompileCollisionTable();
  ShapeSelfContactPairs();
  for (const SiteDesc& site : desc_.sites)
    if (site.body < -1 || site.body >= int(bodies_.size()))
      throw std::invalid_argument("site '" + site.name + "': body index out of range");
  CompileSpatialTendons();
  CheckTendonEqualities();
  for (const KeyframeDesc& key : desc_.keyframes)
    if (int(key.qpos.size()) != desc_.nq || key.ctrl.size() != desc_.actuators.size())
      throw std::invalid_argument("keyframe '" + key.name + "': needs nq qpos and nu ctrl values");
  max_contacts_ = 64 + 16 * int(bodies_.size());
}

void CompiledModel::CompileBodies() {
  bodies_.resize(desc_.bodies.size());
  for (size_t i = 0; i < desc_.bodies.size(); ++i) {
    const BodyDesc& d = desc_.bodies[i];
    CompiledBody& b = bodies_[i];
    b.name = d.name;
    b.parent = d.parent;
    if (d.parent >= int(i)) throw std::invalid_argument("body '" + d.name + "': parents must precede children");
    if (!(d.mass > 0.0f)) throw UnsupportedFeature("body '" + d.name + "': massless moving bodies are not supported");
    b.pos0 = JPH::RVec3(d.pos[0], d.pos[1], d.pos[2]);
    b.rot0 = ToQuat(d.quat);
    b.com_local = ToVec3(d.com);
    if (d.parent < 0) {
      b.rel_pos0 = JPH::Vec3(b.pos0);
      b.rel_rot0 = b.rot0;
    } else {
      const BodyDesc& p = desc_.bodies[d.parent];
      JPH::Quat prot = ToQuat(p.quat);
      b.rel_pos0 = prot.Conjugated() * (JPH::Vec3(b.pos0) - ToVec3(p.pos));
      b.rel_rot0 = (prot.Conjugated() * b.rot0).Normalized();
    }
    b.shape = MakeBodyShape(d.geoms, b.com_local, d.name);
    b.inert_shape = new InertShape(b.com_local);
    b.mass.mMass = d.mass;
    b.mass.mInertia = JPH::Mat44::sIdentity();
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) b.mass.mInertia(r, c) = d.inertia[3 * r + c];
    JPH::Mat44 principal;
    JPH::Vec3 moments;
    if (!b.mass.DecomposePrincipalMomentsOfInertia(principal, moments))
      throw std::invalid_argument("body '" + d.name + "': inertia is not positive definite");
    b.inertia_frame = principal.GetQuaternion().Normalized();
    for (int i = 0; i < 3; ++i) {
      const float span = moments[(i + 1) % 3] + moments[(i + 2) % 3] - moments[i];
      b.fluid_box.SetComponent(i, std::sqrt(std::max(0.0f, 1.5f * span / d.mass)));
    }
    const ContactProps contact = BodyContactProps(d);
    b.friction = contact.friction;
    b.condim = contact.condim;
    if (!contact.mixed.empty()) b.mixed_contact = "geoms with different " + contact.mixed + " in one body";
    for (const GeomDesc& g : d.geoms)
      if (Collides(g) && g.mj_body != d.geoms.front().mj_body) b.keep_manifolds_apart = true;
  }
}

void CompiledModel::CompileJoints() {
  joints_.resize(desc_.joints.size());
  int nq = 0, nv = 0;
  for (size_t j = 0; j < desc_.joints.size(); ++j) {
    const JointDesc& d = desc_.joints[j];
    if (d.body < 0 || d.body >= int(bodies_.size()))
      throw std::invalid_argument(JointLabel(d) + ": body index out of range");
    CompiledJoint& c = joints_[j];
    c.name = d.name;
    c.type = d.type;
    c.body = d.body;
    c.parent = bodies_[d.body].parent;
    c.anchor_local = ToVec3(d.pos);
    c.axis_local = ToVec3(d.axis).NormalizedOr(JPH::Vec3::sAxisZ());
    c.qposadr = d.qposadr;
    c.dofadr = d.dofadr;
    c.qpos0 = d.qpos0;
    c.limited = d.limited;
    c.range_lo = d.range[0];
    c.range_hi = d.range[1];
    c.armature = d.armature;
    c.damping = d.damping;
    c.stiffness = d.stiffness;
    c.springref = d.springref;
    c.soft_limit = SoftLimit::FromMuJoCo(d.solref, d.solimp, d.margin, d.invweight, desc_.timestep);
    c.frictionloss = d.frictionloss;
    c.actfrclimited = d.actfrclimited;
    c.actfrc_lo = d.actfrcrange[0];
    c.actfrc_hi = d.actfrcrange[1];
    c.friction = SoftLimit::FromMuJoCo(d.solref_friction, d.solimp_friction, 0.0f, d.invweight, desc_.timestep);
    const size_t expected_qpos = d.type == JointType::Free ? 7 : d.type == JointType::Ball ? 4 : 1;
    if (c.qpos0.size() != expected_qpos) throw std::invalid_argument(JointLabel(d) + ": wrong qpos0 size");
    nq = std::max(nq, d.qposadr + int(expected_qpos));
    nv = std::max(nv, d.dofadr + (d.type == JointType::Free ? 6 : d.type == JointType::Ball ? 3 : 1));
    const bool passive = d.armature != 0.0f || d.damping != 0.0f || d.stiffness != 0.0f || d.frictionloss != 0.0f;
    if (passive && (d.type == JointType::Free || d.type == JointType::Ball))
      throw UnsupportedFeature(JointLabel(d) + ": armature, damping, stiffness or frictionloss on a " +
                               (d.type == JointType::Free ? "free" : "ball") + " joint");
    if (d.type == JointType::Ball && d.limited)
      throw UnsupportedFeature(JointLabel(d) + ": limited ball joints");
    if (d.limited && (d.type == JointType::Hinge || d.type == JointType::Slide)) {
      if (!(d.range[0] < d.range[1])) throw std::invalid_argument(JointLabel(d) + ": range must be increasing");
    }
    c.rotational_dof = d.type == JointType::Hinge;
    c.implicit_damping = desc_.implicit_damping;
    c.has_drive_row = d.armature != 0.0f || (d.damping != 0.0f && c.implicit_damping);
    bodies_[d.body].joints.push_back(int(j));
  }
  if (nq != desc_.nq || nv != desc_.nv)
    throw std::invalid_argument("model nq/nv do not match its joints");

  qpos0_.assign(desc_.nq, 0.0f);
  for (const CompiledJoint& c : joints_)
    for (size_t k = 0; k < c.qpos0.size(); ++k) qpos0_[c.qposadr + k] = c.qpos0[k];

  for (CompiledBody& b : bodies_) {
    const auto& js = b.joints;
    if (js.empty()) throw std::invalid_argument("body '" + b.name + "' has no joint: weld it into its parent");
    if (js.size() == 1) {
      switch (joints_[js[0]].type) {
        case JointType::Free:
          if (b.parent >= 0) throw UnsupportedFeature("body '" + b.name + "': free joint below the root");
          b.attachment = Attachment::Free;
          break;
        case JointType::Hinge: b.attachment = Attachment::Hinge; break;
        case JointType::Slide: b.attachment = Attachment::Slide; break;
        case JointType::Ball: b.attachment = Attachment::Ball; break;
      }
      continue;
    }
    if (TryCompileGimbal(b)) continue;
    // A planar root (HalfCheetah, Hopper, Walker2d, Swimmer: slide, slide, hinge; a target
    // on two slides): slides then at most one hinge, along distinct world axes,
    // simulated as a body restricted to those degrees of freedom.
    bool planar_shape = b.parent < 0 && js.size() <= 3;
    for (size_t k = 0; planar_shape && k < js.size(); ++k) {
      const JointType type = joints_[js[k]].type;
      planar_shape = type == JointType::Slide || (type == JointType::Hinge && k + 1 == js.size());
    }
    if (!planar_shape)
      throw UnsupportedFeature("body '" + b.name + "': " + std::to_string(js.size()) +
                               " joints on one body (only a root of slides and at most one final hinge is supported)");
    JPH::EAllowedDOFs dofs = JPH::EAllowedDOFs::None;
    for (int jj : js) {
      const CompiledJoint& c = joints_[jj];
      const int axis = WorldAxisOf(b.rot0 * c.axis_local);
      const JPH::EAllowedDOFs dof = axis < 0 ? JPH::EAllowedDOFs::None
                                   : c.type == JointType::Slide ? TranslationDOF(axis) : RotationDOF(axis);
      if (axis < 0 || (dofs & dof) != JPH::EAllowedDOFs::None)
        throw UnsupportedFeature("body '" + b.name + "': root joints must run along distinct world axes");
      dofs = dofs | dof;
    }
    b.attachment = Attachment::Planar;
    b.allowed_dofs = dofs;
  }
}

void CompiledModel::CompileArticulation() {
  const auto refuse = [](const std::string& why) {
    throw UnsupportedFeature("solver articulated_joints: " + why +
                             " (it supports trees of a free or world-hinged root and 3-D hinges below it, one per body "
                             "or two or three on one body; "
                             "set it to False)");
  };
  std::vector<int> root(bodies_.size()), children(bodies_.size(), 0);
  for (size_t i = 0; i < bodies_.size(); ++i) {  // parents come before their children
    const int parent = bodies_[i].parent;
    root[i] = parent < 0 ? int(i) : root[size_t(parent)];
    if (parent >= 0) ++children[size_t(parent)];
  }
  // Planar links (SolverDesc::planar_links) make every hinge of the model a planar one.
  const bool planar_model =
      std::any_of(bodies_.begin(), bodies_.end(), [](const CompiledBody& b) { return b.planar_link; });
  std::vector<bool> tree_ok(bodies_.size(), true);
  for (size_t i = 0; i < bodies_.size(); ++i) {
    const CompiledBody& b = bodies_[i];
    const bool is_root = b.parent < 0;
    if (is_root && children[i] == 0 && b.attachment != Attachment::Hinge) {
      tree_ok[i] = false;  // a lone body on its own joints: nothing to articulate
      continue;
    }
    if (planar_model) {  // PlanarArticulationConstraint: a root free in the plane, or hinges
      if (b.attachment == Attachment::Hinge) continue;
      if (is_root && b.attachment == Attachment::Planar && CountDofs(b.allowed_dofs) == 3) continue;
      refuse("body '" + b.name + "' is a planar link neither free in its plane nor on a single hinge");
    }
    if (b.attachment == Attachment::Planar) refuse("body '" + b.name + "' is a planar root of 3-D links");
    if (is_root && b.attachment == Attachment::Free) continue;
    if (b.attachment != Attachment::Hinge && b.attachment != Attachment::Gimbal)
      refuse("body '" + b.name + "' is not attached by hinges");
  }
  // A planar model's trees hinged to the world (a finger beside the spinner it turns) are one
  // articulation, several roots to its joint space: their contacts with each other are then solved
  // there as a tree's with itself, exactly at each iteration.
  if (planar_model) {
    int first = -1;
    for (size_t i = 0; i < bodies_.size(); ++i) {
      if (bodies_[i].parent >= 0 || bodies_[i].attachment != Attachment::Hinge || !tree_ok[i]) continue;
      if (first < 0) first = int(i);
      for (size_t k = i; k < bodies_.size(); ++k)
        if (root[k] == int(i)) root[k] = first;
    }
  }
  // A model of lone bodies (a free box beside the robots of an arena) has nothing to articulate.
  for (size_t i = 0; i < bodies_.size(); ++i) {
    const int r = root[i];
    if (!tree_ok[size_t(r)]) continue;
    bodies_[i].articulated = true;
    bodies_[i].articulation_root = r;
  }
}

void CompiledModel::CompilePlanarLinks() {
  // The plane's normal: the world axis of the first hinge.
  int normal = -1;
  for (const CompiledJoint& j : joints_)
    if (j.type == JointType::Hinge) {
      normal = WorldAxisOf(bodies_[j.body].rot0 * j.axis_local);
      break;
    }
  if (normal < 0) return;
  const JPH::EAllowedDOFs plane = TranslationDOF((normal + 1) % 3) | TranslationDOF((normal + 2) % 3) | RotationDOF(normal);
  for (const CompiledJoint& j : joints_) {
    const JPH::Vec3 axis = bodies_[j.body].rot0 * j.axis_local;
    if (j.type == JointType::Hinge && WorldAxisOf(axis) != normal) return;
    if (j.type == JointType::Slide && std::abs(axis[normal]) > kAxisTolerance) return;
    if (j.type != JointType::Hinge && j.type != JointType::Slide) return;
  }
  for (const CompiledBody& b : bodies_)
    if (b.attachment == Attachment::Planar && (b.allowed_dofs & ~plane) != JPH::EAllowedDOFs::None) return;
  for (CompiledBody& b : bodies_) {
    if (b.attachment == Attachment::Planar) continue;  // already restricted, possibly to fewer DOFs
    b.allowed_dofs = plane;
    b.planar_link = true;
  }
}

bool CompiledModel::TryCompileGimbal(CompiledBody& b) {
  const auto& js = b.joints;
  if (js.size() > 3) return false;
  for (int j : js)
    if (joints_[j].type != JointType::Hinge) return false;
  const CompiledJoint& first = joints_[js[0]];
  bool apart = false;
  for (size_t k = 1; k < js.size(); ++k) apart |= (joints_[js[k]].anchor_local - first.anchor_local).Length() > kAnchorTolerance;
  const JPH::Vec3 a1 = first.axis_local, a2 = joints_[js[1]].axis_local;
  const JPH::Vec3 a3 = a1.Cross(a2);
  const bool orthogonal = std::abs(a1.Dot(a2)) < kAxisTolerance &&
                          (js.size() == 2 || std::abs(std::abs(a3.Dot(joints_[js[2]].axis_local)) - 1.0f) < kAxisTolerance);
  if (!orthogonal)
    throw UnsupportedFeature("body '" + b.name + "': hinges on one body must have mutually orthogonal axes");
  // Three hinges: the decomposition reads the middle coordinate in [-90, 90] degrees; beyond that
  // (and at gimbal lock) the coordinates would jump, so the middle hinge's range must stay inside.
  // Two hinges are read over the whole circle.
  const CompiledJoint& middle = joints_[js[1]];
  const float reach = kHalfPi - kGimbalLockMargin;
  if (js.size() == 3 &&
      (!middle.limited || middle.range_lo - middle.qpos0[0] < -reach || middle.range_hi - middle.qpos0[0] > reach))
    throw UnsupportedFeature("body '" + b.name + "': the second hinge of a multi-hinge body ('" + middle.name +
                             "') must be limited to within +-88 degrees");
  b.attachment = Attachment::Gimbal;
  b.gimbal_basis = JPH::Mat44(JPH::Vec4(a1, 0.0f), JPH::Vec4(a2, 0.0f), JPH::Vec4(a3, 0.0f), JPH::Vec4(0, 0, 0, 1))
                       .GetQuaternion()
                       .Normalized();
  b.gimbal_lock_third = js.size() == 2;
  b.gimbal_anchors_apart = apart;
  for (size_t k = 0; k < js.size(); ++k) {
    joints_[js[k]].gimbal_slot = int(k);
    if (k == 2 && a3.Dot(joints_[js[2]].axis_local) < 0.0f) joints_[js[k]].gimbal_sign = -1.0f;
  }
  return true;
}

void CompiledModel::CompileTendons() {
  for (size_t t = 0; t < desc_.tendons.size(); ++t) {
    const TendonDesc& tendon = desc_.tendons[t];
    if (tendon.coefs.size() != tendon.joints.size())
      throw std::invalid_argument("tendon '" + tendon.name + "': one coefficient per joint");
    for (int joint : tendon.joints) {
      if (joint < 0 || joint >= int(joints_.size()))
        throw std::invalid_argument("tendon '" + tendon.name + "': joint index out of range");
      const JointType type = joints_[size_t(joint)].type;
      if (type != JointType::Hinge && type != JointType::Slide)
        throw std::invalid_argument("tendon '" + tendon.name + "': a fixed tendon's joints are hinges and slides");
    }
    if (tendon.stiffness != 0.0f || tendon.damping != 0.0f) passive_tendons_.push_back(int(t));
  }
}

void CompiledModel::CheckTendonEqualities() const {
  for (const TendonEqualityDesc& e : desc_.tendon_equalities) {
    const std::string label = "equality '" + e.name + "'";
    if (e.tendon < 0 || e.tendon >= int(desc_.tendons.size())) throw std::invalid_argument(label + ": tendon index out of range");
    // Solved in one tree's joint space over its hinges (joint_space_equalities.h), or joint by joint.
    const std::vector<int>& joints = desc_.tendons[size_t(e.tendon)].joints;
    const CompiledBody& first = bodies_[size_t(joints_[size_t(joints.front())].body)];
    for (int j : joints) {
      const CompiledJoint& joint = joints_[size_t(j)];
      const CompiledBody& body = bodies_[size_t(joint.body)];
      const bool hinge = body.attachment == Attachment::Hinge || body.attachment == Attachment::Gimbal;
      if (body.articulated != first.articulated || (body.articulated && body.articulation_root != first.articulation_root))
        throw UnsupportedFeature(label + ": a tendon equality over joints of different articulated trees ('" + joint.name +
                                 "'), or of one and of bodies outside it");
      if (body.articulated && !hinge)
        throw UnsupportedFeature(label + ": a tendon equality on joint '" + joint.name +
                                 "' of an articulated tree that is not one of its hinges");
      if (!body.articulated && joint.gimbal_slot >= 0)
        throw UnsupportedFeature(label + ": a tendon equality on joint '" + joint.name +
                                 "' of a multi-hinge body outside an articulated tree; use SolverSettings(articulated_joints=True)");
    }
  }
}

void CompiledModel::CompileSpatialTendons() {
  for (const SpatialTendonDesc& t : desc_.spatial_tendons) {
    const std::string label = "spatial tendon '" + t.name + "'";
    for (int site : {t.site1, t.site2})
      if (site < 0 || site >= int(desc_.sites.size())) throw std::invalid_argument(label + ": site index out of range");
    if (t.limited && !(t.range[0] <= t.range[1])) throw std::invalid_argument(label + ": range must be ordered");
    const int body1 = desc_.sites[size_t(t.site1)].body, body2 = desc_.sites[size_t(t.site2)].body;
    if (!t.limited || body1 == body2) continue;  // a length that never changes exerts nothing
    for (int body : {body1, body2})
      if (body >= 0 && bodies_[size_t(body)].articulated)
        throw UnsupportedFeature(label + ": a limited spatial tendon on body '" + bodies_[size_t(body)].name +
                                 "' of an articulated tree; use SolverSettings(articulated_joints=False)");
    CompiledSpatialTendon c;
    c.site1 = t.site1;
    c.site2 = t.site2;
    c.body1 = body1;
    c.body2 = body2;
    c.range_lo = t.range[0];
    c.range_hi = t.range[1];
    c.limit = SoftLimit::FromMuJoCo(t.solref, t.solimp, t.margin, t.invweight, desc_.timestep);
    limited_spatial_tendons_.push_back(c);
  }
}

void CompiledModel::CompileActuators() {
  actuators_.reserve(desc_.actuators.size());
  for (const ActuatorDesc& d : desc_.actuators) {
    CompiledActuator a;
    a.name = d.name;
    a.joint = d.tendon >= 0 ? -1 : d.joint;
    a.gear = d.gear;
    std::vector<int> moved;  // the joints it moves
    if (d.tendon >= 0) {
      if (d.tendon >= int(desc_.tendons.size()))
        throw std::invalid_argument("actuator '" + d.name + "': tendon index out of range");
      const TendonDesc& t = desc_.tendons[size_t(d.tendon)];
      for (size_t k = 0; k < t.joints.size(); ++k) {
        a.tendon_moments.emplace_back(t.joints[k], d.gear * t.coefs[k]);
        moved.push_back(t.joints[k]);
      }
    } else {
      moved.push_back(d.joint);
    }
    for (int joint : moved) {
      if (joint < 0 || joint >= int(joints_.size()))
        throw std::invalid_argument("actuator '" + d.name + "': joint index out of range");
      const CompiledJoint& j = joints_[size_t(joint)];
      if (j.type != JointType::Hinge && j.type != JointType::Slide)
        throw UnsupportedFeature("actuator '" + d.name + "': only hinge and slide joints can be actuated");
    }
    a.gain = d.gainprm[0];
    a.gain_length = d.gainprm[1];
    a.gain_velocity = d.gainprm[2];
    a.bias = d.biasprm[0];
    a.bias_length = d.biasprm[1];
    a.bias_velocity = d.biasprm[2];
    a.affine = a.gain_length != 0.0f || a.gain_velocity != 0.0f || a.bias != 0.0f || a.bias_length != 0.0f ||
               a.bias_velocity != 0.0f;
    a.ctrllimited = d.ctrllimited;
    a.ctrl_lo = d.ctrlrange[0];
    a.ctrl_hi = d.ctrlrange[1];
    a.forcelimited = d.forcelimited;
    a.force_lo = d.forcerange[0];
    a.force_hi = d.forcerange[1];
    a.dynamics = d.dynamics;
    a.tau = d.tau;
    a.actlimited = d.actlimited;
    a.act_lo = d.actrange[0];
    a.act_hi = d.actrange[1];
    a.actearly = d.actearly;
    if (a.dynamics != ActuatorDesc::Dynamics::None && !(a.tau > 0.0f) && a.dynamics != ActuatorDesc::Dynamics::Integrator)
      throw std::invalid_argument("actuator '" + d.name + "': a filter's time constant must be positive");
    if (desc_.implicit_actuator_velocity && (a.gain_velocity != 0.0f || a.bias_velocity != 0.0f)) {
      // Implicit in one joint's rate only: a tendon's velocity couples its joints' rates.
      if (a.joint < 0)
        throw UnsupportedFeature("actuator '" + d.name + "': the implicitfast integrator with a tendon actuator's velocity terms");
      joints_[size_t(d.joint)].implicit_actuator_velocity = true;
      joints_[size_t(d.joint)].has_drive_row = true;
    }
    actuators_.push_back(a);
    for (int joint : moved)
      if (std::find(actuated_joints_.begin(), actuated_joints_.end(), joint) == actuated_joints_.end())
        actuated_joints_.push_back(joint);
  }
}

void CompiledModel::CompileCollisionTable() {
  std::vector<ContactProps> entries;
  for (size_t i = 0; i < desc_.bodies.size(); ++i) {
    bodies_[i].collision_entry = int(entries.size());
    entries.push_back(BodyContactProps(desc_.bodies[i]));
  }
  const int first_static = int(entries.size());
  auto in_explicit_pair = [&](int world_geom) {
    for (const ContactPairDesc& pair : desc_.contact_pairs)
      for (const GeomRef& ref : {pair.geom1, pair.geom2})
        if (ref.body < 0 && ref.geom == world_geom) return true;
    return false;
  };
  for (int w = 0; w < int(desc_.world_geoms.size()); ++w) {
    const GeomDesc& g = desc_.world_geoms[size_t(w)];
    if (!Collides(g) && !in_explicit_pair(w)) continue;
    CompiledStaticGeom s;
    s.geom = g;
    s.world_geom = w;
    s.friction = g.friction;
    s.condim = g.condim;
    s.collision_entry = int(entries.size());
    JPH::Quat rot = ToQuat(g.quat);
    JPH::Vec3 pos = ToVec3(g.pos);
    if (g.type == GeomType::Plane) {
      JPH::Vec3 normal = rot * JPH::Vec3::sAxisZ();
      s.plane = true;
      s.plane_point = pos;
      s.plane_normal = normal;
      s.shape = new JPH::PlaneShape(JPH::Plane::sFromPointAndNormal(pos, normal), nullptr, kPlaneHalfExtent);
      s.pos = JPH::RVec3::sZero();
      s.rot = JPH::Quat::sIdentity();
    } else if (g.type == GeomType::HeightField) {
      if (g.height_field < 0 || g.height_field >= int(desc_.height_fields.size()))
        throw std::invalid_argument("geom '" + g.name + "': height field index out of range");
      if (!desc_.solver.soft_contacts)
        throw UnsupportedFeature("geom '" + g.name + "': height fields are touched through soft contacts only; "
                                 "turn soft contacts on");
      s.height_field = std::make_shared<const HeightField>(desc_.height_fields[size_t(g.height_field)], g);
      s.pos = JPH::RVec3(pos);
      s.rot = rot;
    } else {
      GeomPrimitive p = MakeGeomPrimitive(g, "world");  // tag 0: mj_body of world geoms is -1
      s.shape = p.shape;
      s.pos = JPH::RVec3(pos);
      s.rot = (rot * p.to_geom_frame).Normalized();
    }
    static_geoms_.push_back(s);
    entries.push_back({g.contype, g.conaffinity, g.friction, g.condim});
  }

  for (const ContactProps& e : entries) collision_bits_.push_back({e.contype, e.conaffinity});
  excluded_from_world_.assign(entries.size(), 0);
  auto filter = new ModelCollisionFilter(int(entries.size()));
  for (int a = 0; a < int(entries.size()); ++a)
    for (int b = a + 1; b < int(entries.size()); ++b)
      filter->Allow(a, b, !(a >= first_static && b >= first_static) && BitmasksMeet(collision_bits_[a], collision_bits_[b]));
  // MuJoCo never lets a body touch its parent unless the parent is the world.
  for (const CompiledBody& b : bodies_)
    if (b.parent >= 0) filter->Allow(b.collision_entry, bodies_[b.parent].collision_entry, false);
  for (const auto& pair : desc_.excluded_pairs) {
    for (int side = 0; side < 2; ++side) {
      int body = pair[side], other = pair[1 - side];
      if (body < -1 || body >= int(bodies_.size()) || other < -1 || other >= int(bodies_.size()))
        throw std::invalid_argument("excluded contact pair index out of range");
    }
    auto entries_of = [&](int body) {
      std::vector<int> out;
      if (body >= 0) {
        out.push_back(bodies_[body].collision_entry);
      } else {
        for (const CompiledStaticGeom& s : static_geoms_) out.push_back(s.collision_entry);
      }
      return out;
    };
    for (int a : entries_of(pair[0]))
      for (int b : entries_of(pair[1])) filter->Allow(a, b, false);
    for (int side = 0; side < 2; ++side)
      if (pair[side] >= 0 && pair[1 - side] < 0) excluded_from_world_[size_t(bodies_[pair[side]].collision_entry)] = 1;
  }
  if (desc_.solver.soft_contacts) CompileSelfContacts(*filter);
  CompileContactPairs();
  collision_filter_ = filter;
}

const GeomDesc& CompiledModel::PairGeom(const GeomRef& ref, const std::string& pair) const {
  const std::vector<GeomDesc>* geoms = nullptr;
  if (ref.body >= 0 && ref.body < int(desc_.bodies.size())) geoms = &desc_.bodies[size_t(ref.body)].geoms;
  if (ref.body == -1) geoms = &desc_.world_geoms;
  if (geoms == nullptr || ref.geom < 0 || ref.geom >= int(geoms->size()))
    throw std::invalid_argument("<contact><pair> '" + pair + "': geom index out of range");
  return (*geoms)[size_t(ref.geom)];
}

void CompiledModel::CompileContactPairs() {
  for (int p = 0; p < int(desc_.contact_pairs.size()); ++p) {
    const ContactPairDesc& pair = desc_.contact_pairs[size_t(p)];
    const std::string label = "<contact><pair> '" + pair.name + "'";
    const GeomDesc& g1 = PairGeom(pair.geom1, pair.name);
    const GeomDesc& g2 = PairGeom(pair.geom2, pair.name);
    if (pair.geom1.body == pair.geom2.body) continue;  // one rigid body (or the world): nothing to push apart
    if (!desc_.solver.soft_contacts)
      throw UnsupportedFeature(label + ": explicit pairs are solved as soft contacts only; turn soft contacts on");
    if (pair.geom1.body < 0 || pair.geom2.body < 0) {
      const bool world_first = pair.geom1.body < 0;
      const GeomRef& world = world_first ? pair.geom1 : pair.geom2;
      const GeomRef& robot = world_first ? pair.geom2 : pair.geom1;
      const GeomDesc& wg = world_first ? g1 : g2;
      if (wg.type != GeomType::Plane && wg.type != GeomType::HeightField)
        throw UnsupportedFeature(label + ": a robot geom paired with the world's geom '" + wg.name +
                                 "', which is not a plane or a height field");
      for (const CompiledStaticGeom& st : static_geoms_)
        if (st.world_geom == world.geom)
          plane_pairs_.push_back({robot.body, robot.geom, int(&st - static_geoms_.data()), p});
      continue;
    }
    const int a = std::min(pair.geom1.body, pair.geom2.body), b = std::max(pair.geom1.body, pair.geom2.body);
    const CompiledBody& ba = bodies_[size_t(a)];
    const CompiledBody& bb = bodies_[size_t(b)];
    bool in_tree = true;
    if (!SelfContactsSolvable(a, b, in_tree))
      throw UnsupportedFeature(label + ": its geoms' bodies '" + ba.name + "' and '" + bb.name +
                               "' are in one tree outside any articulation (explicit pairs within a tree are solved "
                               "in its joint space: SolverSettings(articulated_joints=True))");
    if (!SoftPairSupported(g1.type, g2.type))
      throw UnsupportedFeature(label + ": geoms '" + g1.name + "' and '" + g2.name + "' are not both spheres, "
                               "capsules, ellipsoids, boxes or cylinders");
    const std::array<int, 2> geoms = pair.geom1.body == a ? std::array<int, 2>{pair.geom1.geom, pair.geom2.geom}
                                                           : std::array<int, 2>{pair.geom2.geom, pair.geom1.geom};
    auto sc = std::find_if(self_contacts_.begin(), self_contacts_.end(),
                           [&](const CompiledSelfContact& c) { return c.body1 == a && c.body2 == b; });
    if (sc == self_contacts_.end())
      sc = self_contacts_.insert(self_contacts_.end(), CompiledSelfContact{a, b, in_tree, {}, {}, {}, {}});
    // MuJoCo drops the contact the two geoms' own parameters would make (mj_collision's merge).
    auto same = std::find(sc->geoms.begin(), sc->geoms.end(), geoms);
    if (same == sc->geoms.end()) {
      sc->geoms.push_back(geoms);
      sc->explicit_pair.push_back(p);
    } else {
      sc->explicit_pair[size_t(same - sc->geoms.begin())] = p;
    }
  }
}

bool CompiledModel::SelfContactsSolvable(int a, int b, bool& in_tree) const {
  const CompiledBody& ba = bodies_[size_t(a)];
  const CompiledBody& bb = bodies_[size_t(b)];
  in_tree = ba.articulated && bb.articulated && ba.articulation_root == bb.articulation_root;
  if (in_tree) return true;
  const auto root = [this](int body) {
    while (bodies_[size_t(body)].parent >= 0) body = bodies_[size_t(body)].parent;
    return body;
  };
  return root(a) != root(b);
}

void CompiledModel::CompileSelfContacts(ModelCollisionFilter& filter) {
  for (int a = 0; a < int(bodies_.size()); ++a)
    for (int b = a + 1; b < int(bodies_.size()); ++b) {
      const CompiledBody& ba = bodies_[size_t(a)];
      const CompiledBody& bb = bodies_[size_t(b)];
      if (!filter.Allowed(ba.collision_entry, bb.collision_entry)) continue;
      bool in_tree = true;
      if (!SelfContactsSolvable(a, b, in_tree)) continue;
      CompiledSelfContact pair{a, b, in_tree, {}, {}, {}, {}};
      bool supported = true;
      const auto& geoms_a = desc_.bodies[size_t(a)].geoms;
      const auto& geoms_b = desc_.bodies[size_t(b)].geoms;
      for (int i = 0; i < int(geoms_a.size()) && supported; ++i)
        for (int j = 0; j < int(geoms_b.size()) && supported; ++j) {
          const GeomDesc& ga = geoms_a[size_t(i)];
          const GeomDesc& gb = geoms_b[size_t(j)];
          if (!Collides(ga) || !Collides(gb) ||
              !BitmasksMeet({ga.contype, ga.conaffinity}, {gb.contype, gb.conaffinity}))
            continue;
          supported = SoftPairSupported(ga.type, gb.type);
          pair.geoms.push_back({i, j});
          pair.explicit_pair.push_back(-1);
        }
      if (!supported) continue;
      filter.Allow(ba.collision_entry, bb.collision_entry, false);
      if (!pair.geoms.empty()) self_contacts_.push_back(std::move(pair));
    }
}

void CompiledModel::ShapeSelfContactPairs() {
  for (CompiledSelfContact& sc : self_contacts_) {
    sc.pairs.clear();
    for (size_t k = 0; k < sc.geoms.size(); ++k) {
      const auto& [i, j] = sc.geoms[k];
      const GeomDesc& g1 = desc_.bodies[size_t(sc.body1)].geoms[size_t(i)];
      const GeomDesc& g2 = desc_.bodies[size_t(sc.body2)].geoms[size_t(j)];
      SelfContactGeomPair p;
      p.type1 = g1.type;
      p.type2 = g2.type;
      p.size1 = g1.size;
      p.size2 = g2.size;
      p.local1 = JPH::Mat44::sRotationTranslation(ToQuat(g1.quat), ToVec3(g1.pos));
      p.local2 = JPH::Mat44::sRotationTranslation(ToQuat(g2.quat), ToVec3(g2.pos));
      const int explicit_pair = sc.explicit_pair[k];
      p.pair = explicit_pair < 0 ? MixContactPair(g1, g2, desc_.timestep)
                                 : ExplicitContactPair(desc_.contact_pairs[size_t(explicit_pair)], g1, g2, desc_.timestep);
      p.tag1 = JPH::uint64(g1.mj_body + 1);
      p.tag2 = JPH::uint64(g2.mj_body + 1);
      if (!PairCollisionSupported(g1.type, g2.type)) {
        p.convex1 = MakeConvexGeom(g1, desc_.bodies[size_t(sc.body1)].name);
        p.convex2 = MakeConvexGeom(g2, desc_.bodies[size_t(sc.body2)].name);
      }
      sc.pairs.push_back(p);
    }
    sc.layout = LayOutSelfContacts(sc.pairs);
  }
}

int CompiledModel::FindSite(const std::string& name, const std::string& what) const {
  for (size_t i = 0; i < desc_.sites.size(); ++i)
    if (desc_.sites[i].name == name) return int(i);
  throw std::invalid_argument(what + " needs a site named '" + name + "'; model '" + desc_.name + "' has none");
}

const KeyframeDesc& CompiledModel::FindKeyframe(const std::string& name, const std::string& what) const {
  for (const KeyframeDesc& key : desc_.keyframes)
    if (key.name == name) return key;
  throw std::invalid_argument(what + " needs a keyframe named '" + name + "'; model '" + desc_.name + "' has none");
}

}  // namespace joltgym
