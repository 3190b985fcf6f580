// A Jolt PhysicsSystem holding one or several robots (instances of compiled models,
// the same or different) over a static scene. Robots of one world either touch each
// other (a multi-agent arena) or never do (independent envs packed into one system):
// a CollisionRule per pair of robots says which. Each robot keeps its own state in its
// model's MuJoCo layout (robot.h); the world steps them all at once.
#pragma once

#include "physics/contacts/contact_forces.h"
#include "physics/core/state_buffer.h"
#include "physics/model/compiled_model.h"
#include "physics/world/robot.h"
#include "physics/world/step_context.h"

#include <Jolt/Jolt.h>
#include <Jolt/Physics/PhysicsSystem.h>

#include <algorithm>
#include <memory>
#include <vector>

namespace joltgym {

// A robot of a world to be: its model and where it stands.
struct RobotPlacement {
  ModelPtr model;
  JPH::RVec3 origin = JPH::RVec3::sZero();
};

// Whether two robots' bodies touch (symmetric, per pair of robots). A robot's own bodies
// follow its model's rules whatever this says.
enum class RobotContact : unsigned char {
  kNone,      // never: independent envs packed into one system
  kBitmasks,  // as MuJoCo would in one model: when the geoms' contype/conaffinity meet
  kAlways,    // every colliding geom of one touches every colliding geom of the other
              // (robots whose models never collide with themselves, e.g. Ant: contype 1, conaffinity 0)
};

class CollisionRule {
 public:
  CollisionRule() = default;
  explicit CollisionRule(int num_robots, RobotContact all = RobotContact::kBitmasks)
      : n_(num_robots), contact_(size_t(num_robots) * size_t(num_robots), all) {}
  void Set(int a, int b, RobotContact contact) {
    contact_[size_t(a) * size_t(n_) + size_t(b)] = contact;
    contact_[size_t(b) * size_t(n_) + size_t(a)] = contact;
  }
  RobotContact Between(int a, int b) const { return contact_[size_t(a) * size_t(n_) + size_t(b)]; }
  int num_robots() const { return n_; }

 private:
  int n_ = 0;
  std::vector<RobotContact> contact_;
};

// Whether a robot of this model touches nothing through Jolt when alone in a world: its
// floor contacts are its own soft rows and it never collides with itself. Several such
// robots share one world as independent envs at no cost in the broad phase, however they
// overlap, and each can be reset alone (World::RestoreRobotInitialState).
bool CanShareWorld(const ModelPtr& model);

class World;
// Jolt temp memory (StepContext) that stepping this world takes without falling back to
// malloc: 1 MB covers one robot; contacts between many robots need more.
size_t TempBytesFor(const World& world);

class World {
 public:
  // One robot at the origin; the scene is its model's static geoms.
  explicit World(ModelPtr model);
  // Several robots; the scene is the first robot's model's static geoms, and the solver
  // settings are its too. Every robot's model must have the same timestep.
  World(const std::vector<RobotPlacement>& robots, const CollisionRule& rule);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  int num_robots() const { return int(robots_.size()); }
  Robot& robot(int i) { return *robots_[size_t(i)]; }
  const Robot& robot(int i) const { return *robots_[size_t(i)]; }
  float timestep() const { return timestep_; }

  // Advances one model timestep; every robot applies the controls it was last given.
  void Step(StepContext& ctx);
  // Back to the state right after construction, contacts and warm starts included.
  void RestoreInitialState();
  // Robot i alone back to its state right after construction, the others untouched. Only
  // for a robot that touches nothing through Jolt (no contact of its is in Jolt's cache):
  // std::logic_error otherwise.
  void RestoreRobotInitialState(int i);
  // Whether robot i touches nothing through Jolt, so that it can be saved and restored alone.
  bool RobotStandsAlone(int i) const { return initial_state_of_[size_t(i)] >= 0; }

  // A mid-episode state (world_state.cpp). The whole world: Jolt's contacts and the last update's
  // length, every robot (Robot::SaveState), the touches. Restored into a world built the same way
  // (the same robots, models and origins), stepping on is bit-identical to the world it was saved
  // from. RestoreState returns false for a state of another kind of world (the world then in no
  // defined state).
  void SaveState(StateBuffer& out) const;
  bool RestoreState(StateBuffer& in);
  // Robot i alone, for a robot that stands alone (RobotStandsAlone; std::logic_error otherwise),
  // into robot j of this or another world of its model, the others untouched.
  void SaveRobotState(int i, StateBuffer& out) const;
  bool RestoreRobotState(int i, StateBuffer& in);

  // Contact forces of the last physics update, read on demand from Jolt's cache (once
  // per update however many robots ask).
  const std::vector<ContactForce>& ReadContactForces();
  // Non-zero once Jolt reported running out of contact or pair capacity.
  unsigned update_errors() const { return update_errors_; }

  // Whether bodies of robots a and b touched in any physics update since ClearTouches
  // (or the world's start or restore). Tracked only in worlds whose rule lets robots touch.
  bool Touched(int a, int b) const { return !touched_.empty() && touched_[size_t(a) * robots_.size() + size_t(b)]; }
  void ClearTouches() { std::fill(touched_.begin(), touched_.end(), 0); }
  // Forgets the touches of robots [first, first + count) only.
  void ClearTouches(int first, int count);

 private:
  void Build(const std::vector<RobotPlacement>& robots, const CollisionRule& rule);
  void RequireStandsAlone(int i) const;
  // Jolt scales last update's impulses by this update's length over the last one's when it
  // warm-starts them, and by 0 in a world not stepped since it was built or restored whole.
  void RestoreLastUpdateLength(float dt);
  void CreateScene(const CompiledModel& scene);

  friend class Robot;
  class TouchListener;
  JPH::PhysicsSystem system_;
  std::unique_ptr<TouchListener> touch_listener_;
  std::vector<unsigned char> touched_;  // robots x robots
  JPH::Ref<JPH::GroupFilter> collision_filter_;
  std::vector<std::vector<bool>> inert_bodies_;  // per robot and body: in layers::kInert
  ModelPtr scene_;  // the model whose static geoms and solver settings the world takes
  std::vector<std::unique_ptr<Robot>> robots_;
  // (robot, body) of each Jolt body by BodyID index; robot -1 for the scene.
  std::vector<std::pair<int, int>> body_of_id_;
  float timestep_ = 0.0f;
  int substeps_ = 1;
  StateBuffer initial_state_;
  // The initial states of robots that touch nothing through Jolt, one per model and origin (robots of
  // one model at one spot start alike), and each robot's there (-1: it touches through Jolt).
  std::vector<StateBuffer> robot_initial_states_;
  std::vector<int> initial_state_of_;
  unsigned update_errors_ = 0;
  float last_update_dt_ = 0.0f;
  ContactForceReader contact_reader_;
  std::vector<ContactForce> contacts_;
  bool contacts_fresh_ = false;
};

}  // namespace joltgym
