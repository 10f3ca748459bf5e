// aclnnMatmulAllReduce and aclnnMatmulAllReduceV2 on the ranks of an
// HcclCommInitAll communicator: every rank's output against a float64
// reference of the sum over ranks of each rank's product (rounded to the
// output dtype, as the NPU writes its part before the sum), for 1, 2 and 4
// ranks, f16 and bf16, 2-D and 3-D x1, transposed x2, bias, x3, K = 0 and a
// strided output; CANN's rejections with their codes, and the run-time
// failures (a peer that disagrees, a communicator destroyed under a planned op).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_matmul_all_reduce.h"
#include "aclnnop/aclnn_matmul_all_reduce_v2.h"
#include "mc2_ranks.h"

namespace canopy_test {
namespace {

struct RankData {
  std::unique_ptr<DeviceTensor> x1, x2, bias, x3, out;
  Values x1v, x2v, biasv, x3v;
};

struct Case {
  std::string name;
  uint32_t ranks = 2;
  aclDataType dtype = ACL_FLOAT16;
  Shape x1;  // [m, k] or [b, s, k]
  int64_t n = 3;
  bool bias = false;
  bool x3 = false;  // V2
  View x2_view = View::kContiguous;
  View out_view = View::kContiguous;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// Every rank's expected output: the sum of the ranks' rounded parts.
Expected Reference(const Case& c, const std::vector<RankData>& data) {
  const int64_t k = c.x1.back();
  const int64_t m = NumElements(Shape(c.x1.begin(), c.x1.end() - 1));
  std::vector<std::vector<double>> products;
  std::vector<const Values*> x3;
  for (const RankData& d : data) {
    products.push_back(Product(d.x1v, d.x2v, c.bias ? &d.biasv : nullptr, m, k, c.n));
    x3.push_back(c.x3 ? &d.x3v : nullptr);
  }
  return SumOfRoundedParts(products, x3, c.dtype);
}

std::vector<RankData> MakeData(const Case& c, Rng& rng) {
  std::vector<RankData> data(c.ranks);
  const int64_t k = c.x1.back();
  Shape out_shape = c.x1;
  out_shape.back() = c.n;
  const Range range{-1, 1};
  for (RankData& d : data) {
    d.x1 = std::make_unique<DeviceTensor>(c.dtype, c.x1);
    d.x1v = d.x1->FillRandom(rng, range);
    d.x2 = std::make_unique<DeviceTensor>(c.dtype, Shape{k, c.n}, c.x2_view);
    d.x2v = d.x2->FillRandom(rng, range);
    if (c.bias) {
      d.bias = std::make_unique<DeviceTensor>(c.dtype, Shape{c.n});
      d.biasv = d.bias->FillRandom(rng, range);
    }
    if (c.x3) {
      d.x3 = std::make_unique<DeviceTensor>(c.dtype, out_shape);
      d.x3v = d.x3->FillRandom(rng, range);
    }
    d.out = std::make_unique<DeviceTensor>(c.dtype, out_shape, c.out_view);
    d.out->Poison();
  }
  return data;
}

class MatmulAllReduceTest : public ::testing::TestWithParam<Case> {};

TEST_P(MatmulAllReduceTest, EveryRankGetsTheSumOfTheRanksProducts) {
  const Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const Ranks ranks(c.ranks);
  std::vector<RankData> data;
  // Tensors of each rank on its own device, as a tensor-parallel program allocates them.
  for (uint32_t r = 0; r < c.ranks; ++r) {
    ranks.OnDevice(r);
    Case one = c;
    one.ranks = 1;
    data.push_back(std::move(MakeData(one, rng)[0]));
  }
  const auto runs = ranks.Run(
      [&](uint32_t r, OpArgs& args, uint64_t* size, aclOpExecutor** executor) {
        const RankData& d = data[r];
        aclTensor* bias = c.bias ? args.Tensor(*d.bias) : nullptr;
        if (c.x3) {
          return aclnnMatmulAllReduceV2GetWorkspaceSize(args.Tensor(*d.x1), args.Tensor(*d.x2), bias,
                                                        args.Tensor(*d.x3), ranks.group(), "sum", 0, 1,
                                                        args.Tensor(*d.out), size, executor);
        }
        return aclnnMatmulAllReduceGetWorkspaceSize(args.Tensor(*d.x1), args.Tensor(*d.x2), bias, ranks.group(), "sum",
                                                    0, 1, args.Tensor(*d.out), size, executor);
      },
      c.x3 ? aclnnMatmulAllReduceV2 : aclnnMatmulAllReduce);
  ExpectEveryRankGets(
      runs, [&](uint32_t r) { return data[r].out->ReadView(); }, Reference(c, data));
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (const aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    const std::string d = dtype == ACL_FLOAT16 ? "f16" : "bf16";
    for (const uint32_t ranks : {1u, 2u, 4u}) {
      const std::string p = d + "_" + std::to_string(ranks) + "ranks";
      cases.push_back({.name = p, .ranks = ranks, .dtype = dtype, .x1 = {5, 16}, .n = 7});
      cases.push_back({.name = p + "_bias", .ranks = ranks, .dtype = dtype, .x1 = {5, 16}, .n = 7, .bias = true});
    }
    cases.push_back({.name = d + "_3d_x1_transposed_x2_bias",
                     .dtype = dtype,
                     .x1 = {2, 3, 24},
                     .n = 9,
                     .bias = true,
                     .x2_view = View::kTransposed});
    cases.push_back({.name = d + "_v2_x3", .ranks = 4, .dtype = dtype, .x1 = {4, 8}, .n = 6, .x3 = true});
    cases.push_back({.name = d + "_v2_x3_bias_3d", .dtype = dtype, .x1 = {2, 2, 8}, .n = 5, .bias = true, .x3 = true});
    cases.push_back({.name = d + "_strided_output", .dtype = dtype, .x1 = {3, 8}, .n = 4, .out_view = View::kStepped});
    // K = 0: each rank's part is its bias (CANN's empty-K kernel).
    cases.push_back({.name = d + "_k0_bias", .dtype = dtype, .x1 = {3, 0}, .n = 4, .bias = true});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Ranks, MatmulAllReduceTest, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

// ---- rejections -----------------------------------------------------------------------------------

struct Bad {
  std::string name;
  aclnnStatus expected;
  std::string keyword;
  aclDataType x1 = ACL_FLOAT16, x2 = ACL_FLOAT16, bias = ACL_FLOAT16, out = ACL_FLOAT16, x3 = ACL_FLOAT16;
  Shape x1_shape{4, 8}, x2_shape{8, 3}, bias_shape{3}, out_shape{4, 3}, x3_shape{4, 3};
  bool with_bias = true, with_x3 = false, null_x1 = false, nz_x2 = false;
  const char* reduce_op = "sum";
  int64_t comm_turn = 0, stream_mode = 1;
  const char* group = nullptr;  // the communicator's own name
};

void PrintTo(const Bad& b, std::ostream* os) { *os << b.name; }

class MatmulAllReduceRejectionTest : public ::testing::TestWithParam<Bad> {};

TEST_P(MatmulAllReduceRejectionTest, IsRejectedWithCannsCode) {
  const Bad& b = GetParam();
  const Ranks ranks(2);
  OpArgs args;
  aclTensor* x1 = b.null_x1 ? nullptr : args.NewTensor(b.x1, b.x1_shape);
  aclTensor* x2 = args.NewTensor(b.x2, b.x2_shape, View::kContiguous, b.nz_x2 ? ACL_FORMAT_FRACTAL_NZ : ACL_FORMAT_ND);
  aclTensor* bias = b.with_bias ? args.NewTensor(b.bias, b.bias_shape) : nullptr;
  aclTensor* out = args.NewTensor(b.out, b.out_shape);
  const char* group = b.group != nullptr ? b.group : ranks.group();
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  aclnnStatus status;
  if (b.with_x3) {
    status = aclnnMatmulAllReduceV2GetWorkspaceSize(x1, x2, bias, args.NewTensor(b.x3, b.x3_shape), group, b.reduce_op,
                                                    b.comm_turn, b.stream_mode, out, &size, &executor);
  } else {
    status = aclnnMatmulAllReduceGetWorkspaceSize(x1, x2, bias, group, b.reduce_op, b.comm_turn, b.stream_mode, out,
                                                  &size, &executor);
  }
  EXPECT_EQ(status, b.expected);
  const char* message = aclGetRecentErrMsg();
  EXPECT_NE(std::string(message != nullptr ? message : "").find(b.keyword), std::string::npos)
      << (message != nullptr ? message : "");
  if (status == ACLNN_SUCCESS) aclDestroyAclOpExecutor(executor);
}

std::vector<Bad> BadCases() {
  return {
      {.name = "null_x1", .expected = ACLNN_ERR_PARAM_NULLPTR, .keyword = "x1", .null_x1 = true},
      {.name = "f32_x1", .expected = ACLNN_ERR_PARAM_INVALID, .keyword = "x1", .x1 = ACL_FLOAT},
      {.name = "x2_other_half", .expected = ACLNN_ERR_PARAM_INVALID, .keyword = "x2", .x2 = ACL_BF16},
      {.name = "output_other_half", .expected = ACLNN_ERR_PARAM_INVALID, .keyword = "output", .out = ACL_BF16},
      {.name = "bias_f32", .expected = ACLNN_ERR_PARAM_INVALID, .keyword = "bias", .bias = ACL_FLOAT},
      {.name = "x3_other_half", .expected = ACLNN_ERR_PARAM_INVALID, .keyword = "x3", .x3 = ACL_BF16, .with_x3 = true},
      {.name = "reduce_op_max", .expected = ACLNN_ERR_PARAM_INVALID, .keyword = "reduceOp", .reduce_op = "max"},
      {.name = "stream_mode_0", .expected = ACLNN_ERR_PARAM_INVALID, .keyword = "streamMode", .stream_mode = 0},
      {.name = "nz_x2", .expected = ACLNN_ERR_PARAM_INVALID, .keyword = "x2", .nz_x2 = true},
      {.name = "x2_3d", .expected = ACLNN_ERR_PARAM_INVALID, .keyword = "x2", .x2_shape = {1, 8, 3}},
      {.name = "x1_1d", .expected = ACLNN_ERR_PARAM_INVALID, .keyword = "x1", .x1_shape = {8}, .out_shape = {3}},
      {.name = "k_differs", .expected = ACLNN_ERR_PARAM_INVALID, .keyword = "x2", .x2_shape = {7, 3}},
      {.name = "output_shape", .expected = ACLNN_ERR_PARAM_INVALID, .keyword = "output", .out_shape = {4, 4}},
      {.name = "bias_2d", .expected = ACLNN_ERR_PARAM_INVALID, .keyword = "bias", .bias_shape = {1, 3}},
      {.name = "bias_length", .expected = ACLNN_ERR_PARAM_INVALID, .keyword = "bias", .bias_shape = {4}},
      {.name = "x3_shape", .expected = ACLNN_ERR_PARAM_INVALID, .keyword = "x3", .x3_shape = {1, 3}, .with_x3 = true},
      {.name = "comm_turn_1", .expected = ACLNN_ERR_INNER_TILING_ERROR, .keyword = "commTurn", .comm_turn = 1},
      {.name = "unknown_group", .expected = ACLNN_ERR_INNER_TILING_ERROR, .keyword = "group", .group = "no_such_group"},
      {.name = "empty_output",
       .expected = ACLNN_ERR_INNER_TILING_ERROR,
       .keyword = "empty",
       .x1_shape = {0, 8},
       .out_shape = {0, 3}},
  };
}

INSTANTIATE_TEST_SUITE_P(Cann, MatmulAllReduceRejectionTest, ::testing::ValuesIn(BadCases()),
                         [](const auto& info) { return info.param.name; });

// A3 sizes are not A2's: 3 ranks is no full mesh CANN's A2 kernel supports.
TEST(MatmulAllReduce, ThreeRanksAreRejected) {
  const Ranks ranks(3);
  OpArgs args;
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  EXPECT_EQ(aclnnMatmulAllReduceGetWorkspaceSize(args.NewTensor(ACL_FLOAT16, {2, 4}),
                                                 args.NewTensor(ACL_FLOAT16, {4, 2}), nullptr, ranks.group(), "sum", 0,
                                                 1, args.NewTensor(ACL_FLOAT16, {2, 2}), &size, &executor),
            ACLNN_ERR_INNER_TILING_ERROR);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("3 ranks"), std::string::npos);
}

// Ranks that disagree on the shape fail their runs with a message; none hangs.
TEST(MatmulAllReduce, RanksThatDisagreeFailWithoutHanging) {
  const Ranks ranks(2);
  const auto runs = ranks.Run(
      [&](uint32_t r, OpArgs& args, uint64_t* size, aclOpExecutor** executor) {
        const int64_t m = r == 0 ? 2 : 3;
        return aclnnMatmulAllReduceGetWorkspaceSize(args.NewTensor(ACL_FLOAT16, {m, 4}),
                                                    args.NewTensor(ACL_FLOAT16, {4, 2}), nullptr, ranks.group(), "sum",
                                                    0, 1, args.NewTensor(ACL_FLOAT16, {m, 2}), size, executor);
      },
      aclnnMatmulAllReduce);
  for (uint32_t r = 0; r < 2; ++r) {
    ASSERT_EQ(runs[r].phase1, ACLNN_SUCCESS);
    EXPECT_EQ(runs[r].sync, ACL_ERROR_RT_SUSPECT_REMOTE_ERROR) << "rank " << r;
    EXPECT_NE(runs[r].message.find("aclnnMatmulAllReduce"), std::string::npos) << runs[r].message;
  }
}

// A communicator destroyed between phase 1 and the run: a stream error naming
// the group, not a crash (the plan looks the group up again when it runs).
TEST(MatmulAllReduce, CommunicatorDestroyedBeforeTheRunIsAStreamError) {
  TestStream();
  int32_t device = 0;
  HcclComm comm = nullptr;
  ASSERT_EQ(HcclCommInitAll(1, &device, &comm), HCCL_SUCCESS);
  char group[COMM_NAME_MAX_LENGTH] = {};
  ASSERT_EQ(HcclGetCommName(comm, group), HCCL_SUCCESS);
  OpArgs args;
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnMatmulAllReduceGetWorkspaceSize(args.NewTensor(ACL_FLOAT16, {2, 4}),
                                                 args.NewTensor(ACL_FLOAT16, {4, 2}), nullptr, group, "sum", 0, 1,
                                                 args.NewTensor(ACL_FLOAT16, {2, 2}), &size, &executor),
            ACLNN_SUCCESS);
  ASSERT_EQ(HcclCommDestroy(comm), HCCL_SUCCESS);
  DeviceBuffer workspace(size);
  ASSERT_EQ(aclnnMatmulAllReduce(workspace.get(), size, executor, TestStream()), ACLNN_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(TestStream()), ACL_ERROR_RT_SUSPECT_REMOTE_ERROR);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find(group), std::string::npos);
}

}  // namespace
}  // namespace canopy_test
