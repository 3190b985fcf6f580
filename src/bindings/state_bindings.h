// Saved env states (envs/saved_state.h) in Python: bytes, one object per env, for both pools,
// the single env and the multi-agent env.
#pragma once

#include "bindings/async_bindings.h"
#include "physics/core/state_buffer.h"

#include <string>
#include <vector>

namespace joltgym::bindings {

inline py::bytes StateBytes(const StateBuffer& state) {
  return py::bytes(reinterpret_cast<const char*>(state.data()), state.size());
}

// A state given as bytes (or any contiguous bytes-like object) into `out`; TypeError naming `which` otherwise.
inline void StateFromPython(const py::handle& obj, StateBuffer& out, const std::string& which) {
  if (!py::isinstance<py::buffer>(obj) || py::isinstance<py::str>(obj))
    throw py::type_error(which + " must be bytes from get_state(), got " + std::string(py::str(obj.get_type().attr("__name__"))));
  const py::buffer_info info = py::reinterpret_borrow<py::buffer>(obj).request();
  py::ssize_t expected = info.itemsize;
  bool contiguous = true;
  for (int d = info.ndim - 1; d >= 0; --d) {
    contiguous &= info.strides[size_t(d)] == expected;
    expected *= info.shape[size_t(d)];
  }
  if (!contiguous) throw py::type_error(which + " must be contiguous bytes from get_state()");
  out.Assign(static_cast<const unsigned char*>(info.ptr), size_t(info.size * info.itemsize));
}

// get_state(env_ids) -> list of bytes and set_state(states, env_ids) of a pool class (WorldPool,
// MultiAgentPool); env ids a 1-D int32 array.
template <class Pool, class Class>
void DefStateAccess(Class& cls) {
  cls.def(
         "get_state",
         [](Pool& self, const py::object& env_ids) {
           const Buffer<std::int32_t> ids = EnvIds(env_ids);
           std::vector<StateBuffer> states(size_t(ids.size()));
           {
             py::gil_scoped_release release;
             self.SaveStates(ids.data(), int(ids.size()), states.data());
           }
           py::list out;
           for (const StateBuffer& s : states) out.append(StateBytes(s));
           return out;
         },
         py::arg("env_ids"), "The saved state of each env in env_ids: a list of bytes.")
      .def(
          "set_state",
          [](Pool& self, const py::sequence& states, const py::object& env_ids) {
            const Buffer<std::int32_t> ids = EnvIds(env_ids);
            if (py::ssize_t(py::len(states)) != ids.size())
              throw py::value_error("set_state: " + std::to_string(py::len(states)) + " state(s) for " +
                                    std::to_string(ids.size()) + " env id(s)");
            std::vector<StateBuffer> buffers(size_t(ids.size()));
            for (size_t k = 0; k < buffers.size(); ++k) StateFromPython(states[k], buffers[k], "state " + std::to_string(k));
            py::gil_scoped_release release;
            self.RestoreStates(ids.data(), int(ids.size()), buffers.data());
          },
          py::arg("states"), py::arg("env_ids"), "Restores states[k] (get_state's bytes) into env env_ids[k].")
      .def_property_readonly("state_kind", &Pool::state_kind, "What this pool's saved states are of.");
}

}  // namespace joltgym::bindings
