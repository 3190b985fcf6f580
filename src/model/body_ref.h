// A MuJoCo body named by id or by name (Gymnasium's main_body), and its lookup.
#pragma once

#include "model/model_desc.h"

#include <stdexcept>
#include <string>

namespace joltgym {

struct BodyRef {
  int id = -1;       // used when name is empty
  std::string name;
};

// The MuJoCo id of `body` if it moves (is not welded to the world); otherwise
// std::invalid_argument naming `what` and the model's moving bodies.
inline int FindMovingMjBody(const ModelDesc& desc, const BodyRef& body, const std::string& what) {
  const auto& frames = desc.mj_body_frames;
  int id = body.id;
  if (!body.name.empty()) {
    id = -1;
    for (size_t i = 0; i < frames.size(); ++i)
      if (frames[i].name == body.name) id = int(i);
  }
  if (id < 0 || id >= int(frames.size()) || frames[size_t(id)].body < 0) {
    std::string moving;
    for (const BodyFrameDesc& f : frames)
      if (f.body >= 0) moving += (moving.empty() ? "'" : ", '") + f.name + "'";
    const std::string given = body.name.empty() ? std::to_string(body.id) : "'" + body.name + "'";
    throw std::invalid_argument(what + ": " + given + " is not a moving body of model '" + desc.name +
                                "'; moving bodies: " + moving);
  }
  return id;
}

}  // namespace joltgym
