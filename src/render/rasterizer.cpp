#include "render/rasterizer.h"

#include <algorithm>
#include <cmath>

namespace joltgym {

void Rasterizer::Begin(int width, int height, std::uint8_t* rgb) {
  width_ = width;
  height_ = height;
  rgb_ = rgb;
  inv_depth_.assign(size_t(width) * size_t(height), 0.0f);
  flags_.assign(size_t(width) * size_t(height), 0);
}

// Visits the pixels whose centres lie in the triangle (edge functions with a top-left-ish
// tie rule), handing shade(index, l0, l1, l2) the barycentric weights. area > 0.
template <class Shade>
void Rasterizer::Scan(const ScreenVertex& a, const ScreenVertex& b, const ScreenVertex& c, float area, Shade shade) {
  const int x0 = std::max(0, int(std::floor(std::min({a.x, b.x, c.x}))));
  const int x1 = std::min(width_ - 1, int(std::ceil(std::max({a.x, b.x, c.x}))));
  const int y0 = std::max(0, int(std::floor(std::min({a.y, b.y, c.y}))));
  const int y1 = std::min(height_ - 1, int(std::ceil(std::max({a.y, b.y, c.y}))));
  if (x0 > x1 || y0 > y1) return;
  const float inv_area = 1.0f / area;
  // Edge function of p against edge (p, q): positive inside for counter-clockwise (y down: clockwise) order.
  const auto edge = [](const ScreenVertex& p, const ScreenVertex& q, float x, float y) {
    return (q.x - p.x) * (y - p.y) - (q.y - p.y) * (x - p.x);
  };
  const float px = float(x0) + 0.5f, py = float(y0) + 0.5f;
  float row0 = edge(b, c, px, py), row1 = edge(c, a, px, py), row2 = edge(a, b, px, py);
  const float dx0 = -(c.y - b.y), dx1 = -(a.y - c.y), dx2 = -(b.y - a.y);
  const float dy0 = c.x - b.x, dy1 = a.x - c.x, dy2 = b.x - a.x;
  for (int y = y0; y <= y1; ++y, row0 += dy0, row1 += dy1, row2 += dy2) {
    float w0 = row0, w1 = row1, w2 = row2;
    size_t index = size_t(y) * size_t(width_) + size_t(x0);
    for (int x = x0; x <= x1; ++x, w0 += dx0, w1 += dx1, w2 += dx2, ++index)
      if (w0 >= 0.0f && w1 >= 0.0f && w2 >= 0.0f) shade(index, w0 * inv_area, w1 * inv_area, w2 * inv_area);
  }
}

void Rasterizer::DrawTriangle(const ScreenVertex& a, const ScreenVertex& b, const ScreenVertex& c) {
  // With rows growing downwards, a counter-clockwise triangle (y up) has a negative area here.
  const float area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  if (!(area < 0.0f)) return;  // back-facing or degenerate
  Scan(a, c, b, -area, [&](size_t i, float l0, float l2, float l1) {
    const float z = l0 * a.inv_depth + l1 * b.inv_depth + l2 * c.inv_depth;
    if (z <= inv_depth_[i]) return;
    inv_depth_[i] = z;
    flags_[i] = 0;
    std::uint8_t* p = rgb_ + 3 * i;
    p[0] = std::uint8_t(l0 * a.r + l1 * b.r + l2 * c.r);
    p[1] = std::uint8_t(l0 * a.g + l1 * b.g + l2 * c.g);
    p[2] = std::uint8_t(l0 * a.b + l1 * b.b + l2 * c.b);
  });
}

void Rasterizer::ShadowTriangle(const ScreenVertex& a, const ScreenVertex& b, const ScreenVertex& c) {
  const float area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  const auto mark = [this](size_t i, float, float, float) {
    if (flags_[i] & kFloor) flags_[i] |= kShadow;
  };
  if (area > 0.0f)
    Scan(a, b, c, area, mark);
  else if (area < 0.0f)
    Scan(a, c, b, -area, mark);
}

void Rasterizer::ApplyShadow(float factor) {
  const size_t n = flags_.size();
  for (size_t i = 0; i < n; ++i)
    if (flags_[i] & kShadow)
      for (int k = 0; k < 3; ++k) rgb_[3 * i + size_t(k)] = std::uint8_t(float(rgb_[3 * i + size_t(k)]) * factor);
}

}  // namespace joltgym
