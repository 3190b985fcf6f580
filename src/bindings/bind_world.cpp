// The low-level World: one or several robots stepped with raw controls, and each
// robot's generalized state. Used by tests, analytic checks and tools; environments
// use the task classes.
#include "bindings/array_convert.h"
#include "bindings/bindings.h"
#include "bindings/render_frame.h"
#include "bindings/world_arrays.h"
#include "physics/core/jolt_runtime.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>

namespace joltgym::bindings {
namespace {

// A world with its own stepping scratch. Its lock serialises calls from several
// Python threads (step releases the GIL).
struct PyWorld {
  template <class... Args>
  explicit PyWorld(Args&&... args) : world(std::forward<Args>(args)...), ctx(TempBytesFor(world)) {}
  template <class F>
  decltype(auto) WithWorld(F&& f) {
    std::lock_guard<std::mutex> lock(mutex);
    return f(world);
  }
  std::mutex mutex;
  World world;
  StepContext ctx;
};

// One robot of a PyWorld, for Python: keeps the world alive and reads under its lock.
struct PyRobot {
  std::shared_ptr<PyWorld> owner;
  int index;
  template <class F>
  decltype(auto) WithRobot(F&& f) {
    return owner->WithWorld([&](World& w) -> decltype(auto) { return f(w.robot(index)); });
  }
};

RobotContact ContactFromName(const std::string& name) {
  if (name == "bitmasks") return RobotContact::kBitmasks;
  if (name == "always") return RobotContact::kAlways;
  if (name == "none") return RobotContact::kNone;
  throw py::value_error("robot contact must be 'bitmasks', 'always' or 'none', got '" + name + "'");
}

// contacts: one name for every pair, or an n x n table of names.
CollisionRule RuleFrom(const py::object& contacts, int n) {
  if (py::isinstance<py::str>(contacts)) return CollisionRule(n, ContactFromName(contacts.cast<std::string>()));
  const auto table = contacts.cast<std::vector<std::vector<std::string>>>();
  if (int(table.size()) != n) throw py::value_error("contacts needs one row per robot");
  CollisionRule rule(n);
  for (int a = 0; a < n; ++a) {
    if (int(table[size_t(a)].size()) != n) throw py::value_error("contacts needs one column per robot");
    for (int b = 0; b < n; ++b) {
      if (table[size_t(a)][size_t(b)] != table[size_t(b)][size_t(a)])
        throw py::value_error("contacts must be symmetric");
      rule.Set(a, b, ContactFromName(table[size_t(a)][size_t(b)]));
    }
  }
  return rule;
}

}  // namespace

void BindWorld(py::module_& m) {
  py::class_<PyWorld, std::shared_ptr<PyWorld>> cls(
      m, "World",
      "A Jolt world of one robot (World(model)) or several (World([m1, m2, ...], origins=, contacts=)); the "
      "views below read robot 0, `robots[i]` reads robot i.");
  cls.def(py::init([](std::shared_ptr<CompiledModel> model) { return std::make_shared<PyWorld>(model); }),
          py::arg("model"))
      .def(py::init([](const std::vector<std::shared_ptr<CompiledModel>>& models,
                       const std::vector<std::array<float, 3>>& origins, const py::object& contacts) {
             const int n = int(models.size());
             if (n < 1) throw py::value_error("a world needs at least one model");
             if (!origins.empty() && int(origins.size()) != n) throw py::value_error("give one origin per model");
             std::vector<RobotPlacement> robots;
             for (int i = 0; i < n; ++i) {
               JPH::RVec3 origin = JPH::RVec3::sZero();
               if (!origins.empty()) origin = JPH::RVec3(origins[size_t(i)][0], origins[size_t(i)][1], origins[size_t(i)][2]);
               robots.push_back({models[size_t(i)], origin});
             }
             return std::make_shared<PyWorld>(robots, RuleFrom(contacts, n));
           }),
           py::arg("models"), py::arg("origins") = std::vector<std::array<float, 3>>{},
           py::arg("contacts") = py::str("bitmasks"),
           "contacts between robots: 'bitmasks' (MuJoCo's contype/conaffinity), 'always', 'none', or an n x n table.")
      .def(
          "step",
          [](PyWorld& self, const py::object& ctrl, int nsteps) {
            if (nsteps < 0) throw py::value_error("nsteps must be >= 0");
            const int n = self.world.num_robots();
            std::vector<FloatArray> controls;
            if (n == 1 && !py::isinstance<py::list>(ctrl) && !py::isinstance<py::tuple>(ctrl)) {
              controls.push_back(AsFloatArray(ctrl, {self.world.robot(0).model().nu()}, "ctrl"));
            } else {
              const py::sequence seq = ctrl.cast<py::sequence>();
              if (int(py::len(seq)) != n) throw py::value_error("give one control array per robot");
              for (int i = 0; i < n; ++i)
                controls.push_back(AsFloatArray(seq[size_t(i)], {self.world.robot(i).model().nu()},
                                                ("ctrl[" + std::to_string(i) + "]").c_str()));
            }
            {
              py::gil_scoped_release release;
              self.WithWorld([&](World& w) {
                for (int i = 0; i < n; ++i) w.robot(i).SetControls(controls[size_t(i)].data());
              });
            }
            // Long calls step in chunks and look for Python signals between them, so that
            // Ctrl-C interrupts them between chunks; a chunk takes milliseconds even for a
            // Humanoid, so the interrupt comes promptly.
            constexpr int kStepsBetweenSignalChecks = 64;
            for (int done = 0; done < nsteps;) {
              const int chunk = std::min(kStepsBetweenSignalChecks, nsteps - done);
              {
                py::gil_scoped_release release;
                self.WithWorld([&](World& w) {
                  for (int i = 0; i < chunk; ++i) w.Step(self.ctx);
                });
              }
              done += chunk;
              if (done < nsteps && PyErr_CheckSignals() != 0) throw py::error_already_set();
            }
          },
          py::arg("ctrl"), py::arg("nsteps") = 1,
          "Advance nsteps model timesteps; ctrl is robot 0's controls, or a list with each robot's. "
          "A signal (Ctrl-C) interrupts a long call between chunks of steps.")
      .def("restore_initial_state", [](PyWorld& self) { self.WithWorld([](World& w) { w.RestoreInitialState(); }); })
      .def(
          "restore_robot_initial_state",
          [](PyWorld& self, int robot) { self.WithWorld([&](World& w) { w.RestoreRobotInitialState(robot); }); },
          py::arg("robot"),
          "Robot `robot` alone back to its initial state; only for robots that touch nothing through Jolt.")
      .def_property_readonly("num_robots", [](PyWorld& self) { return self.world.num_robots(); })
      .def_property_readonly("robots", [](const std::shared_ptr<PyWorld>& self) {
        py::list out;
        for (int i = 0; i < self->world.num_robots(); ++i) out.append(PyRobot{self, i});
        return out;
      });
  DefRender<PyWorld>(cls, [](PyWorld& s, auto&& f) { s.WithWorld(f); });
  DefineWorldViews(cls, [](PyWorld& s, auto&& f) {
    return s.WithWorld([&](World& w) -> decltype(auto) { return f(w.robot(0)); });
  });

  py::class_<PyRobot> robot(m, "Robot", "One robot of a World: its state in its model's MuJoCo layout.");
  robot.def_property_readonly("index", [](const PyRobot& r) { return r.index; })
      .def_property_readonly("origin", [](PyRobot& r) {
        return r.WithRobot([](Robot& rb) {
          const JPH::RVec3 o = rb.origin();
          return py::make_tuple(float(o.GetX()), float(o.GetY()), float(o.GetZ()));
        });
      })
      .def_property_readonly(
          "colliding_bodies",
          [](PyRobot& r) {
            return r.WithRobot([](Robot& rb) {
              py::list out;
              for (int i = 0; i < rb.num_bodies(); ++i) out.append(rb.body(i).GetObjectLayer() != layers::kInert);
              return out;
            });
          },
          "Per body: whether Jolt's broad phase looks for its contacts (False: no rule lets it touch "
          "anything through Jolt, e.g. a body whose only contacts are soft floor rows).");
  DefineWorldViews(robot, [](PyRobot& r, auto&& f) { return r.WithRobot(f); });
}

}  // namespace joltgym::bindings
