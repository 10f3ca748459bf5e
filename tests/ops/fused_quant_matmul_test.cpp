// aclnnFusedQuantMatmul and aclnnFusedQuantMatmulWeightNz through the public C
// API: INT8 products with per-token x1Scale and per-channel / per-tensor
// x2Scale, every bias dtype of CANN's table, both outs, gelu_erf and
// gelu_tanh, against a float64 reference of gelu(qbmmout); batched operands,
// transposed views, FRACTAL_NZ weights with CANN's storage shape (and ND);
// then the rejections with CANN's codes.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_fused_quant_matmul.h"
#include "aclnnop/aclnn_fused_quant_matmul_weight_nz.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

constexpr double kPi = 3.14159265358979323846;

struct FqmCase {
  std::string name;
  int64_t batch = 0;  // 0: 2-D operands
  int64_t m = 5, k = 32, n = 24;
  aclDataType out = ACL_BF16;
  aclDataType scaleDtype = ACL_FLOAT;
  bool perTensor = false;
  aclDataType bias = ACL_DT_UNDEFINED;  // undefined: no bias
  bool batchBias = false;               // [batch, 1, n]
  const char* op = "gelu_erf";
  View x1View = View::kContiguous, x2View = View::kContiguous;
  bool weightNz = false;
  bool nzFormat = true;  // WeightNz: x2 FRACTAL_NZ (else ND)
};

void PrintTo(const FqmCase& c, std::ostream* os) { *os << c.name; }

double Gelu(double x, bool tanhForm) {
  if (tanhForm) return 0.5 * x * (1 + std::tanh(std::sqrt(2 / kPi) * (x + 0.044715 * x * x * x)));
  return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
}

// A descriptor of `t`'s view in FRACTAL_NZ over CANN's INT8 NZ storage shape.
aclTensor* NzDescriptor(const DeviceTensor& t) {
  const Layout& l = t.layout();
  const size_t r = l.shape.size();
  const bool swapped = l.strides[r - 2] == 1;
  const int64_t rows = swapped ? l.shape[r - 1] : l.shape[r - 2], columns = swapped ? l.shape[r - 2] : l.shape[r - 1];
  Shape storage(l.shape.begin(), l.shape.end() - 2);
  storage.insert(storage.end(), {(columns + 31) / 32, (rows + 15) / 16, 16, 32});
  return aclCreateTensor(l.shape.data(), r, t.dtype(), l.strides.data(), l.offset, ACL_FORMAT_FRACTAL_NZ,
                         storage.data(), storage.size(), t.data());
}

class FusedQuantMatmulTest : public ::testing::TestWithParam<FqmCase> {};

TEST_P(FusedQuantMatmulTest, MatchesReference) {
  const FqmCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  Shape s1 = {c.m, c.k}, s2 = {c.k, c.n}, so = {c.m, c.n};
  if (c.batch > 0) {
    s1.insert(s1.begin(), c.batch);
    s2.insert(s2.begin(), c.batch);
    so.insert(so.begin(), c.batch);
  }
  DeviceTensor x1(ACL_INT8, s1, c.x1View), x2(ACL_INT8, s2, c.x2View);
  const Values v1 = x1.FillRandom(rng, Range{-8, 8}), v2 = x2.FillRandom(rng, Range{-8, 8});
  DeviceTensor x1Scale(ACL_FLOAT, {c.m}), x2Scale(c.scaleDtype, {c.perTensor ? 1 : c.n});
  const Values vs1 = x1Scale.FillRandom(rng, Range{0.5, 1.5});
  const Values vs2 = x2Scale.FillRandom(rng, Range{5e-4, 3e-3});
  const bool hasBias = c.bias != ACL_DT_UNDEFINED;
  const Shape biasShape = c.batchBias ? Shape{c.batch, 1, c.n} : Shape{c.n};
  DeviceTensor bias(hasBias ? c.bias : ACL_FLOAT, biasShape);
  const Values vb = bias.FillRandom(rng, c.bias == ACL_INT32 ? Range{-300, 300} : Range{-1, 1});
  DeviceTensor out(c.out, so);
  out.Poison();

  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        aclTensor* b = hasBias ? args.Tensor(bias) : nullptr;
        if (!c.weightNz) {
          return aclnnFusedQuantMatmulGetWorkspaceSize(args.Tensor(x1), args.Tensor(x2), args.Tensor(x1Scale),
                                                       args.Tensor(x2Scale), nullptr, nullptr, nullptr, nullptr, b,
                                                       nullptr, c.op, 0, args.Tensor(out), workspaceSize, executor);
        }
        aclTensor* w = c.nzFormat ? NzDescriptor(x2) : args.Tensor(x2);
        const aclnnStatus status = aclnnFusedQuantMatmulWeightNzGetWorkspaceSize(
            args.Tensor(x1), w, args.Tensor(x1Scale), args.Tensor(x2Scale), nullptr, nullptr, nullptr, nullptr, b,
            nullptr, c.op, 0, args.Tensor(out), workspaceSize, executor);
        if (c.nzFormat) aclDestroyTensor(w);
        return status;
      },
      c.weightNz ? aclnnFusedQuantMatmulWeightNz : aclnnFusedQuantMatmul);
  ASSERT_TRUE(run.ok()) << Describe(run);

  const bool tanhForm = std::string(c.op) == "gelu_tanh";
  Expected want;
  const int64_t batches = c.batch > 0 ? c.batch : 1;
  for (int64_t b = 0; b < batches; ++b) {
    for (int64_t i = 0; i < c.m; ++i) {
      for (int64_t j = 0; j < c.n; ++j) {
        double acc = 0;
        for (int64_t kk = 0; kk < c.k; ++kk) {
          acc += std::real(v1[static_cast<size_t>((b * c.m + i) * c.k + kk)]) *
                 std::real(v2[static_cast<size_t>((b * c.k + kk) * c.n + j)]);
        }
        const double s =
            std::real(vs2[c.perTensor ? 0 : static_cast<size_t>(j)]) * std::real(vs1[static_cast<size_t>(i)]);
        const double bj = hasBias ? std::real(vb[static_cast<size_t>((c.batchBias ? b * c.n : 0) + j)]) : 0.0;
        const double q = c.bias == ACL_INT32 ? (acc + bj) * s : acc * s + bj;
        const double y = Gelu(q, tanhForm);
        want.values.emplace_back(y);
        // f32 arithmetic on the way, then out's rounding.
        want.tolerance.push_back(std::fabs(y) * 2 * UnitRoundoff(c.out) + (std::fabs(q) + 1) * 1e-5);
      }
    }
  }
  ExpectNear(out.ReadView(), want, "out");
  ExpectExact(x1.ReadView(), v1, "x1 must not change");
}

std::vector<FqmCase> Cases() {
  std::vector<FqmCase> cases;
  const auto add = [&cases](FqmCase c) { cases.push_back(c); };
  FqmCase c;
  c = {.name = "bf16_i32_bias_erf", .bias = ACL_INT32};
  add(c);
  c = {.name = "bf16_bf16_scale_bf16_bias_tanh", .scaleDtype = ACL_BF16, .bias = ACL_BF16, .op = "gelu_tanh"};
  add(c);
  c = {.name = "bf16_f32_bias_per_tensor", .perTensor = true, .bias = ACL_FLOAT};
  add(c);
  c = {.name = "bf16_no_bias", .m = 7, .k = 48, .n = 33};
  add(c);
  c = {.name = "f16_i32_bias", .out = ACL_FLOAT16, .bias = ACL_INT32, .op = "gelu_tanh"};
  add(c);
  c = {.name = "f16_f16_bias", .out = ACL_FLOAT16, .bias = ACL_FLOAT16};
  add(c);
  c = {.name = "f16_f32_bias_per_tensor", .out = ACL_FLOAT16, .perTensor = true, .bias = ACL_FLOAT};
  add(c);
  c = {.name = "batch_batch_bias", .batch = 3, .bias = ACL_INT32, .batchBias = true};
  add(c);
  c = {.name = "batch_row_bias_f16", .batch = 2, .out = ACL_FLOAT16, .bias = ACL_FLOAT16};
  add(c);
  c = {.name = "transposed_views", .bias = ACL_BF16, .x1View = View::kTransposed, .x2View = View::kTransposed};
  add(c);
  c = {.name = "large", .m = 64, .k = 256, .n = 96, .bias = ACL_INT32};
  add(c);
  c = {.name = "nz", .bias = ACL_INT32, .weightNz = true};
  add(c);
  c = {.name = "nz_transposed_f16",
       .out = ACL_FLOAT16,
       .op = "gelu_tanh",
       .x2View = View::kTransposed,
       .weightNz = true};
  add(c);
  c = {.name = "nz_batch", .batch = 2, .m = 3, .k = 40, .n = 20, .bias = ACL_FLOAT, .weightNz = true};
  add(c);
  c = {.name = "nz_nd_weight", .bias = ACL_BF16, .weightNz = true, .nzFormat = false};
  add(c);
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Cases, FusedQuantMatmulTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<FqmCase>& info) { return info.param.name; });

// ---- rejections --------------------------------------------------------------------------------

struct BadFqm {
  std::string name;
  std::string keyword;
  aclnnStatus expected = ACLNN_ERR_PARAM_INVALID;
  aclDataType x1 = ACL_INT8, x2 = ACL_INT8, out = ACL_BF16;
  Shape s1 = {4, 32}, s2 = {32, 16}, x1Scale = {4}, x2Scale = {16}, outShape = {4, 16};
  const char* op = "gelu_erf";
  bool yScale = false, x3 = false;
  int64_t groupSize = 0;
  bool weightNz = false;
  aclFormat x2Format = ACL_FORMAT_ND;
};

RejectionCase ToRejection(const BadFqm& b) {
  return {b.name,
          [b](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
            aclTensor* x1 = args.NewTensor(b.x1, b.s1);
            aclTensor* x2 = args.NewTensor(b.x2, b.s2, View::kContiguous, b.x2Format);
            aclTensor* s1 = args.NewTensor(ACL_FLOAT, b.x1Scale);
            aclTensor* s2 = args.NewTensor(ACL_FLOAT, b.x2Scale);
            aclTensor* y = b.yScale ? args.NewTensor(ACL_FLOAT, {16}) : nullptr;
            aclTensor* x3 = b.x3 ? args.NewTensor(ACL_BF16, b.outShape) : nullptr;
            aclTensor* out = args.NewTensor(b.out, b.outShape);
            const auto call =
                b.weightNz ? aclnnFusedQuantMatmulWeightNzGetWorkspaceSize : aclnnFusedQuantMatmulGetWorkspaceSize;
            return call(x1, x2, s1, s2, y, nullptr, nullptr, nullptr, nullptr, x3, b.op, b.groupSize, out,
                        workspaceSize, executor);
          },
          b.weightNz ? aclnnFusedQuantMatmulWeightNz : aclnnFusedQuantMatmul, b.keyword, b.expected};
}

std::vector<RejectionCase> RejectionCases() {
  std::vector<BadFqm> bad(16);
  bad[0] = {.name = "op_relu", .keyword = "fusedOpType", .op = "relu"};
  bad[1] = {.name = "y_scale", .keyword = "yScale", .expected = ACLNN_ERR_PARAM_NULLPTR, .yScale = true};
  bad[2] = {.name = "x3", .keyword = "x3", .expected = ACLNN_ERR_PARAM_NULLPTR, .x3 = true};
  bad[3] = {.name = "group_size", .keyword = "groupSize", .expected = ACLNN_ERR_PARAM_NULLPTR, .groupSize = 32};
  bad[4] = {.name = "x1_scale_size", .keyword = "x1Scale", .x1Scale = {5}};
  bad[5] = {.name = "x2_scale_size", .keyword = "x2Scale", .x2Scale = {2}};
  bad[6] = {.name = "x1_scale_2d", .keyword = "x1Scale", .x1Scale = {4, 1}};
  bad[7] = {.name = "x1_f16", .keyword = "INT8", .x1 = ACL_FLOAT16};
  bad[8] = {.name = "mixed_a8w4", .keyword = "INT8", .x2 = ACL_INT4};
  bad[9] = {.name = "a4w4_not_computed",
            .keyword = "x1",
            .expected = ACLNN_ERR_INNER_FIND_KERNEL_ERROR,
            .x1 = ACL_INT4,
            .x2 = ACL_INT4};
  bad[10] = {.name = "out_f32", .keyword = "out", .out = ACL_FLOAT};
  bad[11] = {.name = "empty_m", .keyword = "empty", .s1 = {0, 32}, .x1Scale = {0}, .outShape = {0, 16}};
  bad[12] = {.name = "x1_rank1", .keyword = "x1", .s1 = {32}};
  bad[13] = {.name = "nz_storage", .keyword = "storage", .weightNz = true, .x2Format = ACL_FORMAT_FRACTAL_NZ};
  bad[14] = {.name = "nz_nchw", .keyword = "x2", .weightNz = true, .x2Format = ACL_FORMAT_NCHW};
  bad[15] = {.name = "k_mismatch", .keyword = "k", .s2 = {16, 16}};
  std::vector<RejectionCase> cases;
  for (const BadFqm& b : bad) cases.push_back(ToRejection(b));
  return cases;
}

class FusedQuantMatmulRejectionTest : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(FusedQuantMatmulRejectionTest, Rejects) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, FusedQuantMatmulRejectionTest, ::testing::ValuesIn(RejectionCases()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) { return info.param.name; });

}  // namespace
}  // namespace canopy_test
