// aclnnQuantMatmulReduceSumWeightNz through the public C API: INT8 batched
// products scaled per token (x1Scale [b, m]) and per channel (x2Scale [n],
// BFLOAT16), summed over the batch into BFLOAT16 [m, n], against a float64
// reference; x2 as a FRACTAL_NZ descriptor (with the 1-D storage CANN's example
// declares) or ND, strided scales and a stepped out; then CANN's rejections.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_quant_matmul_reduce_sum.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

struct QmrsCase {
  std::string name;
  int64_t b = 3, m = 5, k = 32, n = 24;
  bool nz = true;
  View scaleView = View::kContiguous, outView = View::kContiguous;
};

void PrintTo(const QmrsCase& c, std::ostream* os) { *os << c.name; }

// `t`'s view in FRACTAL_NZ over a 1-D storage, as CANN's example declares its weight.
aclTensor* NzDescriptor(const DeviceTensor& t) {
  const Layout& l = t.layout();
  const int64_t storage = l.StorageElements();
  return aclCreateTensor(l.shape.data(), l.shape.size(), t.dtype(), l.strides.data(), l.offset, ACL_FORMAT_FRACTAL_NZ,
                         &storage, 1, t.data());
}

aclnnStatus Call(const aclTensor* x1, const aclTensor* x2, const aclTensor* s1, const aclTensor* s2, aclTensor* out,
                 uint64_t* workspaceSize, aclOpExecutor** executor, bool transposeX1 = false, int64_t groupSize = 0,
                 std::vector<int64_t> dims = {0}, bool keepDims = false, const aclTensor* bias = nullptr) {
  aclIntArray* d = aclCreateIntArray(dims.data(), dims.size());
  const aclnnStatus status = aclnnQuantMatmulReduceSumWeightNzGetWorkspaceSize(
      x1, x2, s1, s2, nullptr, nullptr, nullptr, nullptr, bias, transposeX1, false, groupSize, d, keepDims, out,
      workspaceSize, executor);
  aclDestroyIntArray(d);
  return status;
}

class QuantMatmulReduceSumTest : public ::testing::TestWithParam<QmrsCase> {};

TEST_P(QuantMatmulReduceSumTest, MatchesReference) {
  const QmrsCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  DeviceTensor x1(ACL_INT8, {c.b, c.m, c.k}), x2(ACL_INT8, {c.b, c.k, c.n});
  const Values v1 = x1.FillRandom(rng, Range{-128, 127}), v2 = x2.FillRandom(rng, Range{-128, 127});
  DeviceTensor s1(ACL_FLOAT, {c.b, c.m}, c.scaleView), s2(ACL_BF16, {c.n}, c.scaleView);
  const Values vs1 = s1.FillRandom(rng, Range{1e-3, 4e-3}), vs2 = s2.FillRandom(rng, Range{-2e-3, 2e-3});
  DeviceTensor out(ACL_BF16, {c.m, c.n}, c.outView);
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        aclTensor* w = c.nz ? NzDescriptor(x2) : args.Tensor(x2);
        const aclnnStatus status =
            Call(args.Tensor(x1), w, args.Tensor(s1), args.Tensor(s2), args.Tensor(out), workspaceSize, executor);
        if (c.nz) aclDestroyTensor(w);
        return status;
      },
      aclnnQuantMatmulReduceSumWeightNz);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Expected want;
  for (int64_t i = 0; i < c.m; ++i) {
    for (int64_t j = 0; j < c.n; ++j) {
      double sum = 0, magnitude = 0;
      for (int64_t b = 0; b < c.b; ++b) {
        double acc = 0;
        for (int64_t kk = 0; kk < c.k; ++kk) {
          acc += std::real(v1[static_cast<size_t>((b * c.m + i) * c.k + kk)]) *
                 std::real(v2[static_cast<size_t>((b * c.k + kk) * c.n + j)]);
        }
        const double term =
            acc * std::real(vs1[static_cast<size_t>(b * c.m + i)]) * std::real(vs2[static_cast<size_t>(j)]);
        sum += term;
        magnitude += std::fabs(term);
      }
      want.values.emplace_back(sum);
      want.tolerance.push_back(std::fabs(sum) * UnitRoundoff(ACL_BF16) + magnitude * 1e-6);
    }
  }
  ExpectNear(out.ReadView(), want, "out");
  ExpectOutsideViewUnchanged(out, before, "out storage");
  ExpectExact(x2.ReadView(), v2, "x2 must not change");
}

std::vector<QmrsCase> Cases() {
  std::vector<QmrsCase> cases = {
      {.name = "nz"},
      {.name = "nd_weight", .nz = false},
      {.name = "batch1", .b = 1, .m = 7, .k = 40, .n = 33},
      {.name = "large", .b = 8, .m = 64, .k = 256, .n = 96},
      {.name = "views", .b = 2, .scaleView = View::kStepped, .outView = View::kStepped},
      {.name = "transposed_out", .b = 4, .m = 6, .k = 16, .n = 10, .outView = View::kTransposed},
  };
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Cases, QuantMatmulReduceSumTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<QmrsCase>& info) { return info.param.name; });

// ---- rejections --------------------------------------------------------------------------------

struct BadQmrs {
  std::string name;
  std::string keyword;
  Shape x1 = {2, 4, 32}, x2 = {2, 32, 16}, s1 = {2, 4}, s2 = {16}, out = {4, 16};
  aclDataType x1Dtype = ACL_INT8, s1Dtype = ACL_FLOAT, s2Dtype = ACL_BF16, outDtype = ACL_BF16;
  aclFormat x2Format = ACL_FORMAT_FRACTAL_NZ, x1Format = ACL_FORMAT_ND;
  bool transposeX1 = false, keepDims = false, bias = false;
  int64_t groupSize = 0;
  std::vector<int64_t> dims = {0};
  aclnnStatus expected = ACLNN_ERR_PARAM_INVALID;
};

RejectionCase ToRejection(const BadQmrs& b) {
  return {b.name,
          [b](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
            return Call(args.NewTensor(b.x1Dtype, b.x1, View::kContiguous, b.x1Format),
                        args.NewTensor(ACL_INT8, b.x2, View::kContiguous, b.x2Format), args.NewTensor(b.s1Dtype, b.s1),
                        args.NewTensor(b.s2Dtype, b.s2), args.NewTensor(b.outDtype, b.out), workspaceSize, executor,
                        b.transposeX1, b.groupSize, b.dims, b.keepDims,
                        b.bias ? args.NewTensor(ACL_INT32, {16}) : nullptr);
          },
          aclnnQuantMatmulReduceSumWeightNz, b.keyword, b.expected};
}

std::vector<RejectionCase> RejectionCases() {
  const std::vector<BadQmrs> bad = {
      {.name = "bias", .keyword = "bias", .bias = true},
      {.name = "transpose_x1", .keyword = "transposeX1", .transposeX1 = true},
      {.name = "keep_dims", .keyword = "keepDims", .keepDims = true},
      {.name = "group_size", .keyword = "groupSize", .groupSize = 32},
      {.name = "x1_f16", .keyword = "x1", .x1Dtype = ACL_FLOAT16},
      {.name = "x1_scale_bf16", .keyword = "x1Scale", .s1Dtype = ACL_BF16},
      {.name = "x2_scale_f32", .keyword = "x2Scale", .s2Dtype = ACL_FLOAT},
      {.name = "out_f16", .keyword = "out", .outDtype = ACL_FLOAT16},
      {.name = "x1_nz", .keyword = "x1", .x1Format = ACL_FORMAT_FRACTAL_NZ},
      {.name = "x2_nchw", .keyword = "x2", .x2Format = ACL_FORMAT_NCHW},
      {.name = "x1_rank2", .keyword = "x1", .x1 = {4, 32}},
      {.name = "batch_mismatch", .keyword = "batch", .x2 = {3, 32, 16}},
      {.name = "k_mismatch", .keyword = "k", .x2 = {2, 16, 16}},
      {.name = "x2_scale_shape", .keyword = "x2Scale", .s2 = {8}},
      {.name = "x1_scale_shape", .keyword = "x1Scale", .s1 = {4}},
      {.name = "dims", .keyword = "dims", .dims = {1}},
      {.name = "out_shape", .keyword = "out", .out = {2, 4, 16}},
      {.name = "empty", .keyword = "empty", .x1 = {2, 0, 32}, .s1 = {2, 0}, .out = {0, 16}},
  };
  std::vector<RejectionCase> cases;
  for (const BadQmrs& b : bad) cases.push_back(ToRejection(b));
  return cases;
}

class QuantMatmulReduceSumRejectionTest : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(QuantMatmulReduceSumRejectionTest, Rejects) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, QuantMatmulReduceSumRejectionTest, ::testing::ValuesIn(RejectionCases()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) { return info.param.name; });

}  // namespace
}  // namespace canopy_test
