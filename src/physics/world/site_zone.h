// Whether a ray meets a site's volume, as MuJoCo's touch sensor asks it (mju_rayGeom >= 0): some
// point of the ray at or beyond its origin lies inside the site's shape (always true when the
// origin is inside).
#pragma once

#include "model/model_desc.h"

#include <Jolt/Jolt.h>

namespace joltgym {

// origin and direction in the site's frame; size is MuJoCo's site_size.
bool RayMeetsSiteZone(SiteType type, const Vec3f& size, JPH::Vec3Arg origin, JPH::Vec3Arg direction);

}  // namespace joltgym
