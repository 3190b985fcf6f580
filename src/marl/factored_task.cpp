#include "marl/factored_task.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace joltgym {

FactoredTask::FactoredTask(ModelPtr model, std::shared_ptr<const Task> task, std::vector<FactoredAgent> agents)
    : MultiAgentTask(task ? task->frame_skip() : 1, model ? model->timestep() : 1.0f),
      task_(std::move(task)),
      factored_(std::move(agents)) {
  if (!model || !task_) throw std::invalid_argument("a factored task needs a model and its single-agent task");
  if (factored_.empty()) throw std::invalid_argument("a factored task needs at least one agent");
  const CompiledModel& m = *model;
  std::vector<int> owner(size_t(m.nu()), -1);
  for (size_t a = 0; a < factored_.size(); ++a) {
    AgentSpec spec;
    spec.name = "agent_" + std::to_string(a);
    SetActionBox(m, factored_[a].actuators, spec);
    for (int i : factored_[a].actuators) {
      if (owner[size_t(i)] >= 0)
        throw std::invalid_argument("actuator " + std::to_string(i) + " belongs to agent_" +
                                    std::to_string(owner[size_t(i)]) + " and " + spec.name);
      owner[size_t(i)] = int(a);
    }
    for (const ObservationSource& s : factored_[a].observation) {
      using K = ObservationSource::Kind;
      const int limit = s.kind == K::kState ? task_->obs_dim()
                        : s.kind == K::kQpos ? m.nq()
                        : s.kind == K::kQvel ? m.nv()
                                             : m.desc().mj_nbody;
      const bool ok = s.index >= 0 && s.index < limit &&
                      (s.kind != K::kBodyDelta || (s.other >= 0 && s.other < limit && s.axis >= 0 && s.axis < 3));
      if (!ok) throw std::invalid_argument(spec.name + ": an observation source is out of range");
      reads_coordinates_ = reads_coordinates_ || s.kind == K::kQpos || s.kind == K::kQvel;
    }
    spec.obs_dim = int(factored_[a].observation.size());
    agents_.push_back(spec);
  }
  for (int i = 0; i < m.nu(); ++i)
    if (owner[size_t(i)] < 0) throw std::invalid_argument("actuator " + std::to_string(i) + " belongs to no agent");
  state_dim_ = task_->obs_dim();
  info_ = task_->info_layout();
  robots_ = {RobotPlacement{std::move(model)}};
  rule_ = CollisionRule(1);
}

void FactoredTask::InitWorkspace(MultiAgentWorkspace& ws) const {
  MultiAgentTask::InitWorkspace(ws);
  ws.controls.assign(size_t(robots_.front().model->nu()), 0.0f);
  ws.robot_info.assign(size_t(info_.size()), 0.0);
}

void FactoredTask::CopyInfoToAgents(const MultiAgentWorkspace& ws, double* infos) const {
  for (int a = 0; a < num_agents(); ++a)
    std::copy(ws.robot_info.begin(), ws.robot_info.end(), infos + size_t(a) * ws.robot_info.size());
}

void FactoredTask::Reset(EnvWorld world, Rng& rng, MultiAgentWorkspace& ws, double* infos) const {
  Robot& robot = world.robot(0);
  TaskWorkspace& rws = ws.robots[0];
  task_->SampleInitialState(robot, rng, rws);
  robot.SetState(rws.qpos.data(), rws.qvel.data());
  std::fill(ws.robot_info.begin(), ws.robot_info.end(), 0.0);
  task_->ResetInfo(robot, rws, InfoRow(ws.robot_info.data()));
  CopyInfoToAgents(ws, infos);
}

void FactoredTask::Observe(EnvWorld world, MultiAgentWorkspace& ws, float* obs, float* state) const {
  Robot& robot = world.robot(0);
  TaskWorkspace& rws = ws.robots[0];
  task_->Observe(robot, rws, state);
  if (reads_coordinates_) {
    robot.GetQpos(rws.qpos.data());
    robot.GetQvel(rws.qvel.data());
  }
  const int width = max_obs_dim();
  for (int a = 0; a < num_agents(); ++a) {
    float* row = obs + size_t(a) * size_t(width);
    const auto& sources = factored_[size_t(a)].observation;
    for (size_t k = 0; k < sources.size(); ++k) {
      const ObservationSource& s = sources[k];
      switch (s.kind) {
        case ObservationSource::Kind::kState: row[k] = state[s.index]; break;
        case ObservationSource::Kind::kQpos: row[k] = rws.qpos[size_t(s.index)]; break;
        case ObservationSource::Kind::kQvel: row[k] = rws.qvel[size_t(s.index)]; break;
        case ObservationSource::Kind::kBodyDelta:
          row[k] = float((robot.MjBodyPosition(s.index) - robot.MjBodyPosition(s.other))[s.axis]);
          break;
      }
    }
    std::fill(row + sources.size(), row + width, 0.0f);
  }
}

void FactoredTask::Prepare(EnvWorld world, const float* actions, MultiAgentWorkspace& ws) const {
  const int width = max_act_dim();
  for (int a = 0; a < num_agents(); ++a) {
    const auto& indices = factored_[size_t(a)].actuators;
    for (size_t k = 0; k < indices.size(); ++k) ws.controls[size_t(indices[k])] = actions[size_t(a) * width + k];
  }
  task_->Prepare(world.robot(0), ws.controls.data(), ws.robots[0]);
}

void FactoredTask::Score(EnvWorld world, const float*, int, MultiAgentWorkspace& ws, float* rewards, bool* terminated,
                         double* infos) const {
  const StepOutcome outcome = task_->Finish(world.robot(0), ws.controls.data(), ws.robots[0], ws.robot_info.data());
  for (int a = 0; a < num_agents(); ++a) {
    rewards[a] = outcome.reward;
    terminated[a] = outcome.terminated;
  }
  CopyInfoToAgents(ws, infos);
}

}  // namespace joltgym
