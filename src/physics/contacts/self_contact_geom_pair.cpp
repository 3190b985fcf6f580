#include "physics/contacts/self_contact_geom_pair.h"

#include "physics/contacts/geom_shapes.h"

#include <algorithm>

namespace joltgym {

SelfContactLayout LayOutSelfContacts(const std::vector<SelfContactGeomPair>& pairs) {
  SelfContactLayout layout;
  float margin = 0.0f;  // the pairs' widest
  for (size_t p = 0; p < pairs.size(); ++p) {
    const SelfContactGeomPair& g = pairs[p];
    const float pair_margin = std::min(g.pair.detect_margin, g.pair.soft.margin);
    layout.reach.push_back(GeomReach(g.type1, g.size1) + GeomReach(g.type2, g.size2) + pair_margin);
    margin = std::max(margin, pair_margin);
    layout.first_slot.push_back(int(layout.pair_of.size()));
    layout.pair_of.insert(layout.pair_of.end(), size_t(g.max_contacts()), int(p));
  }
  layout.first_slot.push_back(int(layout.pair_of.size()));
  if (pairs.empty()) return layout;
  // Each body's geoms within a sphere about their mean centre.
  auto bound = [&](bool first, JPH::Vec3& centre) {
    centre = JPH::Vec3::sZero();
    for (const SelfContactGeomPair& g : pairs) centre += (first ? g.local1 : g.local2).GetTranslation();
    centre /= float(pairs.size());
    float radius = 0.0f;
    for (const SelfContactGeomPair& g : pairs)
      radius = std::max(radius, ((first ? g.local1 : g.local2).GetTranslation() - centre).Length() +
                                    (first ? GeomReach(g.type1, g.size1) : GeomReach(g.type2, g.size2)));
    return radius;
  };
  layout.reach_all = bound(true, layout.centre1) + bound(false, layout.centre2) + margin;
  return layout;
}

}  // namespace joltgym
