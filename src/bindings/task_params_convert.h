// Python keyword arguments <-> task parameters (tasks/task_params.h), checked by the
// kind of each parameter's default: errors name the task, the parameter and what it takes.
#pragma once

#include "tasks/task_registry.h"

#include <pybind11/pybind11.h>

#include <charconv>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <variant>

namespace joltgym::bindings {

namespace py = pybind11;

// The shortest decimal that reads back as the same float32 (0.1f -> 0.1, not 0.10000000149).
inline py::float_ ShortestFloat(float v) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof(text), v).ptr;
  return py::float_(std::strtod(std::string(text, end).c_str(), nullptr));
}

inline py::object ParamToPython(const ParamValue& value) {
  return std::visit(
      [](const auto& v) -> py::object {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, Range>) return py::make_tuple(ShortestFloat(v[0]), ShortestFloat(v[1]));
        else if constexpr (std::is_same_v<T, BodyRef>) return v.name.empty() ? py::object(py::int_(v.id)) : py::object(py::str(v.name));
        else if constexpr (std::is_same_v<T, bool>) return py::bool_(v);
        else if constexpr (std::is_same_v<T, int>) return py::int_(v);
        else return ShortestFloat(v);
      },
      value);
}

namespace detail {

inline bool IsBool(const py::handle& o) {
  return py::isinstance<py::bool_>(o) || py::isinstance(o, py::module_::import("numpy").attr("bool_"));
}
inline bool IsInteger(const py::handle& o) {
  return !IsBool(o) && (py::isinstance<py::int_>(o) || py::isinstance(o, py::module_::import("numpy").attr("integer")));
}
inline bool IsReal(const py::handle& o) {
  return IsInteger(o) || py::isinstance<py::float_>(o) ||
         py::isinstance(o, py::module_::import("numpy").attr("floating"));
}

}  // namespace detail

// The value of parameter `info` from `obj`; TypeError if obj is not of its kind.
inline ParamValue ParamFromPython(const std::string& task, const ParamInfo& info, const py::handle& obj) {
  using namespace detail;
  const auto fail = [&](const char* expected) {
    return py::type_error(task + ": " + info.name + " must be " + expected + ", got " +
                          std::string(py::repr(obj)) + " (" + std::string(py::str(obj.get_type().attr("__name__"))) + ")");
  };
  return std::visit(
      [&](const auto& default_value) -> ParamValue {
        using T = std::decay_t<decltype(default_value)>;
        if constexpr (std::is_same_v<T, bool>) {
          if (!IsBool(obj)) throw fail("a bool");
          return obj.cast<bool>();
        } else if constexpr (std::is_same_v<T, int>) {
          if (!IsInteger(obj)) throw fail("an int");
          const long long v = obj.cast<long long>();
          if (v < -2147483647LL || v > 2147483647LL) throw py::value_error(task + ": " + info.name + " is out of range");
          return int(v);
        } else if constexpr (std::is_same_v<T, float>) {
          if (!IsReal(obj)) throw fail("a number");
          return float(obj.cast<double>());
        } else if constexpr (std::is_same_v<T, Range>) {
          if (py::isinstance<py::str>(obj) || !py::isinstance<py::sequence>(obj) || py::len(obj) != 2)
            throw fail("a (low, high) pair of numbers");
          const py::sequence seq = py::reinterpret_borrow<py::sequence>(obj);
          if (!IsReal(seq[0]) || !IsReal(seq[1])) throw fail("a (low, high) pair of numbers");
          return Range{float(seq[0].cast<double>()), float(seq[1].cast<double>())};
        } else {
          if (IsInteger(obj)) return BodyRef{obj.cast<int>(), ""};
          if (py::isinstance<py::str>(obj)) return BodyRef{-1, obj.cast<std::string>()};
          throw fail("a body id (int) or name (str)");
        }
      },
      info.default_value);
}

// Keyword arguments as parameter values of `type`; TypeError names an unknown one and lists the valid ones.
template <class Kind>
ParamValues ParamsFromKwargs(const Kind& type, const py::dict& kwargs) {
  ParamValues values;
  for (const auto& [key, value] : kwargs) {
    const std::string name = py::str(key);
    const ParamInfo* info = type.FindParam(name);
    if (!info) {
      std::string valid;
      for (const ParamInfo& p : type.params()) valid += (valid.empty() ? "" : ", ") + p.name;
      throw py::type_error(type.name() + " got an unexpected keyword argument '" + name +
                           "'; valid keyword arguments: " + valid);
    }
    values[name] = ParamFromPython(type.name(), *info, value);
  }
  return values;
}

}  // namespace joltgym::bindings

namespace joltgym::bindings {

// name and defaults of a task kind's Python class (TaskType, MultiAgentTaskType).
template <class Class>
void DefineTaskKindBasics(Class& cls) {
  using Kind = typename Class::type;
  cls.def_property_readonly("name", &Kind::name)
      .def_property_readonly(
          "defaults",
          [](const Kind& t) {
            py::dict out;
            for (const ParamInfo& p : t.params()) out[py::str(p.name)] = ParamToPython(p.default_value);
            return out;
          },
          "Every keyword argument and its default, in declaration order.");
}

// kind.Create(input, kwargs) with parameter errors as Python's TypeError / ValueError.
template <class Kind, class Input>
std::shared_ptr<typename Kind::Made> CreateTask(const Kind& kind, const Input& input, const py::dict& kwargs) {
  const ParamValues values = ParamsFromKwargs(kind, kwargs);
  try {
    return kind.Create(input, values);
  } catch (const UnsupportedFeature&) {
    throw;
  } catch (const std::invalid_argument& e) {
    throw py::value_error(kind.name() + ": " + e.what());
  }
}

}  // namespace joltgym::bindings
