// Conversion of Python inputs to the float32 buffers the core reads.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <vector>

namespace joltgym::bindings {

namespace py = pybind11;

// A C-contiguous float32 copy (or view) of `obj` with exactly `shape`; numeric
// dtypes are converted, anything else raises TypeError, a wrong shape ValueError.
using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;

inline FloatArray AsFloatArray(const py::handle& obj, std::vector<py::ssize_t> shape,
                                                          const char* what) {
  py::array array;
  try {
    array = py::array::ensure(obj);
  } catch (const py::error_already_set&) {
  }
  if (!array) throw py::type_error(std::string(what) + " must be a numeric array");
  const char kind = array.dtype().kind();
  if (kind != 'f' && kind != 'i' && kind != 'u')
    throw py::type_error(std::string(what) + " must be numeric, got dtype " +
                         std::string(py::str(array.dtype())));
  bool shape_ok = array.ndim() == py::ssize_t(shape.size());
  for (size_t i = 0; shape_ok && i < shape.size(); ++i) shape_ok = array.shape(py::ssize_t(i)) == shape[i];
  if (!shape_ok) {
    std::string expected = "(", got = "(";
    for (size_t i = 0; i < shape.size(); ++i) expected += std::to_string(shape[i]) + (shape.size() == 1 ? "," : i + 1 < shape.size() ? ", " : "");
    for (py::ssize_t i = 0; i < array.ndim(); ++i) got += std::to_string(array.shape(i)) + (array.ndim() == 1 ? "," : i + 1 < array.ndim() ? ", " : "");
    throw py::value_error(std::string(what) + " has shape " + got + "), expected " + expected + ")");
  }
  FloatArray converted = FloatArray::ensure(array);
  if (!converted) throw py::type_error(std::string(what) + " could not be converted to float32");
  return converted;
}

template <class T>
using Buffer = py::array_t<T, py::array::c_style>;

// A caller-owned output buffer with exactly `shape` and T's dtype. Our own Python wrappers
// allocate these; still checked, a wrong one would otherwise be written out of bounds.
template <class T>
T* Writable(py::array& array, std::vector<py::ssize_t> shape, const char* what) {
  if (!py::isinstance<Buffer<T>>(array) || !(array.flags() & py::array::c_style) || !array.writeable())
    throw py::type_error(std::string(what) + ": expected a writable C-contiguous buffer of the right dtype");
  bool ok = array.ndim() == py::ssize_t(shape.size());
  for (size_t i = 0; ok && i < shape.size(); ++i) ok = array.shape(py::ssize_t(i)) == shape[i];
  if (!ok) throw py::value_error(std::string(what) + ": buffer has the wrong shape");
  return static_cast<T*>(array.mutable_data());
}

// Per-env seeds: null for None, else a uint64 array of n seeds kept alive in `keep`.
inline const std::uint64_t* SeedsOrNull(const py::object& seeds, py::ssize_t n, Buffer<std::uint64_t>& keep) {
  if (seeds.is_none()) return nullptr;
  keep = Buffer<std::uint64_t>::ensure(seeds);
  if (!keep || keep.ndim() != 1 || keep.shape(0) != n)
    throw py::value_error("seeds must be a uint64 array of length num_envs");
  return keep.data();
}

}  // namespace joltgym::bindings
