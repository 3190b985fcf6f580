// A z-buffered triangle rasteriser into a caller's RGB8 image: Gouraud colours, depth as
// 1 / view depth (perspective-correct), and a floor shadow mask. Row 0 is the top.
#pragma once

#include <cstdint>
#include <vector>

namespace joltgym {

struct ScreenVertex {
  float x, y;      // pixels
  float inv_depth;  // 1 / depth along the view axis
  float r, g, b;   // 0-255
};

class Rasterizer {
 public:
  static constexpr std::uint8_t kFloor = 1, kShadow = 2;

  // Starts a frame into `rgb` (width x height x 3); every pixel far away, no flags.
  void Begin(int width, int height, std::uint8_t* rgb);
  int width() const { return width_; }
  int height() const { return height_; }
  std::uint8_t* rgb() { return rgb_; }
  float* inv_depth() { return inv_depth_.data(); }
  std::uint8_t* flags() { return flags_.data(); }

  // A front-facing triangle (counter-clockwise on screen with y up), depth-tested.
  void DrawTriangle(const ScreenVertex& a, const ScreenVertex& b, const ScreenVertex& c);
  // Marks the floor pixels a triangle covers as shadowed (either winding; no depth test).
  void ShadowTriangle(const ScreenVertex& a, const ScreenVertex& b, const ScreenVertex& c);
  // Darkens every shadowed floor pixel by `factor`.
  void ApplyShadow(float factor);

 private:
  template <class Shade>
  void Scan(const ScreenVertex& a, const ScreenVertex& b, const ScreenVertex& c, float area, Shade shade);

  int width_ = 0, height_ = 0;
  std::uint8_t* rgb_ = nullptr;
  std::vector<float> inv_depth_;
  std::vector<std::uint8_t> flags_;
};

}  // namespace joltgym
