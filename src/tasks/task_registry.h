// Every task kind by its Gymnasium name ("HalfCheetah", ...): its parameters with
// their defaults, and how to build it. Each task's .cpp registers itself with
// JOLTGYM_REGISTER_TASK, so adding a task touches no list here or in the bindings.
#pragma once

#include "tasks/task.h"
#include "tasks/task_params.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace joltgym {

class TaskType {
 public:
  using Factory = std::function<std::shared_ptr<Task>(const CompiledModel&, const ParamValues&)>;

  TaskType(std::string name, std::vector<ParamInfo> params, Factory factory)
      : name_(std::move(name)), params_(std::move(params)), factory_(std::move(factory)) {}

  const std::string& name() const { return name_; }
  const std::vector<ParamInfo>& params() const { return params_; }
  const ParamInfo* FindParam(const std::string& name) const;
  // The task for `model` with `values` over the defaults; std::invalid_argument names
  // a parameter the model or the task rejects.
  std::shared_ptr<Task> Create(const CompiledModel& model, const ParamValues& values) const {
    return factory_(model, values);
  }

 private:
  std::string name_;
  std::vector<ParamInfo> params_;
  Factory factory_;
};

// The registered task kinds in name order; Find throws std::invalid_argument listing them.
std::vector<const TaskType*> TaskTypes();
const TaskType& FindTaskType(const std::string& name);

// Adds a task kind at static initialisation (joltgym_core is an object library, so
// every task's registration is linked in).
struct TaskRegistration {
  explicit TaskRegistration(TaskType type);
};

template <class TaskClass, class Params>
TaskType MakeTaskType(std::string name) {
  return TaskType(std::move(name), DescribeParams<Params>(), [](const CompiledModel& model, const ParamValues& values) {
    return std::shared_ptr<Task>(std::make_shared<TaskClass>(model, MakeParams<Params>(values)));
  });
}

#define JOLTGYM_TASK_CONCAT2(a, b) a##b
#define JOLTGYM_TASK_CONCAT(a, b) JOLTGYM_TASK_CONCAT2(a, b)
// JOLTGYM_REGISTER_TASK("Hopper", HopperTask, HopperParams) in the task's .cpp.
#define JOLTGYM_REGISTER_TASK(name, TaskClass, Params)                                   \
  static const ::joltgym::TaskRegistration JOLTGYM_TASK_CONCAT(kTaskRegistration, __LINE__)( \
      ::joltgym::MakeTaskType<TaskClass, Params>(name))

}  // namespace joltgym
