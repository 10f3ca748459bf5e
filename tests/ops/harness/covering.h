// A deterministic pairwise covering array under constraints: the harness's way
// of sampling the dtype x view x shape x form x attribute product. Every value
// of every factor appears in some row, and every wanted pair of values of two
// factors appears together in some row, unless no valid row can hold it.
#ifndef CANOPY_TESTS_OPS_HARNESS_COVERING_H_
#define CANOPY_TESTS_OPS_HARNESS_COVERING_H_

#include <functional>
#include <vector>

namespace canopy_test::harness {

struct CoveringProblem {
  std::vector<int> sizes;  // the number of values of each factor (each >= 1)
  // Whether value a of factor fa and value b of factor fb (fa < fb) must meet
  // in some row. nullptr: every pair.
  std::function<bool(int fa, int a, int fb, int b)> pairWanted;
  // Whether a partial assignment (-1: not assigned yet) can be part of a valid
  // row. It must reject a combination as soon as the factors that rule it out
  // are assigned, and accept every valid complete row.
  std::function<bool(const std::vector<int>& assignment)> valid;
};

// Rows of values, one per factor. Greedy (the value that covers most uncovered
// pairs first, ties to the lowest value) with bounded backtracking, so the same
// problem always gives the same rows.
std::vector<std::vector<int>> CoverPairs(const CoveringProblem& problem);

}  // namespace canopy_test::harness

#endif  // CANOPY_TESTS_OPS_HARNESS_COVERING_H_
