// Deterministic pairwise covering; see covering.h.
#include "harness/covering.h"

#include <algorithm>
#include <cstdint>
#include <numeric>

namespace canopy_test::harness {
namespace {

// Completions tried per seed before its requirement is given up as impossible.
constexpr int kBacktrackBudget = 20000;

// The requirements (single values and value pairs) and which are still uncovered.
class Requirements {
 public:
  explicit Requirements(const CoveringProblem& problem) : problem_(problem), factors_(problem.sizes.size()) {
    singleBase_.resize(factors_);
    int total = 0;
    for (size_t f = 0; f < factors_; ++f) {
      singleBase_[f] = total;
      total += problem.sizes[f];
    }
    pairBase_.assign(factors_ * factors_, -1);
    for (size_t fa = 0; fa < factors_; ++fa) {
      for (size_t fb = fa + 1; fb < factors_; ++fb) {
        pairBase_[fa * factors_ + fb] = total;
        total += problem.sizes[fa] * problem.sizes[fb];
      }
    }
    open_.assign(static_cast<size_t>(total), 0);
    std::vector<int> partial(factors_, -1);
    for (size_t f = 0; f < factors_; ++f) {
      for (int a = 0; a < problem.sizes[f]; ++a) {
        partial[f] = a;
        open_[Single(f, a)] = problem.valid(partial) ? 1 : 0;
        partial[f] = -1;
      }
    }
    for (size_t fa = 0; fa < factors_; ++fa) {
      for (size_t fb = fa + 1; fb < factors_; ++fb) {
        for (int a = 0; a < problem.sizes[fa]; ++a) {
          for (int b = 0; b < problem.sizes[fb]; ++b) {
            bool wanted = !problem.pairWanted || problem.pairWanted(static_cast<int>(fa), a, static_cast<int>(fb), b);
            if (wanted) {
              partial[fa] = a;
              partial[fb] = b;
              wanted = problem.valid(partial);
              partial[fa] = partial[fb] = -1;
            }
            open_[PairIndex(fa, a, fb, b)] = wanted ? 1 : 0;
          }
        }
      }
    }
  }

  size_t PairIndex(size_t fa, int a, size_t fb, int b) const {
    if (fa > fb) {
      std::swap(fa, fb);
      std::swap(a, b);
    }
    return static_cast<size_t>(pairBase_[fa * factors_ + fb]) +
           static_cast<size_t>(a) * static_cast<size_t>(problem_.sizes[fb]) + static_cast<size_t>(b);
  }

  size_t Single(size_t f, int v) const { return static_cast<size_t>(singleBase_[f]) + static_cast<size_t>(v); }

  // Uncovered requirements that value v of factor f would cover next to the assigned factors.
  int Gain(const std::vector<int>& assignment, size_t f, int v) const {
    int gain = open_[Single(f, v)];
    for (size_t g = 0; g < factors_; ++g) {
      if (g != f && assignment[g] >= 0) gain += open_[PairIndex(g, assignment[g], f, v)];
    }
    return gain;
  }

  void Cover(const std::vector<int>& row) {
    for (size_t f = 0; f < factors_; ++f) {
      open_[Single(f, row[f])] = 0;
      for (size_t g = f + 1; g < factors_; ++g) open_[PairIndex(f, row[f], g, row[g])] = 0;
    }
  }

  // The first open requirement as a partial assignment; false when none is left.
  bool FirstOpen(std::vector<int>* seed, size_t* index) const {
    const auto it = std::find(open_.begin(), open_.end(), 1);
    if (it == open_.end()) return false;
    *index = static_cast<size_t>(it - open_.begin());
    seed->assign(factors_, -1);
    const auto at = static_cast<int>(*index);
    for (size_t fa = 0; fa < factors_; ++fa) {
      for (size_t fb = fa + 1; fb < factors_; ++fb) {
        const int base = pairBase_[fa * factors_ + fb];
        const int count = problem_.sizes[fa] * problem_.sizes[fb];
        if (at >= base && at < base + count) {
          (*seed)[fa] = (at - base) / problem_.sizes[fb];
          (*seed)[fb] = (at - base) % problem_.sizes[fb];
          return true;
        }
      }
    }
    for (size_t f = 0; f < factors_; ++f) {
      if (at >= singleBase_[f] && at < singleBase_[f] + problem_.sizes[f]) {
        (*seed)[f] = at - singleBase_[f];
        return true;
      }
    }
    return false;
  }

  void Drop(size_t index) { open_[index] = 0; }

 private:
  const CoveringProblem& problem_;
  size_t factors_;
  std::vector<int> singleBase_;
  std::vector<int> pairBase_;
  std::vector<uint8_t> open_;
};

// Assigns the unassigned factors from `f` on, best gain first, backtracking
// when a choice leaves no valid completion.
bool Complete(const CoveringProblem& problem, const Requirements& requirements, std::vector<int>& assignment, size_t f,
              int& budget) {
  if (f == assignment.size()) return true;
  if (assignment[f] >= 0) return Complete(problem, requirements, assignment, f + 1, budget);
  std::vector<int> order(static_cast<size_t>(problem.sizes[f]));
  std::iota(order.begin(), order.end(), 0);
  std::vector<int> gains(order.size());
  for (int v : order) gains[static_cast<size_t>(v)] = requirements.Gain(assignment, f, v);
  std::stable_sort(order.begin(), order.end(),
                   [&gains](int x, int y) { return gains[static_cast<size_t>(x)] > gains[static_cast<size_t>(y)]; });
  for (int v : order) {
    if (--budget < 0) break;
    assignment[f] = v;
    if (problem.valid(assignment) && Complete(problem, requirements, assignment, f + 1, budget)) return true;
  }
  assignment[f] = -1;
  return false;
}

}  // namespace

std::vector<std::vector<int>> CoverPairs(const CoveringProblem& problem) {
  std::vector<std::vector<int>> rows;
  if (problem.sizes.empty()) return rows;
  Requirements requirements(problem);
  std::vector<int> seed;
  size_t index = 0;
  while (requirements.FirstOpen(&seed, &index)) {
    int budget = kBacktrackBudget;
    if (problem.valid(seed) && Complete(problem, requirements, seed, 0, budget)) {
      requirements.Cover(seed);
      rows.push_back(seed);
    } else {
      requirements.Drop(index);  // no valid row holds it
    }
  }
  return rows;
}

}  // namespace canopy_test::harness
