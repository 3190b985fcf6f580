// A tree's tendon equalities solved in its joint space (articulation_constraint.h,
// planar_articulation_constraint.h): a fixed tendon held at a length (TendonEqualityConstraint) is
// one soft bilateral row J x over the tree's rates, J the tendon's coefficients on its hinges'
// rates. A row whose hinges lie on one path (a leg's pitch, knee and ankle) joins the tree's
// factor (JointSpaceSystem::PathRow) and is solved exactly with it. Any other (two sibling
// fingers) meets the whole tree's effective mass J H^-1 J^T (H the projection's matrix, drives,
// limits and path rows included) and moves the rates by H^-1 J^T dlambda, one projected
// Gauss-Seidel pass per iteration after the contacts, as joint_space_contacts.h solves a contact's rows.
//
// Why: joint by joint, the row's impulse reaches a tree's light links through Jolt's iterations
// one joint at a time; dm_control's manipulator's fingers then needed about 60 iterations a step to
// follow MuJoCo within 3%.
#pragma once

#include "physics/articulation/joint_space_system.h"
#include "physics/joints/tendon_equality_constraint.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <vector>

namespace joltgym {

class JointSpaceEqualities {
 public:
  // One joint of the tendon: its hinge's rate, the coefficient on the rate x (the tendon's times
  // the hinge's sign on the rate) and on the hinge's own rate (the tendon's).
  struct Term {
    int rate = -1;
    int hinge = -1;
    double on_rate = 0.0;
    float on_hinge = 0.0f;
  };

  // The terms of a tendon over the model's joints `joints` with coefficients `coefs`: hinges of a
  // tree whose hinge k has rate first_rate + k, that rate being sign_of(k) times the hinge's own.
  template <typename SignOf>
  static std::vector<Term> TermsOnHinges(const std::vector<ArticulatedHinge>& hinges, int first_rate,
                                         const std::vector<int>& joints, const std::vector<float>& coefs,
                                         SignOf&& sign_of) {
    std::vector<Term> terms;
    for (size_t i = 0; i < joints.size(); ++i) {
      const auto hinge = std::find_if(hinges.begin(), hinges.end(), [&](const ArticulatedHinge& h) { return h.joint == joints[i]; });
      if (hinge == hinges.end()) throw std::invalid_argument("tendon equality: a joint that is not one of the tree's hinges");
      const int k = int(hinge - hinges.begin());
      terms.push_back({first_rate + k, k, double(coefs[i]) * sign_of(k), coefs[i]});
    }
    return terms;
  }

  // The equality's row is solved here from now on (TendonEqualityConstraint::SolveInArticulation).
  void Attach(JointSpaceSystem& system, TendonEqualityConstraint* equality, const std::vector<Term>& terms) {
    equality->SolveInArticulation();
    int rates[JointSpaceSystem::kMaxPathTerms];
    double coefs[JointSpaceSystem::kMaxPathTerms];
    int count = 0;
    for (const Term& t : terms) {  // merged per rate
      if (count == JointSpaceSystem::kMaxPathTerms) {
        count = -1;
        break;
      }
      int* same = std::find(rates, rates + count, t.rate);
      if (same != rates + count) {
        coefs[same - rates] += t.on_rate;
        continue;
      }
      rates[count] = t.rate;
      coefs[count++] = t.on_rate;
    }
    if (count > 0 && system.OnOnePath(rates, count)) {
      path_rows_.push_back({equality, terms, system.AddPathRow(&equality->total(), rates, coefs, count)});
      return;
    }
    Row row;
    row.equality = equality;
    row.terms = terms;
    // The rates the row moves: its hinges' and their ancestors', ascending (closed under
    // ancestors, as the upper solve on a path needs).
    for (const Term& t : terms) {
      std::vector<int> merged;
      std::set_union(row.path.begin(), row.path.end(), system.path(t.rate), system.path(t.rate) + system.path_length(t.rate),
                     std::back_inserter(merged));
      row.path = std::move(merged);
    }
    row.position.assign(size_t(system.num_rates()), -1);
    for (size_t q = 0; q < row.path.size(); ++q) row.position[size_t(row.path[q])] = int(q);
    row.j.assign(row.path.size(), 0.0);
    for (const Term& t : terms) row.j[size_t(row.position[size_t(t.rate)])] += t.on_rate;
    row.y.assign(2 * row.path.size(), 0.0);
    rows_.push_back(std::move(row));
  }
  bool empty() const { return rows_.empty() && path_rows_.empty(); }

  // Each row's softness and bias for an update of length dt, before the system's Factorise.
  void Build(float dt, JointSpaceSystem& system) {
    for (Row& row : rows_) row.equality->ArticulatedRow(dt, row.softness, row.bias);
    for (const InFactor& row : path_rows_) {
      JointSpaceSystem::PathRow& in_system = system.path_row(row.index);
      row.equality->ArticulatedRow(dt, in_system.softness, in_system.bias);
      in_system.softness = std::max(in_system.softness, 1.0e-9);
    }
    factor_changed_ = true;
  }
  // The system's factor changed: L^-T J^T and the rows' effective masses are recomputed when the
  // next Solve needs them.
  void FactorChanged() { factor_changed_ = true; }

  // Jolt's warm start: each row's total scaled by ratio, `apply(hinge, impulse)` on each of its hinges.
  template <typename Apply>
  void WarmStart(float ratio, Apply&& apply) {
    const auto warm_start = [&](TendonEqualityConstraint* equality, const std::vector<Term>& terms) {
      float& total = equality->total();
      total *= ratio;
      if (total == 0.0f) return;
      for (const Term& t : terms) apply(t.hinge, t.on_hinge * total);
    };
    for (Row& row : rows_) warm_start(row.equality, row.terms);
    for (InFactor& row : path_rows_) warm_start(row.equality, row.terms);
  }

  // One pass on the rates: (K + softness) dlambda = -(J x + softness total + bias), no bound.
  void Solve(JointSpaceSystem& system) {
    if (rows_.empty()) return;
    if (factor_changed_) Factorise(system);
    factor_changed_ = false;
    const int n = system.num_rates();
    for (Row& row : rows_) {
      double jx = 0.0;
      for (size_t q = 0; q < row.path.size(); ++q) jx += row.j[q] * system.x(row.path[q]);
      float& total = row.equality->total();
      const double delta = -(jx + row.softness * double(total) + row.bias) * row.inv_k;
      if (delta == 0.0) continue;
      total += float(delta);
      double dx[JointSpaceSystem::kMaxRates];  // H^-1 J^T delta = L^-1 (L^-T J^T delta)
      std::fill(dx, dx + n, 0.0);
      for (size_t q = 0; q < row.path.size(); ++q) dx[row.path[q]] = row.y[2 * q] * delta;
      system.SolveLower(dx);
      for (int r = 0; r < n; ++r) system.mutable_x(r) += dx[r];
    }
  }

 private:
  struct Row {
    TendonEqualityConstraint* equality = nullptr;
    std::vector<Term> terms;
    std::vector<int> path;      // the rates it moves, ascending
    std::vector<int> position;  // per rate: its index in path, -1 off it
    std::vector<double> j;      // J on the path
    std::vector<double> y;      // L^-T J^T on the path, in pairs (the solve's two lanes; the second unused)
    double softness = 0.0, bias = 0.0, inv_k = 0.0;
  };

  void Factorise(const JointSpaceSystem& system) {
    for (Row& row : rows_) {
      for (size_t q = 0; q < row.path.size(); ++q) row.y[2 * q] = row.j[q], row.y[2 * q + 1] = 0.0;
      system.SolveUpperOnPath<2>(row.path.data(), int(row.path.size()), row.position.data(),
                                 reinterpret_cast<double (*)[2]>(row.y.data()));
      double k = 0.0;
      for (size_t q = 0; q < row.path.size(); ++q) k += row.y[2 * q] * row.y[2 * q];
      row.inv_k = 1.0 / (k + row.softness);
    }
  }

  // A row in the system's factor: its warm start is applied here.
  struct InFactor {
    TendonEqualityConstraint* equality = nullptr;
    std::vector<Term> terms;
    int index = -1;  // JointSpaceSystem::path_row
  };

  std::vector<Row> rows_;
  std::vector<InFactor> path_rows_;
  bool factor_changed_ = true;
};

}  // namespace joltgym
