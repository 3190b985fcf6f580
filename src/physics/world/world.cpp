#include "physics/world/world.h"

#include "physics/core/jolt_runtime.h"
#include "physics/world/world_collision_filter.h"

#include <Jolt/Physics/Body/BodyCreationSettings.h>
#include <Jolt/Physics/Collision/ContactListener.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>

namespace joltgym {
namespace {

// Jolt's body-pair and contact limits where it collides none of the world's robots (it needs some).
constexpr JPH::uint kMinJoltContacts = 64;

// MuJoCo: a contact has the larger condim of its two geoms (1 = frictionless) and the
// larger friction. Bodies carry their geoms' condim as user data.
float CombineFriction(const JPH::Body& a, const JPH::SubShapeID&, const JPH::Body& b, const JPH::SubShapeID&) {
  if (std::max(a.GetUserData(), b.GetUserData()) <= 1) return 0.0f;
  return std::max(a.GetFriction(), b.GetFriction());
}

float MaxRestitution(const JPH::Body& a, const JPH::SubShapeID&, const JPH::Body& b, const JPH::SubShapeID&) {
  return std::max(a.GetRestitution(), b.GetRestitution());
}

}  // namespace

// Records which robots touch each other: Jolt reports every new and persisting contact
// manifold during its narrow phase (one thread: our job systems are single-threaded).
class World::TouchListener final : public JPH::ContactListener {
 public:
  explicit TouchListener(World& world) : world_(world) {}
  void OnContactAdded(const JPH::Body& a, const JPH::Body& b, const JPH::ContactManifold&,
                      JPH::ContactSettings&) override {
    Record(a, b);
  }
  void OnContactPersisted(const JPH::Body& a, const JPH::Body& b, const JPH::ContactManifold&,
                          JPH::ContactSettings&) override {
    Record(a, b);
  }

 private:
  int RobotOf(const JPH::Body& body) const {
    const JPH::uint32 i = body.GetID().GetIndex();
    return i < world_.body_of_id_.size() ? world_.body_of_id_[i].first : -1;
  }
  void Record(const JPH::Body& a, const JPH::Body& b) {
    const int ra = RobotOf(a), rb = RobotOf(b);
    if (ra < 0 || rb < 0 || ra == rb) return;
    const size_t n = world_.robots_.size();
    world_.touched_[size_t(ra) * n + size_t(rb)] = world_.touched_[size_t(rb) * n + size_t(ra)] = 1;
  }
  World& world_;
};

World::World(ModelPtr model) { Build({RobotPlacement{std::move(model)}}, CollisionRule(1)); }

World::World(const std::vector<RobotPlacement>& robots, const CollisionRule& rule) { Build(robots, rule); }

World::~World() = default;

bool CanShareWorld(const ModelPtr& model) {
  if (!model) return false;
  EnsureJoltRuntime();
  const auto inert = WorldCollisionFilter({model}, model, CollisionRule(1)).InertBodies().front();
  return std::all_of(inert.begin(), inert.end(), [](bool b) { return b; });
}

size_t TempBytesFor(const World& world) {
  size_t bodies = 0;
  for (int i = 0; i < world.num_robots(); ++i) bodies += size_t(world.robot(i).num_bodies());
  return std::max<size_t>(size_t(1) << 20, bodies * (size_t(32) << 10));
}

void World::Build(const std::vector<RobotPlacement>& robots, const CollisionRule& rule) {
  EnsureJoltRuntime();
  if (robots.empty()) throw std::invalid_argument("a world needs at least one robot");
  if (rule.num_robots() != int(robots.size()))
    throw std::invalid_argument("the collision rule is for " + std::to_string(rule.num_robots()) + " robots, not " +
                                std::to_string(robots.size()));
  scene_ = robots.front().model;
  const CompiledModel& scene = *scene_;
  timestep_ = scene.timestep();
  substeps_ = scene.solver().substeps;
  JPH::uint max_bodies = JPH::uint(scene.static_geoms().size() + 1);
  std::vector<ModelPtr> models;
  for (const RobotPlacement& r : robots) {
    if (!r.model) throw std::invalid_argument("a robot needs a model");
    if (r.model->timestep() != timestep_)
      throw std::invalid_argument("robots of one world need one timestep: " + std::to_string(r.model->timestep()) +
                                  " vs " + std::to_string(timestep_));
    max_bodies += JPH::uint(r.model->bodies().size());
    models.push_back(r.model);
  }
  auto* filter = new WorldCollisionFilter(models, robots.front().model, rule);
  collision_filter_ = filter;
  inert_bodies_ = filter->InertBodies();
  for (size_t r = 0; r < robots.size(); ++r)
    for (size_t b = 0; b < robots[r].model->bodies().size(); ++b) {
      const CompiledBody& body = robots[r].model->bodies()[b];
      if (!inert_bodies_[r][b] && !body.mixed_contact.empty())
        throw UnsupportedFeature("body '" + body.name + "': " + body.mixed_contact +
                                 " where Jolt's contacts reach it (another robot, a non-plane geom, or a self-contact "
                                 "that is not between spheres and capsules)");
    }
  // Jolt's contact cache is sized for the robots Jolt collides; a robot whose bodies are all
  // inert (its contacts are our own rows) adds nothing. Jolt clears the cache's hash tables
  // every update, so tables sized for robots that never touch through Jolt would cost a memset
  // per update for no contact ever, and their memory per world.
  JPH::uint max_contacts = kMinJoltContacts;
  for (size_t i = 0; i < robots.size(); ++i) {
    const auto& inert = inert_bodies_[i];
    if (!std::all_of(inert.begin(), inert.end(), [](bool b) { return b; }))
      max_contacts += JPH::uint(robots[i].model->max_contacts());
  }
  system_.Init(max_bodies, 0, max_contacts, max_contacts, BroadPhaseLayers(), ObjectVsBroadPhaseFilter(),
               ObjectLayerPairs());
  JPH::PhysicsSettings settings;
  settings.mNumVelocitySteps = JPH::uint(scene.solver().velocity_iterations);
  settings.mNumPositionSteps = JPH::uint(scene.solver().position_iterations);
  settings.mPenetrationSlop = scene.solver().penetration_slop;
  settings.mSpeculativeContactDistance = scene.solver().speculative_distance;
  settings.mBaumgarte = scene.solver().baumgarte;
  settings.mAllowSleeping = false;
  system_.SetPhysicsSettings(settings);
  const auto& g = scene.desc().gravity;
  system_.SetGravity(JPH::Vec3(g[0], g[1], g[2]));
  system_.SetCombineFriction(CombineFriction);
  system_.SetCombineRestitution(MaxRestitution);
  CreateScene(scene);
  for (size_t i = 0; i < robots.size(); ++i)
    robots_.push_back(std::unique_ptr<Robot>(new Robot(robots[i].model, *this, int(i), robots[i].origin)));
  // Touches are tracked only where robots may touch: a listener makes Jolt walk its contact
  // cache every update (ContactPointRemovedCallbacks), a cost that worlds of independent envs
  // need not pay.
  bool robots_may_touch = false;
  for (int a = 0; a < rule.num_robots(); ++a)
    for (int b = a + 1; b < rule.num_robots(); ++b) robots_may_touch |= rule.Between(a, b) != RobotContact::kNone;
  if (robots_may_touch) {
    touched_.assign(robots_.size() * robots_.size(), 0);
    touch_listener_ = std::make_unique<TouchListener>(*this);
    system_.SetContactListener(touch_listener_.get());
  }
  system_.OptimizeBroadPhase();
  system_.SaveState(initial_state_);
  initial_state_of_.assign(robots_.size(), -1);
  for (size_t i = 0; i < robots_.size(); ++i) {
    const auto& inert = inert_bodies_[i];
    if (!std::all_of(inert.begin(), inert.end(), [](bool b) { return b; })) continue;
    for (size_t j = 0; j < i && initial_state_of_[i] < 0; ++j)
      if (initial_state_of_[j] >= 0 && robots[j].model == robots[i].model && robots[j].origin == robots[i].origin)
        initial_state_of_[i] = initial_state_of_[j];
    if (initial_state_of_[i] >= 0) continue;
    initial_state_of_[i] = int(robot_initial_states_.size());
    robots_[i]->SaveJoltState(robot_initial_states_.emplace_back());
  }
}

void World::CreateScene(const CompiledModel& scene) {
  JPH::BodyInterface& bi = system_.GetBodyInterfaceNoLock();
  for (const CompiledStaticGeom& s : scene.static_geoms()) {
    if (!s.shape) continue;  // a height field: only soft rows touch it
    JPH::BodyCreationSettings settings(s.shape, s.pos, s.rot, JPH::EMotionType::Static, layers::kStatic);
    settings.mFriction = s.friction;
    settings.mUserData = JPH::uint64(s.condim);
    settings.mRestitution = 0.0f;
    settings.mCollisionGroup =
        JPH::CollisionGroup(collision_filter_, WorldCollisionFilter::kSceneGroup, JPH::uint32(s.collision_entry));
    bi.CreateAndAddBody(settings, JPH::EActivation::DontActivate);
  }
}

void World::Step(StepContext& ctx) {
  const float h = timestep_ / float(substeps_);
  for (int s = 0; s < substeps_; ++s) {
    ctx.scratch.Rewind();
    for (auto& robot : robots_) robot->BeforeUpdate(h, ctx.scratch);
    const JPH::EPhysicsUpdateError error = system_.Update(h, 1, &ctx.temp, &ctx.jobs);
    last_update_dt_ = h;
    update_errors_ |= unsigned(error);
    for (auto& robot : robots_) robot->AfterUpdate(h);
  }
  contacts_fresh_ = false;
}

void World::RestoreInitialState() {
  initial_state_.Rewind();
  system_.RestoreState(initial_state_);
  for (auto& robot : robots_) robot->RestoreInitialState();
  ClearTouches();
  contacts_fresh_ = false;
}

void World::RestoreRobotInitialState(int i) {
  if (i < 0 || i >= num_robots()) throw std::out_of_range("robot " + std::to_string(i) + " out of range");
  if (!RobotStandsAlone(i))
    throw std::logic_error("robot " + std::to_string(i) +
                           " touches bodies through Jolt: only the whole world can be restored");
  StateBuffer& state = robot_initial_states_[size_t(initial_state_of_[size_t(i)])];
  state.Rewind();
  robots_[size_t(i)]->RestoreJoltState(state);
  robots_[size_t(i)]->RestoreInitialState();
  ClearTouches(i, 1);
  contacts_fresh_ = false;
}

void World::ClearTouches(int first, int count) {
  if (touched_.empty()) return;
  const size_t n = robots_.size();
  for (size_t i = size_t(first); i < size_t(first + count); ++i)
    for (size_t j = 0; j < n; ++j) touched_[i * n + j] = touched_[j * n + i] = 0;
}

const std::vector<ContactForce>& World::ReadContactForces() {
  if (contacts_fresh_) return contacts_;
  contact_reader_.Read(system_, last_update_dt_, contacts_);
  for (const auto& robot : robots_) robot->AppendSoftContactForces(contacts_);
  for (ContactForce& c : contacts_) {
    if (c.body.IsInvalid() || c.robot >= 0) continue;  // the scene's side of a soft contact, or already named
    const JPH::uint32 i = c.body.GetIndex();
    if (i < body_of_id_.size()) std::tie(c.robot, c.robot_body) = body_of_id_[i];
  }
  contacts_fresh_ = true;
  return contacts_;
}

}  // namespace joltgym
