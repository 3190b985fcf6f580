#include "marl/multi_agent_task.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace joltgym {

MultiAgentTask::MultiAgentTask(int frame_skip, float timestep)
    : frame_skip_(frame_skip), dt_(timestep * float(frame_skip)) {
  if (frame_skip < 1) throw std::invalid_argument("frame_skip must be >= 1, got " + std::to_string(frame_skip));
}

int MultiAgentTask::max_obs_dim() const {
  int n = 0;
  for (const AgentSpec& a : agents_) n = std::max(n, a.obs_dim);
  return n;
}

int MultiAgentTask::max_act_dim() const {
  int n = 0;
  for (const AgentSpec& a : agents_) n = std::max(n, a.act_dim);
  return n;
}

bool MultiAgentTask::CanPack() const {
  for (size_t a = 0; a < robots_.size(); ++a) {
    if (!CanShareWorld(robots_[a].model)) return false;
    for (size_t b = a + 1; b < robots_.size(); ++b)
      if (rule_.Between(int(a), int(b)) != RobotContact::kNone) return false;
  }
  return !robots_.empty();
}

void MultiAgentTask::InitWorkspace(MultiAgentWorkspace& ws) const {
  ws.knobs.clear();
  for (const Knob& k : knobs_) ws.knobs.push_back(k.initial);
  ws.robots.resize(robots_.size());
  for (size_t r = 0; r < robots_.size(); ++r) {
    const CompiledModel& m = *robots_[r].model;
    ws.robots[r].qpos.assign(size_t(m.nq()), 0.0f);
    ws.robots[r].qvel.assign(size_t(m.nv()), 0.0f);
    ws.robots[r].ctrl.assign(size_t(m.nu()), 0.0f);
    ws.robots[r].contact_forces.assign(size_t(m.desc().mj_nbody) * 6, 0.0f);
  }
}

void CheckKnobValue(const Knob& knob, float value) {
  if (!std::isfinite(value) || value < knob.min || value > knob.max) {
    std::ostringstream message;
    message << knob.name << " must be a finite value in [" << knob.min << ", " << knob.max << "], got " << value;
    throw std::invalid_argument(message.str());
  }
}

void SetActionBox(const CompiledModel& model, const std::vector<int>& indices, AgentSpec& agent) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  agent.act_low.clear();
  agent.act_high.clear();
  for (int i : indices) {
    if (i < 0 || i >= model.nu())
      throw std::invalid_argument(agent.name + ": actuator index " + std::to_string(i) + " out of range");
    const CompiledActuator& a = model.actuators()[size_t(i)];
    agent.act_low.push_back(a.ctrllimited ? a.ctrl_lo : -kInf);
    agent.act_high.push_back(a.ctrllimited ? a.ctrl_hi : kInf);
  }
  agent.act_dim = int(indices.size());
}

}  // namespace joltgym
