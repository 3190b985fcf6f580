// dm_control's reward shape (dm_control.utils.rewards.tolerance): 1 inside [lower, upper], falling
// off outside by a sigmoid of the distance to the nearer bound in units of `margin`, reaching
// `value_at_margin` one margin away. The Control Suite's tasks build every reward from it.
#pragma once

#include <cmath>
#include <stdexcept>

namespace joltgym {

enum class Sigmoid { Gaussian, Hyperbolic, LongTail, Reciprocal, Cosine, Linear, Quadratic, TanhSquared };

// 1 at x == 0, value_at_1 at |x| == 1.
inline double SigmoidShape(double x, double value_at_1, Sigmoid sigmoid) {
  constexpr double kPi = 3.14159265358979323846;
  switch (sigmoid) {
    case Sigmoid::Gaussian: {
      const double scale = std::sqrt(-2.0 * std::log(value_at_1));
      return std::exp(-0.5 * (x * scale) * (x * scale));
    }
    case Sigmoid::Hyperbolic: return 1.0 / std::cosh(x * std::acosh(1.0 / value_at_1));
    case Sigmoid::LongTail: {
      const double scaled = x * std::sqrt(1.0 / value_at_1 - 1.0);
      return 1.0 / (scaled * scaled + 1.0);
    }
    case Sigmoid::Reciprocal: return 1.0 / (std::abs(x) * (1.0 / value_at_1 - 1.0) + 1.0);
    case Sigmoid::Cosine: {
      const double scaled = x * std::acos(2.0 * value_at_1 - 1.0) / kPi;
      return std::abs(scaled) < 1.0 ? (1.0 + std::cos(kPi * scaled)) / 2.0 : 0.0;
    }
    case Sigmoid::Linear: {
      const double scaled = x * (1.0 - value_at_1);
      return std::abs(scaled) < 1.0 ? 1.0 - scaled : 0.0;
    }
    case Sigmoid::Quadratic: {
      const double scaled = x * std::sqrt(1.0 - value_at_1);
      return std::abs(scaled) < 1.0 ? 1.0 - scaled * scaled : 0.0;
    }
    case Sigmoid::TanhSquared: {
      const double t = std::tanh(x * std::atanh(std::sqrt(1.0 - value_at_1)));
      return 1.0 - t * t;
    }
  }
  throw std::logic_error("unknown sigmoid");
}

struct ToleranceShape {
  double lower = 0.0;
  double upper = 0.0;
  double margin = 0.0;
  Sigmoid sigmoid = Sigmoid::Gaussian;
  double value_at_margin = 0.1;  // dm_control's default
};

inline double Tolerance(double x, const ToleranceShape& shape) {
  if (shape.lower <= x && x <= shape.upper) return 1.0;
  if (shape.margin == 0.0) return 0.0;
  const double d = (x < shape.lower ? shape.lower - x : x - shape.upper) / shape.margin;
  return SigmoidShape(d, shape.value_at_margin, shape.sigmoid);
}

}  // namespace joltgym
