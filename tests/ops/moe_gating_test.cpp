// aclnnMoeGatingTopKSoftmax against a float64 reference: softmax over the
// experts, the k largest (ties: the lower expert first), expert numbers,
// k-major row numbers, finished rows, 2-D and 3-D x, every dtype, strided
// views, k = 0 and empty rows, the doc's example and every rejection.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "aclnnop/aclnn_moe_gating_top_k_softmax.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  aclDataType dtype = ACL_FLOAT;
  Shape x = {5, 8};
  int64_t k = 2;
  bool finished = false;
  View view = View::kContiguous;
  std::string name;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

void RunCase(const Case& c) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor x(c.dtype, c.x, c.view);
  const Values xv = x.FillRandom(rng, Range{-3, 3});
  const int64_t experts = c.x.back();
  const int64_t rows = NumElements(c.x) / experts;
  Shape row_shape(c.x.begin(), c.x.end() - 1);
  Shape out_shape = row_shape;
  out_shape.push_back(c.k);
  std::unique_ptr<DeviceTensor> finished;
  std::vector<bool> done(static_cast<size_t>(rows), false);
  if (c.finished) {
    finished = std::make_unique<DeviceTensor>(ACL_BOOL, row_shape);
    Values bits(static_cast<size_t>(rows));
    for (int64_t i = 0; i < rows; ++i) {
      done[static_cast<size_t>(i)] = i % 3 == 1;
      bits[static_cast<size_t>(i)] = done[static_cast<size_t>(i)] ? 1.0 : 0.0;
    }
    finished->WriteView(bits);
  }
  DeviceTensor y(c.dtype, out_shape, c.view), expert(ACL_INT32, out_shape), row(ACL_INT32, out_shape, c.view);
  y.Poison();
  expert.Poison();
  row.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeGatingTopKSoftmaxGetWorkspaceSize(a.Tensor(x), finished ? a.Tensor(*finished) : nullptr, c.k,
                                                         a.Tensor(y), a.Tensor(expert), a.Tensor(row), w, e);
      },
      aclnnMoeGatingTopKSoftmax);
  ASSERT_TRUE(run.ok()) << Describe(run);

  Values want_y, want_expert, want_row;
  for (int64_t i = 0; i < rows; ++i) {
    std::vector<double> logits(static_cast<size_t>(experts));
    for (int64_t e = 0; e < experts; ++e)
      logits[static_cast<size_t>(e)] = xv[static_cast<size_t>(i * experts + e)].real();
    const double max = *std::max_element(logits.begin(), logits.end());
    double sum = 0;
    for (double v : logits) sum += std::exp(v - max);
    std::vector<int64_t> order(static_cast<size_t>(experts));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      return logits[static_cast<size_t>(a)] > logits[static_cast<size_t>(b)];
    });
    for (int64_t j = 0; j < c.k; ++j) {
      const int64_t e = order[static_cast<size_t>(j)];
      want_y.push_back(std::exp(logits[static_cast<size_t>(e)] - max) / sum);
      want_expert.push_back(static_cast<double>(done[static_cast<size_t>(i)] ? experts : e));
      want_row.push_back(static_cast<double>(j * rows + i));
    }
  }
  ExpectNear(y.ReadView(), RelativeTolerance(want_y, c.dtype, 4), "yOut");
  ExpectNear(expert.ReadView(), Expected{want_expert, std::vector<double>(want_expert.size(), 0.0)}, "expertIdxOut");
  ExpectNear(row.ReadView(), Expected{want_row, std::vector<double>(want_row.size(), 0.0)}, "rowIdxOut");
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const std::string t = Name(dtype);
    cases.push_back({dtype, {5, 8}, 2, false, View::kContiguous, t + "_2d_k2"});
    cases.push_back({dtype, {2, 3, 16}, 4, true, View::kContiguous, t + "_3d_k4_finished"});
    cases.push_back({dtype, {7, 64}, 8, false, View::kContiguous, t + "_64_experts_k8"});
    cases.push_back({dtype, {4, 6}, 6, true, View::kContiguous, t + "_k_all_experts"});
    cases.push_back({dtype, {33, 5}, 1, false, View::kContiguous, t + "_k1"});
    cases.push_back({dtype, {6, 10}, 3, false, View::kTransposed, t + "_transposed_views"});
    cases.push_back({dtype, {2, 4, 12}, 3, true, View::kStepped, t + "_stepped_views"});
  }
  cases.push_back({ACL_FLOAT, {4, 8}, 0, false, View::kContiguous, "k0_empty_outputs"});
  cases.push_back({ACL_FLOAT16, {0, 8}, 2, true, View::kContiguous, "no_rows"});
  return cases;
}

class MoeGatingTopKSoftmaxTest : public ::testing::TestWithParam<Case> {};

TEST_P(MoeGatingTopKSoftmaxTest, MatchesReference) { RunCase(GetParam()); }

INSTANTIATE_TEST_SUITE_P(All, MoeGatingTopKSoftmaxTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// Ties: equal logits give equal weights and the lower expert first.
TEST(MoeGatingTopKSoftmax, TiesTakeTheLowerExpertFirst) {
  DeviceTensor x(ACL_FLOAT16, {1, 4}), y(ACL_FLOAT16, {1, 3}), expert(ACL_INT32, {1, 3}), row(ACL_INT32, {1, 3});
  x.WriteView({1.0, 2.0, 2.0, 1.0});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeGatingTopKSoftmaxGetWorkspaceSize(a.Tensor(x), nullptr, 3, a.Tensor(y), a.Tensor(expert),
                                                         a.Tensor(row), w, e);
      },
      aclnnMoeGatingTopKSoftmax);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(expert.ReadView(), Expected{{1.0, 2.0, 0.0}, {0, 0, 0}}, "expertIdxOut");
  const double big = std::exp(1.0) / (2 * std::exp(1.0) + 2), small = 1 / (2 * std::exp(1.0) + 2);
  ExpectNear(y.ReadView(), RelativeTolerance({big, big, small}, ACL_FLOAT16, 2), "yOut");
}

// The doc's example: x = [[0.1 .. 3.1], [4.1 .. 7.1], [8.1 .. 11.1]] f32, k = 2.
TEST(MoeGatingTopKSoftmax, DocExample) {
  DeviceTensor x(ACL_FLOAT, {3, 4}), y(ACL_FLOAT, {3, 2}), expert(ACL_INT32, {3, 2}), row(ACL_INT32, {3, 2});
  x.WriteView({0.1, 1.1, 2.1, 3.1, 4.1, 5.1, 6.1, 7.1, 8.1, 9.1, 10.1, 11.1});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeGatingTopKSoftmaxGetWorkspaceSize(a.Tensor(x), nullptr, 2, a.Tensor(y), a.Tensor(expert),
                                                         a.Tensor(row), w, e);
      },
      aclnnMoeGatingTopKSoftmax);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const double s = 1 + std::exp(-1.0) + std::exp(-2.0) + std::exp(-3.0);
  ExpectNear(y.ReadView(),
             RelativeTolerance(Values{1 / s, std::exp(-1.0) / s, 1 / s, std::exp(-1.0) / s, 1 / s, std::exp(-1.0) / s},
                               ACL_FLOAT, 8),
             "yOut");
  ExpectNear(expert.ReadView(), Expected{{3, 2, 3, 2, 3, 2}, std::vector<double>(6, 0.0)}, "expertIdxOut");
  ExpectNear(row.ReadView(), Expected{{0, 3, 1, 4, 2, 5}, std::vector<double>(6, 0.0)}, "rowIdxOut");
}

struct Call {
  aclDataType x = ACL_FLOAT16, y = ACL_FLOAT16, expert = ACL_INT32, row = ACL_INT32, finished = ACL_BOOL;
  Shape x_shape = {4, 8}, out = {4, 2}, expert_shape = {4, 2}, row_shape = {4, 2}, finished_shape;
  int64_t k = 2;
  bool x_null = false;
};

OpRun RunCall(const Call& c) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeGatingTopKSoftmaxGetWorkspaceSize(
            c.x_null ? nullptr : a.NewTensor(c.x, c.x_shape),
            c.finished_shape.empty() ? nullptr : a.NewTensor(c.finished, c.finished_shape), c.k,
            a.NewTensor(c.y, c.out), a.NewTensor(c.expert, c.expert_shape), a.NewTensor(c.row, c.row_shape), w, e);
      },
      aclnnMoeGatingTopKSoftmax);
}

template <typename Edit>
Call With(Edit edit) {
  Call c;
  edit(c);
  return c;
}

constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;

TEST(MoeGatingTopKSoftmaxRejects, EachCase) {
  EXPECT_TRUE(RunCall(Call{}).ok());
  ExpectRejectedWith(RunCall(With([](Call& c) { c.x_null = true; })), ACLNN_ERR_PARAM_NULLPTR, {"'x'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.x = c.y = ACL_INT32; })), kInvalid, {"'x'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.y = ACL_FLOAT; })), kInvalid, {"'yOut'", "match"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.expert = ACL_INT64; })), kInvalid, {"'expertIdxOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.row = ACL_FLOAT; })), kInvalid, {"'rowIdxOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.x_shape = {8};
                       c.out = c.expert_shape = c.row_shape = {2};
                     })),
                     kInvalid, {"'x'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.x_shape = {1, 2, 2, 8};
                       c.out = c.expert_shape = c.row_shape = {1, 2, 2, 2};
                     })),
                     kInvalid, {"'x'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.k = 9; })), kInvalid, {"'k'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.k = -1; })), kInvalid, {"'k'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.x_shape = {2, 2000};
                       c.k = 1025;
                       c.out = c.expert_shape = c.row_shape = {2, 1025};
                     })),
                     kInvalid, {"'k'", "1024"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.finished_shape = {4, 1}; })), kInvalid, {"'finishedOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.finished_shape = {4};
                       c.finished = ACL_INT8;
                     })),
                     kInvalid, {"'finishedOptional'"});
  EXPECT_TRUE(RunCall(With([](Call& c) { c.finished_shape = {4}; })).ok());
  ExpectRejectedWith(RunCall(With([](Call& c) { c.out = {4, 3}; })), kInvalid, {"'yOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.expert_shape = {4, 1}; })), kInvalid, {"'expertIdxOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.row_shape = {2, 4}; })), kInvalid, {"'rowIdxOut'"});
}

}  // namespace
}  // namespace canopy_test
