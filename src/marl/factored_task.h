// One robot driven by several agents, each owning some of its actuators, as in MaMuJoCo
// (Gymnasium-Robotics): the single-agent task steps and scores the robot unchanged, every
// agent gets its reward, termination and info, and each agent observes its own selection
// of the robot's state. The global state is the single-agent observation.
#pragma once

#include "marl/multi_agent_task.h"

#include <memory>
#include <vector>

namespace joltgym {

// Where one element of an agent's observation comes from.
struct ObservationSource {
  enum class Kind : int {
    kState = 0,      // the single-agent observation, element `index`
    kQpos = 1,       // MuJoCo's qpos[index], unclipped
    kQvel = 2,       // qvel[index], unclipped
    kBodyDelta = 3,  // xpos of MuJoCo body `index` minus xpos of body `other`, along axis `axis`
  };
  Kind kind = Kind::kState;
  int index = 0;
  int other = 0;
  int axis = 0;
};

struct FactoredAgent {
  std::vector<int> actuators;                  // the global action indices the agent's action fills, in order
  std::vector<ObservationSource> observation;  // its observation, element by element
};

class FactoredTask final : public MultiAgentTask {
 public:
  FactoredTask(ModelPtr model, std::shared_ptr<const Task> task, std::vector<FactoredAgent> agents);

  const Task& single_agent_task() const { return *task_; }

  void InitWorkspace(MultiAgentWorkspace& ws) const override;
  void Reset(EnvWorld world, Rng& rng, MultiAgentWorkspace& ws, double* infos) const override;
  void Observe(EnvWorld world, MultiAgentWorkspace& ws, float* obs, float* state) const override;
  void Prepare(EnvWorld world, const float* actions, MultiAgentWorkspace& ws) const override;
  void Score(EnvWorld world, const float* actions, int elapsed, MultiAgentWorkspace& ws, float* rewards,
             bool* terminated, double* infos) const override;

 private:
  void CopyInfoToAgents(const MultiAgentWorkspace& ws, double* infos) const;

  std::shared_ptr<const Task> task_;
  std::vector<FactoredAgent> factored_;
  bool reads_coordinates_ = false;  // some agent observes raw qpos/qvel
};

}  // namespace joltgym
