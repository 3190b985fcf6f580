// Declarations of the per-area binding functions that module.cpp calls.
#pragma once

#include <pybind11/pybind11.h>

namespace joltgym::bindings {

namespace py = pybind11;

void BindModel(py::module_& m);
void BindWorld(py::module_& m);
void BindEnvs(py::module_& m);
void BindPool(py::module_& m);
void BindMarl(py::module_& m);
void BindRender(py::module_& m);

}  // namespace joltgym::bindings
