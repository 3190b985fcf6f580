// Task parameters by name: each task's Params struct lists its fields once, with
// their defaults, and this turns the list into defaults for Python and into a
// Params struct from named values (Python keyword arguments).
//
// A Params struct declares its fields for these helpers with
//   template <class Visit> void VisitFields(Visit&& visit) { visit("name", name); ... }
#pragma once

#include "model/body_ref.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace joltgym {

using Range = std::array<float, 2>;
using ParamValue = std::variant<bool, int, float, Range, BodyRef>;
using ParamValues = std::map<std::string, ParamValue>;

struct ParamInfo {
  std::string name;
  ParamValue default_value;
};

// The fields of a default-constructed Params, in declaration order.
template <class Params>
std::vector<ParamInfo> DescribeParams() {
  std::vector<ParamInfo> out;
  Params defaults;
  defaults.VisitFields([&out](const char* name, const auto& field) { out.push_back({name, ParamValue(field)}); });
  return out;
}

// Params with `values` set over its defaults. Names must be fields and values of the
// field's kind (the bindings check both); a range must be ordered and no float NaN,
// else std::invalid_argument naming the parameter.
template <class Params>
Params MakeParams(const ParamValues& values) {
  Params params;
  std::vector<std::string> known;
  params.VisitFields([&](const char* name, auto& field) {
    known.push_back(name);
    using Field = std::decay_t<decltype(field)>;
    const auto it = values.find(name);
    if (it != values.end()) {
      const Field* value = std::get_if<Field>(&it->second);
      if (!value) throw std::invalid_argument(std::string(name) + ": value of the wrong kind");
      field = *value;
    }
    if constexpr (std::is_same_v<Field, float>) {
      if (std::isnan(field)) throw std::invalid_argument(std::string(name) + " must not be NaN");
    } else if constexpr (std::is_same_v<Field, Range>) {
      if (std::isnan(field[0]) || std::isnan(field[1]) || field[0] > field[1])
        throw std::invalid_argument(std::string(name) + " must be an ordered (low, high) pair, got (" +
                                    std::to_string(field[0]) + ", " + std::to_string(field[1]) + ")");
    }
  });
  for (const auto& [name, value] : values) {
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    std::string list;
    for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
    throw std::invalid_argument("unknown task parameter '" + name + "'; parameters: " + list);
  }
  return params;
}

}  // namespace joltgym
