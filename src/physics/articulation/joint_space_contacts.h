// A tree's plane contacts solved in its joint space (articulation_constraint.h,
// planar_articulation_constraint.h): one projected Gauss-Seidel pass per iteration, after the
// projection, on the rates x themselves.
//
// A contact point's velocity along D world directions is P x (P: D rows over the rates, which
// the owner fills from its T); each of the point's rows (SoftContactConstraint's pyramid) has
// J = a P, meets the whole tree's effective mass J H^-1 J^T (H the projection's matrix, drives
// and limits included) and moves the rates by H^-1 J^T dlambda, so the joints stay exact after
// every row. Solved as Jolt rows against their own link's mass instead, with the articulation
// spreading each impulse over the tree, they converge so slowly that a resting HalfCheetah sinks
// below MuJoCo's rest at the few iterations a step affords (benchmarks/solver_measurements.md).
// Per update: D triangular solves per active point. The points and their rows live in the
// update's scratch (update_scratch.h), as many as are active: a Humanoid lying on the floor has
// dozens, 1.5 KB each, which every env would otherwise keep for the rest of its life.
#pragma once

#include "physics/articulation/joint_space_system.h"
#include "physics/contacts/self_contact_constraint.h"
#include "physics/contacts/soft_contact_constraint.h"
#include "physics/joints/tendon_equality_constraint.h"

#include <Jolt/Jolt.h>

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

namespace joltgym {

// An articulation that solves rows of its tree's bodies in its joint space: their contacts
// (Robot::CreateSoftContacts, Robot::CreateSelfContacts) and tendon equalities over their hinges
// (Robot::CreateTendonEqualities).
class TreeRowSolver {
 public:
  // The plane contacts of the tree's body `body` (an index into its bodies) are solved here from
  // now on (SoftContactConstraint::SolveInArticulation).
  virtual void AddContacts(int body, SoftContactConstraint* contacts) = 0;
  // The contacts between the tree's bodies body1 and body2 are solved here.
  virtual void AddSelfContacts(int body1, int body2, SelfContactConstraint* contacts) = 0;
  // The equality's row over the model's joints `joints` (hinges of this tree, ArticulatedHinge::joint)
  // with the tendon's coefficients is solved here.
  virtual void AddTendonEquality(TendonEqualityConstraint* equality, const std::vector<int>& joints,
                                 const std::vector<float>& coefs) = 0;

 protected:
  ~TreeRowSolver() = default;
};

template <int D>
class JointSpaceContacts {
  static_assert(D <= 4, "a point's rows are solved side by side in one register");
  static constexpr int kLanes = D <= 2 ? 2 : 4;  // a point's D rows side by side, padded to a register

 public:
  static constexpr int kMaxRates = JointSpaceSystem::kMaxRates;

  // A point's D rows over the rates, in the owner's storage: p[d][rate].
  struct RateRowsOf {
    double* data = nullptr;
    int stride = 0;
    double* operator[](int d) const { return data + size_t(d) * size_t(stride); }
  };

  // A point's arrays over the rates are as long as the tree has rates rather than kMaxRates.
  struct Point {
    int body = -1;
    JPH::Vec3 r2;                          // from the body's centre of mass
    // A contact within the tree: the other body, pushed against the rows, and its lever arm;
    // -1 for a plane contact. The point's P is then body's less body1's.
    int body1 = -1;
    JPH::Vec3 r1;
    int first_row = 0, num_rows = 0;
    const int* path = nullptr;             // the rates it moves with (JointSpaceSystem::path)
    int path_length = 0;
    int* own_path = nullptr;               // a contact within the tree: both bodies' paths, ascending
    int* position = nullptr;               // a contact within the tree: each rate's index in own_path
    RateRowsOf p;                          // P over the rates: nonzero only on the path
    // L^-T P^T (H = L^T L), nonzero only on the path too: y[q][d] is row d's entry for rate path[q].
    double (*y)[kLanes] = nullptr;
    double g[D][D];                        // P H^-1 P^T = y^T y
  };

  // The plane contacts of the owner's body `body` (SoftContactConstraint::SolveInArticulation).
  void Attach(int body, SoftContactConstraint* contacts) {
    contacts->SolveInArticulation();
    sources_.emplace_back(body, contacts);
  }
  // The contacts between the owner's bodies body1 and body2.
  void AttachSelf(int body1, int body2, SelfContactConstraint* contacts) {
    self_sources_.push_back({body1, body2, contacts});
  }
  bool empty() const { return sources_.empty() && self_sources_.empty(); }

  // The active contacts of this update of length dt, over the rates of `system`. axis_of(axis, a)
  // writes a row's D components along the owner's directions; fill_p(body, r, sign, point) adds
  // sign times the P of a point at r from `body`'s centre of mass to point.p (on the body's
  // path) and returns the last rate the body moves with (the rest are its ancestors), -1 for none.
  // Every per-point loop then runs over the path only: a Humanoid's limb moves with 8-13 of its
  // 23 rates.
  template <typename AxisOf, typename FillP>
  void Build(UpdateScratch& scratch, float dt, const JointSpaceSystem& system, AxisOf&& axis_of, FillP&& fill_p) {
    const int n = system.num_rates();
    TakeStorage(scratch, n);
    num_points_ = 0;
    int num_rows = 0;
    auto add_rows = [&](Point& point, int rows, const SoftContactConstraint::RowView* views) {
      point.first_row = num_rows;
      point.num_rows = rows;
      for (int i = 0; i < rows; ++i) {
        Row& row = rows_[num_rows++];
        row.total = views[i].total;
        row.softness = views[i].softness;
        row.bias = views[i].bias;
        axis_of(views[i].axis, row.a);
      }
    };
    for (const auto& [body, contacts] : sources_) {
      contacts->ForEachActiveContact(dt, [&](JPH::Vec3Arg r2, int rows, const SoftContactConstraint::RowView* views) {
        Point& point = NextPoint();
        point.body = body;
        point.r2 = r2;
        point.body1 = -1;
        for (int d = 0; d < D; ++d) std::fill(point.p[d], point.p[d] + n, 0.0);
        const int rate = fill_p(body, r2, 1.0, point);
        point.path = rate >= 0 ? system.path(rate) : nullptr;
        point.path_length = rate >= 0 ? system.path_length(rate) : 0;
        add_rows(point, rows, views);
      });
    }
    for (const SelfSource& source : self_sources_) {
      source.contacts->ForEachActiveContact(
          dt, [&](JPH::Vec3Arg r1, JPH::Vec3Arg r2, int rows, const SoftContactConstraint::RowView* views) {
            Point& point = NextPoint();
            point.body = source.body2;
            point.r2 = r2;
            point.body1 = source.body1;
            point.r1 = r1;
            for (int d = 0; d < D; ++d) std::fill(point.p[d], point.p[d] + n, 0.0);
            const int rate2 = fill_p(source.body2, r2, 1.0, point);
            const int rate1 = fill_p(source.body1, r1, -1.0, point);
            // Both paths are closed under ancestors, so their union is too, and an upper solve
            // over it in descending order touches nothing outside it.
            const int* path1 = rate1 >= 0 ? system.path(rate1) : nullptr;
            const int* path2 = rate2 >= 0 ? system.path(rate2) : nullptr;
            const int* end = std::set_union(path1, path1 + (rate1 >= 0 ? system.path_length(rate1) : 0), path2,
                                            path2 + (rate2 >= 0 ? system.path_length(rate2) : 0), point.own_path);
            point.path = point.own_path;
            point.path_length = int(end - point.own_path);
            for (int q = 0; q < point.path_length; ++q) point.position[point.own_path[q]] = q;
            add_rows(point, rows, views);
          });
    }
  }

  // The system's factor H = L^T L changed (a new update, a limit released or taken back): L^-T P^T
  // and the rows' effective masses are recomputed when the next Solve needs them. A pass that
  // releases or takes back a limit never reaches the contacts, so recomputing at every factor
  // change would throw much of the work away.
  void FactorChanged() { factor_changed_ = true; }

  // Jolt's warm start: each row's total scaled by ratio; apply(body, r, impulse[D]) puts each
  // point's impulse on its body at r (the next projection carries it to the tree), and its
  // opposite on body1 for a contact within the tree.
  template <typename Apply>
  void WarmStart(float ratio, Apply&& apply) {
    for (int k = 0; k < num_points_; ++k) {
      const Point& point = points_[k];
      double impulse[D] = {};
      for (int i = point.first_row; i < point.first_row + point.num_rows; ++i) {
        Row& row = rows_[i];
        *row.total *= ratio;
        for (int d = 0; d < D; ++d) impulse[d] += row.a[d] * double(*row.total);
      }
      bool any = false;
      for (int d = 0; d < D; ++d) any |= impulse[d] != 0.0;
      if (!any) continue;
      apply(point.body, point.r2, impulse);
      if (point.body1 < 0) continue;
      for (int d = 0; d < D; ++d) impulse[d] = -impulse[d];
      apply(point.body1, point.r1, impulse);
    }
  }

  // One pass on the rates: (K + softness) dlambda = -(J x + softness total + bias), total >= 0.
  // A point's velocity P x follows its own rows exactly (P H^-1 P^T dlambda); the rates take the
  // point's impulse once, before the next point.
  void Solve(JointSpaceSystem& system) {
    if (factor_changed_) Factorise(system);
    factor_changed_ = false;
    const int n = system.num_rates();
    for (int k = 0; k < num_points_; ++k) {
      const Point& point = points_[k];
      double v[D], impulse[D] = {};
      for (int d = 0; d < D; ++d) {
        double s = 0.0;
        for (int i = 0; i < point.path_length; ++i) s += point.p[d][point.path[i]] * system.x(point.path[i]);
        v[d] = s;
      }
      bool any = false;
      for (int i = point.first_row; i < point.first_row + point.num_rows; ++i) {
        const Row& row = rows_[i];
        double jv = 0.0;
        for (int d = 0; d < D; ++d) jv += row.a[d] * v[d];
        const double total = *row.total;
        const double next = std::max(0.0, total - row.inv_k * (jv + row.softness * total + row.bias));
        const double delta = next - total;
        if (delta == 0.0) continue;
        *row.total = float(next);
        any = true;
        for (int d = 0; d < D; ++d) {
          impulse[d] += row.a[d] * delta;
          for (int e = 0; e < D; ++e) v[d] += point.g[d][e] * row.a[e] * delta;
        }
      }
      if (!any) continue;
      double dx[kMaxRates];  // H^-1 P^T impulse = L^-1 (y impulse)
      std::fill(dx, dx + n, 0.0);
      for (int i = 0; i < point.path_length; ++i) {
        double s = 0.0;
        for (int d = 0; d < D; ++d) s += point.y[i][d] * impulse[d];
        dx[point.path[i]] = s;
      }
      system.SolveLower(dx);
      for (int r = 0; r < n; ++r) system.mutable_x(r) += dx[r];
    }
  }

 private:
  // L^-T P^T and each row's effective mass, from the system's current factor.
  void Factorise(const JointSpaceSystem& system) {
    for (int k = 0; k < num_points_; ++k) {
      Point& point = points_[k];
      for (int q = 0; q < point.path_length; ++q)
        for (int c = 0; c < kLanes; ++c) point.y[q][c] = c < D ? point.p[c][point.path[q]] : 0.0;
      system.SolveUpperOnPath(point.path, point.path_length, point.body1 < 0 ? nullptr : point.position, point.y);
      for (int d = 0; d < D; ++d)
        for (int e = 0; e <= d; ++e) {
          double s = 0.0;
          for (int q = 0; q < point.path_length; ++q) s += point.y[q][d] * point.y[q][e];
          point.g[d][e] = point.g[e][d] = s;
        }
      for (int i = point.first_row; i < point.first_row + point.num_rows; ++i) {
        Row& row = rows_[i];
        double k_row = 0.0;
        for (int d = 0; d < D; ++d)
          for (int e = 0; e < D; ++e) k_row += row.a[d] * point.g[d][e] * row.a[e];
        row.inv_k = 1.0 / (k_row + row.softness);
      }
    }
  }

  // Room in the scratch for this update's active points (each with its arrays over the n rates)
  // and their rows.
  void TakeStorage(UpdateScratch& scratch, int n) {
    size_t active = 0;
    for (const auto& source : sources_) active += size_t(source.second->ActiveContacts());
    for (const SelfSource& source : self_sources_) active += size_t(source.contacts->ActiveContacts());
    points_ = scratch.Take<Point>(active);
    rows_ = scratch.Take<Row>(active * size_t(SoftContactConstraint::kMaxRows));
    const size_t ints = 2 * size_t(n), doubles = RoundUp(size_t(n) * (kLanes + D));
    int* point_ints = scratch.Take<int>(active * ints);
    double* point_doubles = scratch.Take<double>(active * doubles);
    for (size_t k = 0; k < active; ++k) {
      Point& point = points_[k];
      point.own_path = point_ints + k * ints;
      point.position = point.own_path + n;
      double* block = point_doubles + k * doubles;
      point.y = reinterpret_cast<double (*)[kLanes]>(block);
      point.p = RateRowsOf{block + size_t(n) * kLanes, n};
    }
    capacity_ = int(active);
  }
  // The next point of this update.
  Point& NextPoint() {
    if (num_points_ == capacity_) throw std::logic_error("JointSpaceContacts: more active contacts than counted");
    return points_[num_points_++];
  }
  static size_t RoundUp(size_t doubles) { return (doubles + kLanes - 1) / kLanes * kLanes; }

  struct Row {
    float* total = nullptr;  // the SoftContactConstraint row's accumulated impulse
    double softness = 0.0, bias = 0.0;
    double a[D] = {};        // the row's axis along the owner's D directions
    double inv_k = 0.0;      // 1 / (J H^-1 J^T + softness)
  };

  struct SelfSource {
    int body1, body2;
    SelfContactConstraint* contacts;
  };
  std::vector<std::pair<int, SoftContactConstraint*>> sources_;  // (body, its plane contacts)
  std::vector<SelfSource> self_sources_;                         // contacts within the tree
  // This update's, in the scratch (TakeStorage):
  Point* points_ = nullptr;                                      // the first num_points_ of capacity_
  Row* rows_ = nullptr;                                          // and their rows
  int capacity_ = 0;
  int num_points_ = 0;
  bool factor_changed_ = true;
};

}  // namespace joltgym
