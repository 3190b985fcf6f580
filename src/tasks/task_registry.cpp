#include "tasks/task_registry.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace joltgym {
namespace {

std::map<std::string, TaskType>& Registry() {
  static std::map<std::string, TaskType> registry;  // built during static initialisation, read-only after
  return registry;
}

}  // namespace

const ParamInfo* TaskType::FindParam(const std::string& name) const {
  for (const ParamInfo& p : params_)
    if (p.name == name) return &p;
  return nullptr;
}

TaskRegistration::TaskRegistration(TaskType type) {
  const std::string name = type.name();
  if (!Registry().emplace(name, std::move(type)).second) throw std::logic_error("task '" + name + "' registered twice");
}

std::vector<const TaskType*> TaskTypes() {
  std::vector<const TaskType*> out;
  for (const auto& [name, type] : Registry()) out.push_back(&type);
  return out;
}

const TaskType& FindTaskType(const std::string& name) {
  const auto it = Registry().find(name);
  if (it != Registry().end()) return it->second;
  std::string known;
  for (const auto& [n, type] : Registry()) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown task '" + name + "'; known tasks: " + known);
}

}  // namespace joltgym
