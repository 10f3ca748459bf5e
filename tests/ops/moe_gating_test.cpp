// aclnnMoeGatingTopKSoftmax and its V2 against a float64 reference: softmax
// over the experts, the k largest (ties: the lower expert first), expert
// numbers, k-major row numbers (V1), V2's renorm (softmax over the k largest
// logits) and whole-softmax output, finished rows, 2-D and 3-D x, every
// dtype, strided views, k = 0 and empty rows, the docs' examples and every
// rejection.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "aclnnop/aclnn_moe_gating_top_k_softmax.h"
#include "aclnnop/aclnn_moe_gating_top_k_softmax_v2.h"
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
  bool v2 = false;
  int64_t renorm = 0;           // V2
  bool softmax_output = false;  // V2's outputSoftmaxResultFlag
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
  DeviceTensor softmax(ACL_FLOAT, c.x, c.view);
  y.Poison();
  expert.Poison();
  row.Poison();
  softmax.Poison();
  const Values softmax_poison = softmax.ReadView();
  const OpRun run = c.v2 ? RunOp(
                               [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
                                 return aclnnMoeGatingTopKSoftmaxV2GetWorkspaceSize(
                                     a.Tensor(x), finished ? a.Tensor(*finished) : nullptr, c.k, c.renorm,
                                     c.softmax_output, a.Tensor(y), a.Tensor(expert), a.Tensor(softmax), w, e);
                               },
                               aclnnMoeGatingTopKSoftmaxV2)
                         : RunOp(
                               [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
                                 return aclnnMoeGatingTopKSoftmaxGetWorkspaceSize(
                                     a.Tensor(x), finished ? a.Tensor(*finished) : nullptr, c.k, a.Tensor(y),
                                     a.Tensor(expert), a.Tensor(row), w, e);
                               },
                               aclnnMoeGatingTopKSoftmax);
  ASSERT_TRUE(run.ok()) << Describe(run);

  Values want_y, want_expert, want_row, want_softmax;
  for (int64_t i = 0; i < rows; ++i) {
    std::vector<double> logits(static_cast<size_t>(experts));
    for (int64_t e = 0; e < experts; ++e)
      logits[static_cast<size_t>(e)] = xv[static_cast<size_t>(i * experts + e)].real();
    const double max = *std::max_element(logits.begin(), logits.end());
    double sum = 0;
    for (double v : logits) sum += std::exp(v - max);
    for (double v : logits) want_softmax.push_back(std::exp(v - max) / sum);
    std::vector<int64_t> order(static_cast<size_t>(experts));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      return logits[static_cast<size_t>(a)] > logits[static_cast<size_t>(b)];
    });
    if (c.renorm == 1) {  // the softmax over the k largest logits only
      sum = 0;
      for (int64_t j = 0; j < c.k; ++j)
        sum += std::exp(logits[static_cast<size_t>(order[static_cast<size_t>(j)])] - max);
    }
    for (int64_t j = 0; j < c.k; ++j) {
      const int64_t e = order[static_cast<size_t>(j)];
      want_y.push_back(std::exp(logits[static_cast<size_t>(e)] - max) / sum);
      want_expert.push_back(static_cast<double>(done[static_cast<size_t>(i)] ? experts : e));
      want_row.push_back(static_cast<double>(j * rows + i));
    }
  }
  ExpectNear(y.ReadView(), RelativeTolerance(want_y, c.dtype, 4), "yOut");
  ExpectNear(expert.ReadView(), Expected{want_expert, std::vector<double>(want_expert.size(), 0.0)}, "expertIdxOut");
  if (!c.v2) {
    ExpectNear(row.ReadView(), Expected{want_row, std::vector<double>(want_row.size(), 0.0)}, "rowIdxOut");
  } else if (c.softmax_output && c.renorm == 0) {
    ExpectNear(softmax.ReadView(), RelativeTolerance(want_softmax, ACL_FLOAT, 4), "softmaxResultOutOptional");
  } else {  // left alone
    const Values got = softmax.ReadView();
    ASSERT_EQ(got.size(), softmax_poison.size());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_TRUE(std::isnan(got[i].real()) || got[i].real() == softmax_poison[i].real()) << "softmax element " << i;
    }
  }
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
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const std::string t = "v2_" + std::string(Name(dtype));
    cases.push_back({dtype, {5, 8}, 2, false, View::kContiguous, t + "_softmax_out", true, 0, true});
    cases.push_back({dtype, {5, 8}, 2, false, View::kContiguous, t + "_no_softmax_out", true, 0, false});
    cases.push_back({dtype, {2, 3, 16}, 4, true, View::kContiguous, t + "_renorm_finished", true, 1, true});
    cases.push_back({dtype, {7, 64}, 8, false, View::kContiguous, t + "_renorm_64_experts", true, 1, false});
    cases.push_back({dtype, {6, 10}, 10, true, View::kTransposed, t + "_transposed_k_all", true, 0, true});
    cases.push_back({dtype, {2, 4, 12}, 3, false, View::kStepped, t + "_stepped_renorm", true, 1, false});
    cases.push_back({dtype, {3, 5, 6}, 1, true, View::kStepped, t + "_stepped_softmax_out", true, 0, true});
  }
  cases.push_back({ACL_BF16, {0, 8}, 2, true, View::kContiguous, "v2_no_rows", true, 0, true});
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
// NaN ranks above every number (torch.topk's order), NaNs by the lower expert,
// then the numbers highest first; the softmax of such a row is NaN. An
// adversarial pass found the comparison with > alone, not an order with NaN
// (std::partial_sort's result undefined): [2, 1, 0, 3] here.
TEST(MoeGatingTopKSoftmax, NanRanksFirst) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  DeviceTensor x(ACL_FLOAT, {2, 5}), y(ACL_FLOAT, {2, 5}), expert(ACL_INT32, {2, 5}), row(ACL_INT32, {2, 5});
  x.WriteView({1, nan, 3, 0.5, nan, 2, 4, 4, -1, 0});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeGatingTopKSoftmaxGetWorkspaceSize(a.Tensor(x), nullptr, 5, a.Tensor(y), a.Tensor(expert),
                                                         a.Tensor(row), w, e);
      },
      aclnnMoeGatingTopKSoftmax);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(expert.ReadView(), {1, 4, 2, 0, 3, 1, 2, 0, 4, 3}, "expertIdxOut");
  const Values got = y.ReadView();
  for (int j = 0; j < 5; ++j) EXPECT_TRUE(std::isnan(got[static_cast<size_t>(j)].real())) << "NaN row, " << j;
}

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

// V2's example: the same x, k = 2, renorm 0, the softmax written too.
TEST(MoeGatingTopKSoftmaxV2, DocExample) {
  DeviceTensor x(ACL_FLOAT, {3, 4}), y(ACL_FLOAT, {3, 2}), expert(ACL_INT32, {3, 2}), softmax(ACL_FLOAT, {3, 4});
  x.WriteView({0.1, 1.1, 2.1, 3.1, 4.1, 5.1, 6.1, 7.1, 8.1, 9.1, 10.1, 11.1});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeGatingTopKSoftmaxV2GetWorkspaceSize(a.Tensor(x), nullptr, 2, 0, true, a.Tensor(y),
                                                           a.Tensor(expert), a.Tensor(softmax), w, e);
      },
      aclnnMoeGatingTopKSoftmaxV2);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const double s = 1 + std::exp(-1.0) + std::exp(-2.0) + std::exp(-3.0);
  Values want_softmax;
  for (int row = 0; row < 3; ++row) {
    for (double d : {-3.0, -2.0, -1.0, 0.0}) want_softmax.push_back(std::exp(d) / s);
  }
  ExpectNear(softmax.ReadView(), RelativeTolerance(want_softmax, ACL_FLOAT, 8), "softmaxResultOutOptional");
  ExpectNear(expert.ReadView(), Expected{{3, 2, 3, 2, 3, 2}, std::vector<double>(6, 0.0)}, "expertIdxOut");
  const double top = 1 / s, second = std::exp(-1.0) / s;
  ExpectNear(y.ReadView(), RelativeTolerance(Values{top, second, top, second, top, second}, ACL_FLOAT, 8), "yOut");
}

struct CallV2 {
  aclDataType x = ACL_FLOAT, y = ACL_FLOAT, expert = ACL_INT32, softmax = ACL_FLOAT;
  Shape x_shape = {4, 8}, out = {4, 2}, expert_shape = {4, 2}, softmax_shape = {4, 8}, finished_shape;
  int64_t k = 2, renorm = 0;
  bool flag = true, softmax_null = false;
};

OpRun RunCallV2(const CallV2& c) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeGatingTopKSoftmaxV2GetWorkspaceSize(
            a.NewTensor(c.x, c.x_shape), c.finished_shape.empty() ? nullptr : a.NewTensor(ACL_BOOL, c.finished_shape),
            c.k, c.renorm, c.flag, a.NewTensor(c.y, c.out), a.NewTensor(c.expert, c.expert_shape),
            c.softmax_null ? nullptr : a.NewTensor(c.softmax, c.softmax_shape), w, e);
      },
      aclnnMoeGatingTopKSoftmaxV2);
}

template <typename Edit>
CallV2 WithV2(Edit edit) {
  CallV2 c;
  edit(c);
  return c;
}

TEST(MoeGatingTopKSoftmaxV2Rejects, EachCase) {
  constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  EXPECT_TRUE(RunCallV2(CallV2{}).ok());
  ExpectRejectedWith(RunCallV2(WithV2([](CallV2& c) { c.x = c.y = ACL_INT32; })), ACLNN_ERR_PARAM_INVALID, {"'x'"});
  ExpectRejectedWith(RunCallV2(WithV2([](CallV2& c) { c.y = ACL_BF16; })), ACLNN_ERR_PARAM_INVALID, {"'yOut'"});
  ExpectRejectedWith(RunCallV2(WithV2([](CallV2& c) { c.expert = ACL_INT64; })), ACLNN_ERR_PARAM_INVALID,
                     {"'expertIdxOut'"});
  ExpectRejectedWith(RunCallV2(WithV2([](CallV2& c) { c.softmax = ACL_FLOAT16; })), ACLNN_ERR_PARAM_INVALID,
                     {"'softmaxResultOutOptional'"});
  ExpectRejectedWith(RunCallV2(WithV2([](CallV2& c) { c.k = 0; })), kTiling, {"'k'"});
  ExpectRejectedWith(RunCallV2(WithV2([](CallV2& c) { c.k = 9; })), kTiling, {"'k'"});
  ExpectRejectedWith(RunCallV2(WithV2([](CallV2& c) { c.renorm = 2; })), kTiling, {"'renorm'"});
  ExpectRejectedWith(RunCallV2(WithV2([](CallV2& c) { c.softmax_null = true; })), kTiling,
                     {"'softmaxResultOutOptional'"});
  ExpectRejectedWith(RunCallV2(WithV2([](CallV2& c) {
                       c.softmax_shape = {4, 2};
                     })),
                     kTiling, {"'softmaxResultOutOptional'"});
  ExpectRejectedWith(RunCallV2(WithV2([](CallV2& c) {
                       c.x_shape = {8};
                       c.out = c.expert_shape = {2};
                     })),
                     kTiling, {"'x'", "rank"});
  ExpectRejectedWith(RunCallV2(WithV2([](CallV2& c) {
                       c.x_shape = c.softmax_shape = {4, 0};
                       c.k = 0;
                       c.out = c.expert_shape = {4, 0};
                     })),
                     kTiling, {"'x'"});
  ExpectRejectedWith(RunCallV2(WithV2([](CallV2& c) { c.out = {4, 3}; })), kTiling, {"'yOut'"});
  ExpectRejectedWith(RunCallV2(WithV2([](CallV2& c) { c.expert_shape = {2, 2}; })), kTiling, {"'expertIdxOut'"});
  ExpectRejectedWith(RunCallV2(WithV2([](CallV2& c) { c.finished_shape = {2}; })), kTiling, {"'finishedOptional'"});
  // The softmax output is not looked at when it is not asked for: null, or any shape.
  EXPECT_TRUE(RunCallV2(WithV2([](CallV2& c) {
                c.renorm = 1;
                c.softmax_null = true;
              })).ok());
  EXPECT_TRUE(RunCallV2(WithV2([](CallV2& c) {
                c.flag = false;
                c.softmax_shape = {1};
              })).ok());
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
