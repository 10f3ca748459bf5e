// The MoE routing suites' reference for MoeInitRoutingV2's permutation (and
// its quantised form): the rows * k slots sorted by expert, stably in their
// flattened [rows, k] order, laid out drop-less / active (the first
// `expanded_rows` positions) or drop/pad ([experts, capacity], the copies past
// an expert's capacity dropped), with the per-expert token counts.
#ifndef CANOPY_TESTS_OPS_MOE_TEST_SUPPORT_H_
#define CANOPY_TESTS_OPS_MOE_TEST_SUPPORT_H_

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "op_test_support.h"

namespace canopy_test {

struct MoeRouting {
  std::vector<int64_t> order;   // the slots in expert order
  std::vector<int64_t> source;  // expanded row -> x row (-1: a zero padding row)
  std::vector<int64_t> expert;  // expanded row -> its expert (-1: padding)
  Values row_index;             // expandedRowIdxOut: slot -> expanded row (-1: dropped)
  std::vector<int64_t> histogram;
};

// `experts` holds each slot's expert (all in [0, expert_num) where drop/pad or the counts need them).
inline MoeRouting RouteMoeV2(const std::vector<int64_t>& experts, int64_t k, int64_t expanded_rows, bool drop_pad,
                             int64_t capacity, int64_t expert_num) {
  MoeRouting r;
  const auto slots = static_cast<int64_t>(experts.size());
  r.order.resize(experts.size());
  std::iota(r.order.begin(), r.order.end(), 0);
  std::stable_sort(r.order.begin(), r.order.end(), [&](int64_t a, int64_t b) {
    return experts[static_cast<size_t>(a)] < experts[static_cast<size_t>(b)];
  });
  const int64_t rows_out = drop_pad ? expert_num * capacity : expanded_rows;
  r.source.assign(static_cast<size_t>(rows_out), -1);
  r.expert.assign(static_cast<size_t>(rows_out), -1);
  r.row_index.assign(static_cast<size_t>(slots), Value(0.0));
  r.histogram.assign(static_cast<size_t>(std::max<int64_t>(expert_num, 0)), 0);
  for (int64_t e : experts) {
    if (e >= 0 && e < expert_num) ++r.histogram[static_cast<size_t>(e)];
  }
  std::vector<int64_t> filled(r.histogram.size(), 0);
  for (int64_t p = 0; p < slots; ++p) {
    const int64_t s = r.order[static_cast<size_t>(p)], e = experts[static_cast<size_t>(s)];
    int64_t row = p;
    if (drop_pad) {
      const int64_t rank = filled[static_cast<size_t>(e)]++;
      row = rank < capacity ? e * capacity + rank : -1;
    }
    r.row_index[static_cast<size_t>(s)] = static_cast<double>(row);
    if (row >= 0 && row < rows_out) {
      r.source[static_cast<size_t>(row)] = s / k;
      r.expert[static_cast<size_t>(row)] = e;
    }
  }
  return r;
}

// The token counts per expert, or their running sum (count_flag 1).
inline Values MoeTokenCounts(const MoeRouting& r, int64_t count_flag) {
  Values want;
  int64_t sum = 0;
  for (int64_t n : r.histogram) {
    sum += n;
    want.push_back(static_cast<double>(count_flag == 1 ? sum : n));
  }
  return want;
}

}  // namespace canopy_test

#endif  // CANOPY_TESTS_OPS_MOE_TEST_SUPPORT_H_
