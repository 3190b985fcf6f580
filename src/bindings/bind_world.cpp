// The low-level World: stepping with raw controls and reading generalized state.
// Used by tests, analytic checks and tools; environments use the task classes.
#include "bindings/array_convert.h"
#include "bindings/bindings.h"
#include "bindings/world_arrays.h"

#include <memory>
#include <mutex>

namespace joltgym::bindings {
namespace {

// A world with its own stepping scratch. Its lock serialises calls from several
// Python threads (step releases the GIL).
struct PyWorld {
  explicit PyWorld(ModelPtr model) : world(std::move(model)) {}
  template <class F>
  decltype(auto) WithWorld(F&& f) {
    std::lock_guard<std::mutex> lock(mutex);
    return f(world);
  }
  std::mutex mutex;
  World world;
  StepContext ctx;
};

}  // namespace

void BindWorld(py::module_& m) {
  py::class_<PyWorld> cls(m, "World", "One Jolt world built from a compiled Model.");
  cls.def(py::init([](std::shared_ptr<CompiledModel> model) { return std::make_unique<PyWorld>(model); }),
          py::arg("model"))
      .def(
          "step",
          [](PyWorld& self, const py::object& ctrl, int nsteps) {
            auto c = AsFloatArray(ctrl, {self.world.model().nu()}, "ctrl");
            if (nsteps < 0) throw py::value_error("nsteps must be >= 0");
            py::gil_scoped_release release;
            self.WithWorld([&](World& w) {
              for (int i = 0; i < nsteps; ++i) w.Step(c.data(), self.ctx);
            });
          },
          py::arg("ctrl"), py::arg("nsteps") = 1, "Advance nsteps model timesteps with controls ctrl (length nu).")
      .def("restore_initial_state", [](PyWorld& self) { self.WithWorld([](World& w) { w.RestoreInitialState(); }); });
  DefineWorldViews(cls, [](PyWorld& s, auto&& f) { return s.WithWorld(f); });
}

}  // namespace joltgym::bindings
