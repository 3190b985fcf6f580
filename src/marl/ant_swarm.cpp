#include "marl/ant_swarm.h"

#include "marl/arena_terms.h"
#include "tasks/contact_terms.h"
#include "tasks/observation_terms.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace joltgym {

JOLTGYM_REGISTER_MULTI_AGENT_TASK("AntSwarm", AntSwarmTask, AntSwarmParams);

namespace {

constexpr int kSwarmObs = 16;  // box 3 + 3, goal 2 + 2, two nearest ants 3 + 3
enum Value { kGoalX = 0, kGoalY, kDistanceBefore, kValues };
// An Ant's legs reach about 0.95 m from its torso: neighbours on the start circle keep 2 m apart.
constexpr float kAntSpacing = 2.0f;

JPH::Vec3 TorsoOf(const Robot& robot) { return JPH::Vec3(robot.body(0).GetPosition() - robot.origin()); }

}  // namespace

AntSwarmTask::AntSwarmTask(const std::vector<ModelPtr>& models, const AntSwarmParams& params)
    : MultiAgentTask(params.frame_skip, models.empty() || !models[0] ? 1.0f : models[0]->timestep()),
      params_(params) {
  if (models.size() != 2 || !models[0] || !models[1]) throw std::invalid_argument("AntSwarm takes the ant's and the box's models");
  if (params.num_ants < 1 || params.num_ants > kMaxAnts)
    throw std::invalid_argument("num_ants must be in [1, 16], got " + std::to_string(params.num_ants));
  if (!(params.goal_radius > 0.0f) || !(params.goal_distance > params.goal_radius))
    throw std::invalid_argument("goal_distance must exceed goal_radius > 0");
  const ModelPtr &ant = models[0], &crate = models[1];
  if (crate->joints().empty() || crate->joints()[0].type != JointType::Free || crate->nu() != 0)
    throw std::invalid_argument("the box model must be one free body without actuators");
  ParamValues ant_params;
  ant_params["frame_skip"] = params.frame_skip;
  ant_task_ = TaskType::Find("Ant").Create(*ant, ant_params);
  start_radius_ = std::max(1.8f, kAntSpacing * float(params.num_ants) / (2.0f * JPH::JPH_PI));
  std::vector<int> actuators;
  for (int i = 0; i < ant->nu(); ++i) actuators.push_back(i);
  for (int i = 0; i < params.num_ants; ++i) {
    AgentSpec agent;
    agent.name = "agent_" + std::to_string(i);
    SetActionBox(*ant, actuators, agent);
    agent.obs_dim = ant_task_->obs_dim() + kSwarmObs;
    agents_.push_back(agent);
    robots_.push_back(RobotPlacement{ant});
  }
  robots_.push_back(RobotPlacement{crate});
  rule_ = CollisionRule(int(robots_.size()), RobotContact::kAlways);
  state_dim_ = crate->nq() + crate->nv() + 2 + params.num_ants * (ant->nq() + ant->nv());
  box_distance_ = info_.Add("box_distance", /*at_reset=*/true);
  success_ = info_.Add("success");
  reward_progress_ = info_.Add("reward_progress");
  reward_ctrl_ = info_.Add("reward_ctrl");
}

void AntSwarmTask::InitWorkspace(MultiAgentWorkspace& ws) const {
  MultiAgentTask::InitWorkspace(ws);
  ws.values.assign(kValues, 0.0f);
}

float AntSwarmTask::BoxToGoal(EnvWorld world, const MultiAgentWorkspace& ws) const {
  const JPH::Vec3 p = TorsoOf(world.robot(box()));
  return std::hypot(ws.values[kGoalX] - p.GetX(), ws.values[kGoalY] - p.GetY());
}

void AntSwarmTask::Reset(EnvWorld world, Rng& rng, MultiAgentWorkspace& ws, double* infos) const {
  const float goal_angle = rng.Uniform(0.0f, 2.0f * JPH::JPH_PI);
  ws.values[kGoalX] = params_.goal_distance * std::cos(goal_angle);
  ws.values[kGoalY] = params_.goal_distance * std::sin(goal_angle);
  const float offset = rng.Uniform(0.0f, 2.0f * JPH::JPH_PI);
  for (int i = 0; i < params_.num_ants; ++i) {
    TaskWorkspace& rws = ws.robots[size_t(i)];
    Robot& robot = world.robot(i);
    ant_task_->SampleInitialState(robot, rng, rws);
    const float angle = offset + 2.0f * JPH::JPH_PI * float(i) / float(params_.num_ants);
    PlaceFreeRoot(rws, start_radius_ * std::cos(angle), start_radius_ * std::sin(angle), angle + JPH::JPH_PI);
    robot.SetState(rws.qpos.data(), rws.qvel.data());
  }
  ws.values[kDistanceBefore] = BoxToGoal(world, ws);
  for (int i = 0; i < params_.num_ants; ++i) InfoRow(infos + size_t(i) * size_t(info_.size())).Set(box_distance_, ws.values[kDistanceBefore]);
}

void AntSwarmTask::Observe(EnvWorld world, MultiAgentWorkspace& ws, float* obs, float* state) const {
  const int width = max_obs_dim();
  const Robot& crate = world.robot(box());
  const JPH::Vec3 box_pos = TorsoOf(crate);
  const JPH::Vec3 box_vel = crate.body(0).GetLinearVelocity();
  const JPH::Vec3 goal(ws.values[kGoalX], ws.values[kGoalY], 0.0f);
  for (int i = 0; i < params_.num_ants; ++i) {
    const Robot& robot = world.robot(i);
    float* row = obs + size_t(i) * size_t(width);
    ant_task_->Observe(robot, ws.robots[size_t(i)], row);
    float* out = row + ant_task_->obs_dim();
    const JPH::Quat to_heading = HeadingFrame(robot.body(0).GetRotation());
    const JPH::Vec3 self = TorsoOf(robot);
    const JPH::Vec3 self_vel = robot.body(0).GetLinearVelocity();
    const JPH::Vec3 terms[] = {to_heading * (box_pos - self), to_heading * (box_vel - self_vel)};
    for (const JPH::Vec3& v : terms)
      for (int k = 0; k < 3; ++k) *out++ = v[k];
    const JPH::Vec3 to_goal = to_heading * (goal - JPH::Vec3(self.GetX(), self.GetY(), 0.0f));
    const JPH::Vec3 box_to_goal = to_heading * (goal - JPH::Vec3(box_pos.GetX(), box_pos.GetY(), 0.0f));
    *out++ = to_goal.GetX(), *out++ = to_goal.GetY();
    *out++ = box_to_goal.GetX(), *out++ = box_to_goal.GetY();
    // The two nearest other ants (at most 15 candidates: a partial sort of two).
    int nearest[2] = {-1, -1};
    float best[2] = {0.0f, 0.0f};
    for (int j = 0; j < params_.num_ants; ++j) {
      if (j == i) continue;
      const float d = (TorsoOf(world.robot(j)) - self).LengthSq();
      if (nearest[0] < 0 || d < best[0]) {
        nearest[1] = nearest[0], best[1] = best[0];
        nearest[0] = j, best[0] = d;
      } else if (nearest[1] < 0 || d < best[1]) {
        nearest[1] = j, best[1] = d;
      }
    }
    for (int n : nearest) {
      const JPH::Vec3 rel = n >= 0 ? to_heading * (TorsoOf(world.robot(n)) - self) : JPH::Vec3::sZero();
      for (int k = 0; k < 3; ++k) *out++ = rel[k];
    }
    std::fill(out, row + width, 0.0f);
  }
  TaskWorkspace& bws = ws.robots[size_t(box())];
  crate.GetQpos(bws.qpos.data());
  crate.GetQvel(bws.qvel.data());
  state = std::copy(bws.qpos.begin(), bws.qpos.end(), state);
  state = std::copy(bws.qvel.begin(), bws.qvel.end(), state);
  *state++ = ws.values[kGoalX];
  *state++ = ws.values[kGoalY];
  for (int i = 0; i < params_.num_ants; ++i) {
    const TaskWorkspace& rws = ws.robots[size_t(i)];  // the ant's observation just read them
    state = std::copy(rws.qpos.begin(), rws.qpos.end(), state);
    state = std::copy(rws.qvel.begin(), rws.qvel.end(), state);
  }
}

void AntSwarmTask::Prepare(EnvWorld world, const float* actions, MultiAgentWorkspace& ws) const {
  const int width = max_act_dim();
  for (int i = 0; i < params_.num_ants; ++i)
    ant_task_->Prepare(world.robot(i), actions + size_t(i) * size_t(width), ws.robots[size_t(i)]);
}

void AntSwarmTask::Score(EnvWorld world, const float* actions, int, MultiAgentWorkspace& ws, float* rewards,
                         bool* terminated, double* infos) const {
  const float distance = BoxToGoal(world, ws);
  const float progress = params_.progress_weight * (ws.values[kDistanceBefore] - distance) / dt();
  ws.values[kDistanceBefore] = distance;
  const bool success = distance < params_.goal_radius;
  const int width = max_act_dim();
  float ctrl = 0.0f;
  for (int i = 0; i < params_.num_ants; ++i) {
    ExternalContactForces(world.robot(i), ws.robots[size_t(i)].contact_forces.data());
    ctrl += SquaredNorm(actions + size_t(i) * size_t(width), agent(i).act_dim);
  }
  ctrl = -params_.ctrl_cost_weight * ctrl / float(params_.num_ants);
  const float reward = progress + ctrl + (success ? params_.success_reward : 0.0f);
  for (int i = 0; i < params_.num_ants; ++i) {
    rewards[i] = reward;
    terminated[i] = success;
    InfoRow info(infos + size_t(i) * size_t(info_.size()));
    info.Set(box_distance_, distance);
    info.Set(success_, success ? 1.0 : 0.0);
    info.Set(reward_progress_, progress);
    info.Set(reward_ctrl_, ctrl);
  }
}

std::vector<FloorMark> AntSwarmTask::FloorMarks(const MultiAgentWorkspace& ws) const {
  return {FloorMark{ws.values[kGoalX], ws.values[kGoalY], params_.goal_radius, true}};
}

}  // namespace joltgym
