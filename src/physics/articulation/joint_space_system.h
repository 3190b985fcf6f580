// The linear system of a tree's joint-space solve (articulation_constraint.h,
// planar_articulation_constraint.h): the rates x of the tree's motions satisfy
//
//   (T^T M T + sum over soft rows 1/S e e^T) x = T^T M v - sum over soft rows s (total + bias / S)
//
// where T maps the rates to the bodies' velocities, M is the bodies' mass, and each soft row
// (a hinge's armature/damping drive, its range limit or its dry friction, JointAxisConstraint's
// AxisRowState) acts on one rate with sign s and softness S (a path row, PathRow, on several rates
// of one path, e its coefficients there). The owner adds T^T M T and T^T M v;
// this holds the rows, the factor, the solve, each row's impulse, the release of a limit that
// would pull and the clamping of a friction row at its bound.
// What an update builds (the matrix, its factor, the rows) lives in the stepping thread's
// scratch (update_scratch.h), taken at Reset: only the tree's shape and the limits the last
// update ended released stay with the env.
//
// The matrix has the tree's sparsity: entry (i, j) is nonzero only where one rate is an
// ancestor of the other (a body moves with its ancestors' rates), so it is factorised as
// L^T L from the leaves up with no fill-in (Featherstone, "Rigid Body Dynamics Algorithms",
// 6.5): cost sum depth^2 / 2 instead of n^3 / 6, and a solve sum depth instead of n^2.
#pragma once

#include "physics/core/update_scratch.h"
#include "physics/joints/joint_axis_constraint.h"

#include <Jolt/Jolt.h>
#include <Jolt/Physics/StateRecorder.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>

namespace joltgym {

// One hinge of an articulated tree (articulation_constraint.h, planar_articulation_constraint.h).
struct ArticulatedHinge {
  int joint = -1;   // the model's joint
  int body = -1;    // child body (index into the tree's bodies)
  int parent = -1;  // parent body, -1: the world
  JPH::Vec3 anchor_local1;  // anchor in the parent's COM frame (world frame for the world)
  JPH::Vec3 anchor_local2;  // anchor in the child's COM frame
  JPH::Vec3 axis_local1;    // hinge axis in the parent's COM frame (world frame for the world)
  JointAxisConstraint* axis_rows = nullptr;  // the joint's drive and limit, or none
  // One of the two or three hinges of a multi-hinge body (gimbal.h), which come one after the
  // other in slot order; -1: the body's only hinge. Its axis turns with the coordinates before
  // it, so it is measured (MeasureGimbal) rather than carried by the parent (axis_local1).
  int gimbal_slot = -1;
  float gimbal_sign = 1.0f;          // -1: a third axis along -(a1 x a2)
  JPH::Quat gimbal_rest;             // the child's frame in the parent's, every coordinate zero
  JPH::Quat gimbal_basis;            // (a1, a2, a1 x a2) as columns, in the child's frame
  bool gimbal_lock_third = false;    // two hinges: the third rotation stays zero
  // The body's hinges have anchors of their own (GimbalAnchorOnChild): each hinge's anchor_local2
  // is its own anchor at rest, and the point on the child its anchor meets moves with the coordinates.
  bool gimbal_anchors_apart = false;
};

// Per-rate rows of values, `stride` wide, in one block: [rate][column] as a 2-D array would index
// them; the block its own (Allocate) or an update's scratch (Take).
template <class T>
class RateRows {
 public:
  void Allocate(int rows, int stride) {
    owned_ = std::make_unique<T[]>(size_t(rows) * size_t(stride));  // value-initialised
    data_ = owned_.get();
    stride_ = size_t(stride);
  }
  void Take(UpdateScratch& scratch, int rows, int stride) {
    owned_.reset();
    data_ = scratch.Take<T>(size_t(rows) * size_t(stride));
    stride_ = size_t(stride);
  }
  T* operator[](int row) { return data_ + size_t(row) * stride_; }
  const T* operator[](int row) const { return data_ + size_t(row) * stride_; }

 private:
  std::unique_ptr<T[]> owned_;
  T* data_ = nullptr;
  size_t stride_ = 0;
};

// The tree of rates (JointSpaceSystem::SetTree) of a root with `root_rates` rates, a chain, and one
// rate per hinge after them, hinges in body order (parents first): a body's first hinge hangs
// from its parent body's last hinge, else from the root's last rate, or from nothing (the world);
// a multi-hinge body's further hinges each hang from the one before.
inline std::vector<int> RateParents(int root_rates, const std::vector<ArticulatedHinge>& hinges) {
  std::vector<int> parent(size_t(root_rates) + hinges.size(), -1);
  for (int r = 1; r < root_rates; ++r) parent[size_t(r)] = r - 1;
  std::vector<int> last_hinge_of;  // per body: its last hinge so far, -1: none
  for (size_t k = 0; k < hinges.size(); ++k) {
    const ArticulatedHinge& h = hinges[k];
    const size_t bodies = size_t(std::max(h.body, h.parent) + 1);
    if (last_hinge_of.size() < bodies) last_hinge_of.resize(bodies, -1);
    int& up = parent[size_t(root_rates) + k];
    if (last_hinge_of[size_t(h.body)] >= 0) up = root_rates + last_hinge_of[size_t(h.body)];
    else if (h.parent < 0) up = -1;
    else if (last_hinge_of[size_t(h.parent)] >= 0) up = root_rates + last_hinge_of[size_t(h.parent)];
    else up = root_rates - 1;
    last_hinge_of[size_t(h.body)] = int(k);
  }
  return parent;
}

class JointSpaceSystem {
 public:
  static constexpr int kMaxRates = 40;  // a free root's 6 + one per hinge (Humanoid: 23, G1: 35, Apollo: 38)
  static constexpr int kRowsPerRate = 3;  // a hinge's drive, limit and friction rows
  static constexpr int kMaxRows = kRowsPerRate * kMaxRates;

  // A soft row over several rates on one path (a tendon equality coupling a chain's hinges, as a
  // quadruped leg's): J x with J's entries `coef` on rates `rate`, each an ancestor of the next.
  // Its J^T J / S touches only entries of rates on one path, which the factor holds already, so
  // it joins the factor with no fill-in and is solved exactly with the tree, where a row iterated
  // after the solve needs many iterations against stiff couplings.
  static constexpr int kMaxPathTerms = 8;
  struct PathRow {
    float* total = nullptr;  // its accumulated impulse, the owner's
    double softness = 1.0, bias = 0.0;  // this update's (the owner sets them before Factorise)
    int count = 0;
    int rate[kMaxPathTerms] = {};
    double coef[kMaxPathTerms] = {};
  };

  struct Row {
    AxisRowState* state = nullptr;
    double softness = 0.0;  // the state's, or for a hard row (zero) one stiff enough to stand for it
    int rate = -1;
    double sign = 1.0;      // the row's rate is sign * x[rate]
    bool is_limit = false, lower_limit = true;
    int hinge = -1;         // the owner's hinge, for taking a released limit's impulse back
    bool taken_back = false;  // a released limit the rates then pushed past: released again, it stays out
    double bound = 0.0;     // a friction row: its impulse stays within +-bound; 0: not one
  };

  // The tree of rates, once: parent[r] is rate r's parent (< r; -1 for the first). A body's rates
  // are a path from the first rate: its root's rates as a chain, then its ancestors' hinges and its own.
  void SetTree(const std::vector<int>& parent) {
    if (parent.size() > size_t(kMaxRates)) throw std::invalid_argument("JointSpaceSystem: more than kMaxRates rates");
    n_ = int(parent.size());
    // As wide as the tree has rates: a Humanoid's 23 or a HalfCheetah's 9, not the 40 a system could hold.
    path_.Allocate(n_, n_);
    for (int k = 0; k < n_; ++k) {  // parents come first, so a parent's path is ready
      const int up = parent[size_t(k)];
      depth_[k] = up >= 0 ? depth_[up] + 1 : 0;
      if (up >= 0) std::copy(path_[up], path_[up] + depth_[up] + 1, path_[k]);
      path_[k][depth_[k]] = k;
    }
  }
  // Before each update's rows, its matrix and rows taken from the update's scratch. A limit that
  // ended the update before released starts this one released (AddHingeRows), where a solve with
  // it would only release it again: most releases repeat the update before's, and each costs a
  // factorisation and a solve thrown away. If the limit is needed after all, Solve takes it back;
  // either way the limits end as the complementarity of the rates decides.
  void Reset(UpdateScratch& scratch) {
    a_.Take(scratch, n_, n_);
    l_.Take(scratch, n_, RoundUp(n_));
    rows_ = scratch.Take<Row>(size_t(kRowsPerRate * n_));
    released_ = scratch.Take<Row>(size_t(kRowsPerRate * n_));
    clamped_ = scratch.Take<Row>(size_t(n_));
    std::copy(released_end_, released_end_ + kMaxRates, released_before_);
    std::fill(released_end_, released_end_ + kMaxRates, kNoSide);
    num_rows_ = 0;
    num_released_ = 0;
    num_clamped_ = 0;
  }
  // The limits released at the end of the last update, which the next Reset starts released: state
  // of the world, saved and restored with it, so a restored world steps as the one saved.
  void SaveReleased(JPH::StateRecorder& stream) const {
    for (int r = 0; r < n_; ++r) stream.Write(released_end_[r]);
  }
  void RestoreReleased(JPH::StateRecorder& stream) {
    for (int r = 0; r < n_; ++r) stream.Read(released_end_[r]);
  }
  int num_rates() const { return n_; }

  // Whether the distinct rates `rates` (count of them) lie on one path: each an ancestor or a
  // descendant of every other (then AddPathRow takes them).
  bool OnOnePath(const int* rates, int count) const {
    int sorted[kMaxPathTerms];
    if (count > kMaxPathTerms) return false;
    std::copy(rates, rates + count, sorted);
    std::sort(sorted, sorted + count);
    for (int i = 1; i < count; ++i) {
      const int a = sorted[i - 1], b = sorted[i];
      if (a == b || depth_[a] >= depth_[b] || path_[b][depth_[a]] != a) return false;
    }
    return true;
  }
  // Once, after SetTree: a path row (OnOnePath), its rates distinct; its index for path_row().
  int AddPathRow(float* total, const int* rates, const double* coefs, int count) {
    if (!OnOnePath(rates, count)) throw std::invalid_argument("JointSpaceSystem: a path row's rates are not on one path");
    PathRow row;
    row.total = total;
    row.count = count;
    std::copy(rates, rates + count, row.rate);
    std::copy(coefs, coefs + count, row.coef);
    path_rows_.push_back(row);
    return int(path_rows_.size()) - 1;
  }
  PathRow& path_row(int i) { return path_rows_[size_t(i)]; }
  // Rate r's ancestors in ascending order, then r: path_length(r) entries.
  const int* path(int rate) const { return path_[rate]; }
  int path_length(int rate) const { return depth_[rate] + 1; }

  // Each hinge's drive, friction and active limit rows for this update, on rate first_rate + k of
  // hinge k with sign sign_of(k).
  template <typename SignOf>
  void AddHingeRows(const std::vector<ArticulatedHinge>& hinges, float dt, int first_rate, SignOf&& sign_of) {
    for (size_t k = 0; k < hinges.size(); ++k) {
      if (!hinges[k].axis_rows) continue;
      const JointAxisConstraint::ArticulatedRows rows = hinges[k].axis_rows->PrepareForArticulation(dt);
      const int rate = first_rate + int(k);
      if (rows.drive) AddRow(rows.drive, rate, sign_of(int(k)), false, true, int(k));
      if (rows.friction) AddRow(rows.friction, rate, sign_of(int(k)), false, true, int(k), rows.friction_bound);
      if (!rows.limit) continue;
      // Released at the end of the update before, with no impulse since (a solve with it would
      // apply none and take none back).
      if (released_before_[rate] == SideOf(rows.lower_limit) && rows.limit->total == 0.0f)
        Release(MakeRow(rows.limit, rate, sign_of(int(k)), true, rows.lower_limit, int(k)));
      else
        AddRow(rows.limit, rate, sign_of(int(k)), true, rows.lower_limit, int(k));
    }
  }

  // Jolt's warm start: each row's total scaled by ratio and applied, `apply(hinge, impulse)`.
  template <typename Apply>
  void WarmStart(float ratio, Apply&& apply) {
    for (int k = 0; k < num_rows_; ++k) {
      rows_[k].state->total *= ratio;
      apply(rows_[k].hinge, rows_[k].state->total);
    }
  }

  // One velocity iteration: `solve_once()` until it succeeds, `refactorise()` after each pass
  // that released or took back a limit or clamped or freed a friction row. A limit is released
  // at most twice and taken back at most once, and so is a friction row clamped and freed, so
  // `hinges` hinges need at most 6 hinges + 1 passes.
  template <typename SolveOnce, typename Refactorise>
  static void SolveReleasingLimits(int hinges, SolveOnce&& solve_once, Refactorise&& refactorise) {
    const int max_passes = 6 * hinges;
    for (int pass = 0; pass <= max_passes; ++pass) {
      if (solve_once()) return;
      refactorise();
    }
  }

  void AddRow(AxisRowState* state, int rate, double sign, bool is_limit, bool lower_limit, int hinge,
              double bound = 0.0) {
    rows_[num_rows_] = MakeRow(state, rate, sign, is_limit, lower_limit, hinge);
    rows_[num_rows_++].bound = bound;
  }
  int num_rows() const { return num_rows_; }
  Row& row(int i) { return rows_[i]; }

  // Before adding T^T M T (lower triangle: r >= c).
  void ClearMatrix() {
    for (int r = 0; r < n_; ++r) std::fill(a_[r], a_[r] + n_, 0.0);
  }
  double& a(int r, int c) { return a_[r][c]; }

  // The factor L of H = T^T M T + the rows' 1/S (H = L^T L), from the last rate up. T^T M T stays
  // as the owner set it, so a released limit refactorises without it being rebuilt. Row k of L is
  // kept on k's ancestors only, in their order (l_[k][t] is L(k, path_[k][t])): the ancestors
  // of k's t-th ancestor are its first t, so each update of an ancestor's row is one contiguous
  // run instead of a walk up parent links.
  //
  // The row updates run in whole groups of kLanes entries, past a row's last entry into its
  // padding (zeroed here, read by nothing else): a loop of a row's 1-12 entries spends more on its
  // vector prologue and remainder than on its multiply-adds. The padding adds only zeros: L's
  // entries are those of a loop over the row alone.
  void Factorise() {
    for (int k = 0; k < n_; ++k) {
      diag_[k] = a_[k][k];
      for (int t = 0; t < depth_[k]; ++t) l_[k][t] = a_[k][path_[k][t]];
      std::fill(l_[k] + depth_[k], l_[k] + RoundUp(depth_[k]), 0.0);
    }
    for (int k = 0; k < num_rows_; ++k) diag_[rows_[k].rate] += 1.0 / rows_[k].softness;
    for (const PathRow& row : path_rows_)  // J^T J / S: entry (a, b) of b an ancestor of a is l_[a][depth b]
      for (int i = 0; i < row.count; ++i) {
        const int a = row.rate[i];
        diag_[a] += row.coef[i] * row.coef[i] / row.softness;
        for (int j = 0; j < row.count; ++j) {
          const int b = row.rate[j];
          if (depth_[b] < depth_[a]) l_[a][depth_[b]] += row.coef[i] * row.coef[j] / row.softness;
        }
      }
    for (int k = n_ - 1; k >= 0; --k) {
      inv_diag_[k] = 1.0 / std::sqrt(std::max(diag_[k], 1.0e-30));
      double* __restrict lk = l_[k];
      const int depth = depth_[k];
      const double inv = inv_diag_[k];
      for (int t = 0; t < depth; t += kLanes)
        for (int v = 0; v < kLanes; ++v) lk[t + v] *= inv;
      for (int t = depth - 1; t >= 0; --t) {
        const int i = path_[k][t];
        const double lkt = lk[t];
        diag_[i] -= lkt * lkt;
        double* __restrict li = l_[i];  // another row than lk's: i is an ancestor of k, its depth t
        for (int u = 0; u < t; u += kLanes)
          for (int v = 0; v < kLanes; ++v) li[u + v] -= lkt * lk[u + v];
      }
    }
  }

  // Before adding T^T M v.
  void ClearRhs() { std::fill(x_, x_ + n_, 0.0); }
  double& rhs(int r) { return x_[r]; }

  // Solves for the rates (then x(r)); false if a limit would pull: those are released (their
  // rows dropped, `take_back(hinge, impulse)` undoes what they applied) and the owner must
  // Factorise again (its T^T M T is kept) and solve again. Likewise false when, with no limit
  // pulling, the rates push past a limit released earlier in this update: it is taken back into
  // the rows. Releasing only would leave a limit out that another's release made necessary
  // (two of a HalfCheetah's leg limits at once, visibly off MuJoCo's step), where MuJoCo
  // solves the limits' complementarity exactly.
  template <typename TakeBack>
  bool Solve(TakeBack&& take_back) {
    for (int k = 0; k < num_rows_; ++k) {
      const Row& row = rows_[k];
      x_[row.rate] -= row.sign * (double(row.state->total) + double(row.state->bias) / row.softness);
    }
    for (const PathRow& row : path_rows_) {
      const double push = double(*row.total) + row.bias / row.softness;
      for (int i = 0; i < row.count; ++i) x_[row.rate[i]] -= row.coef[i] * push;
    }
    SolveInPlace(x_);
    // A limit may only push (lower: raise the rate, upper: lower it): its total after this
    // impulse, -(rate + bias) / S, must keep its sign.
    bool dropped = false;
    for (int k = 0; k < num_rows_; ++k) {
      Row& row = rows_[k];
      const double after = -(row.sign * x_[row.rate] + double(row.state->bias)) / row.softness;
      if (row.bound > 0.0) {
        // A friction row past its bound holds there: its impulse fixed at the bound, applied,
        // and the row out of the system (the rates then see it as a known force).
        if (std::abs(after) <= row.bound) continue;
        const float held = float(after > 0.0 ? row.bound : -row.bound);
        take_back(row.hinge, held - row.state->total);
        row.state->total = held;
        if (!row.taken_back) clamped_[num_clamped_++] = row;
        row.state = nullptr;
        dropped = true;
        continue;
      }
      if (!row.is_limit) continue;
      if (row.lower_limit ? after >= 0.0 : after <= 0.0) continue;
      take_back(row.hinge, -row.state->total);
      row.state->total = 0.0f;
      if (!row.taken_back) Release(row);
      row.state = nullptr;
      dropped = true;
    }
    if (dropped) {
      num_rows_ = int(std::remove_if(rows_, rows_ + num_rows_, [](const Row& r) { return r.state == nullptr; }) - rows_);
      return false;
    }
    bool taken = false;
    for (int k = 0; k < num_released_; ++k) {
      Row& row = released_[k];
      // Its impulse from zero, -(rate + bias) / S, would push: the limit is needed.
      const double from_zero = -(row.sign * x_[row.rate] + double(row.state->bias)) / row.softness;
      if (row.lower_limit ? from_zero <= 0.0 : from_zero >= 0.0) continue;
      row.taken_back = true;
      released_end_[row.rate] = kNoSide;
      rows_[num_rows_++] = row;
      released_[k--] = released_[--num_released_];
      taken = true;
    }
    for (int k = 0; k < num_clamped_; ++k) {
      Row& row = clamped_[k];
      // Its impulse as a free row, -(rate + bias) / S, within the bound again, or past the other
      // one: the row is freed (and clamped again on that side if need be).
      const double free = -(row.sign * x_[row.rate] + double(row.state->bias)) / row.softness;
      if (free * double(row.state->total) > 0.0 && std::abs(free) >= row.bound) continue;
      row.taken_back = true;
      rows_[num_rows_++] = row;
      clamped_[k--] = clamped_[--num_clamped_];
      taken = true;
    }
    return !taken;
  }
  double x(int r) const { return x_[r]; }
  double& mutable_x(int r) { return x_[r]; }

  // The two halves of a solve with the factorised matrix H = L^T L, for the owner's own rows
  // (contacts in joint space): v = L^-T v, then v = L^-1 v, in place; together H^-1 v.
  //
  // The first takes Lanes (2 or 4) vectors side by side that are nonzero only on `path` (`length`
  // rates, ascending, closed under ancestors), as is its result: y[q][c] is vector c's entry for
  // rate path[q]. position[r] is rate r's index in the path, or nullptr when the path is one rate's
  // path(rate), whose q-th entry's ancestors are the entries before it. The vectors side by side
  // make each step one multiply-add of Lanes, where three vectors one by one, each through the
  // rates' indices, would be a noticeable part of a HumanoidStandup step.
  template <int Lanes>
  void SolveUpperOnPath(const int* path, int length, const int* position, double (*y)[Lanes]) const {
    if (position) EliminateUpperOnPath(path, length, y, [&](int k, int t) { return position[path_[k][t]]; });
    else EliminateUpperOnPath(path, length, y, [](int, int t) { return t; });
  }
  void SolveLower(double* v) const {
    for (int k = 0; k < n_; ++k) {
      double s = v[k];
      for (int t = depth_[k] - 1; t >= 0; --t) s -= l_[k][t] * v[path_[k][t]];
      v[k] = s * inv_diag_[k];
    }
  }

  // After a successful Solve: each row's impulse, -(s x + S total + bias) / S, into its total.
  void AccumulateImpulses() {
    for (int k = 0; k < num_rows_; ++k) {
      Row& row = rows_[k];
      const double rate = row.sign * x_[row.rate];
      row.state->total += float(-(rate + row.softness * row.state->total + row.state->bias) / row.softness);
    }
    for (PathRow& row : path_rows_) {
      double jx = 0.0;
      for (int i = 0; i < row.count; ++i) jx += row.coef[i] * x_[row.rate[i]];
      *row.total += float(-(jx + row.softness * double(*row.total) + row.bias) / row.softness);
    }
  }

 private:
  static constexpr signed char kNoSide = 0, kLowerSide = 1, kUpperSide = 2;
  static signed char SideOf(bool lower_limit) { return lower_limit ? kLowerSide : kUpperSide; }
  // A limit out of this update's rows, until Solve takes it back.
  void Release(const Row& row) {
    released_[num_released_++] = row;
    released_end_[row.rate] = SideOf(row.lower_limit);
  }
  static Row MakeRow(AxisRowState* state, int rate, double sign, bool is_limit, bool lower_limit, int hinge) {
    return {state, std::max(double(state->softness), 1.0e-9), rate, sign, is_limit, lower_limit, hinge};
  }

  static constexpr int kLanes = 4;  // doubles in one AVX register
  static int RoundUp(int count) { return (count + kLanes - 1) / kLanes * kLanes; }

  // v = H^-1 v: L^T y = v from the leaves up, then L x = y from the first rate down.
  void SolveInPlace(double* v) const {
    for (int k = n_ - 1; k >= 0; --k) EliminateUpper(k, v);
    SolveLower(v);
  }
  template <int Lanes, typename PositionOf>
  void EliminateUpperOnPath(const int* path, int length, double (*y)[Lanes], PositionOf&& position_of) const {
    for (int q = length - 1; q >= 0; --q) {
      const int k = path[q];
      double* __restrict yq = y[q];
      bool zero = true;
      for (int c = 0; c < Lanes; ++c) zero &= yq[c] == 0.0;
      if (zero) continue;
      for (int c = 0; c < Lanes; ++c) yq[c] *= inv_diag_[k];
      const double* lk = l_[k];
      for (int t = depth_[k] - 1; t >= 0; --t) {
        double* __restrict yt = y[position_of(k, t)];  // an ancestor's: another row than yq
        for (int c = 0; c < Lanes; ++c) yt[c] -= lk[t] * yq[c];
      }
    }
  }
  // Rate k's step of L^T y = v (a zero entry, as outside a contact's path, adds nothing to its ancestors).
  void EliminateUpper(int k, double* v) const {
    if (v[k] == 0.0) return;
    v[k] *= inv_diag_[k];
    for (int t = depth_[k] - 1; t >= 0; --t) v[path_[k][t]] -= l_[k][t] * v[k];
  }

  int n_ = 0;
  std::vector<PathRow> path_rows_;       // the tree's, fixed after its build
  int num_rows_ = 0;
  // This update's, in the scratch (Reset):
  Row* released_ = nullptr;              // limits released in this update, which may be taken back (3 per rate)
  int num_released_ = 0;
  Row* clamped_ = nullptr;               // friction rows held at their bound in this update, which may be freed
  int num_clamped_ = 0;
  Row* rows_ = nullptr;                  // 3 per rate
  RateRows<double> a_;                   // T^T M T, lower triangle
  RateRows<double> l_;                   // its factor with the rows, on each rate's ancestors, then padding
  // Per rate, the side of its limit released: at the last update's end (released_end_ while it
  // runs, a limit out of the rows at the moment), and at this one's start.
  signed char released_end_[kMaxRates] = {};
  signed char released_before_[kMaxRates] = {};
  int depth_[kMaxRates];                 // each rate's number of ancestors
  RateRows<int> path_;                   // per rate: its ancestors, ascending, then the rate
  double diag_[kMaxRates];               // H's diagonal, during the factorisation
  double inv_diag_[kMaxRates];           // 1 / L's diagonal
  double x_[kMaxRates];
};

}  // namespace joltgym
