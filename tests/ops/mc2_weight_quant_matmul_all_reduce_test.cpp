// aclnnWeightQuantMatmulAllReduce on the ranks of an HcclCommInitAll
// communicator: every rank's output against a float64 reference of the sum
// over ranks of each rank's x1 @ ((x2 + offset) * scale) + bias (rounded to
// the output dtype, x3 added and rounded again), for 1, 2 and 4 ranks, f16 and
// bf16 x1, INT8 and INT4 x2 (N- or K-contiguous, that is transposed, and
// FRACTAL_NZ), scales per tensor, per channel and per group (a partial last
// group too), with and without offset, bias and x3, 3-D x1, a strided output
// and K = 0; CANN's rejections with their codes.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_weight_quant_matmul_all_reduce.h"
#include "llm_test_support.h"
#include "mc2_ranks.h"
#include "quant_weight_support.h"

namespace canopy_test {
namespace {

struct Case {
  std::string name;
  uint32_t ranks = 2;
  aclDataType dtype = ACL_FLOAT16;
  aclDataType weight = ACL_INT8;
  Shape x1 = {5, 64};
  int64_t n = 6;
  Shape scale = {6};  // [1], [n], [1, n] or [groups, n]
  int64_t group_size = 0;
  bool offset = false, bias = false, x3 = false;
  bool k_contiguous = false;  // x2 a transposed view
  bool nz = false;
  View out_view = View::kContiguous;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

struct RankData {
  QuantWeightBuffer x2;
  std::unique_ptr<DeviceTensor> x1, scale, offset, bias, x3, out;
  Values x1v, scalev, offsetv, biasv, x3v;
};

RankData MakeData(const Case& c, Rng& rng) {
  const int64_t k = c.x1.back();
  Shape out_shape = c.x1;
  out_shape.back() = c.n;
  RankData d{MakeWeight(rng, c.weight, k, c.n, c.k_contiguous), {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}};
  d.x1 = std::make_unique<DeviceTensor>(c.dtype, c.x1);
  d.x1v = d.x1->FillRandom(rng, Range{-1, 1});
  d.scale = std::make_unique<DeviceTensor>(c.dtype, c.scale);
  d.scalev = d.scale->FillRandom(rng, Range{0.01, 0.05});
  if (c.offset) {
    d.offset = std::make_unique<DeviceTensor>(c.dtype, c.scale);
    d.offsetv = d.offset->FillRandom(rng, Range{-4, 4});
  }
  if (c.bias) {
    d.bias = std::make_unique<DeviceTensor>(c.dtype, Shape{c.n});
    d.biasv = d.bias->FillRandom(rng, Range{-1, 1});
  }
  if (c.x3) {
    d.x3 = std::make_unique<DeviceTensor>(c.dtype, out_shape);
    d.x3v = d.x3->FillRandom(rng, Range{-1, 1});
  }
  d.out = std::make_unique<DeviceTensor>(c.dtype, out_shape, c.out_view);
  d.out->Poison();
  return d;
}

// The dequantised weight [k][n] of one rank.
std::vector<double> Dequantised(const Case& c, const RankData& d) {
  const int64_t k = c.x1.back(), n = c.n;
  const int64_t columns = c.scale.back() == n ? n : 1;
  std::vector<double> w(static_cast<size_t>(k * n));
  for (int64_t kk = 0; kk < k; ++kk) {
    const int64_t group = c.group_size == 0 ? 0 : kk / c.group_size;
    for (int64_t j = 0; j < n; ++j) {
      const auto at = static_cast<size_t>(group * columns + (columns == 1 ? 0 : j));
      const double offset = c.offset ? d.offsetv[at].real() : 0.0;
      w[static_cast<size_t>(kk * n + j)] =
          (static_cast<double>(d.x2.q[static_cast<size_t>(kk * n + j)]) + offset) * d.scalev[at].real();
    }
  }
  return w;
}

Expected Reference(const Case& c, const std::vector<RankData>& data) {
  const int64_t k = c.x1.back();
  const int64_t m = NumElements(c.x1) / k;
  std::vector<std::vector<double>> products;
  for (const RankData& d : data) {
    Values w;
    for (const double v : Dequantised(c, d)) w.push_back(Value(v));
    products.push_back(Product(d.x1v, w, c.bias ? &d.biasv : nullptr, m, k, c.n));
  }
  std::vector<const Values*> x3;
  for (const RankData& d : data) x3.push_back(c.x3 ? &d.x3v : nullptr);
  return SumOfRoundedParts(products, x3, c.dtype);
}

class WeightQuantMatmulAllReduceTest : public ::testing::TestWithParam<Case> {};

TEST_P(WeightQuantMatmulAllReduceTest, EveryRankGetsTheSumOfTheRanksProducts) {
  const Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const Ranks ranks(c.ranks);
  std::vector<RankData> data = OnEachRank(ranks, [&](uint32_t) { return MakeData(c, rng); });
  std::vector<aclTensor*> weights(c.ranks, nullptr);
  const auto runs = ranks.Run(
      [&](uint32_t r, OpArgs& args, uint64_t* size, aclOpExecutor** executor) {
        const RankData& d = data[r];
        weights[r] = d.x2.Create(c.nz ? ACL_FORMAT_FRACTAL_NZ : ACL_FORMAT_ND);
        return aclnnWeightQuantMatmulAllReduceGetWorkspaceSize(
            args.Tensor(*d.x1), weights[r], c.bias ? args.Tensor(*d.bias) : nullptr, args.Tensor(*d.scale),
            c.offset ? args.Tensor(*d.offset) : nullptr, c.x3 ? args.Tensor(*d.x3) : nullptr, ranks.group(), "sum", 0,
            1, c.group_size, args.Tensor(*d.out), size, executor);
      },
      aclnnWeightQuantMatmulAllReduce);
  for (aclTensor* w : weights) EXPECT_EQ(aclDestroyTensor(w), ACL_SUCCESS);
  ExpectEveryRankGets(
      runs, [&](uint32_t r) { return data[r].out->ReadView(); }, Reference(c, data));
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (const aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    for (const aclDataType weight : {ACL_INT8, ACL_INT4}) {
      const std::string p = std::string(dtype == ACL_FLOAT16 ? "f16" : "bf16") + (weight == ACL_INT8 ? "_i8" : "_i4");
      for (const uint32_t ranks : {1u, 2u, 4u}) {
        cases.push_back({.name = p + "_per_channel_" + std::to_string(ranks) + "ranks",
                         .ranks = ranks,
                         .dtype = dtype,
                         .weight = weight});
      }
      cases.push_back({.name = p + "_per_tensor_offset_bias",
                       .dtype = dtype,
                       .weight = weight,
                       .scale = {1},
                       .offset = true,
                       .bias = true});
      cases.push_back({.name = p + "_row_scale_offset_x3_transposed",
                       .ranks = 4,
                       .dtype = dtype,
                       .weight = weight,
                       .scale = {1, 6},
                       .offset = true,
                       .x3 = true,
                       .k_contiguous = true});
      // 80 rows of K in groups of 32: the last group partial; 20 rows run the dequantise + oneDNN path.
      cases.push_back({.name = p + "_per_group_offset_bias_3d",
                       .dtype = dtype,
                       .weight = weight,
                       .x1 = {4, 5, 80},
                       .scale = {3, 6},
                       .group_size = 32,
                       .offset = true,
                       .bias = true});
      cases.push_back({.name = p + "_per_group_transposed_x3",
                       .ranks = 4,
                       .dtype = dtype,
                       .weight = weight,
                       .x1 = {3, 64},
                       .scale = {2, 6},
                       .group_size = 32,
                       .x3 = true,
                       .k_contiguous = true});
      cases.push_back({.name = p + "_nz_per_channel_strided_out",
                       .dtype = dtype,
                       .weight = weight,
                       .bias = true,
                       .nz = true,
                       .out_view = View::kStepped});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Ranks, WeightQuantMatmulAllReduceTest, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

// K = 0: each rank's part is its bias (CANN's empty-K kernel), summed.
TEST(WeightQuantMatmulAllReduce, EmptyKSumsTheBiases) {
  const Ranks ranks(2);
  std::vector<std::unique_ptr<DeviceTensor>> biases, outs;
  std::vector<Values> bias_values;
  Rng rng = Rng::ForCurrentTest();
  for (uint32_t r = 0; r < 2; ++r) {
    ranks.OnDevice(r);
    biases.push_back(std::make_unique<DeviceTensor>(ACL_FLOAT16, Shape{3}));
    bias_values.push_back(biases.back()->FillRandom(rng, Range{-1, 1}));
    outs.push_back(std::make_unique<DeviceTensor>(ACL_FLOAT16, Shape{2, 3}));
    outs.back()->Poison();
  }
  const auto runs = ranks.Run(
      [&](uint32_t r, OpArgs& args, uint64_t* size, aclOpExecutor** executor) {
        return aclnnWeightQuantMatmulAllReduceGetWorkspaceSize(
            args.NewTensor(ACL_FLOAT16, {2, 0}), args.NewTensor(ACL_INT8, {0, 3}), args.Tensor(*biases[r]),
            args.NewTensor(ACL_FLOAT16, {3}), nullptr, nullptr, ranks.group(), "sum", 0, 1, 0, args.Tensor(*outs[r]),
            size, executor);
      },
      aclnnWeightQuantMatmulAllReduce);
  Expected want;
  for (int64_t i = 0; i < 2; ++i) {
    for (size_t j = 0; j < 3; ++j) {
      want.values.push_back(Rounded(bias_values[0][j].real() + bias_values[1][j].real(), ACL_FLOAT16));
      want.tolerance.push_back(0);
    }
  }
  for (uint32_t r = 0; r < 2; ++r) {
    ASSERT_TRUE(runs[r].ok()) << Describe(runs[r]);
    ExpectNear(outs[r]->ReadView(), want, "rank " + std::to_string(r));
  }
}

// ---- rejections -----------------------------------------------------------------------------------

struct Bad {
  std::string name;
  aclnnStatus expected;
  std::string keyword;
  aclDataType x1 = ACL_FLOAT16, x2 = ACL_INT8, bias = ACL_FLOAT16, scale = ACL_FLOAT16, offset = ACL_FLOAT16,
              x3 = ACL_FLOAT16, out = ACL_FLOAT16;
  Shape x1_shape{4, 64}, x2_shape{64, 3}, bias_shape{3}, scale_shape{3}, offset_shape{3}, x3_shape{4, 3},
      out_shape{4, 3};
  bool null_scale = false;
  int64_t group_size = 0;
  const char* reduce_op = "sum";
  int64_t comm_turn = 0, stream_mode = 1;
  aclFormat x2_format = ACL_FORMAT_ND;
};

void PrintTo(const Bad& b, std::ostream* os) { *os << b.name; }

class WeightQuantMatmulAllReduceRejectionTest : public ::testing::TestWithParam<Bad> {};

TEST_P(WeightQuantMatmulAllReduceRejectionTest, IsRejectedWithCannsCode) {
  const Bad& b = GetParam();
  const Ranks ranks(2);
  const auto phase1 = [&](OpArgs& args, uint64_t* size, aclOpExecutor** executor) {
    return aclnnWeightQuantMatmulAllReduceGetWorkspaceSize(
        args.NewTensor(b.x1, b.x1_shape), args.NewTensor(b.x2, b.x2_shape, View::kContiguous, b.x2_format),
        args.NewTensor(b.bias, b.bias_shape), b.null_scale ? nullptr : args.NewTensor(b.scale, b.scale_shape),
        args.NewTensor(b.offset, b.offset_shape), args.NewTensor(b.x3, b.x3_shape), ranks.group(), b.reduce_op,
        b.comm_turn, b.stream_mode, b.group_size, args.NewTensor(b.out, b.out_shape), size, executor);
  };
  ExpectRejectedWith(Phase1Only(phase1), b.expected, {b.keyword});
}

std::vector<Bad> BadCases() {
  constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  return {
      {.name = "null_scale", .expected = ACLNN_ERR_PARAM_NULLPTR, .keyword = "antiquantScale", .null_scale = true},
      {.name = "x1_f32", .expected = kInvalid, .keyword = "x1", .x1 = ACL_FLOAT},
      {.name = "x2_f16", .expected = kInvalid, .keyword = "x2", .x2 = ACL_FLOAT16},
      {.name = "scale_other_half", .expected = kInvalid, .keyword = "antiquantScale", .scale = ACL_BF16},
      {.name = "output_other_half", .expected = kInvalid, .keyword = "output", .out = ACL_BF16},
      {.name = "bias_f32", .expected = kInvalid, .keyword = "bias", .bias = ACL_FLOAT},
      {.name = "offset_other_half", .expected = kInvalid, .keyword = "antiquantOffset", .offset = ACL_BF16},
      {.name = "x3_other_half", .expected = kInvalid, .keyword = "x3", .x3 = ACL_BF16},
      {.name = "reduce_op_max", .expected = kInvalid, .keyword = "reduceOp", .reduce_op = "max"},
      {.name = "stream_mode_0", .expected = kInvalid, .keyword = "streamMode", .stream_mode = 0},
      {.name = "group_size_48", .expected = kInvalid, .keyword = "antiquantGroupSize", .group_size = 48},
      {.name = "group_size_k", .expected = kInvalid, .keyword = "antiquantGroupSize", .group_size = 64},
      {.name = "x1_4d", .expected = kInvalid, .keyword = "x1", .x1_shape = {1, 1, 4, 64}, .out_shape = {1, 1, 4, 3}},
      {.name = "x2_3d", .expected = kInvalid, .keyword = "x2", .x2_shape = {1, 64, 3}},
      {.name = "k_differs", .expected = kInvalid, .keyword = "x2", .x2_shape = {63, 3}},
      {.name = "output_shape", .expected = kInvalid, .keyword = "output", .out_shape = {4, 4}},
      {.name = "bias_length", .expected = kInvalid, .keyword = "bias", .bias_shape = {4}},
      {.name = "x3_shape", .expected = kInvalid, .keyword = "x3", .x3_shape = {1, 3}},
      {.name = "scale_3d", .expected = kInvalid, .keyword = "antiquantScale", .scale_shape = {1, 1, 3}},
      {.name = "scale_length", .expected = kInvalid, .keyword = "antiquantScale", .scale_shape = {2}},
      {.name = "scale_not_per_group",
       .expected = kInvalid,
       .keyword = "antiquantScale",
       .scale_shape = {3},
       .group_size = 32},
      {.name = "offset_shape", .expected = kInvalid, .keyword = "antiquantOffset", .offset_shape = {1, 3}},
      {.name = "comm_turn_1", .expected = kTiling, .keyword = "commTurn", .comm_turn = 1},
      {.name = "empty_output",
       .expected = kTiling,
       .keyword = "empty",
       .x1_shape = {0, 64},
       .x3_shape = {0, 3},
       .out_shape = {0, 3}},
      {.name = "k_above_65535",
       .expected = kTiling,
       .keyword = "65535",
       .x1_shape = {1, 65536},
       .x2_shape = {65536, 3},
       .x3_shape = {1, 3},
       .out_shape = {1, 3}},
      {.name = "nz_per_group",
       .expected = kTiling,
       .keyword = "FRACTAL_NZ",
       .scale_shape = {2, 3},
       .offset_shape = {2, 3},
       .group_size = 32,
       .x2_format = ACL_FORMAT_FRACTAL_NZ},
  };
}

INSTANTIATE_TEST_SUITE_P(Cann, WeightQuantMatmulAllReduceRejectionTest, ::testing::ValuesIn(BadCases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace canopy_test
