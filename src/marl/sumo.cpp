#include "marl/sumo.h"

#include "marl/arena_terms.h"
#include "tasks/contact_terms.h"
#include "tasks/observation_terms.h"

#include <cmath>
#include <stdexcept>

namespace joltgym {

JOLTGYM_REGISTER_MULTI_AGENT_TASK("SumoAnts", SumoTask, SumoAntsParams);
JOLTGYM_REGISTER_MULTI_AGENT_TASK("SumoHumanoids", SumoTask, SumoHumanoidsParams);

namespace {

constexpr int kArenaObs = 18;  // see sumo.h: xy 2, opponent 3 + 3 + 3 + 3, radius 1, edges 2, time 1
// The episode's values in MultiAgentWorkspace::values.
enum Value { kRingRadius = 0, kTouched, kElapsed, kValues };
enum KnobIndex { kShapingWeight = 0, kRingRadiusScale };

// A free-rooted robot's torso pose and velocity from its qpos and qvel.
struct Torso {
  JPH::Vec3 pos, vel;
  JPH::Quat rot;
};
Torso TorsoOf(const TaskWorkspace& ws) {
  const auto& q = ws.qpos;
  const auto& v = ws.qvel;
  return {JPH::Vec3(q[0], q[1], q[2]), JPH::Vec3(v[0], v[1], v[2]), JPH::Quat(q[4], q[5], q[6], q[3]).Normalized()};
}

float PlanarDistance(const JPH::Vec3& p) { return std::hypot(p.GetX(), p.GetY()); }

}  // namespace

SumoTask::SumoTask(const std::vector<ModelPtr>& models, const SumoAntsParams& params)
    : SumoTask(models, params, "Ant") {}

SumoTask::SumoTask(const std::vector<ModelPtr>& models, const SumoHumanoidsParams& params)
    : SumoTask(models, params, "Humanoid") {}

SumoTask::SumoTask(const std::vector<ModelPtr>& models, const SumoParams& params, const std::string& robot_task)
    : MultiAgentTask(params.frame_skip, models.empty() || !models[0] ? 1.0f : models[0]->timestep()),
      params_(params) {
  if (models.size() != 1 || !models[0]) throw std::invalid_argument("sumo takes one robot model, used by both agents");
  if (params.max_steps < 1) throw std::invalid_argument("max_steps must be >= 1");
  if (params.ring_radius_range[0] <= params.start_distance)
    throw std::invalid_argument("ring_radius_range must start beyond start_distance");
  const ModelPtr& model = models[0];
  ParamValues robot_params;
  robot_params["frame_skip"] = params.frame_skip;
  robot_task_ = TaskType::Find(robot_task).Create(*model, robot_params);
  arena_obs_offset_ = robot_task_->obs_dim();
  std::vector<int> actuators;
  for (int i = 0; i < model->nu(); ++i) actuators.push_back(i);
  for (int i = 0; i < 2; ++i) {
    AgentSpec agent;
    agent.name = "agent_" + std::to_string(i);
    SetActionBox(*model, actuators, agent);
    agent.obs_dim = arena_obs_offset_ + kArenaObs;
    agents_.push_back(agent);
  }
  state_dim_ = 2 * (model->nq() + model->nv()) + 3;
  robots_ = {RobotPlacement{model}, RobotPlacement{model}};
  rule_ = CollisionRule(2, RobotContact::kAlways);  // v5's Ant never collides with itself: contype 1, conaffinity 0
  // The smallest scale still puts every drawn ring beyond the start positions.
  const float min_scale = std::nextafter(params.start_distance / params.ring_radius_range[0], 1e30f);
  knobs_ = {Knob{"shaping_weight", params.shaping_weight},
            Knob{"ring_radius_scale", params.ring_radius_scale, min_scale}};
  for (const Knob& knob : knobs_) CheckKnobValue(knob, knob.initial);
  winner_ = info_.Add("winner");
  lost_ = info_.Add("lost");
  draw_ = info_.Add("draw");
  touched_ = info_.Add("touched");
  reward_sparse_ = info_.Add("reward_sparse");
  reward_shaping_ = info_.Add("reward_shaping");
  reward_center_ = info_.Add("reward_center");
  reward_survive_ = info_.Add("reward_survive");
  reward_ctrl_ = info_.Add("reward_ctrl");
  reward_contact_ = info_.Add("reward_contact");
  reward_approach_ = info_.Add("reward_approach");
  reward_push_ = info_.Add("reward_push");
  distance_to_edge_ = info_.Add("distance_to_edge", /*at_reset=*/true);
  ring_radius_ = info_.Add("ring_radius", /*at_reset=*/true);
}

void SumoTask::InitWorkspace(MultiAgentWorkspace& ws) const {
  MultiAgentTask::InitWorkspace(ws);
  ws.values.assign(kValues, 0.0f);
}

void SumoTask::Reset(EnvWorld world, Rng& rng, MultiAgentWorkspace& ws, double* infos) const {
  const float radius =
      ws.knobs[kRingRadiusScale] * rng.Uniform(params_.ring_radius_range[0], params_.ring_radius_range[1]);
  ws.values[kRingRadius] = radius;
  ws.values[kTouched] = 0.0f;
  ws.values[kElapsed] = 0.0f;
  const float angle = rng.Uniform(0.0f, 2.0f * JPH::JPH_PI);
  for (int i = 0; i < 2; ++i) {
    TaskWorkspace& rws = ws.robots[size_t(i)];
    Robot& robot = world.robot(i);
    robot_task_->SampleInitialState(robot, rng, rws);
    // Opposite ends of a random diameter, each facing the other, with the robot's own noise.
    const float side = i == 0 ? -1.0f : 1.0f;
    const float yaw = i == 0 ? angle : angle + JPH::JPH_PI;
    PlaceFreeRoot(rws, side * params_.start_distance * std::cos(angle), side * params_.start_distance * std::sin(angle),
                  yaw);
    robot.SetState(rws.qpos.data(), rws.qvel.data());
  }
  WriteArenaInfo(world, ws, infos);
}

void SumoTask::WriteArenaInfo(EnvWorld world, const MultiAgentWorkspace& ws, double* infos) const {
  const size_t width = size_t(info_.size());
  for (int i = 0; i < 2; ++i) {
    JPH::Vec3 torso = JPH::Vec3(world.robot(i).body(0).GetPosition() - world.robot(i).origin());
    InfoRow info(infos + size_t(i) * width);
    info.Set(distance_to_edge_, ws.values[kRingRadius] - PlanarDistance(torso));
    info.Set(ring_radius_, ws.values[kRingRadius]);
  }
}

void SumoTask::Observe(EnvWorld world, MultiAgentWorkspace& ws, float* obs, float* state) const {
  const int width = max_obs_dim();
  Torso torsos[2];
  for (int i = 0; i < 2; ++i) {
    robot_task_->Observe(world.robot(i), ws.robots[size_t(i)], obs + size_t(i) * size_t(width));
    torsos[i] = TorsoOf(ws.robots[size_t(i)]);  // the observation just read qpos and qvel
  }
  const float radius = ws.values[kRingRadius];
  const float time_left = 1.0f - ws.values[kElapsed] / float(params_.max_steps);
  for (int i = 0; i < 2; ++i) {
    const Torso& self = torsos[i];
    const Torso& other = torsos[1 - i];
    const JPH::Quat to_heading = HeadingFrame(self.rot);
    float* out = obs + size_t(i) * size_t(width) + arena_obs_offset_;
    const JPH::Vec3 rel_pos = to_heading * (other.pos - self.pos);
    const JPH::Vec3 rel_vel = to_heading * (other.vel - self.vel);
    const JPH::Vec3 forward = to_heading * (other.rot * JPH::Vec3::sAxisX());
    const JPH::Vec3 up = to_heading * (other.rot * JPH::Vec3::sAxisZ());
    *out++ = self.pos.GetX();
    *out++ = self.pos.GetY();
    for (const JPH::Vec3& v : {rel_pos, rel_vel, forward, up})
      for (int k = 0; k < 3; ++k) *out++ = v[k];
    *out++ = radius;
    *out++ = radius - PlanarDistance(self.pos);
    *out++ = radius - PlanarDistance(other.pos);
    *out++ = time_left;
  }
  for (int i = 0; i < 2; ++i) {
    const TaskWorkspace& rws = ws.robots[size_t(i)];
    state = std::copy(rws.qpos.begin(), rws.qpos.end(), state);
    state = std::copy(rws.qvel.begin(), rws.qvel.end(), state);
  }
  *state++ = radius;
  *state++ = time_left;
  *state++ = ws.values[kTouched];
}

void SumoTask::Prepare(EnvWorld world, const float* actions, MultiAgentWorkspace& ws) const {
  const int width = max_act_dim();
  for (int i = 0; i < 2; ++i) robot_task_->Prepare(world.robot(i), actions + size_t(i) * size_t(width), ws.robots[size_t(i)]);
}

void SumoTask::Score(EnvWorld world, const float* actions, int elapsed, MultiAgentWorkspace& ws, float* rewards,
                     bool* terminated, double* infos) const {
  ws.values[kElapsed] = float(elapsed);
  if (world.Touched(0, 1)) ws.values[kTouched] = 1.0f;
  world.ClearTouches();
  const float radius = ws.values[kRingRadius];
  const bool touched = ws.values[kTouched] != 0.0f;
  bool lost[2], fallen[2];
  JPH::Vec3 torso[2];
  for (int i = 0; i < 2; ++i) {
    const Robot& robot = world.robot(i);
    torso[i] = JPH::Vec3(robot.body(0).GetPosition() - robot.origin());
    ExternalContactForces(robot, ws.robots[size_t(i)].contact_forces.data());
    fallen[i] = !(torso[i].GetZ() >= params_.fallen_z);  // NaN counts as fallen
    lost[i] = fallen[i] || !(PlanarDistance(torso[i]) <= radius);
  }
  const bool decided = lost[0] || lost[1];
  const bool draw = !decided && elapsed >= params_.max_steps;
  const int width = max_act_dim();
  const float shaping_weight = ws.knobs[kShapingWeight];
  for (int i = 0; i < 2; ++i) {
    const bool winner = decided && !lost[i] && (touched || !params_.win_needs_contact);
    const float sparse = !decided ? (draw ? params_.draw_reward : 0.0f)
                                  : (lost[i] ? params_.loss_reward : (winner ? params_.win_reward : 0.0f));
    const std::vector<float>& cfrc = ws.robots[size_t(i)].contact_forces;
    const float center = -params_.center_weight * PlanarDistance(torso[i]);
    const float survive = fallen[i] ? -params_.alive_bonus : params_.alive_bonus;
    const float ctrl = -params_.ctrl_cost_weight * SquaredNorm(actions + size_t(i) * size_t(width), agent(i).act_dim);
    const float contact =
        -std::min(params_.contact_cost_weight * SquaredNorm(cfrc.data(), int(cfrc.size())), params_.contact_cost_max);
    const float approach = -params_.approach_weight * PlanarDistance(torso[i] - torso[1 - i]);
    const float push = params_.push_weight * PlanarDistance(torso[1 - i]);
    const float shaping = center + survive + ctrl + contact + approach + push;
    rewards[i] = sparse + shaping_weight * shaping;
    terminated[i] = decided || draw;
    InfoRow info(infos + size_t(i) * size_t(info_.size()));
    info.Set(winner_, winner ? 1.0 : 0.0);
    info.Set(lost_, decided && lost[i] ? 1.0 : 0.0);
    info.Set(draw_, draw ? 1.0 : 0.0);
    info.Set(touched_, touched ? 1.0 : 0.0);
    info.Set(reward_sparse_, sparse);
    info.Set(reward_shaping_, shaping);
    info.Set(reward_center_, center);
    info.Set(reward_survive_, survive);
    info.Set(reward_ctrl_, ctrl);
    info.Set(reward_contact_, contact);
    info.Set(reward_approach_, approach);
    info.Set(reward_push_, push);
  }
  WriteArenaInfo(world, ws, infos);
}

std::vector<FloorMark> SumoTask::FloorMarks(const MultiAgentWorkspace& ws) const {
  return {FloorMark{0.0f, 0.0f, ws.values[kRingRadius], false}};
}

}  // namespace joltgym
