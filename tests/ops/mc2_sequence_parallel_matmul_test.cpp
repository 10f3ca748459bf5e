// aclnnAllGatherMatmul and aclnnMatmulReduceScatter on 2 and 4 ranks of an
// HcclCommInitAll communicator, against float64 references: the gathered x1
// (exact) and its product with each rank's own x2; each rank's block of the
// sum of the ranks' products (each rounded to the dtype first). f16 and bf16,
// bias, a transposed x2, a strided output, no gatherOut; CANN's rejections
// with their codes (k below 256, a transposed x1, 1 or 3 ranks, rows that do
// not split, ...).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_all_gather_matmul.h"
#include "aclnnop/aclnn_matmul_reduce_scatter.h"
#include "mc2_ranks.h"

namespace canopy_test {
namespace {

constexpr int64_t kK = 256;  // the least k CANN's kernels take

struct Case {
  std::string name;
  uint32_t ranks = 2;
  aclDataType dtype = ACL_FLOAT16;
  int64_t m = 4, n = 5;
  bool bias = false;
  bool gather_out = true;
  View x2_view = View::kContiguous;
  View out_view = View::kContiguous;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

struct RankData {
  std::unique_ptr<DeviceTensor> x1, x2, bias, out, gathered;
  Values x1v, x2v, biasv;
};

std::vector<RankData> MakeRanks(const Ranks& ranks, const Case& c, const Shape& out_shape,
                                const Shape& gathered_shape) {
  Rng rng = Rng::ForCurrentTest();
  std::vector<RankData> data(c.ranks);
  for (uint32_t r = 0; r < c.ranks; ++r) {
    ranks.OnDevice(r);
    RankData& d = data[r];
    d.x1 = std::make_unique<DeviceTensor>(c.dtype, Shape{c.m, kK});
    d.x1v = d.x1->FillRandom(rng, {-1, 1});
    d.x2 = std::make_unique<DeviceTensor>(c.dtype, Shape{kK, c.n}, c.x2_view);
    d.x2v = d.x2->FillRandom(rng, {-1, 1});
    if (c.bias) {
      d.bias = std::make_unique<DeviceTensor>(c.dtype, Shape{c.n});
      d.biasv = d.bias->FillRandom(rng, {-1, 1});
    }
    d.out = std::make_unique<DeviceTensor>(c.dtype, out_shape, c.out_view);
    d.out->Poison();
    if (c.gather_out) {
      d.gathered = std::make_unique<DeviceTensor>(c.dtype, gathered_shape);
      d.gathered->Poison();
    }
  }
  return data;
}

Expected Rounded(const std::vector<double>& exact, aclDataType dtype, const std::vector<double>& magnitude) {
  Expected want;
  for (size_t e = 0; e < exact.size(); ++e) {
    want.values.push_back(ConvertValue(Value(exact[e]), dtype));
    want.tolerance.push_back(4 * UnitRoundoff(dtype) * (magnitude[e] + std::abs(exact[e])) + 1e-6);
  }
  return want;
}

class AllGatherMatmulTest : public ::testing::TestWithParam<Case> {};

TEST_P(AllGatherMatmulTest, MultipliesEveryRanksRows) {
  const Case& c = GetParam();
  const Ranks ranks(c.ranks);
  const int64_t rows = c.m * c.ranks;
  std::vector<RankData> data = MakeRanks(ranks, c, {rows, c.n}, {rows, kK});
  const auto runs = ranks.Run(
      [&](uint32_t r, OpArgs& args, uint64_t* size, aclOpExecutor** executor) {
        const RankData& d = data[r];
        return aclnnAllGatherMatmulGetWorkspaceSize(
            args.Tensor(*d.x1), args.Tensor(*d.x2), c.bias ? args.Tensor(*d.bias) : nullptr, ranks.group(), 0, 0, 1,
            args.Tensor(*d.out), c.gather_out ? args.Tensor(*d.gathered) : nullptr, size, executor);
      },
      aclnnAllGatherMatmul);
  Values gathered;
  for (const RankData& d : data) gathered.insert(gathered.end(), d.x1v.begin(), d.x1v.end());
  for (uint32_t r = 0; r < c.ranks; ++r) {
    ASSERT_TRUE(runs[r].ok()) << "rank " << r << ": " << Describe(runs[r]);
    const RankData& d = data[r];
    if (c.gather_out) ExpectExact(d.gathered->ReadView(), gathered, "gatherOut of rank " + std::to_string(r));
    const std::vector<double> exact = Product(gathered, d.x2v, c.bias ? &d.biasv : nullptr, rows, kK, c.n);
    std::vector<double> magnitude(exact.size());
    for (size_t e = 0; e < exact.size(); ++e) magnitude[e] = std::sqrt(static_cast<double>(kK));
    ExpectNear(d.out->ReadView(), Rounded(exact, c.dtype, magnitude), "output of rank " + std::to_string(r));
  }
}

class MatmulReduceScatterTest : public ::testing::TestWithParam<Case> {};

TEST_P(MatmulReduceScatterTest, EachRankGetsItsBlockOfTheSum) {
  const Case& c = GetParam();
  const Ranks ranks(c.ranks);
  const int64_t block = c.m / c.ranks;
  std::vector<RankData> data = MakeRanks(ranks, c, {block, c.n}, {});
  const auto runs = ranks.Run(
      [&](uint32_t r, OpArgs& args, uint64_t* size, aclOpExecutor** executor) {
        const RankData& d = data[r];
        return aclnnMatmulReduceScatterGetWorkspaceSize(args.Tensor(*d.x1), args.Tensor(*d.x2),
                                                        c.bias ? args.Tensor(*d.bias) : nullptr, ranks.group(), "sum",
                                                        0, 1, args.Tensor(*d.out), size, executor);
      },
      aclnnMatmulReduceScatter);
  std::vector<double> sum(static_cast<size_t>(c.m * c.n)), magnitude(sum.size());
  for (const RankData& d : data) {
    const std::vector<double> part = Product(d.x1v, d.x2v, c.bias ? &d.biasv : nullptr, c.m, kK, c.n);
    for (size_t e = 0; e < sum.size(); ++e) {
      const double rounded = ConvertValue(Value(part[e]), c.dtype).real();
      sum[e] += rounded;
      magnitude[e] += std::abs(rounded) + std::sqrt(static_cast<double>(kK));
    }
  }
  for (uint32_t r = 0; r < c.ranks; ++r) {
    ASSERT_TRUE(runs[r].ok()) << "rank " << r << ": " << Describe(runs[r]);
    const auto from = static_cast<ptrdiff_t>(r * block * c.n), to = from + static_cast<ptrdiff_t>(block * c.n);
    const std::vector<double> mine(sum.begin() + from, sum.begin() + to);
    const std::vector<double> bound(magnitude.begin() + from, magnitude.begin() + to);
    ExpectNear(data[r].out->ReadView(), Rounded(mine, c.dtype, bound), "rank " + std::to_string(r));
  }
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (const aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    const std::string d = dtype == ACL_FLOAT16 ? "f16" : "bf16";
    cases.push_back({.name = d + "_2ranks", .dtype = dtype});
    cases.push_back({.name = d + "_4ranks_bias", .ranks = 4, .dtype = dtype, .m = 8, .n = 3, .bias = true});
    cases.push_back({.name = d + "_transposed_x2_strided_out",
                     .dtype = dtype,
                     .m = 6,
                     .n = 4,
                     .x2_view = View::kTransposed,
                     .out_view = View::kStepped});
  }
  cases.push_back({.name = "f16_no_gather_out", .gather_out = false});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Ranks, AllGatherMatmulTest, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return info.param.name; });
INSTANTIATE_TEST_SUITE_P(Ranks, MatmulReduceScatterTest, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return info.param.name; });

// ---- rejections -----------------------------------------------------------------------------------

struct Bad {
  std::string name;
  aclnnStatus expected;
  std::string keyword;
  bool scatter = false;  // MatmulReduceScatter, else AllGatherMatmul
  uint32_t ranks = 2;
  aclDataType x1 = ACL_FLOAT16, x2 = ACL_FLOAT16, out = ACL_FLOAT16;
  Shape x1_shape{4, 256}, x2_shape{256, 3}, out_shape{};  // out: the right shape when empty
  View x1_view = View::kContiguous;
  Shape bias_shape{};
  const char* reduce_op = "sum";
  int64_t gather_index = 0, comm_turn = 0, stream_mode = 1;
};
void PrintTo(const Bad& b, std::ostream* os) { *os << b.name; }

class SequenceParallelRejectionTest : public ::testing::TestWithParam<Bad> {};

TEST_P(SequenceParallelRejectionTest, IsRejectedWithCannsCode) {
  const Bad& b = GetParam();
  const Ranks ranks(b.ranks);
  OpArgs args;
  const int64_t m = b.x1_shape[0], n = b.x2_shape.back();
  const Shape out_shape = !b.out_shape.empty() ? b.out_shape
                          : b.scatter          ? Shape{m / b.ranks, n}
                                               : Shape{m * b.ranks, n};
  aclTensor* x1 = args.NewTensor(b.x1, b.x1_shape, b.x1_view);
  aclTensor* x2 = args.NewTensor(b.x2, b.x2_shape);
  aclTensor* bias = b.bias_shape.empty() ? nullptr : args.NewTensor(ACL_FLOAT16, b.bias_shape);
  aclTensor* out = args.NewTensor(b.out, out_shape);
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  const aclnnStatus status =
      b.scatter ? aclnnMatmulReduceScatterGetWorkspaceSize(x1, x2, bias, ranks.group(), b.reduce_op, b.comm_turn,
                                                           b.stream_mode, out, &size, &executor)
                : aclnnAllGatherMatmulGetWorkspaceSize(x1, x2, bias, ranks.group(), b.gather_index, b.comm_turn,
                                                       b.stream_mode, out, nullptr, &size, &executor);
  EXPECT_EQ(status, b.expected);
  const char* message = aclGetRecentErrMsg();
  EXPECT_NE(std::string(message != nullptr ? message : "").find(b.keyword), std::string::npos)
      << (message != nullptr ? message : "");
  if (status == ACLNN_SUCCESS) aclDestroyAclOpExecutor(executor);
}

std::vector<Bad> BadCases() {
  std::vector<Bad> cases;
  for (const bool scatter : {false, true}) {
    const std::string p = scatter ? "scatter_" : "gather_";
    cases.push_back(
        {.name = p + "f32", .expected = ACLNN_ERR_PARAM_INVALID, .keyword = "x1", .scatter = scatter, .x1 = ACL_FLOAT});
    cases.push_back({.name = p + "mixed_halves",
                     .expected = ACLNN_ERR_PARAM_INVALID,
                     .keyword = "x2",
                     .scatter = scatter,
                     .x2 = ACL_BF16});
    cases.push_back({.name = p + "stream_mode",
                     .expected = ACLNN_ERR_PARAM_INVALID,
                     .keyword = "streamMode",
                     .scatter = scatter,
                     .stream_mode = 0});
    cases.push_back({.name = p + "k0",
                     .expected = ACLNN_ERR_PARAM_INVALID,
                     .keyword = "k = 0",
                     .scatter = scatter,
                     .x1_shape = {4, 0},
                     .x2_shape = {0, 3}});
    cases.push_back({.name = p + "k_below_256",
                     .expected = ACLNN_ERR_PARAM_INVALID,
                     .keyword = "256",
                     .scatter = scatter,
                     .x1_shape = {4, 128},
                     .x2_shape = {128, 3}});
    cases.push_back({.name = p + "k_differs",
                     .expected = ACLNN_ERR_PARAM_INVALID,
                     .keyword = "agree",
                     .scatter = scatter,
                     .x2_shape = {512, 3}});
    cases.push_back({.name = p + "transposed_x1",
                     .expected = ACLNN_ERR_PARAM_INVALID,
                     .keyword = "transposed",
                     .scatter = scatter,
                     .x1_view = View::kTransposed});
    cases.push_back({.name = p + "x2_3d",
                     .expected = ACLNN_ERR_PARAM_INVALID,
                     .keyword = "x2",
                     .scatter = scatter,
                     .x2_shape = {1, 256, 3},
                     .out_shape = {8, 3}});
    cases.push_back({.name = p + "output_n",
                     .expected = ACLNN_ERR_PARAM_INVALID,
                     .keyword = "output",
                     .scatter = scatter,
                     .out_shape = {8, 4}});
    cases.push_back({.name = p + "bias_length",
                     .expected = ACLNN_ERR_PARAM_INVALID,
                     .keyword = "bias",
                     .scatter = scatter,
                     .bias_shape = {4}});
    cases.push_back({.name = p + "comm_turn",
                     .expected = ACLNN_ERR_INNER_TILING_ERROR,
                     .keyword = "commTurn",
                     .scatter = scatter,
                     .comm_turn = 1});
    cases.push_back({.name = p + "three_ranks",
                     .expected = ACLNN_ERR_INNER_TILING_ERROR,
                     .keyword = "3 ranks",
                     .scatter = scatter,
                     .ranks = 3,
                     .x1_shape = {6, 256}});
    cases.push_back({.name = p + "output_rows",
                     .expected = ACLNN_ERR_INNER_TILING_ERROR,
                     .keyword = "output",
                     .scatter = scatter,
                     .out_shape = {3, 3}});
  }
  cases.push_back({.name = "gather_index_1",
                   .expected = ACLNN_ERR_INNER_TILING_ERROR,
                   .keyword = "gatherIndex",
                   .gather_index = 1});
  cases.push_back({.name = "scatter_reduce_op_max",
                   .expected = ACLNN_ERR_INNER_TILING_ERROR,
                   .keyword = "reduceOp",
                   .scatter = true,
                   .reduce_op = "max"});
  cases.push_back({.name = "scatter_rows_do_not_split",
                   .expected = ACLNN_ERR_INNER_TILING_ERROR,
                   .keyword = "rows",
                   .scatter = true,
                   .x1_shape = {5, 256},
                   .out_shape = {2, 3}});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Cann, SequenceParallelRejectionTest, ::testing::ValuesIn(BadCases()),
                         [](const auto& info) { return info.param.name; });

// An empty x1 (m = 0) returns at once in both, as CANN's host code does.
TEST(SequenceParallelMatmul, EmptyRowsDoNothing) {
  const Ranks ranks(2);
  OpArgs args;
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnAllGatherMatmulGetWorkspaceSize(args.NewTensor(ACL_FLOAT16, {0, 256}),
                                                 args.NewTensor(ACL_FLOAT16, {256, 3}), nullptr, ranks.group(), 0, 0, 1,
                                                 args.NewTensor(ACL_FLOAT16, {0, 3}), nullptr, &size, &executor),
            ACLNN_SUCCESS);
  EXPECT_EQ(aclnnAllGatherMatmul(nullptr, size, executor, ranks.stream(0)), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnMatmulReduceScatterGetWorkspaceSize(
                args.NewTensor(ACL_FLOAT16, {0, 256}), args.NewTensor(ACL_FLOAT16, {256, 3}), nullptr, ranks.group(),
                "sum", 0, 1, args.NewTensor(ACL_FLOAT16, {0, 3}), &size, &executor),
            ACLNN_SUCCESS);
  EXPECT_EQ(aclnnMatmulReduceScatter(nullptr, size, executor, ranks.stream(0)), ACLNN_SUCCESS);
}

}  // namespace
}  // namespace canopy_test
