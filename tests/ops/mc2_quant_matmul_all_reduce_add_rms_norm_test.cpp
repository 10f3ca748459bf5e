// The quantised MatmulAllReduceAddRmsNorm forms (QuantMatmulAllReduceAddRmsNorm,
// WeightQuantMatmulAllReduceAddRmsNorm, and their in-place forms) on 1, 2 and
// 4 ranks of an HcclCommInitAll communicator, against a float64 reference:
// the sum over ranks of each rank's dequantised product (rounded to the
// dtype), plus residual (y), then the RMS norm times gamma (normOut). Every
// dequantScale dtype (UINT64 / INT64 with f16, BFLOAT16 with bf16), INT8 and
// INT4 weights per channel and per group with offsets, bias, 3-D x1, in
// place; CANN's rejections with their codes and the empty shapes it returns on.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_inplace_quant_matmul_all_reduce_add_rms_norm.h"
#include "aclnnop/aclnn_inplace_weight_quant_matmul_all_reduce_add_rms_norm.h"
#include "aclnnop/aclnn_quant_matmul_all_reduce_add_rms_norm.h"
#include "aclnnop/aclnn_weight_quant_matmul_all_reduce_add_rms_norm.h"
#include "llm_test_support.h"
#include "mc2_ranks.h"
#include "quant_weight_support.h"

namespace canopy_test {
namespace {

constexpr double kEps = 1e-6;

struct Case {
  std::string name;
  bool weight_quant = false;
  uint32_t ranks = 2;
  aclDataType dtype = ACL_FLOAT16;  // residual's (and, weight-quant, x1's)
  aclDataType scale = ACL_UINT64;   // quant: dequantScale's
  aclDataType weight = ACL_INT8;    // weight-quant: x2's
  int64_t b = 2, s = 3, k = 64, n = 8;
  Shape scale_shape = {8};
  int64_t group_size = 0;
  bool x1_3d = false, bias = false, offset = false, in_place = false;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

struct RankData {
  QuantWeightBuffer x2;
  std::unique_ptr<DeviceTensor> x1, bias, scale, offset, residual, gamma, y, norm_out;
  Values x1v, biasv, scalev, offsetv, residualv, gammav;
  aclTensor* x2_tensor = nullptr;
};

RankData MakeData(const Case& c, Rng& rng) {
  const int64_t m = c.b * c.s;
  const Shape rows{c.b, c.s, c.n};
  const aclDataType x_dtype = c.weight_quant ? c.dtype : ACL_INT8;
  const aclDataType w_dtype = c.weight_quant ? c.weight : ACL_INT8;
  RankData d{MakeWeight(rng, w_dtype, c.k, c.n, false), {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}};
  d.x1 = std::make_unique<DeviceTensor>(x_dtype, c.x1_3d ? Shape{c.b, c.s, c.k} : Shape{m, c.k});
  d.x1v = d.x1->FillRandom(rng, c.weight_quant ? Range{-1, 1} : Range{-128, 127});
  if (c.bias) {
    d.bias = std::make_unique<DeviceTensor>(c.weight_quant ? c.dtype : ACL_INT32, Shape{c.n});
    d.biasv = d.bias->FillRandom(rng, c.weight_quant ? Range{-1, 1} : Range{-5000, 5000});
  }
  const aclDataType scale_dtype = c.weight_quant ? c.dtype : c.scale;
  d.scale = std::make_unique<DeviceTensor>(scale_dtype, c.scale_shape);
  if (scale_dtype == ACL_UINT64 || scale_dtype == ACL_INT64) {
    Values words;
    for (int64_t j = 0; j < NumElements(c.scale_shape); ++j) {
      d.scalev.push_back(Fp19(rng.Uniform(1e-5, 1e-4)));
      words.push_back(PackedScaleWord(d.scalev.back().real()));
    }
    d.scale->WriteView(words);
  } else {
    d.scalev = d.scale->FillRandom(rng, c.weight_quant ? Range{0.01, 0.05} : Range{1e-5, 1e-4});
  }
  if (c.offset) {
    d.offset = std::make_unique<DeviceTensor>(c.dtype, c.scale_shape);
    d.offsetv = d.offset->FillRandom(rng, Range{-4, 4});
  }
  d.residual = std::make_unique<DeviceTensor>(c.dtype, rows);
  d.residualv = d.residual->FillRandom(rng, Range{-2, 2});
  d.gamma = std::make_unique<DeviceTensor>(c.dtype, Shape{c.n});
  d.gammav = d.gamma->FillRandom(rng, Range{0.5, 1.5});
  if (!c.in_place) {
    d.y = std::make_unique<DeviceTensor>(c.dtype, rows);
    d.y->Poison();
  }
  d.norm_out = std::make_unique<DeviceTensor>(c.dtype, rows);
  d.norm_out->Poison();
  return d;
}

// One rank's exact part [m, n].
std::vector<double> Part(const Case& c, const RankData& d) {
  const int64_t m = c.b * c.s, columns = c.scale_shape.back() == c.n ? c.n : 1;
  const auto scale_at = [&](int64_t kk, int64_t j) {
    const int64_t group = c.group_size == 0 ? 0 : kk / c.group_size;
    return static_cast<size_t>(group * columns + (columns == 1 ? 0 : j));
  };
  Values w;
  for (int64_t kk = 0; kk < c.k; ++kk) {
    for (int64_t j = 0; j < c.n; ++j) {
      double v = static_cast<double>(d.x2.q[static_cast<size_t>(kk * c.n + j)]);
      if (c.weight_quant) {
        const size_t at = scale_at(kk, j);
        v = (v + (c.offset ? d.offsetv[at].real() : 0.0)) * d.scalev[at].real();
      }
      w.push_back(Value(v));
    }
  }
  std::vector<double> part = Product(d.x1v, w, c.bias ? &d.biasv : nullptr, m, c.k, c.n);
  if (!c.weight_quant) {
    for (size_t e = 0; e < part.size(); ++e) part[e] *= d.scalev[columns == 1 ? 0 : e % c.n].real();
  }
  return part;
}

aclnnStatus Phase1(const Case& c, RankData& d, const char* group, OpArgs& args, uint64_t* size,
                   aclOpExecutor** executor) {
  d.x2_tensor = d.x2.Create();
  aclTensor* const x1 = args.Tensor(*d.x1);
  aclTensor* const bias = c.bias ? args.Tensor(*d.bias) : nullptr;
  aclTensor* const scale = args.Tensor(*d.scale);
  aclTensor* const residual = args.Tensor(*d.residual);
  aclTensor* const gamma = args.Tensor(*d.gamma);
  aclTensor* const norm = args.Tensor(*d.norm_out);
  if (!c.weight_quant) {
    if (c.in_place) {
      return aclnnInplaceQuantMatmulAllReduceAddRmsNormGetWorkspaceSize(x1, d.x2_tensor, bias, scale, residual, gamma,
                                                                        kEps, group, "sum", 0, 1, norm, size, executor);
    }
    return aclnnQuantMatmulAllReduceAddRmsNormGetWorkspaceSize(x1, d.x2_tensor, bias, scale, residual, gamma, kEps,
                                                               group, "sum", 0, 1, args.Tensor(*d.y), norm, size,
                                                               executor);
  }
  aclTensor* const offset = c.offset ? args.Tensor(*d.offset) : nullptr;
  if (c.in_place) {
    return aclnnInplaceWeightQuantMatmulAllReduceAddRmsNormGetWorkspaceSize(x1, d.x2_tensor, bias, scale, offset,
                                                                            residual, gamma, kEps, group, "sum", 0, 1,
                                                                            c.group_size, norm, size, executor);
  }
  return aclnnWeightQuantMatmulAllReduceAddRmsNormGetWorkspaceSize(x1, d.x2_tensor, bias, scale, offset, residual,
                                                                   gamma, kEps, group, "sum", 0, 1, c.group_size,
                                                                   args.Tensor(*d.y), norm, size, executor);
}

Phase2 Phase2Of(const Case& c) {
  if (c.weight_quant) {
    return c.in_place ? aclnnInplaceWeightQuantMatmulAllReduceAddRmsNorm : aclnnWeightQuantMatmulAllReduceAddRmsNorm;
  }
  return c.in_place ? aclnnInplaceQuantMatmulAllReduceAddRmsNorm : aclnnQuantMatmulAllReduceAddRmsNorm;
}

class QuantMatmulAllReduceAddRmsNormTest : public ::testing::TestWithParam<Case> {};

TEST_P(QuantMatmulAllReduceAddRmsNormTest, MatchesTheReference) {
  const Case& c = GetParam();
  const Ranks ranks(c.ranks);
  Rng rng = Rng::ForCurrentTest();
  std::vector<RankData> data = OnEachRank(ranks, [&](uint32_t) { return MakeData(c, rng); });
  const auto runs =
      ranks.Run([&](uint32_t r, OpArgs& args, uint64_t* size,
                    aclOpExecutor** executor) { return Phase1(c, data[r], ranks.group(), args, size, executor); },
                Phase2Of(c));
  for (const RankData& d : data) EXPECT_EQ(aclDestroyTensor(d.x2_tensor), ACL_SUCCESS);
  const auto round = [&](double v) { return ConvertValue(Value(v), c.dtype).real(); };
  const int64_t m = c.b * c.s;
  std::vector<double> reduced(static_cast<size_t>(m * c.n)), magnitude(reduced.size());
  for (const RankData& d : data) {
    const std::vector<double> part = Part(c, d);
    for (size_t e = 0; e < part.size(); ++e) {
      reduced[e] += round(part[e]);
      magnitude[e] += std::abs(part[e]) + 1;
    }
  }
  for (uint32_t r = 0; r < c.ranks; ++r) {
    ASSERT_TRUE(runs[r].ok()) << "rank " << r << ": " << Describe(runs[r]);
    const RankData& d = data[r];
    Expected y, norm;
    AddRmsNormReference(reduced, magnitude, d.residualv, d.gammav, c.n, c.dtype, kEps, y, norm);
    ExpectNear((c.in_place ? d.residual : d.y)->ReadView(), y, "y of rank " + std::to_string(r));
    ExpectNear(d.norm_out->ReadView(), norm, "normOut of rank " + std::to_string(r));
  }
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  // QuantMatmulAllReduceAddRmsNorm: f16 with a packed dequantScale, bf16 with a BFLOAT16 one.
  for (const auto& [name, dtype, scale] :
       {std::tuple{"f16_u64", ACL_FLOAT16, ACL_UINT64}, std::tuple{"f16_i64", ACL_FLOAT16, ACL_INT64},
        std::tuple{"bf16_bf16", ACL_BF16, ACL_BF16}}) {
    const std::string p = std::string("quant_") + name;
    for (const uint32_t ranks : {1u, 2u, 4u}) {
      cases.push_back(
          {.name = p + "_" + std::to_string(ranks) + "ranks", .ranks = ranks, .dtype = dtype, .scale = scale});
    }
    cases.push_back({.name = p + "_3d_x1_bias_per_tensor",
                     .dtype = dtype,
                     .scale = scale,
                     .b = 1,
                     .s = 5,
                     .scale_shape = {1},
                     .x1_3d = true,
                     .bias = true});
    cases.push_back({.name = p + "_in_place_bias",
                     .ranks = 4,
                     .dtype = dtype,
                     .scale = scale,
                     .scale_shape = {1, 8},
                     .bias = true,
                     .in_place = true});
  }
  // WeightQuantMatmulAllReduceAddRmsNorm.
  for (const aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    for (const aclDataType weight : {ACL_INT8, ACL_INT4}) {
      const std::string p =
          std::string("weight_quant_") + (dtype == ACL_FLOAT16 ? "f16" : "bf16") + (weight == ACL_INT8 ? "_i8" : "_i4");
      for (const uint32_t ranks : {1u, 2u, 4u}) {
        cases.push_back({.name = p + "_" + std::to_string(ranks) + "ranks",
                         .weight_quant = true,
                         .ranks = ranks,
                         .dtype = dtype,
                         .weight = weight});
      }
      cases.push_back({.name = p + "_per_group_offset_bias_3d",
                       .weight_quant = true,
                       .dtype = dtype,
                       .weight = weight,
                       .b = 3,
                       .s = 7,
                       .k = 80,
                       .scale_shape = {3, 8},
                       .group_size = 32,
                       .x1_3d = true,
                       .bias = true,
                       .offset = true});
      cases.push_back({.name = p + "_in_place_per_tensor_offset",
                       .weight_quant = true,
                       .ranks = 4,
                       .dtype = dtype,
                       .weight = weight,
                       .scale_shape = {1},
                       .offset = true,
                       .in_place = true});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Ranks, QuantMatmulAllReduceAddRmsNormTest, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return info.param.name; });

// ---- rejections -----------------------------------------------------------------------------------

struct Bad {
  std::string name;
  aclnnStatus expected;
  std::string keyword;
  bool weight_quant = false;
  aclDataType x1 = ACL_INT8, x2 = ACL_INT8, bias = ACL_INT32, scale = ACL_UINT64, residual = ACL_FLOAT16;
  Shape x1_shape{6, 64}, x2_shape{64, 8}, scale_shape{8}, residual_shape{2, 3, 8};
  bool null_scale = false;
  int64_t group_size = 0, stream_mode = 1;
  double epsilon = kEps;
};
void PrintTo(const Bad& b, std::ostream* os) { *os << b.name; }

class QuantMatmulAllReduceAddRmsNormRejectionTest : public ::testing::TestWithParam<Bad> {};

TEST_P(QuantMatmulAllReduceAddRmsNormRejectionTest, IsRejectedWithCannsCode) {
  const Bad& b = GetParam();
  const Ranks ranks(2);
  const auto phase1 = [&](OpArgs& args, uint64_t* size, aclOpExecutor** executor) {
    aclTensor* const x1 = args.NewTensor(b.x1, b.x1_shape);
    aclTensor* const x2 = args.NewTensor(b.x2, b.x2_shape);
    aclTensor* const bias = args.NewTensor(b.bias, {b.x2_shape.back()});
    aclTensor* const scale = b.null_scale ? nullptr : args.NewTensor(b.scale, b.scale_shape);
    aclTensor* const residual = args.NewTensor(b.residual, b.residual_shape);
    aclTensor* const gamma = args.NewTensor(b.residual, {b.residual_shape.back()});
    aclTensor* const norm = args.NewTensor(b.residual, b.residual_shape);
    if (b.weight_quant) {
      return aclnnInplaceWeightQuantMatmulAllReduceAddRmsNormGetWorkspaceSize(
          x1, x2, bias, scale, nullptr, residual, gamma, b.epsilon, ranks.group(), "sum", 0, b.stream_mode,
          b.group_size, norm, size, executor);
    }
    return aclnnQuantMatmulAllReduceAddRmsNormGetWorkspaceSize(
        x1, x2, bias, scale, residual, gamma, b.epsilon, ranks.group(), "sum", 0, b.stream_mode,
        args.NewTensor(b.residual, b.residual_shape), norm, size, executor);
  };
  const OpRun run = Phase1Only(phase1);
  ExpectRejectedWith(run, b.expected, {b.keyword});
}

std::vector<Bad> BadCases() {
  constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const Bad wq{.name = "",
               .expected = 0,
               .keyword = "",
               .weight_quant = true,
               .x1 = ACL_FLOAT16,
               .bias = ACL_FLOAT16,
               .scale = ACL_FLOAT16};
  const auto weight = [&wq](Bad b) {
    Bad out = wq;
    out.name = b.name;
    out.expected = b.expected;
    out.keyword = b.keyword;
    return out;
  };
  std::vector<Bad> bad = {
      {.name = "null_dequant_scale",
       .expected = ACLNN_ERR_PARAM_NULLPTR,
       .keyword = "dequantScale",
       .null_scale = true},
      {.name = "k_differs", .expected = kInvalid, .keyword = "x2", .x2_shape = {63, 8}},
      {.name = "residual_n", .expected = kInvalid, .keyword = "residual", .residual_shape = {2, 3, 7}},
      {.name = "k_0_empty", .expected = kInvalid, .keyword = "k = 0", .x1_shape = {6, 0}, .x2_shape = {0, 8}},
      {.name = "stream_mode_0", .expected = kInvalid, .keyword = "streamMode", .stream_mode = 0},
      {.name = "x1_f16", .expected = kInvalid, .keyword = "x1", .x1 = ACL_FLOAT16},
      {.name = "dequant_f32", .expected = kInvalid, .keyword = "dequantScale", .scale = ACL_FLOAT},
      {.name = "bias_f16", .expected = kInvalid, .keyword = "bias", .bias = ACL_FLOAT16},
      {.name = "bf16_dequant_f16_residual", .expected = kTiling, .keyword = "residual", .scale = ACL_BF16},
      {.name = "u64_dequant_bf16_residual", .expected = kTiling, .keyword = "residual", .residual = ACL_BF16},
      {.name = "dequant_length", .expected = kTiling, .keyword = "dequantScale", .scale_shape = {4}},
      {.name = "residual_2d", .expected = kTiling, .keyword = "residual", .residual_shape = {6, 8}},
      {.name = "epsilon_1", .expected = kTiling, .keyword = "epsilon", .epsilon = 1.0},
  };
  Bad b = weight({.name = "weight_null_scale", .expected = ACLNN_ERR_PARAM_NULLPTR, .keyword = "antiquantScale"});
  b.null_scale = true;
  bad.push_back(b);
  b = weight({.name = "weight_x2_f16", .expected = kInvalid, .keyword = "x2"});
  b.x2 = ACL_FLOAT16;
  bad.push_back(b);
  b = weight({.name = "weight_scale_other_half", .expected = kInvalid, .keyword = "antiquantScale"});
  b.scale = ACL_BF16;
  bad.push_back(b);
  b = weight({.name = "weight_residual_other_half", .expected = kTiling, .keyword = "residual"});
  b.residual = ACL_BF16;
  bad.push_back(b);
  b = weight({.name = "weight_group_size_48", .expected = kTiling, .keyword = "antiquantGroupSize"});
  b.group_size = 48;
  bad.push_back(b);
  b = weight({.name = "weight_scale_not_per_group", .expected = kTiling, .keyword = "antiquantScale"});
  b.group_size = 32;
  bad.push_back(b);
  return bad;
}

INSTANTIATE_TEST_SUITE_P(Cann, QuantMatmulAllReduceAddRmsNormRejectionTest, ::testing::ValuesIn(BadCases()),
                         [](const auto& info) { return info.param.name; });

// Empty rows: CANN computes nothing and succeeds; its second phase returns at once.
TEST(QuantMatmulAllReduceAddRmsNorm, EmptyRowsAreANoOp) {
  const Ranks ranks(1);
  OpArgs args;
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnQuantMatmulAllReduceAddRmsNormGetWorkspaceSize(
                args.NewTensor(ACL_INT8, {0, 16}), args.NewTensor(ACL_INT8, {16, 8}), nullptr,
                args.NewTensor(ACL_UINT64, {8}), args.NewTensor(ACL_FLOAT16, {0, 1, 8}),
                args.NewTensor(ACL_FLOAT16, {8}), kEps, ranks.group(), "sum", 0, 1,
                args.NewTensor(ACL_FLOAT16, {0, 1, 8}), args.NewTensor(ACL_FLOAT16, {0, 1, 8}), &size, &executor),
            ACLNN_SUCCESS);
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(aclnnQuantMatmulAllReduceAddRmsNorm(nullptr, 0, executor, ranks.stream(0)), ACLNN_SUCCESS);
}

}  // namespace
}  // namespace canopy_test
