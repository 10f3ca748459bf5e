// aclnnBatchMatmulQuant through the public C API: FLOAT16 products quantised to
// INT8 with quantParam words made by aclnnTransQuantParam (one scale and offset
// for all columns, or one per column), against a float64 reference of
// round_half_even(sum(x1 * x2) + bias) * scale + offset) saturated to INT8:
// 2-D to 6-D, transposed flags, broadcast batch dims, strided and transposed
// views, a stepped out, saturation; then CANN's rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "aclnnop/aclnn_batchmatmul_quant.h"
#include "aclnnop/aclnn_trans_quant_param.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

struct BmqCase {
  std::string name;
  Shape x1, x2;  // as stored: [..., m, k] or, transposed, [..., k, m] (x2: [..., k, n] or [..., n, k])
  bool transposeX1 = false, transposeX2 = false;
  bool withBias = true;
  bool perColumn = true;
  double scaleLo = 2, scaleHi = 6;
  View x1View = View::kContiguous, x2View = View::kContiguous, outView = View::kContiguous;
};

void PrintTo(const BmqCase& c, std::ostream* os) { *os << c.name; }

// quantParam words from aclnnTransQuantParam, as CANN's example makes them.
std::vector<uint64_t> Words(const std::vector<float>& scales, const std::vector<float>& offsets) {
  uint64_t* words = nullptr;
  uint64_t count = 0;
  EXPECT_EQ(aclnnTransQuantParam(scales.data(), scales.size(), offsets.data(), offsets.size(), &words, &count),
            ACLNN_SUCCESS);
  std::vector<uint64_t> out(words, words + count);
  std::free(words);
  return out;
}

class BatchMatmulQuantTest : public ::testing::TestWithParam<BmqCase> {};

TEST_P(BatchMatmulQuantTest, MatchesReference) {
  const BmqCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  const size_t r = c.x1.size();
  const int64_t m = c.transposeX1 ? c.x1[r - 1] : c.x1[r - 2], k = c.transposeX1 ? c.x1[r - 2] : c.x1[r - 1];
  const int64_t n = c.transposeX2 ? c.x2[r - 2] : c.x2[r - 1];
  Shape batch;
  for (size_t d = 0; d + 2 < r; ++d) batch.push_back(std::max(c.x1[d], c.x2[d]));
  Shape outShape = batch;
  outShape.push_back(m);
  outShape.push_back(n);

  DeviceTensor x1(ACL_FLOAT16, c.x1, c.x1View), x2(ACL_FLOAT16, c.x2, c.x2View);
  const Values v1 = x1.FillRandom(rng, Range{-1, 1}), v2 = x2.FillRandom(rng, Range{-1, 1});
  DeviceTensor bias(ACL_FLOAT16, {n});
  const Values vb = bias.FillRandom(rng, Range{-4, 4});
  const int64_t params = c.perColumn ? n : 1;
  std::vector<float> scales, offsets;
  for (int64_t j = 0; j < params; ++j) {
    scales.push_back(static_cast<float>(rng.Uniform(c.scaleLo, c.scaleHi)));
    offsets.push_back(static_cast<float>(std::floor(rng.Uniform(-20, 21))));
  }
  const std::vector<uint64_t> words = Words(scales, offsets);
  Values wordValues;
  for (uint64_t w : words) wordValues.emplace_back(static_cast<double>(w));
  auto quantParam = std::make_unique<DeviceTensor>(ACL_UINT64, Shape{static_cast<int64_t>(words.size())});
  ASSERT_EQ(aclrtMemcpy(quantParam->data(), words.size() * sizeof(uint64_t), words.data(),
                        words.size() * sizeof(uint64_t), ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  DeviceTensor out(ACL_INT8, outShape, c.outView);
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();

  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnBatchMatmulQuantGetWorkspaceSize(args.Tensor(x1), args.Tensor(x2), args.Tensor(*quantParam),
                                                     c.withBias ? args.Tensor(bias) : nullptr, c.transposeX1,
                                                     c.transposeX2, args.Tensor(out), workspaceSize, executor);
      },
      aclnnBatchMatmulQuant);
  ASSERT_TRUE(run.ok()) << Describe(run);

  // The reference, element by element; a value within the f32 accumulation's
  // error of a rounding tie may land either side (tolerance 1).
  Expected want;
  const Shape s1 = c.x1, s2 = c.x2;
  for (int64_t flat = 0; flat < NumElements(outShape); ++flat) {
    const Shape index = Unravel(flat, outShape);
    const int64_t i = index[r - 2], j = index[r - 1];
    Shape at1(r), at2(r);
    for (size_t d = 0; d + 2 < r; ++d) {
      at1[d] = s1[d] == 1 ? 0 : index[d];
      at2[d] = s2[d] == 1 ? 0 : index[d];
    }
    double sum = 0, magnitude = 0;
    for (int64_t kk = 0; kk < k; ++kk) {
      at1[r - 2] = c.transposeX1 ? kk : i;
      at1[r - 1] = c.transposeX1 ? i : kk;
      at2[r - 2] = c.transposeX2 ? j : kk;
      at2[r - 1] = c.transposeX2 ? kk : j;
      const double term =
          std::real(v1[static_cast<size_t>(Ravel(at1, s1))]) * std::real(v2[static_cast<size_t>(Ravel(at2, s2))]);
      sum += term;
      magnitude += std::fabs(term);
    }
    if (c.withBias) sum += std::real(vb[static_cast<size_t>(j)]);
    const size_t p = c.perColumn ? static_cast<size_t>(j) : 0;
    const double y = sum * scales[p] + offsets[p];
    const double q = std::clamp(std::nearbyint(y), -128.0, 127.0);
    const double slack = (magnitude + 8) * 1e-6 * scales[p];
    const bool nearTie = std::fabs(std::fabs(y - std::trunc(y)) - 0.5) < slack;
    want.values.emplace_back(q);
    want.tolerance.push_back(nearTie ? 1.0 : 0.0);
  }
  ExpectNear(out.ReadView(), want, "out");
  ExpectOutsideViewUnchanged(out, before, "out storage");
  ExpectExact(x1.ReadView(), v1, "x1 must not change");
  ExpectExact(quantParam->ReadView(), wordValues, "quantParam must not change");
}

std::vector<BmqCase> Cases() {
  std::vector<BmqCase> cases = {
      {"plain", {6, 32}, {32, 20}},
      {"transpose_x1", {32, 6}, {32, 20}, true},
      {"transpose_x2", {6, 32}, {20, 32}, false, true},
      {"transpose_both_no_bias", {40, 7}, {17, 40}, true, true, false},
      {"one_param", {6, 32}, {32, 20}, false, false, true, false},
      {"n16", {5, 48}, {48, 16}},
      {"batch3", {3, 6, 32}, {3, 32, 24}},
      {"batch_broadcast", {1, 6, 32}, {4, 32, 24}},
      {"batch_broadcast_x2", {2, 3, 6, 32}, {2, 1, 32, 9}},
      {"rank6", {2, 1, 2, 1, 4, 16}, {1, 2, 2, 1, 16, 5}},
      {"large", {4, 64, 256}, {4, 256, 96}, false, false, true, true, 0.2, 0.6},
  };
  BmqCase x{"saturating", {6, 32}, {32, 20}};
  x.scaleLo = 40;
  x.scaleHi = 80;
  cases.push_back(x);
  x = BmqCase{"strided_views", {3, 6, 32}, {3, 32, 24}};
  x.x1View = View::kTransposed;
  x.x2View = View::kStepped;
  x.outView = View::kStepped;
  cases.push_back(x);
  x = BmqCase{"offset_views_transposed_flag", {16, 8}, {24, 16}, true, true};
  x.x1View = View::kOffset;
  x.x2View = View::kTransposed;
  x.outView = View::kTransposed;
  cases.push_back(x);
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Cases, BatchMatmulQuantTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<BmqCase>& info) { return info.param.name; });

// ---- rejections --------------------------------------------------------------------------------

struct BadBmq {
  std::string name;
  Shape x1, x2, quantParam, bias, out;  // bias empty: null
  std::string keyword;
  aclDataType x1Dtype = ACL_FLOAT16, x2Dtype = ACL_FLOAT16, paramDtype = ACL_UINT64, biasDtype = ACL_FLOAT16,
              outDtype = ACL_INT8;
  aclFormat x1Format = ACL_FORMAT_ND;
};

RejectionCase ToRejection(const BadBmq& b) {
  return {b.name,
          [b](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
            return aclnnBatchMatmulQuantGetWorkspaceSize(
                args.NewTensor(b.x1Dtype, b.x1, View::kContiguous, b.x1Format), args.NewTensor(b.x2Dtype, b.x2),
                args.NewTensor(b.paramDtype, b.quantParam),
                b.bias.empty() ? nullptr : args.NewTensor(b.biasDtype, b.bias), false, false,
                args.NewTensor(b.outDtype, b.out), workspaceSize, executor);
          },
          aclnnBatchMatmulQuant, b.keyword};
}

BadBmq Bad(std::string name, Shape x1, Shape x2, Shape quantParam, Shape bias, Shape out, std::string keyword) {
  BadBmq b;
  b.name = std::move(name);
  b.x1 = std::move(x1);
  b.x2 = std::move(x2);
  b.quantParam = std::move(quantParam);
  b.bias = std::move(bias);
  b.out = std::move(out);
  b.keyword = std::move(keyword);
  return b;
}

std::vector<RejectionCase> RejectionCases() {
  const Shape a = {4, 32}, w = {32, 20}, p = {32}, bias = {20}, o = {4, 20};
  std::vector<BadBmq> bad = {
      Bad("param_n_unaligned", a, w, {20}, bias, o, "quantParam"),
      Bad("param_2d", a, w, {1, 32}, bias, o, "quantParam"),
      Bad("bias_size", a, w, p, {16}, o, "bias"),
      Bad("bias_2d", a, w, p, {1, 20}, o, "bias"),
      Bad("k_mismatch", {4, 16}, w, p, bias, o, "K"),
      Bad("rank1", {32}, w, p, bias, o, "x1"),
      Bad("rank7", {1, 1, 1, 1, 1, 4, 32}, {1, 1, 1, 1, 1, 32, 20}, p, bias, {1, 1, 1, 1, 1, 4, 20}, "x1"),
      Bad("ranks_differ", {1, 4, 32}, w, p, bias, {1, 4, 20}, "rank"),
      Bad("out_shape", a, w, p, bias, {4, 21}, "out"),
      Bad("batch_mismatch", {2, 4, 32}, {3, 32, 20}, p, bias, {3, 4, 20}, "batch"),
      Bad("empty", {0, 32}, w, p, bias, {0, 20}, "empty"),
  };
  const auto withDtype = [&](std::string name, aclDataType BadBmq::*field, aclDataType dtype, std::string keyword) {
    BadBmq b = Bad(std::move(name), a, w, p, bias, o, std::move(keyword));
    b.*field = dtype;
    return b;
  };
  bad.push_back(withDtype("x1_f32", &BadBmq::x1Dtype, ACL_FLOAT, "x1"));
  bad.push_back(withDtype("x2_bf16", &BadBmq::x2Dtype, ACL_BF16, "x2"));
  bad.push_back(withDtype("param_int64", &BadBmq::paramDtype, ACL_INT64, "quantParam"));
  bad.push_back(withDtype("bias_f32", &BadBmq::biasDtype, ACL_FLOAT, "bias"));
  bad.push_back(withDtype("out_f16", &BadBmq::outDtype, ACL_FLOAT16, "out"));
  BadBmq nz = Bad("x1_nz", a, w, p, bias, o, "x1");
  nz.x1Format = ACL_FORMAT_FRACTAL_NZ;
  bad.push_back(nz);
  std::vector<RejectionCase> cases;
  for (const BadBmq& b : bad) cases.push_back(ToRejection(b));
  RejectionCase null = ToRejection(bad[0]);
  null.name = "null_quant_param";
  null.phase1 = [](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclnnBatchMatmulQuantGetWorkspaceSize(args.NewTensor(ACL_FLOAT16, {2, 16}),
                                                 args.NewTensor(ACL_FLOAT16, {16, 16}), nullptr, nullptr, false, false,
                                                 args.NewTensor(ACL_INT8, {2, 16}), workspaceSize, executor);
  };
  null.keyword = "quantParam";
  null.expected = ACLNN_ERR_PARAM_NULLPTR;
  cases.push_back(null);
  return cases;
}

class BatchMatmulQuantRejectionTest : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(BatchMatmulQuantRejectionTest, Rejects) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, BatchMatmulQuantRejectionTest, ::testing::ValuesIn(RejectionCases()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) { return info.param.name; });

}  // namespace
}  // namespace canopy_test
