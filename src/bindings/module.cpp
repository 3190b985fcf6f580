#include "bindings/bindings.h"

#include "physics/model/compiled_model.h"

namespace py = pybind11;

PYBIND11_MODULE(_native, m) {
  m.doc() = "joltgym's native core: Jolt Physics worlds built from MuJoCo-compiled models, and task logic.";
#ifdef JOLTGYM_VERSION
  m.attr("__version__") = JOLTGYM_VERSION;
#endif
  py::register_exception<joltgym::UnsupportedFeature>(m, "UnsupportedFeatureError", PyExc_ValueError);
  joltgym::bindings::BindModel(m);
  joltgym::bindings::BindWorld(m);
  joltgym::bindings::BindEnvs(m);
  joltgym::bindings::BindPool(m);
  joltgym::bindings::BindMarl(m);
  joltgym::bindings::BindRender(m);
}
