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
  // The bounding box: truncation is floor once clamped at 0, and + 1 covers ceil (the edge
  // functions decide), both without the library calls floor and ceil compile to on baseline x86-64.
  const float lo_x = std::min({a.x, b.x, c.x}), hi_x = std::max({a.x, b.x, c.x});
  const float lo_y = std::min({a.y, b.y, c.y}), hi_y = std::max({a.y, b.y, c.y});
  if (!(hi_x >= 0.0f && hi_y >= 0.0f && lo_x <= float(width_) && lo_y <= float(height_))) return;  // also NaN
  const int x0 = int(std::max(lo_x, 0.0f)), x1 = std::min(width_ - 1, int(std::min(hi_x, float(width_))) + 1);
  const int y0 = int(std::max(lo_y, 0.0f)), y1 = std::min(height_ - 1, int(std::min(hi_y, float(height_))) + 1);
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
  // Each row visits only the columns where every edge function can be >= 0 (w = row + (x - x0) dx),
  // widened by a column each side for rounding: a thin slanted triangle's box is mostly outside it.
  const float dxs[3] = {dx0, dx1, dx2};
  float inv_dx[3];
  for (int k = 0; k < 3; ++k) inv_dx[k] = dxs[k] != 0.0f ? 1.0f / dxs[k] : 0.0f;
  for (int y = y0; y <= y1; ++y, row0 += dy0, row1 += dy1, row2 += dy2) {
    const float rows[3] = {row0, row1, row2};
    float lo = float(x0), hi = float(x1);
    bool empty = false;
    for (int k = 0; k < 3; ++k) {
      if (dxs[k] > 0.0f) lo = std::max(lo, float(x0) - rows[k] * inv_dx[k]);
      else if (dxs[k] < 0.0f) hi = std::min(hi, float(x0) - rows[k] * inv_dx[k]);
      else empty |= rows[k] < 0.0f;
    }
    if (empty || lo > hi + 1.0f) continue;
    const int first = std::max(x0, int(std::min(lo, float(x1))) - 1), last = std::min(x1, int(std::max(hi, float(x0))) + 1);
    const float skip = float(first - x0);
    float w0 = row0 + skip * dx0, w1 = row1 + skip * dx1, w2 = row2 + skip * dx2;
    size_t index = size_t(y) * size_t(width_) + size_t(first);
    for (int x = first; x <= last; ++x, w0 += dx0, w1 += dx1, w2 += dx2, ++index)
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
