// aclnnMatmulAllReduceAddRmsNorm and its in-place form on 1, 2 and 4 ranks
// of an HcclCommInitAll communicator, against a float64 reference: the sum
// over ranks of each rank's product (rounded to the dtype), plus residual
// (y, rounded), then the RMS norm times gamma (normOut) of y as CANN's
// kernels take it (the rounded y in f16, the unrounded sum in bf16). CANN's
// rejections with their codes, and the empty shapes it returns on at once.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_inplace_matmul_all_reduce_add_rms_norm.h"
#include "aclnnop/aclnn_matmul_all_reduce_add_rms_norm.h"
#include "mc2_ranks.h"

namespace canopy_test {
namespace {

struct Case {
  std::string name;
  uint32_t ranks = 2;
  aclDataType dtype = ACL_FLOAT16;
  int64_t b = 2, s = 3, k = 16, n = 8;
  bool x1_3d = false;
  bool bias = false;
  bool in_place = false;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

struct RankData {
  std::unique_ptr<DeviceTensor> x1, x2, bias, residual, gamma, y, norm_out;
  Values x1v, x2v, biasv, residualv, gammav;
};

class MatmulAllReduceAddRmsNormTest : public ::testing::TestWithParam<Case> {};

TEST_P(MatmulAllReduceAddRmsNormTest, MatchesTheReference) {
  const Case& c = GetParam();
  const Ranks ranks(c.ranks);
  Rng rng = Rng::ForCurrentTest();
  const int64_t m = c.b * c.s;
  const Shape rows{c.b, c.s, c.n};
  std::vector<RankData> data(c.ranks);
  for (uint32_t r = 0; r < c.ranks; ++r) {
    ranks.OnDevice(r);
    RankData& d = data[r];
    d.x1 = std::make_unique<DeviceTensor>(c.dtype, c.x1_3d ? Shape{c.b, c.s, c.k} : Shape{m, c.k});
    d.x1v = d.x1->FillRandom(rng, {-1, 1});
    d.x2 = std::make_unique<DeviceTensor>(c.dtype, Shape{c.k, c.n});
    d.x2v = d.x2->FillRandom(rng, {-1, 1});
    if (c.bias) {
      d.bias = std::make_unique<DeviceTensor>(c.dtype, Shape{c.n});
      d.biasv = d.bias->FillRandom(rng, {-1, 1});
    }
    d.residual = std::make_unique<DeviceTensor>(c.dtype, rows);
    d.residualv = d.residual->FillRandom(rng, {-2, 2});
    d.gamma = std::make_unique<DeviceTensor>(c.dtype, Shape{c.n});
    d.gammav = d.gamma->FillRandom(rng, {0.5, 1.5});
    if (!c.in_place) {
      d.y = std::make_unique<DeviceTensor>(c.dtype, rows);
      d.y->Poison();
    }
    d.norm_out = std::make_unique<DeviceTensor>(c.dtype, rows);
    d.norm_out->Poison();
  }
  constexpr double kEps = 1e-6;
  const auto runs = ranks.Run(
      [&](uint32_t r, OpArgs& args, uint64_t* size, aclOpExecutor** executor) {
        const RankData& d = data[r];
        aclTensor* bias = c.bias ? args.Tensor(*d.bias) : nullptr;
        if (c.in_place) {
          return aclnnInplaceMatmulAllReduceAddRmsNormGetWorkspaceSize(
              args.Tensor(*d.x1), args.Tensor(*d.x2), bias, args.Tensor(*d.residual), args.Tensor(*d.gamma), kEps,
              ranks.group(), "sum", 0, 1, args.Tensor(*d.norm_out), size, executor);
        }
        return aclnnMatmulAllReduceAddRmsNormGetWorkspaceSize(
            args.Tensor(*d.x1), args.Tensor(*d.x2), bias, args.Tensor(*d.residual), args.Tensor(*d.gamma), kEps,
            ranks.group(), "sum", 0, 1, args.Tensor(*d.y), args.Tensor(*d.norm_out), size, executor);
      },
      c.in_place ? aclnnInplaceMatmulAllReduceAddRmsNorm : aclnnMatmulAllReduceAddRmsNorm);

  const auto round = [&](double v) { return ConvertValue(Value(v), c.dtype).real(); };
  std::vector<double> reduced(static_cast<size_t>(m * c.n)), magnitude(reduced.size());
  for (const RankData& d : data) {
    const std::vector<double> part = Product(d.x1v, d.x2v, c.bias ? &d.biasv : nullptr, m, c.k, c.n);
    for (size_t e = 0; e < part.size(); ++e) {
      reduced[e] += round(part[e]);
      magnitude[e] += std::abs(part[e]) + std::sqrt(static_cast<double>(c.k));
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
  for (const aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    const std::string d = dtype == ACL_FLOAT16 ? "f16" : "bf16";
    for (const uint32_t ranks : {1u, 2u, 4u}) {
      cases.push_back({.name = d + "_" + std::to_string(ranks) + "ranks", .ranks = ranks, .dtype = dtype});
    }
    cases.push_back(
        {.name = d + "_3d_x1_bias", .dtype = dtype, .b = 1, .s = 5, .k = 24, .n = 16, .x1_3d = true, .bias = true});
    cases.push_back({.name = d + "_in_place", .ranks = 4, .dtype = dtype, .bias = true, .in_place = true});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Ranks, MatmulAllReduceAddRmsNormTest, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return info.param.name; });

// ---- rejections -----------------------------------------------------------------------------------

struct Bad {
  std::string name;
  aclnnStatus expected;
  std::string keyword;
  aclDataType x1 = ACL_FLOAT16, residual = ACL_FLOAT16, gamma = ACL_FLOAT16, norm_out = ACL_FLOAT16;
  Shape x1_shape{6, 16}, x2_shape{16, 8}, residual_shape{2, 3, 8}, gamma_shape{8}, y_shape{2, 3, 8};
  Shape bias_shape{};
  double epsilon = 1e-6;
  const char* reduce_op = "sum";
  int64_t comm_turn = 0, stream_mode = 1;
};
void PrintTo(const Bad& b, std::ostream* os) { *os << b.name; }

class ArnRejectionTest : public ::testing::TestWithParam<Bad> {};

TEST_P(ArnRejectionTest, IsRejectedWithCannsCode) {
  const Bad& b = GetParam();
  const Ranks ranks(2);
  OpArgs args;
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  const aclnnStatus status = aclnnMatmulAllReduceAddRmsNormGetWorkspaceSize(
      args.NewTensor(b.x1, b.x1_shape), args.NewTensor(b.x1, b.x2_shape),
      b.bias_shape.empty() ? nullptr : args.NewTensor(b.x1, b.bias_shape), args.NewTensor(b.residual, b.residual_shape),
      args.NewTensor(b.gamma, b.gamma_shape), b.epsilon, ranks.group(), b.reduce_op, b.comm_turn, b.stream_mode,
      args.NewTensor(b.residual, b.y_shape), args.NewTensor(b.norm_out, b.y_shape), &size, &executor);
  EXPECT_EQ(status, b.expected);
  const char* message = aclGetRecentErrMsg();
  EXPECT_NE(std::string(message != nullptr ? message : "").find(b.keyword), std::string::npos)
      << (message != nullptr ? message : "");
  if (status == ACLNN_SUCCESS) aclDestroyAclOpExecutor(executor);
}

std::vector<Bad> BadCases() {
  return {
      {.name = "x1_rank0", .expected = ACLNN_ERR_PARAM_INVALID, .keyword = "x1", .x1_shape = {}},
      {.name = "k_differs", .expected = ACLNN_ERR_PARAM_INVALID, .keyword = "x2", .x2_shape = {12, 8}},
      {.name = "residual_n", .expected = ACLNN_ERR_PARAM_INVALID, .keyword = "residual", .residual_shape = {2, 3, 4}},
      {.name = "k0", .expected = ACLNN_ERR_PARAM_INVALID, .keyword = "k = 0", .x1_shape = {6, 0}, .x2_shape = {0, 8}},
      {.name = "stream_mode", .expected = ACLNN_ERR_PARAM_INVALID, .keyword = "streamMode", .stream_mode = 2},
      {.name = "f32",
       .expected = ACLNN_ERR_PARAM_INVALID,
       .keyword = "x1",
       .x1 = ACL_FLOAT,
       .residual = ACL_FLOAT,
       .gamma = ACL_FLOAT,
       .norm_out = ACL_FLOAT},
      {.name = "residual_dtype",
       .expected = ACLNN_ERR_INNER_TILING_ERROR,
       .keyword = "residual",
       .residual = ACL_BF16,
       .gamma = ACL_BF16,
       .norm_out = ACL_BF16},
      {.name = "gamma_dtype", .expected = ACLNN_ERR_INNER_TILING_ERROR, .keyword = "gamma", .gamma = ACL_BF16},
      {.name = "norm_out_dtype", .expected = ACLNN_ERR_INNER_TILING_ERROR, .keyword = "normOut", .norm_out = ACL_BF16},
      {.name = "residual_2d",
       .expected = ACLNN_ERR_INNER_TILING_ERROR,
       .keyword = "3-D",
       .residual_shape = {6, 8},
       .y_shape = {6, 8}},
      {.name = "gamma_length", .expected = ACLNN_ERR_INNER_TILING_ERROR, .keyword = "gamma", .gamma_shape = {4}},
      {.name = "y_shape", .expected = ACLNN_ERR_INNER_TILING_ERROR, .keyword = "'y'", .y_shape = {3, 2, 8}},
      {.name = "residual_rows",
       .expected = ACLNN_ERR_INNER_TILING_ERROR,
       .keyword = "rows",
       .residual_shape = {2, 2, 8},
       .y_shape = {2, 2, 8}},
      {.name = "bias_length", .expected = ACLNN_ERR_INNER_TILING_ERROR, .keyword = "bias", .bias_shape = {4}},
      {.name = "epsilon_1", .expected = ACLNN_ERR_INNER_TILING_ERROR, .keyword = "epsilon", .epsilon = 1},
      {.name = "reduce_op", .expected = ACLNN_ERR_INNER_TILING_ERROR, .keyword = "reduceOp", .reduce_op = "prod"},
      {.name = "comm_turn", .expected = ACLNN_ERR_INNER_TILING_ERROR, .keyword = "commTurn", .comm_turn = 2},
  };
}

INSTANTIATE_TEST_SUITE_P(Cann, ArnRejectionTest, ::testing::ValuesIn(BadCases()),
                         [](const auto& info) { return info.param.name; });

// Empty rows or columns: CANN returns at once with nothing to do.
TEST(MatmulAllReduceAddRmsNorm, EmptyRowsDoNothing) {
  const Ranks ranks(2);
  OpArgs args;
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnMatmulAllReduceAddRmsNormGetWorkspaceSize(
                args.NewTensor(ACL_FLOAT16, {0, 16}), args.NewTensor(ACL_FLOAT16, {16, 8}), nullptr,
                args.NewTensor(ACL_FLOAT16, {0, 3, 8}), args.NewTensor(ACL_FLOAT16, {8}), 1e-6, ranks.group(), "sum", 0,
                1, args.NewTensor(ACL_FLOAT16, {0, 3, 8}), args.NewTensor(ACL_FLOAT16, {0, 3, 8}), &size, &executor),
            ACLNN_SUCCESS);
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(aclnnMatmulAllReduceAddRmsNorm(nullptr, size, executor, ranks.stream(0)), ACLNN_SUCCESS);
}

}  // namespace
}  // namespace canopy_test
