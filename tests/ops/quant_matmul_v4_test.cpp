// aclnnQuantMatmul / V2 / V3 / V4 (INT8 x INT8, dequantised) against float64:
// out = (x1 @ x2 + int bias) * scale * pertoken, or x1 @ x2 * scale * pertoken
// + float bias, for every documented A2/A3 combination Canopy computes (bf16
// out with f32 / bf16 scales, f16 out with a pertoken scale or a UINT64 packed
// scale), transposes, broadcast batches, per-batch bias, FRACTAL_NZ x2,
// strided out, empty m, the doc's example and every rejection; and
// aclnnTransQuantParam(V2), which make those packed scales, against the doc's
// formula computed here bit by bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>

#include "aclnnop/aclnn_quant_matmul.h"
#include "aclnnop/aclnn_quant_matmul_v3.h"
#include "aclnnop/aclnn_quant_matmul_v4.h"
#include "aclnnop/aclnn_quant_matmul_v5.h"
#include "aclnnop/aclnn_quant_matmul_weight_nz.h"
#include "aclnnop/aclnn_trans_quant_param.h"
#include "aclnnop/aclnn_trans_quant_param_v2.h"
#include "llm_test_support.h"
#include "mc2_ranks.h"

namespace canopy_test {
namespace {

struct Case {
  aclDataType out = ACL_BF16, scale = ACL_FLOAT, bias = ACL_DT_UNDEFINED;
  bool pertoken = false;
  bool v3 = false;
  Shape x1 = {5, 32}, x2 = {32, 24};  // as stored (transposed when the flags say)
  bool t1 = false, t2 = false;
  bool per_channel = true;  // scale [n], else [1]
  bool batch_bias = false;  // bias [batch, 1, n]
  bool nz = false;
  View out_view = View::kContiguous;
  std::string name;
  int legacy = 0;  // 1: aclnnQuantMatmul (float deqScale), 2: aclnnQuantMatmulV2 (UINT64 [n rounded up to 16])
  int v5 = 0;      // 1: aclnnQuantMatmulV5, 2: aclnnQuantMatmulWeightNz (pertoken is x1Scale, scale x2Scale)
  bool empty_unused = false;  // V5: yScale, x1Offset and yOffset given as empty tensors
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// Element (b, i, j) of a row-major tensor of `shape` whose batch dims broadcast to `batch`.
double At(const Values& v, const Shape& shape, const Shape& batch, const std::vector<int64_t>& index, int64_t i,
          int64_t j) {
  const size_t rank = shape.size(), br = batch.size();
  int64_t offset = 0, stride = shape[rank - 1] * shape[rank - 2];
  offset += i * shape[rank - 1] + j;
  for (size_t d = rank - 2; d-- > 0;) {
    const int64_t id = index[br - (rank - 2 - d)];
    offset += (shape[d] == 1 ? 0 : id) * stride;
    stride *= shape[d];
  }
  return v[static_cast<size_t>(offset)].real();
}

void RunCase(const Case& c) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor x1(ACL_INT8, c.x1);
  DeviceTensor x2(ACL_INT8, c.x2);
  const aclFormat x2_format = c.nz ? ACL_FORMAT_FRACTAL_NZ : ACL_FORMAT_ND;
  const Values v1 = x1.FillRandom(rng, Range{-128, 127});
  const Values v2 = x2.FillRandom(rng, Range{-128, 127});
  const size_t r1 = c.x1.size(), r2 = c.x2.size();
  const int64_t m = c.t1 ? c.x1[r1 - 1] : c.x1[r1 - 2];
  const int64_t k = c.t1 ? c.x1[r1 - 2] : c.x1[r1 - 1];
  const int64_t n = c.t2 ? c.x2[r2 - 2] : c.x2[r2 - 1];
  Shape batch;
  {
    const Shape b1(c.x1.begin(), c.x1.end() - 2), b2(c.x2.begin(), c.x2.end() - 2);
    const size_t r = std::max(b1.size(), b2.size());
    for (size_t d = 0; d < r; ++d) {
      const int64_t e1 = d + b1.size() >= r ? b1[d + b1.size() - r] : 1;
      const int64_t e2 = d + b2.size() >= r ? b2[d + b2.size() - r] : 1;
      batch.push_back(std::max(e1, e2));
    }
  }
  Shape out_shape = batch;
  out_shape.push_back(m);
  out_shape.push_back(n);
  const int64_t scale_count = c.per_channel ? n : 1;
  // V2's deqScale holds n rounded up to 16 words (the tail unread); V1's is one float.
  const int64_t stored_scales = c.legacy == 2 ? (n + 15) / 16 * 16 : scale_count;
  DeviceTensor scale(c.scale, {stored_scales});
  Values sv;
  float deq_value = 0.0f;
  if (c.legacy == 1) {
    deq_value = static_cast<float>(rng.Uniform(1e-4, 1e-3));
    sv.push_back(Fp19(deq_value));  // the NPU's 10-bit mantissa
  } else if (c.scale == ACL_UINT64 || c.scale == ACL_INT64) {
    Values words;
    for (int64_t j = 0; j < stored_scales; ++j) {
      const double kept = Fp19(rng.Uniform(1e-4, 1e-3));  // what TransQuantParamV2 keeps
      words.push_back(PackedScaleWord(kept));
      sv.push_back(kept);
    }
    scale.WriteView(words);
  } else {
    sv = scale.FillRandom(rng, Range{1e-4, 1e-3});
  }
  std::unique_ptr<DeviceTensor> pertoken, bias;
  Values pv(static_cast<size_t>(m), 1.0), bv;
  if (c.pertoken) {
    pertoken = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{m});
    pv = pertoken->FillRandom(rng, Range{0.5, 2});
  }
  int64_t batch_count = 1;
  for (int64_t e : batch) batch_count *= e;
  if (c.bias != ACL_DT_UNDEFINED) {
    bias = std::make_unique<DeviceTensor>(c.bias, c.batch_bias ? Shape{batch[0], 1, n} : Shape{n});
    bv = bias->FillRandom(rng, c.bias == ACL_INT32 ? Range{-1000, 1000} : Range{-1, 1});
  }
  DeviceTensor out(c.out, out_shape, c.out_view);
  out.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        if (c.legacy == 1) {
          return aclnnQuantMatmulGetWorkspaceSize(a.Tensor(x1), a.Tensor(x2), bias ? a.Tensor(*bias) : nullptr,
                                                  deq_value, a.Tensor(out), w, e);
        }
        if (c.legacy == 2) {
          return aclnnQuantMatmulV2GetWorkspaceSize(a.Tensor(x1), a.Tensor(x2), bias ? a.Tensor(*bias) : nullptr,
                                                    a.Tensor(scale), c.t1, c.t2, a.Tensor(out), w, e);
        }
        if (c.v5 != 0) {
          auto* const phase1 =
              c.v5 == 1 ? aclnnQuantMatmulV5GetWorkspaceSize : aclnnQuantMatmulWeightNzGetWorkspaceSize;
          const auto unused = [&]() { return c.empty_unused ? a.NewTensor(ACL_FLOAT, {0}) : nullptr; };
          return phase1(a.Tensor(x1), a.Tensor(x2, x2_format), pertoken ? a.Tensor(*pertoken) : nullptr,
                        a.Tensor(scale), unused(), unused(), nullptr, unused(), bias ? a.Tensor(*bias) : nullptr, c.t1,
                        c.t2, 0, a.Tensor(out), w, e);
        }
        if (c.v3) {
          return aclnnQuantMatmulV3GetWorkspaceSize(a.Tensor(x1), a.Tensor(x2, x2_format), a.Tensor(scale), nullptr,
                                                    bias ? a.Tensor(*bias) : nullptr, c.t1, c.t2, a.Tensor(out), w, e);
        }
        return aclnnQuantMatmulV4GetWorkspaceSize(a.Tensor(x1), a.Tensor(x2, x2_format), a.Tensor(scale), nullptr,
                                                  pertoken ? a.Tensor(*pertoken) : nullptr,
                                                  bias ? a.Tensor(*bias) : nullptr, c.t1, c.t2, a.Tensor(out), w, e);
      },
      c.legacy == 1   ? aclnnQuantMatmul
      : c.legacy == 2 ? aclnnQuantMatmulV2
      : c.v5 == 1     ? aclnnQuantMatmulV5
      : c.v5 == 2     ? aclnnQuantMatmulWeightNz
      : c.v3          ? aclnnQuantMatmulV3
                      : aclnnQuantMatmulV4);
  ASSERT_TRUE(run.ok()) << Describe(run);

  Values want;
  std::vector<double> magnitude;
  for (int64_t bi = 0; bi < batch_count; ++bi) {
    std::vector<int64_t> index(batch.size());
    for (int64_t rest = bi, d = static_cast<int64_t>(batch.size()); d-- > 0;) {
      index[static_cast<size_t>(d)] = rest % batch[static_cast<size_t>(d)];
      rest /= batch[static_cast<size_t>(d)];
    }
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        int64_t acc = 0;
        for (int64_t l = 0; l < k; ++l) {
          const double a = c.t1 ? At(v1, c.x1, batch, index, l, i) : At(v1, c.x1, batch, index, i, l);
          const double b = c.t2 ? At(v2, c.x2, batch, index, j, l) : At(v2, c.x2, batch, index, l, j);
          acc += static_cast<int64_t>(a) * static_cast<int64_t>(b);
        }
        const double s = sv[static_cast<size_t>(c.per_channel ? j : 0)].real() * pv[static_cast<size_t>(i)].real();
        double value = static_cast<double>(acc);
        double float_bias = 0;
        if (bias) {
          const double bj = bv[static_cast<size_t>((c.batch_bias ? bi * n : 0) + j)].real();
          if (c.bias == ACL_INT32) {
            value += bj;
          } else {
            float_bias = bj;
          }
        }
        want.push_back(value * s + float_bias);
        magnitude.push_back(std::abs(value * s) + std::abs(float_bias));
      }
    }
  }
  ExpectNear(out.ReadView(), RelativeTolerance(want, c.out, 2, magnitude), "out");
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  const auto add = [&](Case c) { cases.push_back(std::move(c)); };
  // bf16 out: scale f32 or bf16, per channel or per tensor, pertoken or not, every bias dtype.
  for (aclDataType scale : {ACL_FLOAT, ACL_BF16}) {
    for (aclDataType bias : {ACL_DT_UNDEFINED, ACL_INT32, ACL_BF16, ACL_FLOAT}) {
      for (bool pertoken : {false, true}) {
        Case c;
        c.scale = scale;
        c.bias = bias;
        c.pertoken = pertoken;
        c.name = std::string("bf16_out_scale_") + Name(scale) + "_bias_" +
                 (bias == ACL_DT_UNDEFINED ? "none" : Name(bias)) + (pertoken ? "_pertoken" : "");
        add(c);
      }
    }
  }
  // f16 out: f32 scale with a pertoken scale (every bias), or a UINT64 / INT64 packed scale.
  for (aclDataType bias : {ACL_DT_UNDEFINED, ACL_INT32, ACL_FLOAT16, ACL_FLOAT}) {
    Case c;
    c.out = ACL_FLOAT16;
    c.pertoken = true;
    c.bias = bias;
    c.name = std::string("f16_out_pertoken_bias_") + (bias == ACL_DT_UNDEFINED ? "none" : Name(bias));
    add(c);
  }
  for (aclDataType scale : {ACL_UINT64, ACL_INT64}) {
    for (aclDataType bias : {ACL_DT_UNDEFINED, ACL_INT32}) {
      Case c;
      c.out = ACL_FLOAT16;
      c.scale = scale;
      c.bias = bias;
      c.name = std::string("f16_out_packed_scale_") + Name(scale) + (bias == ACL_INT32 ? "_bias_s32" : "");
      add(c);
    }
  }
  Case per_tensor;
  per_tensor.per_channel = false;
  per_tensor.pertoken = true;
  per_tensor.name = "per_tensor_scale";
  add(per_tensor);
  for (bool t1 : {false, true}) {
    for (bool t2 : {false, true}) {
      Case c;
      c.t1 = t1;
      c.t2 = t2;
      c.x1 = t1 ? Shape{40, 7} : Shape{7, 40};
      c.x2 = t2 ? Shape{33, 40} : Shape{40, 33};
      c.pertoken = true;
      c.bias = ACL_INT32;
      c.name = std::string("transpose_") + (t1 ? "x1" : "") + (t2 ? "x2" : "") + (!t1 && !t2 ? "none" : "");
      add(c);
    }
  }
  Case batched;
  batched.x1 = {3, 4, 16};
  batched.x2 = {16, 8};
  batched.bias = ACL_FLOAT;
  batched.batch_bias = true;
  batched.name = "batch_broadcast_x2_batch_bias";
  add(batched);
  Case batched4;
  batched4.x1 = {2, 1, 5, 16};
  batched4.x2 = {3, 16, 9};
  batched4.pertoken = true;
  batched4.bias = ACL_INT32;
  batched4.name = "batch_4d_both_broadcast";
  add(batched4);
  Case v3;
  v3.v3 = true;
  v3.bias = ACL_BF16;
  v3.name = "v3_bf16_out";
  add(v3);
  Case v3_packed;
  v3_packed.v3 = true;
  v3_packed.out = ACL_FLOAT16;
  v3_packed.scale = ACL_UINT64;
  v3_packed.bias = ACL_INT32;
  v3_packed.name = "v3_f16_out_packed_scale";
  add(v3_packed);
  Case nz;
  nz.nz = true;
  nz.pertoken = true;
  nz.name = "x2_fractal_nz";
  add(nz);
  Case strided;
  strided.out_view = View::kTransposed;
  strided.name = "strided_out";
  add(strided);
  Case decode;
  decode.x1 = {1, 256};
  decode.x2 = {256, 64};
  decode.t2 = false;
  decode.pertoken = true;
  decode.out = ACL_FLOAT16;
  decode.name = "decode_m1";
  add(decode);
  Case empty;
  empty.x1 = {0, 32};
  empty.name = "empty_m";
  add(empty);
  // QuantMatmul (float deqScale, no transposes) and QuantMatmulV2 (UINT64 deqScale [n rounded up to 16], adjX1 /
  // adjX2): f16 out, INT32 bias or none, ranks 2 and 3.
  for (int legacy : {1, 2}) {
    for (bool with_bias : {false, true}) {
      for (bool batched3 : {false, true}) {
        Case c;
        c.legacy = legacy;
        c.out = ACL_FLOAT16;
        c.scale = ACL_UINT64;
        c.per_channel = legacy == 2;
        c.bias = with_bias ? ACL_INT32 : ACL_DT_UNDEFINED;
        if (batched3) {
          c.x1 = {3, 6, 20};
          c.x2 = {3, 20, 17};
        }
        c.name = std::string(legacy == 1 ? "quant_matmul_v1" : "quant_matmul_v2") + (with_bias ? "_bias" : "") +
                 (batched3 ? "_batch3" : "");
        add(c);
      }
    }
  }
  for (bool t1 : {false, true}) {
    Case c;
    c.legacy = 2;
    c.out = ACL_FLOAT16;
    c.scale = ACL_UINT64;
    c.t1 = t1;
    c.t2 = true;
    c.x1 = t1 ? Shape{32, 5} : Shape{5, 32};
    c.x2 = {40, 32};
    c.bias = ACL_INT32;
    c.out_view = View::kTransposed;
    c.name = std::string("quant_matmul_v2_adj") + (t1 ? "_x1" : "") + "_x2_strided_out";
    add(c);
  }
  // QuantMatmulV5 and QuantMatmulWeightNz (its x2 in FRACTAL_NZ) on each V4 case.
  const size_t v4_cases = cases.size();
  for (size_t i = 0; i < v4_cases; ++i) {
    if (cases[i].legacy != 0 || cases[i].v3) continue;
    for (int form : {1, 2}) {
      Case c = cases[i];
      c.v5 = form;
      c.nz = c.nz || form == 2;
      c.empty_unused = i % 3 == 0;
      c.name = std::string(form == 1 ? "v5_" : "weight_nz_") + c.name + (c.empty_unused ? "_empty_unused" : "");
      add(c);
    }
  }
  return cases;
}

class QuantMatmulTest : public ::testing::TestWithParam<Case> {};

TEST_P(QuantMatmulTest, MatchesReference) { RunCase(GetParam()); }

INSTANTIATE_TEST_SUITE_P(All, QuantMatmulTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// The doc's example: x1 [5, 2] and x2 [2, 3] of ones, an INT32 bias of ones
// and a UINT64 `scale` [3], f16 out [5, 3]: (2 + 1) * scale everywhere.
Values DocExampleOut(const DeviceTensor& scale) {
  DeviceTensor x1(ACL_INT8, {5, 2}), x2(ACL_INT8, {2, 3}), bias(ACL_INT32, {3}), out(ACL_FLOAT16, {5, 3});
  x1.WriteView(Values(10, 1.0));
  x2.WriteView(Values(6, 1.0));
  bias.WriteView(Values(3, 1.0));
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnQuantMatmulV4GetWorkspaceSize(a.Tensor(x1), a.Tensor(x2), a.Tensor(scale), nullptr, nullptr,
                                                  a.Tensor(bias), false, false, a.Tensor(out), w, e);
      },
      aclnnQuantMatmulV4);
  EXPECT_TRUE(run.ok()) << Describe(run);
  return out.ReadView();
}

// With the doc's scale of 1 (TransQuantParamV2's word): 3 everywhere.
TEST(QuantMatmulV4, DocExample) {
  DeviceTensor scale(ACL_UINT64, {3});
  scale.WriteView(Values(3, PackedScaleWord(Fp19(1.0))));
  ExpectNear(DocExampleOut(scale), Expected{Values(15, 3.0), std::vector<double>(15, 0.0)}, "out");
}

// An INT32 bias is added into the INT32 accumulator as the NPU's cube adds it
// (two's complement), as DequantBias does: 127 * 127 * 64 + (INT32_MAX - 10)
// wraps to -2^31 + 1032245 (it was summed in int64: a positive result). Scale
// 2^-20 and bf16 out: -2048 either way of the rounding.
TEST(QuantMatmulV4, Int32BiasWrapsInTheAccumulator) {
  const int64_t k = 64;
  const auto x1 = Upload(ACL_INT8, {1, k}, Values(k, Value(127)));
  const auto x2 = Upload(ACL_INT8, {k, 1}, Values(k, Value(127)));
  const auto scale = Upload(ACL_FLOAT, {1}, {std::ldexp(1.0, -20)});
  const auto bias = Upload(ACL_INT32, {1}, {static_cast<double>(std::numeric_limits<int32_t>::max() - 10)});
  DeviceTensor out(ACL_BF16, {1, 1});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnQuantMatmulV4GetWorkspaceSize(a.Tensor(*x1), a.Tensor(*x2), a.Tensor(*scale), nullptr, nullptr,
                                                  a.Tensor(*bias), false, false, a.Tensor(out), w, e);
      },
      aclnnQuantMatmulV4);
  const int64_t wrapped = int64_t{127} * 127 * k + std::numeric_limits<int32_t>::max() - 10 - (int64_t{1} << 32);
  ExpectNear(out.ReadView(), Expected{{static_cast<double>(wrapped) * std::ldexp(1.0, -20)}, {16.0}}, "out");
}

struct Call {
  aclDataType x1 = ACL_INT8, x2 = ACL_INT8, scale = ACL_FLOAT, pertoken = ACL_FLOAT, bias = ACL_INT32, out = ACL_BF16;
  Shape x1_shape = {4, 16}, x2_shape = {16, 8}, scale_shape = {8}, pertoken_shape = {4}, bias_shape = {8},
        out_shape = {4, 8};
  bool has_pertoken = true, has_bias = true, has_offset = false, t1 = false, t2 = false;
  bool x1_null = false, scale_null = false;
};

OpRun RunCall(const Call& c) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnQuantMatmulV4GetWorkspaceSize(c.x1_null ? nullptr : a.NewTensor(c.x1, c.x1_shape),
                                                  a.NewTensor(c.x2, c.x2_shape),
                                                  c.scale_null ? nullptr : a.NewTensor(c.scale, c.scale_shape),
                                                  c.has_offset ? a.NewTensor(ACL_FLOAT, {8}) : nullptr,
                                                  c.has_pertoken ? a.NewTensor(c.pertoken, c.pertoken_shape) : nullptr,
                                                  c.has_bias ? a.NewTensor(c.bias, c.bias_shape) : nullptr, c.t1, c.t2,
                                                  a.NewTensor(c.out, c.out_shape), w, e);
      },
      aclnnQuantMatmulV4);
}

template <typename Edit>
Call With(Edit edit) {
  Call c;
  edit(c);
  return c;
}

constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kNotSupported = ACLNN_ERR_INNER_FIND_KERNEL_ERROR;

// QuantMatmul / QuantMatmulV2 (`v1`: the float deqScale), with Call's x1, x2, bias (INT32) and out (f16);
// V2's deqScale is UINT64 [16] for n = 8.
OpRun RunLegacy(bool v1, const Call& c, aclDataType deq = ACL_UINT64, const Shape& deq_shape = {16}) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        aclTensor* x1 = a.NewTensor(c.x1, c.x1_shape);
        aclTensor* x2 = a.NewTensor(c.x2, c.x2_shape);
        aclTensor* bias = c.has_bias ? a.NewTensor(c.bias, c.bias_shape) : nullptr;
        aclTensor* out = a.NewTensor(c.out, c.out_shape);
        return v1 ? aclnnQuantMatmulGetWorkspaceSize(x1, x2, bias, 0.001f, out, w, e)
                  : aclnnQuantMatmulV2GetWorkspaceSize(x1, x2, bias, a.NewTensor(deq, deq_shape), c.t1, c.t2, out, w,
                                                       e);
      },
      v1 ? aclnnQuantMatmul : aclnnQuantMatmulV2);
}

TEST(QuantMatmulV1V2Rejects, EachCase) {
  const auto legacy = [](auto edit) {
    Call c = With(edit);
    c.out = c.out == ACL_BF16 ? ACL_FLOAT16 : c.out;  // Call's default out is V4's bf16
    return c;
  };
  for (bool v1 : {true, false}) {
    SCOPED_TRACE(v1 ? "QuantMatmul" : "QuantMatmulV2");
    EXPECT_TRUE(RunLegacy(v1, legacy([](Call&) {})).ok());
    EXPECT_TRUE(RunLegacy(v1, legacy([](Call& c) { c.has_bias = false; })).ok());
    ExpectRejectedWith(RunLegacy(v1, legacy([](Call& c) { c.x1 = ACL_INT4; })), kInvalid, {"'x1'"});
    ExpectRejectedWith(RunLegacy(v1, legacy([](Call& c) { c.x2 = ACL_FLOAT16; })), kInvalid, {"'x2'"});
    ExpectRejectedWith(RunLegacy(v1, legacy([](Call& c) { c.bias = ACL_FLOAT; })), kInvalid, {"'bias'"});
    ExpectRejectedWith(RunLegacy(v1, legacy([](Call& c) { c.out = ACL_FLOAT; })), kInvalid, {"'out'"});
    ExpectRejectedWith(RunLegacy(v1, legacy([](Call& c) {
                                   c.x1_shape = {1, 1, 4, 16};
                                   c.x2_shape = {1, 1, 16, 8};
                                   c.out_shape = {1, 1, 4, 8};
                                 })),
                       kInvalid, {"'x1'", "rank"});
    ExpectRejectedWith(RunLegacy(v1, legacy([](Call& c) { c.bias_shape = {1, 8}; })), kInvalid, {"'bias'", "rank"});
    ExpectRejectedWith(RunLegacy(v1, legacy([](Call& c) { c.x2_shape = {12, 8}; })), kInvalid, {"k"});
    ExpectRejectedWith(RunLegacy(v1, legacy([](Call& c) { c.bias_shape = {4}; })), kInvalid, {"'bias'"});
    ExpectRejectedWith(RunLegacy(v1, legacy([](Call& c) { c.out_shape = {4, 4}; })), kInvalid, {"'out'"});
    ExpectRejectedWith(RunLegacy(v1, legacy([](Call& c) {
                                   c.x1_shape = {2, 4, 16};
                                   c.x2_shape = {3, 16, 8};
                                   c.out_shape = {3, 4, 8};
                                 })),
                       kInvalid, {"batch"});
    // k = 0: zeros without a bias; CANN fails with one (561103).
    const OpRun zeros = RunLegacy(v1, legacy([](Call& c) {
                                    c.x1_shape = {4, 0};
                                    c.x2_shape = {0, 8};
                                    c.has_bias = false;
                                  }));
    EXPECT_TRUE(zeros.ok()) << Describe(zeros);
    EXPECT_EQ(RunLegacy(v1, legacy([](Call& c) {
                          c.x1_shape = {4, 0};
                          c.x2_shape = {0, 8};
                        }))
                  .phase1,
              ACLNN_ERR_INNER_NULLPTR);
  }
  ExpectRejectedWith(RunLegacy(false, legacy([](Call&) {}), ACL_FLOAT), kInvalid, {"'deqScale'"});
  ExpectRejectedWith(RunLegacy(false, legacy([](Call&) {}), ACL_UINT64, {8}), kInvalid, {"'deqScale'", "16"});
  ExpectRejectedWith(RunLegacy(false, legacy([](Call&) {}), ACL_UINT64, {1, 16}), kInvalid, {"'deqScale'", "rank"});
  EXPECT_TRUE(RunLegacy(false, legacy([](Call& c) {
                          c.t2 = true;
                          c.x2_shape = {8, 16};
                        }))
                  .ok());
}

// QuantMatmulV5 / QuantMatmulWeightNz (`weight_nz`) with Call's tensors: pertoken as x1Scale, scale as
// x2Scale; `unused` names yScale, x1Offset or yOffset, given as a [2] tensor.
OpRun RunV5(bool weight_nz, const Call& c, const std::string& unused = "", const Shape& x1_scale_shape = {4},
            const Shape& x2_scale_shape = {8}, aclFormat x2_format = ACL_FORMAT_ND) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        const auto extra = [&](const char* name) { return unused == name ? a.NewTensor(ACL_FLOAT, {2}) : nullptr; };
        auto* const phase1 = weight_nz ? aclnnQuantMatmulWeightNzGetWorkspaceSize : aclnnQuantMatmulV5GetWorkspaceSize;
        return phase1(a.NewTensor(c.x1, c.x1_shape), a.NewTensor(c.x2, c.x2_shape, View::kContiguous, x2_format),
                      c.has_pertoken ? a.NewTensor(c.pertoken, x1_scale_shape) : nullptr,
                      a.NewTensor(c.scale, x2_scale_shape), extra("yScale"), extra("x1Offset"),
                      c.has_offset ? a.NewTensor(ACL_FLOAT, {8}) : nullptr, extra("yOffset"),
                      c.has_bias ? a.NewTensor(c.bias, c.bias_shape) : nullptr, c.t1, c.t2, 0,
                      a.NewTensor(c.out, c.out_shape), w, e);
      },
      weight_nz ? aclnnQuantMatmulWeightNz : aclnnQuantMatmulV5);
}

TEST(QuantMatmulV5Rejects, EachCase) {
  for (bool weight_nz : {false, true}) {
    SCOPED_TRACE(weight_nz ? "QuantMatmulWeightNz" : "QuantMatmulV5");
    EXPECT_TRUE(RunV5(weight_nz, Call{}).ok()) << Describe(RunV5(weight_nz, Call{}));
    EXPECT_TRUE(RunV5(weight_nz, Call{}, "", {4}, {8}, ACL_FORMAT_FRACTAL_NZ).ok());
    for (const char* unused : {"yScale", "x1Offset", "yOffset"}) {
      ExpectRejectedWith(RunV5(weight_nz, Call{}, unused), ACLNN_ERR_PARAM_NULLPTR, {std::string("'") + unused + "'"});
    }
    // 2-D scales: V5's G-B mode (quant_matmul_v5_block_test.cpp) finds x2Scale's blocks wrong; WeightNz has none.
    ExpectRejectedWith(RunV5(weight_nz, Call{}, "", {4, 1}, {1, 8}), weight_nz ? kNotSupported : kInvalid,
                       {weight_nz ? "per-block" : "'x2Scale'"});
    ExpectRejectedWith(RunV5(weight_nz, With([](Call& c) { c.scale = ACL_FLOAT16; })), kInvalid, {"'x2Scale'"});
    ExpectRejectedWith(RunV5(weight_nz, With([](Call& c) { c.pertoken = ACL_BF16; })), kInvalid, {"'x1Scale'"});
    ExpectRejectedWith(RunV5(weight_nz, With([](Call& c) { c.has_offset = true; })), kInvalid, {"'x2Offset'"});
    ExpectRejectedWith(RunV5(weight_nz, Call{}, "", {4}, {5}), kInvalid, {"'x2Scale'"});
    ExpectRejectedWith(RunV5(weight_nz, Call{}, "", {3}, {8}), kInvalid, {"'x1Scale'"});
    // An INT32 x2: V5's A8W4 mode, which takes no bias; WeightNz does not compute it.
    ExpectRejectedWith(RunV5(weight_nz, With([](Call& c) { c.x2 = ACL_INT32; })), weight_nz ? kNotSupported : kInvalid,
                       {weight_nz ? "'x2'" : "'bias'"});
    ExpectRejectedWith(RunV5(weight_nz, With([](Call& c) {
                               c.out = ACL_FLOAT16;
                               c.has_pertoken = false;
                             })),
                       kInvalid, {"FLOAT16 out"});
  }
  ExpectRejectedWith(RunV5(true, Call{}, "", {4}, {8}, ACL_FORMAT_NC1HWC0), kInvalid, {"'x2'"});
}

TEST(QuantMatmulV4Rejects, EachCase) {
  EXPECT_TRUE(RunCall(Call{}).ok()) << Describe(RunCall(Call{}));
  ExpectRejectedWith(RunCall(With([](Call& c) { c.x1_null = true; })), ACLNN_ERR_PARAM_NULLPTR, {"'x1'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.scale_null = true; })), ACLNN_ERR_PARAM_NULLPTR, {"'scale'"});
  // Dtypes.
  ExpectRejectedWith(RunCall(With([](Call& c) { c.x1 = ACL_FLOAT16; })), kInvalid, {"'x1'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.x2 = ACL_UINT8; })), kInvalid, {"'x2'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.x1 = c.x2 = ACL_INT4; })), kNotSupported, {"'x1'", "INT4"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.x2 = ACL_INT32; })), kNotSupported, {"'x2'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.out = ACL_INT8; })), kNotSupported, {"'out'", "not supported"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.out = ACL_INT32; })), kNotSupported, {"'out'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.out = ACL_FLOAT; })), kInvalid, {"'out'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.scale = ACL_FLOAT16; })), kInvalid, {"'scale'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.pertoken = ACL_BF16; })), kInvalid, {"'pertokenScaleOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.has_offset = true; })), kInvalid, {"'offset'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.out = ACL_FLOAT16;
                       c.has_pertoken = false;
                     })),
                     kInvalid, {"FLOAT16 out"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.out = ACL_FLOAT16;
                       c.scale = ACL_BF16;
                     })),
                     kInvalid, {"FLOAT16 out"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.out = ACL_FLOAT16;
                       c.scale = ACL_UINT64;
                     })),
                     kInvalid, {"FLOAT16 out"});  // a packed scale takes no pertoken scale
  ExpectRejectedWith(RunCall(With([](Call& c) { c.scale = ACL_INT64; })), kInvalid, {"BFLOAT16 out"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.bias = ACL_FLOAT16; })), kInvalid, {"'bias'"});  // bf16 out
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.out = ACL_FLOAT16;
                       c.bias = ACL_BF16;
                     })),
                     kInvalid, {"'bias'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.out = ACL_FLOAT16;
                       c.scale = ACL_UINT64;
                       c.has_pertoken = false;
                       c.bias = ACL_FLOAT;
                     })),
                     kInvalid, {"'bias'"});
  // Shapes.
  ExpectRejectedWith(RunCall(With([](Call& c) { c.x1_shape = {16}; })), kInvalid, {"'x1'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.x1_shape = {1, 1, 1, 1, 1, 4, 16};
                       c.out_shape = {1, 1, 1, 1, 1, 4, 8};
                     })),
                     kInvalid, {"'x1'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.x2_shape = {15, 8}; })), kInvalid, {"k"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.t2 = true; })), kInvalid, {"k"});  // x2 read as [8, 16]^T
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.x1_shape = {4, 0};
                       c.x2_shape = {0, 8};
                     })),
                     kInvalid, {"k is 0"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.x1_shape = {2, 4, 16};
                       c.x2_shape = {3, 16, 8};
                       c.out_shape = {3, 4, 8};
                     })),
                     kInvalid, {"broadcast"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.out_shape = {4, 9}; })), kInvalid, {"'out'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.scale_shape = {4}; })), kInvalid, {"'scale'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.scale_shape = {1, 8}; })), kInvalid, {"'scale'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.pertoken_shape = {1}; })), kInvalid, {"'pertokenScaleOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.bias_shape = {1, 8}; })), kInvalid, {"'bias'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.bias_shape = {4, 1, 8}; })), kInvalid, {"'bias'"});  // 2-D out
  EXPECT_TRUE(RunCall(With([](Call& c) {
                c.t1 = true;
                c.x1_shape = {16, 4};
              })).ok());
}

// ---- aclnnTransQuantParamV2 ----------------------------------------------------------------------

// The doc's word for a scale and an optional offset, computed independently of
// the library: the f32 bits with the low 13 cleared, bit 46 set, and the
// offset rounded (half to even, as CANN's V2 kernel casts), clamped to
// [-256, 255], in bits 37-45.
uint64_t OffsetBits(uint64_t word, double offset, double (*round)(double)) {
  const double rounded = std::min(255.0, std::max(-256.0, round(static_cast<float>(offset))));
  const uint64_t nine_bits = static_cast<uint64_t>(static_cast<int64_t>(rounded)) & 0x1FF;
  return (word & 0x4000FFFFFFFFull) | (nine_bits << 37);
}
double ExpectedWord(double scale, const double* offset) {
  const auto word = static_cast<uint64_t>(PackedScaleWord(Fp19(scale)));
  return static_cast<double>(offset == nullptr ? word
                                               : OffsetBits(word, *offset, [](double v) { return std::nearbyint(v); }));
}

struct PackCase {
  Shape scale, offset, out;  // offset empty: no offset
  aclDataType out_dtype = ACL_UINT64;
  View view = View::kContiguous;  // of scale, offset and out
  std::string name;
};

void PrintTo(const PackCase& c, std::ostream* os) { *os << c.name; }

class TransQuantParamV2Test : public ::testing::TestWithParam<PackCase> {};

TEST_P(TransQuantParamV2Test, MatchesTheDocsFormula) {
  const PackCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor scale(ACL_FLOAT, c.scale, c.view), out(c.out_dtype, c.out, c.view);
  const Values sv = scale.FillRandom(rng, Range{-3e3, 3e3});
  std::unique_ptr<DeviceTensor> offset;
  Values ov;
  if (!c.offset.empty()) {
    offset = std::make_unique<DeviceTensor>(ACL_FLOAT, c.offset, c.view);
    ov = offset->FillRandom(rng, Range{-400, 400});
    // Halves round to even; values past the 9-bit range clamp.
    Values special = {2.5, -2.5, 0.5, -0.5, 1e9, -1e9, 255.5, -256.5};
    for (size_t i = 0; i < ov.size() && i < special.size(); ++i) ov[i] = special[i];
    offset->WriteView(ov);
  }
  out.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnTransQuantParamV2GetWorkspaceSize(a.Tensor(scale), offset ? a.Tensor(*offset) : nullptr,
                                                      a.Tensor(out), w, e);
      },
      aclnnTransQuantParamV2);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Values words = out.ReadView();
  const int64_t n = NumElements(c.out);
  ASSERT_EQ(static_cast<int64_t>(words.size()), n);
  for (int64_t i = 0; i < n; ++i) {
    // A length-1 operand is broadcast; otherwise element i is element i (out is that long).
    const auto pick = [i](const Values& v) { return v[v.size() == 1 ? 0 : static_cast<size_t>(i)].real(); };
    const double o = c.offset.empty() ? 0.0 : pick(ov);
    EXPECT_EQ(words[static_cast<size_t>(i)].real(), ExpectedWord(pick(sv), c.offset.empty() ? nullptr : &o))
        << "word " << i << " of scale " << pick(sv) << (c.offset.empty() ? "" : " offset " + std::to_string(o));
  }
}

std::vector<PackCase> PackCases() {
  std::vector<PackCase> cases;
  const auto add = [&](Shape scale, Shape offset, Shape out, const std::string& name) {
    for (aclDataType dtype : {ACL_UINT64, ACL_INT64}) {
      for (View view : {View::kContiguous, View::kStepped}) {
        cases.push_back({scale, offset, out, dtype, view,
                         name + "_" + Name(dtype) + (view == View::kContiguous ? "" : "_stepped")});
      }
    }
  };
  add({24}, {}, {24}, "n");
  add({1}, {}, {1}, "one");
  add({1, 24}, {}, {1, 24}, "row");
  add({4, 1}, {}, {4, 1}, "per_group");
  add({4, 24}, {}, {4, 24}, "per_group_and_column");
  add({24}, {24}, {24}, "n_offset_n");
  add({1}, {24}, {24}, "one_offset_n");
  add({24}, {1}, {24}, "n_offset_one");
  add({1, 24}, {24}, {1, 24}, "row_offset_n");
  add({24}, {1, 24}, {24}, "n_offset_row");
  add({1, 1}, {1, 24}, {1, 24}, "one_row_offset_row");
  return cases;
}

INSTANTIATE_TEST_SUITE_P(All, TransQuantParamV2Test, ::testing::ValuesIn(PackCases()),
                         [](const ::testing::TestParamInfo<PackCase>& info) { return SanitizeName(info.param.name); });

// The words it makes are the scale QuantMatmulV4 takes: the doc example's
// product with a scale of 0.5 packed by the op, (2 + 1) * 0.5 everywhere.
TEST(TransQuantParamV2, ItsWordsScaleQuantMatmulV4) {
  DeviceTensor scale_f32(ACL_FLOAT, {3}), scale(ACL_UINT64, {3});
  scale_f32.WriteView(Values(3, 0.5));
  ASSERT_TRUE(RunOp(
                  [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
                    return aclnnTransQuantParamV2GetWorkspaceSize(a.Tensor(scale_f32), nullptr, a.Tensor(scale), w, e);
                  },
                  aclnnTransQuantParamV2)
                  .ok());
  ExpectNear(DocExampleOut(scale), Expected{Values(15, 1.5), std::vector<double>(15, 0.0)}, "out");
}

TEST(TransQuantParamV2Rejects, EachCase) {
  struct Bad {
    aclDataType scale = ACL_FLOAT, offset = ACL_FLOAT, out = ACL_UINT64;
    Shape scale_shape = {8}, offset_shape = {8}, out_shape = {8};
    bool has_offset = true;
  };
  const auto run = [](const Bad& b) {
    return RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnTransQuantParamV2GetWorkspaceSize(a.NewTensor(b.scale, b.scale_shape),
                                                        b.has_offset ? a.NewTensor(b.offset, b.offset_shape) : nullptr,
                                                        a.NewTensor(b.out, b.out_shape), w, e);
        },
        aclnnTransQuantParamV2);
  };
  const auto with = [](auto edit) {
    Bad b;
    edit(b);
    return b;
  };
  EXPECT_TRUE(run(Bad{}).ok()) << Describe(run(Bad{}));
  ExpectRejectedWith(run(with([](Bad& b) { b.scale = ACL_FLOAT16; })), kInvalid, {"'scale'"});
  ExpectRejectedWith(run(with([](Bad& b) { b.offset = ACL_BF16; })), kInvalid, {"'offset'"});
  ExpectRejectedWith(run(with([](Bad& b) { b.out = ACL_INT32; })), kInvalid, {"'out'"});
  ExpectRejectedWith(run(with([](Bad& b) { b.out = ACL_FLOAT; })), kInvalid, {"'out'"});
  // Shapes: ranks 1-2, nothing empty, an offset [t] or [1, n] beside a scale of the same kind.
  ExpectRejectedWith(run(with([](Bad& b) { b.scale_shape = {}; })), kInvalid, {"'scale'"});
  ExpectRejectedWith(run(with([](Bad& b) {
                       b.scale_shape = {0};
                       b.offset_shape = {0};
                       b.out_shape = {0};
                     })),
                     kInvalid, {"'scale'", "empty"});
  ExpectRejectedWith(run(with([](Bad& b) { b.offset_shape = {2, 8}; })), kInvalid, {"'offset'"});
  ExpectRejectedWith(run(with([](Bad& b) {
                       b.scale_shape = {2, 8};
                       b.out_shape = {2, 8};
                     })),
                     kInvalid, {"'scale'"});
  ExpectRejectedWith(run(with([](Bad& b) { b.offset_shape = {4}; })), kInvalid, {"broadcast"});
  ExpectRejectedWith(run(with([](Bad& b) { b.out_shape = {1, 8}; })), kInvalid, {"'out'"});
  ExpectRejectedWith(run(with([](Bad& b) {
                       b.has_offset = false;
                       b.out_shape = {4};
                     })),
                     kInvalid, {"'out'"});
  EXPECT_TRUE(run(with([](Bad& b) {
                b.has_offset = false;
                b.scale_shape = b.out_shape = {3, 8};
              })).ok());
}

// ---- aclnnTransQuantParam: words from host arrays, in memory the caller frees ----------------------

// What CANN's host implementation gives: max(scaleSize, offsetSize) words
// rounded up to 16 (unless 1); word i has scale i's full bits and bit 46
// (i < scaleSize) and offset i rounded half away from zero (i < offsetSize).
TEST(TransQuantParam, HostArraysGiveCannsWords) {
  Rng rng = Rng::ForCurrentTest();
  std::vector<float> scales(20), offsets(20);
  for (float& s : scales) s = static_cast<float>(rng.Uniform(-50.0, 50.0));
  for (float& o : offsets) o = static_cast<float>(rng.Uniform(-400.0, 400.0));
  const float special[] = {2.5f, -2.5f, 0.5f, -0.5f, 1e9f, -1e9f, 255.5f, -256.5f};
  std::copy(std::begin(special), std::end(special), offsets.begin());
  struct Lengths {
    uint64_t scales, offsets, words;  // offsets 0: no offset array
  };
  for (const Lengths n : {Lengths{7, 7, 16}, Lengths{7, 0, 16}, Lengths{1, 0, 1}, Lengths{1, 1, 1}, Lengths{1, 7, 16},
                          Lengths{7, 1, 16}, Lengths{16, 0, 16}, Lengths{17, 3, 32}, Lengths{3, 20, 32}}) {
    uint64_t* words = nullptr;
    uint64_t count = 0;
    ASSERT_EQ(aclnnTransQuantParam(scales.data(), n.scales, n.offsets > 0 ? offsets.data() : nullptr, n.offsets, &words,
                                   &count),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_NE(words, nullptr);
    ASSERT_EQ(count, n.words);
    for (uint64_t i = 0; i < count; ++i) {
      uint64_t expected = 0;
      if (i < n.scales) {
        uint32_t bits;
        std::memcpy(&bits, &scales[i], sizeof bits);
        expected = uint64_t{bits} | (uint64_t{1} << 46);
      }
      if (i < n.offsets) expected = OffsetBits(expected, offsets[i], [](double v) { return std::round(v); });
      EXPECT_EQ(words[i], expected) << "word " << i << " of " << n.scales << " scales and " << n.offsets << " offsets";
    }
    std::free(words);
  }
}

TEST(TransQuantParam, RejectsAsCannDoes) {
  const float values[2] = {1.0f, 2.0f};
  uint64_t* words = nullptr;
  uint64_t count = 0;
  const auto expect = [&](aclnnStatus status, aclnnStatus expected, const char* keyword) {
    EXPECT_EQ(status, expected) << keyword;
    const char* message = aclGetRecentErrMsg();
    EXPECT_NE(std::string(message != nullptr ? message : "").find(keyword), std::string::npos) << keyword;
  };
  expect(aclnnTransQuantParam(values, 2, nullptr, 0, nullptr, &count), ACLNN_ERR_PARAM_NULLPTR, "'quantParam'");
  expect(aclnnTransQuantParam(values, 2, nullptr, 0, &words, nullptr), ACLNN_ERR_PARAM_NULLPTR, "'quantParamSize'");
  // CANN's implementation answers every problem with the arrays with 161002, a null scaleArray too.
  expect(aclnnTransQuantParam(nullptr, 2, nullptr, 0, &words, &count), ACLNN_ERR_PARAM_INVALID, "'scaleArray'");
  expect(aclnnTransQuantParam(values, 0, nullptr, 0, &words, &count), ACLNN_ERR_PARAM_INVALID, "scaleSize");
  expect(aclnnTransQuantParam(values, 2, values, 0, &words, &count), ACLNN_ERR_PARAM_INVALID, "offsetSize");
  expect(aclnnTransQuantParam(values, 2, nullptr, 2, &words, &count), ACLNN_ERR_PARAM_INVALID, "offsetSize");
  // The arrays are checked before the outputs.
  expect(aclnnTransQuantParam(nullptr, 2, nullptr, 0, nullptr, nullptr), ACLNN_ERR_PARAM_INVALID, "'scaleArray'");
  EXPECT_EQ(words, nullptr);  // nothing handed out on a rejection
}

}  // namespace
}  // namespace canopy_test
