// SearchSorted and SearchSorteds through the public API against a plain
// reference: every dtype pair's promotion, a shared 1-D sequence and
// per-row sequences, left and right, with and without sorter (an unsorted
// sequence and its argsort), int32 and int64 out, strided views, duplicates,
// empty inputs (zeros), NaN as CANN's kernel compares it, a bad sorter index
// (a stream error), CANN's examples
// and the rejections with their codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "aclnnop/aclnn_searchsorted.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

OpRun RunSearch(const DeviceTensor& sequence, const DeviceTensor& self, bool outInt32, bool right,
                const DeviceTensor* sorter, const DeviceTensor& out) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnSearchSortedGetWorkspaceSize(a.Tensor(sequence), a.Tensor(self), outInt32, right,
                                                 sorter != nullptr ? a.Tensor(*sorter) : nullptr, a.Tensor(out), w, e);
      },
      aclnnSearchSorted);
}

// The insertion point of x into `row` (already in sorted order).
int64_t Insertion(const std::vector<double>& row, double x, bool right) {
  return right ? std::upper_bound(row.begin(), row.end(), x) - row.begin()
               : std::lower_bound(row.begin(), row.end(), x) - row.begin();
}

struct SearchCase {
  std::string name;
  aclDataType sequence, self;
  Shape sequenceShape, selfShape;
  bool right = false;
  bool sorter = false;
  bool outInt32 = false;
  View view = View::kContiguous;
};
void PrintTo(const SearchCase& c, std::ostream* os) { *os << c.name; }

std::vector<SearchCase> SearchCases() {
  std::vector<SearchCase> cases;
  for (aclDataType d : {ACL_FLOAT16, ACL_FLOAT, ACL_INT16, ACL_INT8, ACL_UINT8, ACL_INT32, ACL_INT64, ACL_DOUBLE}) {
    cases.push_back({std::string("shared_") + Name(d), d, d, {12}, {3, 5}});
    cases.push_back({std::string("rows_right_") + Name(d), d, d, {3, 10}, {3, 4}, true});
  }
  cases.push_back({"mixed_int32_f32", ACL_INT32, ACL_FLOAT, {9}, {7}});
  cases.push_back({"mixed_u8_s8", ACL_UINT8, ACL_INT8, {9}, {7}, true});
  cases.push_back({"sorter_rows", ACL_FLOAT, ACL_FLOAT, {2, 3, 8}, {2, 3, 5}, false, true});
  cases.push_back({"sorter_shared_right_int32", ACL_INT64, ACL_INT64, {11}, {4, 2}, true, true, true});
  cases.push_back({"strided", ACL_FLOAT, ACL_FLOAT, {4, 9}, {4, 6}, false, false, false, View::kStepped});
  cases.push_back({"rank0_self", ACL_FLOAT, ACL_FLOAT, {9}, {}});
  return cases;
}

class SearchSortedTest : public ::testing::TestWithParam<SearchCase> {};

TEST_P(SearchSortedTest, MatchesReference) {
  const SearchCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  const int64_t n = c.sequenceShape.back();
  const int64_t rows = NumElements(c.sequenceShape) / n;
  const bool small = c.sequence == ACL_INT8 || c.sequence == ACL_UINT8 || c.self == ACL_INT8 || c.self == ACL_UINT8;
  const double lo = (c.sequence == ACL_UINT8 || c.self == ACL_UINT8) ? 0 : (small ? -20 : -50);
  const double hi = small ? 20 : 50;
  // Each row sorted, with duplicates (small integers); shuffled when a sorter gives the order.
  std::vector<std::vector<double>> sortedRows(static_cast<size_t>(rows));
  Values sequenceValues, sorterValues;
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<double>& row = sortedRows[static_cast<size_t>(r)];
    for (int64_t j = 0; j < n; ++j) row.push_back(std::floor(rng.Uniform(lo, hi)));
    std::sort(row.begin(), row.end());
    std::vector<int64_t> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), int64_t{0});
    if (c.sorter) std::shuffle(order.begin(), order.end(), std::mt19937(static_cast<uint32_t>(rng.seed() + r)));
    // Stored so that stored[order[j]] = row[j].
    std::vector<double> stored(static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j) stored[static_cast<size_t>(order[j])] = row[static_cast<size_t>(j)];
    for (double v : stored) sequenceValues.push_back(v);
    for (int64_t o : order) sorterValues.push_back(static_cast<double>(o));
  }
  DeviceTensor sequence(c.sequence, c.sequenceShape, c.view), self(c.self, c.selfShape, c.view);
  sequence.WriteView(sequenceValues);
  Values values;
  for (int64_t i = 0; i < std::max<int64_t>(NumElements(c.selfShape), 1); ++i) {
    values.push_back(std::floor(rng.Uniform(lo - 2, hi + 2)) + (IsRealFloat(c.self) ? 0.5 : 0.0));
  }
  self.WriteView(values);
  values = self.ReadView();
  DeviceTensor sorter(ACL_INT64, c.sequenceShape);
  sorter.WriteView(sorterValues);
  DeviceTensor out(c.outInt32 ? ACL_INT32 : ACL_INT64, c.selfShape, c.view);
  const OpRun run = RunSearch(sequence, self, c.outInt32, c.right, c.sorter ? &sorter : nullptr, out);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const int64_t m = c.selfShape.empty() ? 1 : c.selfShape.back();
  Values want;
  for (size_t i = 0; i < values.size(); ++i) {
    const size_t row = rows == 1 ? 0 : i / static_cast<size_t>(m);
    // The sequence holds its values in its own dtype: compare what it holds.
    want.push_back(static_cast<double>(Insertion(sortedRows[row], values[i].real(), c.right)));
  }
  ExpectExact(out.ReadView(), want, c.name);
}

INSTANTIATE_TEST_SUITE_P(Cases, SearchSortedTest, ::testing::ValuesIn(SearchCases()),
                         [](const ::testing::TestParamInfo<SearchCase>& info) { return info.param.name; });

TEST(SearchSorted, CannExamplesEmptyAndBadSorter) {
  // SearchSorted's example: rows of 1..16 searched for {1,3},{6,8},{10,11},{14,16}.
  DeviceTensor sequence(ACL_FLOAT, {4, 4}), self(ACL_FLOAT, {4, 2}), sorter(ACL_INT64, {4, 4}), out(ACL_INT64, {4, 2});
  Values s, o;
  for (int i = 1; i <= 16; ++i) s.push_back(i);
  for (int r = 0; r < 4; ++r) {
    for (int j = 0; j < 4; ++j) o.push_back(j);
  }
  sequence.WriteView(s);
  sorter.WriteView(o);
  self.WriteView({1, 3, 6, 8, 10, 11, 14, 16});
  ASSERT_TRUE(RunSearch(sequence, self, false, false, &sorter, out).ok());
  ExpectExact(out.ReadView(), {0, 2, 1, 3, 1, 2, 1, 3}, "SearchSorted example");
  // SearchSorteds' example: 5.0 into {1, 3, 6, 8} is 2; out becomes [1].
  DeviceTensor line(ACL_FLOAT, {4}), one(ACL_INT64, {1, 1});
  line.WriteView({1, 3, 6, 8});
  aclTensor* outTensor = nullptr;
  const OpRun scalar = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        outTensor = a.Tensor(one);
        return aclnnSearchSortedsGetWorkspaceSize(a.Tensor(line), a.Scalar(ACL_FLOAT, 5.0), false, false, nullptr,
                                                  outTensor, w, e);
      },
      aclnnSearchSorteds);
  ASSERT_TRUE(scalar.ok()) << Describe(scalar);
  ExpectExact(one.ReadView(), {2}, "SearchSorteds example");
  // Empty inputs give zeros.
  DeviceTensor empty(ACL_FLOAT, {0}), zeros(ACL_INT64, {4, 2});
  zeros.Poison();
  ASSERT_TRUE(RunSearch(empty, self, false, false, nullptr, zeros).ok());
  ExpectExact(zeros.ReadView(), Values(8, 0.0), "an empty sequence gives zeros");
  // A sorter index outside the row fails the run.
  o[5] = 4;
  sorter.WriteView(o);
  EXPECT_NE(RunSearch(sequence, self, false, false, &sorter, out).sync, ACL_SUCCESS);
}

// NaN as CANN's kernel and PyTorch compare (no element is at least NaN; a NaN
// element is at least nothing, so a search passes it): a sequence as torch.sort
// leaves it, NaN last, and NaN among the values, left and right, with the
// kernel's midpoints (lo + (hi - lo) / 2).
TEST(SearchSorted, NanComparesAsCannsKernel) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (aclDataType d : {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE}) {
    SCOPED_TRACE(Name(d));
    DeviceTensor sequence(d, {5}), self(d, {4}), out(ACL_INT64, {4});
    sequence.WriteView({1, 2, 2, 3, nan});
    self.WriteView({5, nan, 2, 0});
    ASSERT_TRUE(RunSearch(sequence, self, false, false, nullptr, out).ok());
    ExpectExact(out.ReadView(), {5, 5, 1, 0}, "left");
    ASSERT_TRUE(RunSearch(sequence, self, false, true, nullptr, out).ok());
    // 2 to the right: mid 2 (2 is not above 2) moves on, then mid 4 (NaN is not above 2) too.
    ExpectExact(out.ReadView(), {5, 5, 5, 0}, "right");
  }
}

TEST(SearchSorted, Rejections) {
  struct Case {
    std::string name;
    aclDataType sequence, self, out;
    Shape sequenceShape, selfShape, outShape;
    bool outInt32;
  };
  const std::vector<Case> cases = {
      {"bf16_sequence", ACL_BF16, ACL_FLOAT, ACL_INT64, {4}, {3}, {3}, false},
      {"bool_self", ACL_FLOAT, ACL_BOOL, ACL_INT64, {4}, {3}, {3}, false},
      {"out_int64_with_outInt32", ACL_FLOAT, ACL_FLOAT, ACL_INT64, {4}, {3}, {3}, true},
      {"out_int32_without", ACL_FLOAT, ACL_FLOAT, ACL_INT32, {4}, {3}, {3}, false},
      {"out_shape", ACL_FLOAT, ACL_FLOAT, ACL_INT64, {4}, {3}, {4}, false},
      {"rows_differ", ACL_FLOAT, ACL_FLOAT, ACL_INT64, {2, 4}, {3, 2}, {3, 2}, false},
      {"one_value_needs_1d", ACL_FLOAT, ACL_FLOAT, ACL_INT64, {1, 4}, {1}, {1}, false},
  };
  for (const Case& c : cases) {
    DeviceTensor sequence(c.sequence, c.sequenceShape), self(c.self, c.selfShape), out(c.out, c.outShape);
    const OpRun run = RunSearch(sequence, self, c.outInt32, false, nullptr, out);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << c.name << ": " << Describe(run);
  }
  DeviceTensor sequence(ACL_FLOAT, {4}), self(ACL_FLOAT, {3}), out(ACL_INT64, {3}), sorter(ACL_INT32, {4});
  EXPECT_EQ(RunSearch(sequence, self, false, false, &sorter, out).phase1, ACLNN_ERR_PARAM_INVALID) << "sorter int32";
}

}  // namespace
}  // namespace canopy_test
