// aclnnMoeGatingTopK against a float64 reference: softmax or sigmoid, the
// bias, the groups scored by their largest or two largest choices, the kGroup
// best groups, the k largest choices among their experts (ties: the lower
// group or expert), the sigmoid's renormalisation with eps, the scaling
// factor, the f32 norm output; every dtype, strided views, no rows, the
// doc's example (DeepSeek-V3's 256 experts in 8 groups) and every rejection.
// The reference rounds the norm and the choices to f32 as the kernel does,
// so the selection compares exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "aclnnop/aclnn_moe_gating_top_k.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

struct Config {
  int64_t experts = 16, groups = 4, group_k = 2, k = 4;
  int64_t select_mode = 1, norm_type = 1;
  bool bias = true, out_flag = true;
  double scale = 1.0, eps = 1e-20;
};

struct Case {
  aclDataType dtype = ACL_FLOAT;
  int64_t rows = 5;
  Config config;
  View view = View::kContiguous;
  std::string name;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

struct Reference {
  Values y, expert, norm;
};

// One row's norm (f32-rounded as the kernel stores it) and its selection.
Reference Expect(const Values& x, const Values& bias, int64_t rows, const Config& c) {
  Reference r;
  const auto experts = static_cast<size_t>(c.experts);
  const int64_t per_group = c.experts / c.groups;
  for (int64_t i = 0; i < rows; ++i) {
    std::vector<float> norm(experts), choice(experts);
    double max = -INFINITY, sum = 0;
    for (size_t e = 0; e < experts; ++e) max = std::max(max, x[i * experts + e].real());
    for (size_t e = 0; e < experts; ++e) sum += std::exp(x[i * experts + e].real() - max);
    for (size_t e = 0; e < experts; ++e) {
      const double v = x[i * experts + e].real();
      norm[e] = static_cast<float>(c.norm_type == 1 ? 1.0 / (1.0 + std::exp(-v)) : std::exp(v - max) / sum);
      choice[e] = norm[e] + (bias.empty() ? 0.0F : static_cast<float>(bias[e].real()));
      r.norm.push_back(norm[e]);
    }
    std::vector<float> score(static_cast<size_t>(c.groups));
    for (int64_t g = 0; g < c.groups; ++g) {
      std::vector<float> members(choice.begin() + g * per_group, choice.begin() + (g + 1) * per_group);
      std::sort(members.begin(), members.end(), std::greater<>());
      score[static_cast<size_t>(g)] = c.select_mode == 1 ? members[0] + members[1] : members[0];
    }
    std::vector<int64_t> groups(static_cast<size_t>(c.groups));
    std::iota(groups.begin(), groups.end(), 0);
    std::stable_sort(groups.begin(), groups.end(), [&](int64_t a, int64_t b) {
      return score[static_cast<size_t>(a)] > score[static_cast<size_t>(b)];
    });
    std::vector<int64_t> candidates;
    for (int64_t e = 0; e < c.experts; ++e) {
      if (std::find(groups.begin(), groups.begin() + c.group_k, e / per_group) != groups.begin() + c.group_k) {
        candidates.push_back(e);
      }
    }
    std::stable_sort(candidates.begin(), candidates.end(), [&](int64_t a, int64_t b) {
      return choice[static_cast<size_t>(a)] > choice[static_cast<size_t>(b)];
    });
    double total = 0;
    for (int64_t j = 0; j < c.k; ++j) total += norm[static_cast<size_t>(candidates[static_cast<size_t>(j)])];
    for (int64_t j = 0; j < c.k; ++j) {
      const int64_t e = candidates[static_cast<size_t>(j)];
      const double value = norm[static_cast<size_t>(e)];
      r.y.push_back((c.norm_type == 1 ? value / (total + c.eps) : value) * c.scale);
      r.expert.push_back(static_cast<double>(e));
    }
  }
  return r;
}

void RunCase(const Case& c) {
  Rng rng = Rng::ForCurrentTest();
  const Config& cfg = c.config;
  DeviceTensor x(c.dtype, {c.rows, cfg.experts}, c.view);
  const Values xv = x.FillRandom(rng, Range{-4, 4});
  std::unique_ptr<DeviceTensor> bias;
  Values bv;
  if (cfg.bias) {
    bias = std::make_unique<DeviceTensor>(c.dtype, Shape{cfg.experts}, c.view);
    bv = bias->FillRandom(rng, Range{-0.25, 0.25});
  }
  DeviceTensor y(c.dtype, {c.rows, cfg.k}, c.view), expert(ACL_INT32, {c.rows, cfg.k}, c.view);
  DeviceTensor norm(ACL_FLOAT, {c.rows, cfg.experts}, c.view);
  y.Poison();
  expert.Poison();
  norm.Poison();
  const Values norm_poison = norm.ReadView();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeGatingTopKGetWorkspaceSize(
            a.Tensor(x), bias ? a.Tensor(*bias) : nullptr, cfg.k, cfg.group_k, cfg.groups, cfg.select_mode, 0,
            cfg.norm_type, cfg.out_flag, cfg.scale, cfg.eps, a.Tensor(y), a.Tensor(expert), a.Tensor(norm), w, e);
      },
      aclnnMoeGatingTopK);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Reference want = Expect(xv, bv, c.rows, cfg);
  ExpectNear(expert.ReadView(), Expected{want.expert, std::vector<double>(want.expert.size(), 0.0)}, "expertIdxOut");
  ExpectNear(y.ReadView(), RelativeTolerance(want.y, c.dtype, 8), "yOut");
  if (cfg.out_flag) {
    ExpectNear(norm.ReadView(), RelativeTolerance(want.norm, ACL_FLOAT, 2), "outOut");
  } else {  // left alone
    const Values got = norm.ReadView();
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_TRUE(std::isnan(got[i].real()) || got[i].real() == norm_poison[i].real()) << "outOut element " << i;
    }
  }
}

std::vector<Case> Cases() {
  const Config grouped;  // 16 experts in 4 groups, 2 kept, sigmoid, top-2 sums, bias
  const Config deepseek{.experts = 256, .groups = 8, .group_k = 4, .k = 8, .scale = 2.5};
  const Config softmax_flat{
      .experts = 64, .groups = 1, .group_k = 1, .k = 6, .select_mode = 0, .norm_type = 0, .bias = false};
  const Config softmax_max{.experts = 32,
                           .groups = 8,
                           .group_k = 3,
                           .k = 5,
                           .select_mode = 0,
                           .norm_type = 0,
                           .out_flag = false,
                           .scale = 0.5};
  const Config all_groups{.experts = 24, .groups = 6, .group_k = 6, .k = 7, .eps = 0.5};
  const Config one_per_group{.experts = 12, .groups = 12, .group_k = 5, .k = 3, .select_mode = 0, .bias = false};
  std::vector<Case> cases;
  for (aclDataType dtype : HalfAndSingle()) {
    const std::string t = Name(dtype);
    cases.push_back({dtype, 5, grouped, View::kContiguous, t + "_grouped"});
    cases.push_back({dtype, 9, deepseek, View::kContiguous, t + "_deepseek"});
    cases.push_back({dtype, 4, softmax_flat, View::kContiguous, t + "_softmax_one_group"});
    cases.push_back({dtype, 6, softmax_max, View::kContiguous, t + "_softmax_group_max"});
    cases.push_back({dtype, 3, all_groups, View::kContiguous, t + "_all_groups_eps"});
    cases.push_back({dtype, 5, one_per_group, View::kContiguous, t + "_one_expert_a_group"});
    cases.push_back({dtype, 7, grouped, View::kTransposed, t + "_transposed_views"});
    cases.push_back({dtype, 4, deepseek, View::kStepped, t + "_stepped_views"});
  }
  cases.push_back({ACL_FLOAT16, 0, grouped, View::kContiguous, "no_rows"});
  return cases;
}

class MoeGatingTopKTest : public ::testing::TestWithParam<Case> {};

TEST_P(MoeGatingTopKTest, MatchesReference) { RunCase(GetParam()); }

INSTANTIATE_TEST_SUITE_P(All, MoeGatingTopKTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// The doc's example: x [3, 256] in [0, 10), bias [256], k 8, kGroup 4, groupCount 8, top-2 sums, sigmoid, eps 1.
TEST(MoeGatingTopK, DocExample) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor x(ACL_FLOAT, {3, 256}), bias(ACL_FLOAT, {256}), y(ACL_FLOAT, {3, 8}), expert(ACL_INT32, {3, 8});
  DeviceTensor norm(ACL_FLOAT, {3, 256});
  const Values xv = x.FillRandom(rng, Range{0, 10});
  const Values bv = bias.FillRandom(rng, Range{0, 10});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeGatingTopKGetWorkspaceSize(a.Tensor(x), a.Tensor(bias), 8, 4, 8, 1, 0, 1, false, 1, 1,
                                                  a.Tensor(y), a.Tensor(expert), a.Tensor(norm), w, e);
      },
      aclnnMoeGatingTopK);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Reference want = Expect(xv, bv, 3, Config{.experts = 256, .groups = 8, .group_k = 4, .k = 8, .eps = 1});
  ExpectNear(expert.ReadView(), Expected{want.expert, std::vector<double>(want.expert.size(), 0.0)}, "expertIdxOut");
  ExpectNear(y.ReadView(), RelativeTolerance(want.y, ACL_FLOAT, 8), "yOut");
}

struct Call {
  aclDataType x = ACL_FLOAT16, bias = ACL_FLOAT16, y = ACL_FLOAT16, expert = ACL_INT32, norm = ACL_FLOAT;
  Shape x_shape = {4, 16}, bias_shape = {16}, y_shape = {4, 4}, expert_shape = {4, 4}, norm_shape = {4, 16};
  int64_t k = 4, group_k = 2, groups = 4, select_mode = 1, renorm = 0, norm_type = 1;
  bool out_flag = true, x_null = false, norm_null = false;
};

OpRun RunCall(const Call& c) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeGatingTopKGetWorkspaceSize(
            c.x_null ? nullptr : a.NewTensor(c.x, c.x_shape),
            c.bias_shape.empty() ? nullptr : a.NewTensor(c.bias, c.bias_shape), c.k, c.group_k, c.groups, c.select_mode,
            c.renorm, c.norm_type, c.out_flag, 1.0, 1e-20, a.NewTensor(c.y, c.y_shape),
            a.NewTensor(c.expert, c.expert_shape), c.norm_null ? nullptr : a.NewTensor(c.norm, c.norm_shape), w, e);
      },
      aclnnMoeGatingTopK);
}

template <typename Edit>
Call With(Edit edit) {
  Call c;
  edit(c);
  return c;
}

TEST(MoeGatingTopKRejects, EachCase) {
  constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
  constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  EXPECT_TRUE(RunCall(Call{}).ok());
  EXPECT_TRUE(RunCall(With([](Call& c) { c.bias_shape = {}; })).ok());
  ExpectRejectedWith(RunCall(With([](Call& c) { c.x_null = true; })), ACLNN_ERR_PARAM_NULLPTR, {"'x'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.norm_null = true; })), ACLNN_ERR_PARAM_NULLPTR, {"'outOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.x = c.bias = c.y = ACL_INT32; })), kInvalid, {"'x'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.bias = ACL_FLOAT; })), kInvalid, {"'biasOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.y = ACL_BF16; })), kInvalid, {"'yOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.expert = ACL_INT64; })), kInvalid, {"'expertIdxOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.norm = ACL_FLOAT16; })), kInvalid, {"'outOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.x_shape = {1, 4, 16};
                       c.norm_shape = {1, 4, 16};
                     })),
                     kTiling, {"'x'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.bias_shape = {8}; })), kTiling, {"'biasOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.k = 0; })), kTiling, {"'k'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.k = 9; })), kTiling, {"'k'", "kGroup"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.group_k = 0; })), kTiling, {"'kGroup'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.group_k = 5; })), kTiling, {"'kGroup'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.groups = 0; })), kTiling, {"'groupCount'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.groups = 3; })), kTiling, {"'groupCount'", "divide"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.norm_type = 2; })), kTiling, {"'normType'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.select_mode = 2; })), kTiling, {"'groupSelectMode'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.renorm = 1; })), kTiling, {"'renorm'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.groups = 16;
                       c.group_k = 4;
                     })),
                     kTiling, {"groupSelectMode 1", "2 experts"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.x_shape = c.norm_shape = {4, 4096};
                       c.bias_shape = {4096};
                     })),
                     kTiling, {"at most 2048"});
  // 65 groups of 16 experts pad to 65 * 32 > 2048 when only some groups are kept.
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.x_shape = c.norm_shape = {4, 1040};
                       c.bias_shape = {1040};
                       c.groups = 65;
                     })),
                     kTiling, {"2048"});
  EXPECT_TRUE(RunCall(With([](Call& c) {
                c.x_shape = c.norm_shape = {4, 1040};
                c.bias_shape = {1040};
                c.groups = c.group_k = 65;
              })).ok());
  ExpectRejectedWith(RunCall(With([](Call& c) { c.y_shape = {4, 3}; })), kTiling, {"'yOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.expert_shape = {3, 4}; })), kTiling, {"'expertIdxOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.norm_shape = {4, 4}; })), kTiling, {"'outOut'"});
  EXPECT_TRUE(RunCall(With([](Call& c) {
                c.out_flag = false;
                c.norm_shape = {4, 4};
              })).ok());
}

}  // namespace
}  // namespace canopy_test
