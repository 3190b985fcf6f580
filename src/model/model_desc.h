// Plain description of a robot model as MuJoCo compiled it: no Jolt, no Python.
// Built once per MJCF file (joltgym/model.py) and shared read-only by every world.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace joltgym {

using Vec3f = std::array<float, 3>;
using Quatf = std::array<float, 4>;  // (w, x, y, z), MuJoCo's order

enum class GeomType : int { Plane = 0, HeightField = 1, Sphere = 2, Capsule = 3, Ellipsoid = 4, Cylinder = 5, Box = 6 };
enum class JointType : int { Free = 0, Ball = 1, Slide = 2, Hinge = 3 };

struct GeomDesc {
  std::string name;
  GeomType type = GeomType::Sphere;
  Vec3f size{0, 0, 0};      // MuJoCo's geom_size: radius, half-length, half-extents
  Vec3f pos{0, 0, 0};       // in the owning body's frame
  Quatf quat{1, 0, 0, 0};   // in the owning body's frame
  int contype = 1;
  int conaffinity = 1;
  float friction = 1.0f;    // sliding friction; torsional and rolling are not modelled
  int condim = 3;           // 1: frictionless contacts (unless the other geom has condim > 1)
  int mj_body = -1;         // the MuJoCo body that owns the geom (bodies may be welded together)
  std::array<float, 4> rgba{0.5f, 0.5f, 0.5f, 1.0f};  // its colour (the material's, if it has one)
  int group = 0;            // MuJoCo's visibility group: 0-2 are drawn by default
  // MuJoCo's soft contact parameters (used unless SolverDesc::soft_contacts is off):
  // geom_solref, geom_solimp, geom_solmix and geom_priority (how two geoms' parameters
  // mix), geom_margin and geom_gap (read, but without adhesion a gap changes nothing), and the translational body_invweight0 of the MuJoCo
  // body owning the geom (0 for the world), which scales a contact's softness.
  std::array<float, 2> solref{0.02f, 1.0f};
  std::array<float, 5> solimp{0.9f, 0.95f, 0.001f, 0.5f, 2.0f};
  float solmix = 1.0f;
  int priority = 0;
  float margin = 0.0f;
  float gap = 0.0f;
  float invweight = 0.0f;
  int height_field = -1;    // HeightField geoms: index into ModelDesc::height_fields
  int mesh = -1;            // a visual mesh geom: index into ModelDesc::meshes (drawn only; its type stays a sphere)
};

// A triangle mesh for drawing a mesh geom, in the geom's frame (MuJoCo's mesh_vert after its compiler
// moved it there), thinned for the renderer by the front end.
struct MeshDesc {
  std::string name;
  std::vector<float> vertices;  // x, y, z per vertex
  std::vector<int> faces;       // three vertex indices per triangle, counter-clockwise from outside
};

// A height field's grid (MJCF <hfield>, MuJoCo's hfield_* arrays): ncol samples along x over
// [-size[0], size[0]], nrow along y over [-size[1], size[1]], each sample (in [0, 1]) times
// size[2] the surface's height in its geom's frame; size[3] the depth of its base below 0.
struct HeightFieldDesc {
  std::string name;
  int nrow = 0, ncol = 0;
  std::array<float, 4> size{0, 0, 0, 0};
  std::vector<float> data;  // nrow x ncol, row-major
};

// A geom of the model: its body (index into ModelDesc::bodies, -1 for the world) and its index in
// that body's geoms (or in world_geoms).
struct GeomRef {
  int body = -1;
  int geom = 0;
};

// An explicit contact pair (MJCF <contact><pair>, MuJoCo's pair_* arrays): the two geoms touch
// with these parameters whatever their bitmasks, parents or <exclude>s say, and replace the
// contact their own parameters would mix (MuJoCo's mj_collision merges the two lists).
struct ContactPairDesc {
  std::string name;
  GeomRef geom1, geom2;
  int condim = 3;
  float friction = 1.0f;  // sliding; torsional and rolling are not modelled
  std::array<float, 2> solref{0.02f, 1.0f};
  std::array<float, 5> solimp{0.9f, 0.95f, 0.001f, 0.5f, 2.0f};
  float margin = 0.0f;
  float gap = 0.0f;
};

// One simulated body: a MuJoCo body that carries joints, with every jointless
// descendant welded into it (geoms and mass merged by the front end).
struct BodyDesc {
  std::string name;
  int parent = -1;             // index into ModelDesc::bodies, -1 for the world
  Vec3f pos{0, 0, 0};          // world frame at qpos0
  Quatf quat{1, 0, 0, 0};      // world frame at qpos0
  float mass = 0.0f;
  Vec3f com{0, 0, 0};          // centre of mass, body frame
  std::array<float, 9> inertia{};  // about the COM, body frame, row-major
  std::vector<GeomDesc> geoms;
  std::vector<int> mj_bodies;  // MuJoCo body ids merged into this body
};

struct JointDesc {
  std::string name;
  JointType type = JointType::Hinge;
  int body = 0;                // index into ModelDesc::bodies
  Vec3f pos{0, 0, 0};          // anchor, body frame
  Vec3f axis{0, 0, 1};         // body frame, unit length
  bool limited = false;
  std::array<float, 2> range{0, 0};
  int qposadr = 0;
  int dofadr = 0;
  std::vector<float> qpos0;    // 1 (hinge/slide), 4 (ball) or 7 (free) values
  float armature = 0.0f;
  float damping = 0.0f;
  float stiffness = 0.0f;
  float springref = 0.0f;
  // MuJoCo's soft limit (used unless SolverDesc::soft_limits is off): jnt_solref (time
  // constant, damping ratio), jnt_solimp (dmin, dmax, width, midpoint, power), jnt_margin,
  // and dof_invweight0, the joint's inverse inertia at qpos0 that scales the softness.
  std::array<float, 2> solref{0.02f, 1.0f};
  std::array<float, 5> solimp{0.9f, 0.95f, 0.001f, 0.5f, 2.0f};
  float margin = 0.0f;
  float invweight = 0.0f;
  // Dry friction (MuJoCo's dof_frictionloss): a bilateral soft row whose force stays within
  // +-frictionloss, with dof_solref and dof_solimp (MJCF solreffriction, solimpfriction).
  float frictionloss = 0.0f;
  std::array<float, 2> solref_friction{0.02f, 1.0f};
  // MuJoCo's jnt_actfrcrange (MJCF actuatorfrcrange): the joint's summed actuator force is clipped to it.
  bool actfrclimited = false;
  std::array<float, 2> actfrcrange{0, 0};
  std::array<float, 5> solimp_friction{0.9f, 0.95f, 0.001f, 0.5f, 2.0f};
};

// A site's shape, as MuJoCo's mjtGeom numbers it: the zone a touch sensor counts contacts in.
enum class SiteType : int { Sphere = 2, Capsule = 3, Ellipsoid = 4, Cylinder = 5, Box = 6 };

// A named frame on a body (MuJoCo site), used by task rewards and sensors.
struct SiteDesc {
  std::string name;
  int body = -1;               // index into ModelDesc::bodies, -1 for the world
  int mj_body = 0;             // the MuJoCo body it is on (ContactForce::geom_tag - 1 of its contacts)
  SiteType type = SiteType::Sphere;
  Vec3f pos{0, 0, 0};          // in that body's frame
  Quatf quat{1, 0, 0, 0};      // orientation in that body's frame
  Vec3f size{0, 0, 0};         // MuJoCo's site_size: radius, half-length, half-extents or semi-axes
  std::array<float, 4> rgba{0.5f, 0.5f, 0.5f, 1.0f};  // drawn where its group is visible, as MuJoCo draws sites
  int group = 0;
};

// A named state of the model (MJCF <key>): where tasks start their episodes.
struct KeyframeDesc {
  std::string name;
  std::vector<float> qpos;  // nq
  std::vector<float> ctrl;  // nu
};

// A camera of the model (MJCF <camera>): MuJoCo's mode, its frame on a body (looking
// along -z with y up, as MuJoCo's), and where it stands at qpos0.
struct CameraDesc {
  std::string name;
  int mode = 0;                // MuJoCo's mjtCamLight: 0 fixed to its body, 1 track, 2 trackcom
  int body = -1;               // simulated body it rides on, -1 for the world
  Vec3f pos{0, 0, 0};          // in that body's frame
  Quatf quat{1, 0, 0, 0};      // in that body's frame
  Vec3f world_pos0{0, 0, 0};   // world frame at qpos0
  Quatf world_quat0{1, 0, 0, 0};
  float fovy = 45.0f;          // degrees
};

// A fixed tendon: a linear combination of scalar joint coordinates (MuJoCo's ten_length). It acts
// through the actuators it transmits (ActuatorDesc::tendon) and its own spring and damper; tasks
// report its length.
struct TendonDesc {
  std::string name;
  std::vector<int> joints;     // indices into ModelDesc::joints
  std::vector<float> coefs;    // one per joint
  // MuJoCo's passive tendon force: stiffness toward the spring's dead band [lengthspring[0],
  // lengthspring[1]] (zero inside it), less damping times the tendon's velocity.
  float stiffness = 0.0f;
  float damping = 0.0f;
  std::array<float, 2> lengthspring{0, 0};
};

// A spatial tendon straight between two sites (MuJoCo's ten_length = the distance between them),
// drawn as a cylinder between them; where limited (dm_control's ball_in_cup's string), MuJoCo's soft
// tendon limit, with tendon_solref_lim, tendon_solimp_lim, tendon_margin and tendon_invweight0.
struct SpatialTendonDesc {
  std::string name;
  int site1 = -1, site2 = -1;  // indices into ModelDesc::sites
  float width = 0.0f;          // MuJoCo's tendon_width (the drawn radius)
  std::array<float, 4> rgba{0.5f, 0.5f, 0.5f, 1.0f};
  int group = 0;
  bool limited = false;
  std::array<float, 2> range{0, 0};
  std::array<float, 2> solref{0.02f, 1.0f};
  std::array<float, 5> solimp{0.9f, 0.95f, 0.001f, 0.5f, 2.0f};
  float margin = 0.0f;
  float invweight = 0.0f;
};

// A fixed tendon held at a length (MuJoCo's tendon equality with one tendon): length = tendon_length0 plus
// the equality's first polynomial coefficient, with eq_solref, eq_solimp and tendon_invweight0.
struct TendonEqualityDesc {
  std::string name;
  int tendon = -1;             // index into ModelDesc::tendons
  float length = 0.0f;
  std::array<float, 2> solref{0.02f, 1.0f};
  std::array<float, 5> solimp{0.9f, 0.95f, 0.001f, 0.5f, 2.0f};
  float invweight = 0.0f;
};

// Where each MuJoCo body's frame and inertia sit: on which simulated body, and
// where on it (jointless bodies are welded into a simulated one). MuJoCo's per-body
// quantities (xpos, cinert, cvel) are computed from these.
struct BodyFrameDesc {
  std::string name;
  int body = -1;               // simulated body, -1 for the world
  int parent = -1;             // MuJoCo's body_parentid (-1 for the world)
  Vec3f pos{0, 0, 0};          // frame origin, in that body's frame
  Quatf quat{1, 0, 0, 0};      // frame orientation, in that body's frame
  Vec3f ipos{0, 0, 0};         // centre of mass, in that body's frame
  Quatf iquat{1, 0, 0, 0};     // principal axes of inertia, in that body's frame
  float mass = 0.0f;
  Vec3f inertia{0, 0, 0};      // principal moments (MuJoCo's body_inertia)
};

struct ActuatorDesc {
  std::string name;
  int joint = 0;               // index into ModelDesc::joints
  int tendon = -1;             // or, when >= 0, a fixed tendon (ModelDesc::tendons) it pulls, joint unused
  float gear = 1.0f;           // joint torque (force) per unit actuator force, or tendon force
  // MuJoCo's affine gain and bias (a fixed gain and no bias are their special cases): force =
  // (gainprm . (1, L, V)) ctrl + biasprm . (1, L, V), with L = gear q and V = gear qdot (for a
  // tendon, its length and velocity).
  std::array<float, 3> gainprm{1, 0, 0};
  std::array<float, 3> biasprm{0, 0, 0};
  bool ctrllimited = false;
  std::array<float, 2> ctrlrange{0, 0};
  bool forcelimited = false;
  std::array<float, 2> forcerange{0, 0};
  // MuJoCo's activation dynamics: the force takes the activation act (where ctrl stands above)
  // rather than ctrl, and act follows ctrl: filter act' = (ctrl - act) / tau (filterexact: its
  // exact solution over a step), integrator act' = ctrl; clamped to actrange when actlimited.
  // actearly: the force takes the act at the step's end.
  enum class Dynamics { None, Integrator, Filter, FilterExact };
  Dynamics dynamics = Dynamics::None;
  float tau = 1.0f;            // dynprm[0], the filter's time constant
  bool actlimited = false;
  std::array<float, 2> actrange{0, 0};
  bool actearly = false;
};

// How the model is mapped onto Jolt's solver; chosen per task by measurement.
struct SolverDesc {
  int substeps = 1;            // Jolt updates per MuJoCo timestep
  int velocity_iterations = 10;
  int position_iterations = 2;
  float penetration_slop = 0.005f;
  float speculative_distance = 0.01f;
  float baumgarte = 0.2f;
  // Reference switches, as every task has them; tests switch one to show what it buys.
  bool soft_limits = true;     // joint limits as MuJoCo's soft constraints; false: hard, stopping exactly at the range
  bool planar_links = true;    // a planar model's links restricted to its plane, hinges as point constraints
  bool soft_contacts = true;   // plane contacts and a tree's round self-contacts as MuJoCo's; false: Jolt's hard ones
  bool joint_rows_last = true; // joint-by-joint rows solved after the joints; false: before them
  // Every joint row of a robot solved exactly per iteration over its tree
  // (articulation_constraint.h), where the robot is one that supports it.
  bool articulated_joints = false;
  // A planar articulated robot stepped as MuJoCo's Euler integrator steps it: the velocity-
  // product (Coriolis and centripetal) forces taken explicitly at each update's start in
  // MuJoCo's joint coordinates (Robot::TakeBiasExplicitly), the constraint forces (limits,
  // contacts) solved against the mass matrix with the joint damping explicit, then the damping
  // implicit with those forces held (PlanarArticulationConstraint). False: the velocity
  // products carried by projecting the tree's momentum onto its new pose, and the damping
  // implicit in the same solve as the constraints.
  bool mujoco_euler = false;
};

struct ModelDesc {
  std::string name;
  float timestep = 0.002f;
  Vec3f gravity{0, 0, -9.81f};
  float density = 0.0f;        // fluid density and viscosity (MuJoCo's inertia-box fluid model)
  float viscosity = 0.0f;
  // Joint damping taken implicitly, as MuJoCo's Euler step does by default; false: an explicit
  // force at the step's start (its Euler step with <flag eulerdamp="disable"/>).
  bool implicit_damping = true;
  // MuJoCo's implicitfast integrator: besides the joint damping, each actuator's velocity terms
  // (a position actuator's kv) are implicit while its force is inside its forcerange.
  bool implicit_actuator_velocity = false;
  std::vector<BodyDesc> bodies;       // parents before children
  std::vector<GeomDesc> world_geoms;  // static geoms, world frame
  std::vector<JointDesc> joints;      // MuJoCo's joint order
  std::vector<ActuatorDesc> actuators;
  std::vector<SiteDesc> sites;
  std::vector<TendonDesc> tendons;
  std::vector<SpatialTendonDesc> spatial_tendons;
  std::vector<TendonEqualityDesc> tendon_equalities;
  std::vector<CameraDesc> cameras;
  std::vector<BodyFrameDesc> mj_body_frames;  // one per MuJoCo body, world included
  std::vector<std::array<int, 2>> excluded_pairs;  // body index pairs, -1 = world
  std::vector<ContactPairDesc> contact_pairs;
  std::vector<KeyframeDesc> keyframes;
  std::vector<HeightFieldDesc> height_fields;
  std::vector<MeshDesc> meshes;
  int nq = 0;
  int nv = 0;
  int mj_nbody = 0;                   // MuJoCo's body count, world included
  SolverDesc solver;
};

}  // namespace joltgym
