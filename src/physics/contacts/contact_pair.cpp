#include "physics/contacts/contact_pair.h"

#include <algorithm>

namespace joltgym {
namespace {

constexpr float kMinValue = 1e-15f;  // MuJoCo's mjMINVAL

}  // namespace

ContactPair MixContactPair(const GeomDesc& a, const GeomDesc& b, float timestep) {
  std::array<float, 2> solref;
  std::array<float, 5> solimp;
  int condim;
  float friction;
  if (a.priority != b.priority) {
    const GeomDesc& winner = a.priority > b.priority ? a : b;
    solref = winner.solref;
    solimp = winner.solimp;
    condim = winner.condim;
    friction = winner.friction;
  } else {
    condim = std::max(a.condim, b.condim);
    friction = std::max(a.friction, b.friction);
    float mix;
    if (a.solmix >= kMinValue && b.solmix >= kMinValue)
      mix = a.solmix / (a.solmix + b.solmix);
    else if (a.solmix < kMinValue && b.solmix < kMinValue)
      mix = 0.5f;
    else
      mix = a.solmix < kMinValue ? 0.0f : 1.0f;
    const bool standard = a.solref[0] > 0.0f && b.solref[0] > 0.0f;
    for (int i = 0; i < 2; ++i)
      solref[i] = standard ? mix * a.solref[i] + (1.0f - mix) * b.solref[i] : std::min(a.solref[i], b.solref[i]);
    for (int i = 0; i < 5; ++i) solimp[i] = mix * a.solimp[i] + (1.0f - mix) * b.solimp[i];
  }
  return ContactPairOf(condim, friction, solref, solimp, a.margin + b.margin, a.invweight + b.invweight, timestep);
}

ContactPair ExplicitContactPair(const ContactPairDesc& desc, const GeomDesc& a, const GeomDesc& b, float timestep) {
  return ContactPairOf(desc.condim, desc.friction, desc.solref, desc.solimp, desc.margin, a.invweight + b.invweight,
                       timestep);
}

ContactPair ContactPairOf(int condim, float friction, const std::array<float, 2>& solref,
                          const std::array<float, 5>& solimp, float margin, float invweight, float timestep) {
  ContactPair pair;
  pair.detect_margin = margin;
  pair.friction = friction;
  pair.frictional = condim > 1;
  const float mu2 = friction * friction;
  const float row_invweight = pair.frictional ? 2.0f * mu2 * (1.0f + mu2) * invweight : invweight;
  pair.soft = SoftLimit::FromMuJoCo(solref, solimp, margin, row_invweight, timestep);
  return pair;
}

}  // namespace joltgym
