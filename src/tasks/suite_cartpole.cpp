// The Control Suite's cart-pole (dm_control/suite/cartpole.py): keep the pole upright and the
// cart centred, starting near upright (balance) or hanging down (swingup); the sparse variants pay
// 1 only with the cart within 0.25 m of the centre and the pole within about 5.7 degrees of upright.
#include "tasks/suite_task.h"
#include "tasks/suite_terms.h"
#include "tasks/task_registry.h"
#include "tasks/tolerance.h"

#include <algorithm>
#include <stdexcept>

namespace joltgym {
namespace {

constexpr float kPi = 3.14159265358979f;

class Cartpole : public SuiteTask {
 public:
  Cartpole(const CompiledModel& model, const SuiteParams& params, bool swing_up, bool sparse)
      : SuiteTask(model, params, model.timestep()), swing_up_(swing_up), sparse_(sparse),
        poles_(int(model.desc().mj_body_frames.size()) - 2) {
    if (poles_ < 1 || model.nq() != model.nv() || model.nv() != poles_ + 1 || model.nu() != 1)
      throw std::invalid_argument("Cartpole needs a cart's slide followed by a hinge per pole and one actuator");
    AddObservation("position", 1 + 2 * poles_);
    AddObservation("velocity", model.nv());
  }

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override {
    const size_t nv = ws.qvel.size();
    ws.qpos.assign(robot.model().qpos0().begin(), robot.model().qpos0().end());
    if (swing_up_) {
      ws.qpos[0] = 0.01f * rng.Normal();
      ws.qpos[1] = kPi + 0.01f * rng.Normal();
      for (size_t i = 2; i < nv; ++i) ws.qpos[i] = 0.1f * rng.Normal();
    } else {
      ws.qpos[0] = rng.Uniform(-0.1f, 0.1f);
      for (size_t i = 1; i < nv; ++i) ws.qpos[i] = rng.Uniform(-0.034f, 0.034f);
    }
    for (float& v : ws.qvel) v = 0.01f * rng.Normal();
  }

  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override {
    robot.GetQpos(ws.qpos.data());
    robot.GetQvel(ws.qvel.data());
    *obs++ = ws.qpos[0];
    for (int p = 0; p < poles_; ++p) {  // xmat[2:, ['zz', 'xz']]
      *obs++ = BodyXmat(robot, 2 + p, 2, 2);
      *obs++ = BodyXmat(robot, 2 + p, 0, 2);
    }
    std::copy(ws.qvel.begin(), ws.qvel.end(), obs);
  }

  float Reward(const Robot& robot, TaskWorkspace& ws) const override {
    robot.GetQpos(ws.qpos.data());
    robot.GetQvel(ws.qvel.data());
    const float cart = ws.qpos[0];
    if (sparse_) {
      double angle_in_bounds = 1.0;
      for (int p = 0; p < poles_; ++p) angle_in_bounds *= Tolerance(BodyXmat(robot, 2 + p, 2, 2), {0.995, 1.0});
      return float(Tolerance(cart, {-0.25, 0.25}) * angle_in_bounds);
    }
    double upright = 0.0;
    for (int p = 0; p < poles_; ++p) upright += (BodyXmat(robot, 2 + p, 2, 2) + 1.0) / 2.0;
    upright /= poles_;
    const double centered = (1.0 + Tolerance(cart, {0.0, 0.0, 2.0})) / 2.0;
    const double small_control =
        (4.0 + Tolerance(robot.controls()[0], {0.0, 0.0, 1.0, Sigmoid::Quadratic, 0.0})) / 5.0;
    double small_velocity = 1.0;  // the smallest over the poles' hinges
    for (int p = 0; p < poles_; ++p)
      small_velocity = std::min(small_velocity, Tolerance(ws.qvel[size_t(1 + p)], {0.0, 0.0, 5.0}));
    small_velocity = (1.0 + small_velocity) / 2.0;
    return float(upright * small_control * small_velocity * centered);
  }

 private:
  bool swing_up_, sparse_;
  int poles_;
};

template <bool kSwingUp, bool kSparse>
class CartpoleTask final : public Cartpole {
 public:
  CartpoleTask(const CompiledModel& model, const SuiteParams& params) : Cartpole(model, params, kSwingUp, kSparse) {}
};

using CartpoleBalance = CartpoleTask<false, false>;
using CartpoleBalanceSparse = CartpoleTask<false, true>;
using CartpoleSwingup = CartpoleTask<true, false>;
using CartpoleSwingupSparse = CartpoleTask<true, true>;

}  // namespace

JOLTGYM_REGISTER_TASK("CartpoleBalance", CartpoleBalance, SuiteParams);
JOLTGYM_REGISTER_TASK("CartpoleBalanceSparse", CartpoleBalanceSparse, SuiteParams);
JOLTGYM_REGISTER_TASK("CartpoleSwingup", CartpoleSwingup, SuiteParams);
JOLTGYM_REGISTER_TASK("CartpoleSwingupSparse", CartpoleSwingupSparse, SuiteParams);

}  // namespace joltgym
