// What the two pools' asynchronous mode shares in Python: its counters and send_reset, and the env
// ids send takes.
#pragma once

#include "bindings/array_convert.h"

#include <cstdint>

namespace joltgym::bindings {

// send's env ids: a 1-D int32 array (ValueError otherwise).
inline Buffer<std::int32_t> EnvIds(const py::object& env_ids) {
  Buffer<std::int32_t> ids = Buffer<std::int32_t>::ensure(env_ids);
  if (!ids || ids.ndim() != 1) throw py::value_error("env_ids must be a 1-D integer array");
  return ids;
}

// batch_size, in_flight, ready and send_reset of a pool class (WorldPool, MultiAgentPool).
template <class Pool, class Class>
void DefAsyncCounters(Class& cls) {
  cls.def_property_readonly("batch_size", &Pool::batch_size, "envs each recv returns")
      .def_property_readonly(
          "in_flight", [](const Pool& self) { return self.in_flight(); },
          "envs sent actions (or a reset) that recv has not returned yet")
      .def_property_readonly(
          "ready", [](const Pool& self) { return self.ready(); },
          "envs whose steps finished and that recv has not returned yet")
      .def(
          "send_reset",
          [](Pool& self, const py::object& seeds) {
            Buffer<std::uint64_t> keep;
            const std::uint64_t* seed_array = SeedsOrNull(seeds, self.num_envs(), keep);
            py::gil_scoped_release release;
            self.SendReset(seed_array);
          },
          py::arg("seeds") = py::none(), "Send every env a reset (ending any asynchronous step in flight).");
}

}  // namespace joltgym::bindings
