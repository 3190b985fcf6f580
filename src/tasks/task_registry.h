// Every task kind by name ("HalfCheetah", "SumoAnts", ...): its parameters with their
// defaults, and how to build it. Each task's .cpp registers itself with
// JOLTGYM_REGISTER_TASK, so adding a task touches no list here or in the bindings.
// Single-robot tasks (Task) are built on one model; multi-agent tasks on the models of
// their robots.
#pragma once

#include "physics/model/compiled_model.h"
#include "tasks/task_params.h"

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace joltgym {

class Task;

// A task kind that builds a `Product` from an `Input` (a model, or the models of several robots).
template <class Product, class Input>
class TaskKind {
 public:
  using Made = Product;
  using Factory = std::function<std::shared_ptr<Product>(const Input&, const ParamValues&)>;

  TaskKind(std::string name, std::vector<ParamInfo> params, Factory factory)
      : name_(std::move(name)), params_(std::move(params)), factory_(std::move(factory)) {}

  const std::string& name() const { return name_; }
  const std::vector<ParamInfo>& params() const { return params_; }
  const ParamInfo* FindParam(const std::string& name) const {
    for (const ParamInfo& p : params_)
      if (p.name == name) return &p;
    return nullptr;
  }
  // The task for `input` with `values` over the defaults; std::invalid_argument names a
  // parameter the model or the task rejects.
  std::shared_ptr<Product> Create(const Input& input, const ParamValues& values) const {
    return factory_(input, values);
  }

  // The registered kinds in name order; Find throws std::invalid_argument listing them.
  static std::vector<const TaskKind*> All() {
    std::vector<const TaskKind*> out;
    for (const auto& [name, kind] : Registry()) out.push_back(&kind);
    return out;
  }
  static const TaskKind& Find(const std::string& name) {
    const auto it = Registry().find(name);
    if (it != Registry().end()) return it->second;
    std::string known;
    for (const auto& [n, kind] : Registry()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown task '" + name + "'; known tasks: " + known);
  }
  // Adds a kind at static initialisation (joltgym_core is an object library, so every
  // task's registration is linked in).
  struct Registration {
    explicit Registration(TaskKind kind) {
      const std::string name = kind.name();
      if (!Registry().emplace(name, std::move(kind)).second)
        throw std::logic_error("task '" + name + "' registered twice");
    }
  };

 private:
  static std::map<std::string, TaskKind>& Registry() {
    static std::map<std::string, TaskKind> registry;  // filled during static initialisation, read-only after
    return registry;
  }

  std::string name_;
  std::vector<ParamInfo> params_;
  Factory factory_;
};

using TaskType = TaskKind<Task, CompiledModel>;

template <class Kind, class TaskClass, class Params>
Kind MakeTaskKind(std::string name) {
  return Kind(std::move(name), DescribeParams<Params>(), [](const auto& input, const ParamValues& values) {
    return std::shared_ptr<typename Kind::Made>(std::make_shared<TaskClass>(input, MakeParams<Params>(values)));
  });
}

#define JOLTGYM_TASK_CONCAT2(a, b) a##b
#define JOLTGYM_TASK_CONCAT(a, b) JOLTGYM_TASK_CONCAT2(a, b)
// JOLTGYM_REGISTER_TASK("Hopper", HopperTask, HopperParams) in a single-robot task's .cpp.
#define JOLTGYM_REGISTER_TASK(name, TaskClass, Params)                                       \
  static const ::joltgym::TaskType::Registration JOLTGYM_TASK_CONCAT(kTaskRegistration, __LINE__)( \
      ::joltgym::MakeTaskKind<::joltgym::TaskType, TaskClass, Params>(name))

}  // namespace joltgym
