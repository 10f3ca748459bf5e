// aclnnQuantMatmul / V2 / V3 / V4: full-quantisation matmul (W8A8). x1 (batch..., m, k)
// and x2 (batch..., k, n), both INT8 (transposeX1 / transposeX2: the last two
// dims swapped), multiply exactly into INT32 (oneDNN's int8 matmul, VNNI / AMX
// where the CPU has them; an exact portable loop elsewhere), then a dequantising epilogue gives
//   out = (x1 @ x2 + bias) * scale [* pertokenScale]     (INT32 bias)
//   out = x1 @ x2 * scale [* pertokenScale] + bias        (f16 / bf16 / f32 bias)
// with scale one value or one per column n (f32, bf16, or UINT64 / INT64 as
// TransQuantParamV2 encodes an f32 in the low 32 bits), pertokenScale one f32
// per row m (V4), bias [n] or [batch, 1, n]. Batch dims broadcast. x2 may be
// FRACTAL_NZ: on Canopy that is the ND layout (TransMatmulWeight).
//
// The doc's A2/A3 dtype combinations computed: out bf16 (scale f32 / bf16,
// pertoken optional, bias INT32 / bf16 / f32) and out f16 (scale f32 with a
// pertoken scale, bias INT32 / f16 / f32; or scale UINT64 / INT64 without,
// bias INT32). Not supported by Canopy (561003): INT8 out (with offset), INT32
// out, and INT4 / INT32-packed x1 and x2 (A4W4). Other combinations are 161002.
//
// aclnnQuantMatmulV5 takes the same product (x1Scale the per-token scale, x2Scale
// the scale) and, on A2, three more modes, planned in quant_matmul_v5_modes.cpp:
// A8W4 (INT8 x1, INT32 x2 packing eight INT4 values a word, UINT64 / INT64 x2Scale
// per channel or per group of 256 along K (the K-G mode), FLOAT yOffset and x1Scale,
// FLOAT16 / BFLOAT16 out), K-G A4W4 (INT4 / INT32-packed x1 and x2, FLOAT x1Scale
// [m, 1], FLOAT x2Scale and FLOAT16 x2Offset per group of 256) and G-B (INT8 x1 and
// x2, FLOAT x1Scale [m, k / 128] and x2Scale [n / 128, k / 128], FLOAT bias, BFLOAT16
// out; groupSize's three 16-bit fields, 0 ones inferred). Still 561003: A4W4 with 1-D
// scales (the T-C / K-C rows of the doc's table, in V3 / V4 as in V5) and
// QuantMatmulWeightNz's A8W4, A4W4 and per-block forms, whose host checks differ from
// V5's and are not yet followed.
#include <limits>
#include <string>

#include <cstring>

#include "aclnnop/aclnn_quant_matmul.h"
#include "aclnnop/aclnn_quant_matmul_v3.h"
#include "aclnnop/aclnn_quant_matmul_v4.h"
#include "aclnnop/aclnn_quant_matmul_v5.h"
#include "aclnnop/aclnn_quant_matmul_weight_nz.h"
#include "kernels/cpu_features.h"
#include "kernels/matmul.h"
#include "kernels/quant_int8_matmul.h"
#include "kernels/quant_matmul_epilogue.h"
#include "matmul_planner.h"
#include "ops/framework/aclnn_op.h"
#include "quant_matmul.h"
#include "quant_matmul_v5_modes.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr aclnnStatus kNotSupported = ACLNN_ERR_INNER_FIND_KERNEL_ERROR;
constexpr DtypeSet kOperandDtypes = {ACL_INT8};
constexpr DtypeSet kScaleDtypes = {ACL_FLOAT, ACL_BF16, ACL_UINT64, ACL_INT64};
constexpr DtypeSet kOutDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr int64_t kMinRank = 2;
constexpr int64_t kMaxRank = 6;
constexpr int64_t kMaxExtent = std::numeric_limits<int32_t>::max();  // oneDNN's blocking works in 32 bits

aclnnStatus CheckOperand(Plan& plan, const char* name, const aclTensor* t) {
  if (t->dtype == ACL_INT4 || t->dtype == ACL_INT32) {
    return plan.Reject(kNotSupported, "argument '%s' is %s: INT4 quantisation (A4W4) is not supported by Canopy", name,
                       DtypeName(t->dtype));
  }
  CANOPY_CHECK(plan.CheckDtype(name, t->dtype, kOperandDtypes));
  if (t->rank() < kMinRank || t->rank() > kMaxRank) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has rank %lld; it must be 2 to 6", name,
                       static_cast<long long>(t->rank()));
  }
  for (int64_t extent : t->view_shape) {
    if (extent > kMaxExtent) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has an extent of %lld; at most %lld is supported",
                         name, static_cast<long long>(extent), static_cast<long long>(kMaxExtent));
    }
  }
  return ACLNN_SUCCESS;
}

// A 1-D tensor of `count` values, or of one.
aclnnStatus CheckVector(Plan& plan, const char* name, const aclTensor* t, int64_t count, bool one_allowed) {
  if (t->rank() == 1 && (t->view_shape[0] == count || (one_allowed && t->view_shape[0] == 1))) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; it must be [%s%lld]", name,
                     ShapeToString(t->view_shape).c_str(), one_allowed ? "1] or [" : "", static_cast<long long>(count));
}

}  // namespace

namespace canopy::ops {

aclnnStatus PlanQuantProduct(Plan& plan, const QuantProduct& p) {
  // The INT32 product through oneDNN
  const int64_t m = p.m, n = p.n, k = p.k;
  const Shape& batch = p.batch;
  Shape out_shape = batch;
  out_shape.push_back(m);
  out_shape.push_back(n);
  int64_t batch_count = 1;
  for (int64_t extent : batch) batch_count *= extent;
  const auto rank = static_cast<int64_t>(out_shape.size());
  const auto last_two_swapped = [](const TensorRef& t) { return Transpose(t, t.rank() - 2, t.rank() - 1); };
  const TensorRef a = PadRank(p.transpose_x1 ? last_two_swapped(p.x1) : p.x1, rank);
  const TensorRef b = PadRank(p.transpose_x2 ? last_two_swapped(p.x2) : p.x2, rank);
  const TensorRef acc = plan.Temporary(ACL_INT32, out_shape);
  if (kernels::Cpu().avx512bf16 || kernels::Cpu().amx) {
    // oneDNN's int8 kernels are exact where the CPU has VNNI (every CPU with
    // AVX512-BF16 or AMX does); elsewhere they sum pairs of products in int16.
    kernels::MatmulDesc product;
    product.src = MatmulOperandOf(a);
    product.weights = MatmulOperandOf(b);
    product.dst = MatmulOperandOf(acc);
    const auto book = [&plan](int64_t bytes) { return plan.Temporary(ACL_UINT8, {bytes}).buffer; };
    std::string reason;
    std::unique_ptr<Step> step = kernels::MakeMatmulStep(product, book, reason);
    if (!step) {  // a layout oneDNN does not take: contiguous operands
      product.src = MatmulOperandOf(plan.Contiguous(a, ACL_INT8));
      product.weights = MatmulOperandOf(plan.Contiguous(b, ACL_INT8));
      step = kernels::MakeMatmulStep(product, book, reason);
    }
    if (!step) return plan.Reject(ACLNN_ERR_INNER, "oneDNN has no int8 matmul for this call: %s", reason.c_str());
    plan.AddStep(std::move(step));
  } else {
    Shape a_shape = batch, bt_shape = batch;
    a_shape.insert(a_shape.end(), {m, k});
    bt_shape.insert(bt_shape.end(), {n, k});
    const TensorRef bt = Transpose(b, rank - 2, rank - 1);
    kernels::Int8MatmulDesc exact;
    exact.batch = batch_count;
    exact.m = m;
    exact.n = n;
    exact.k = k;
    exact.a = plan.Contiguous(BroadcastTo(a, a_shape), ACL_INT8).buffer;
    exact.bt = plan.Contiguous(BroadcastTo(bt, bt_shape), ACL_INT8).buffer;
    exact.acc = acc.buffer;
    plan.AddStep(kernels::MakeInt8MatmulStep(exact));
  }

  // The epilogue
  kernels::QuantEpilogueDesc epilogue;
  epilogue.batch = batch_count;
  epilogue.m = m;
  epilogue.n = n;
  epilogue.acc = acc.buffer;
  epilogue.out_dtype = p.out.dtype;
  const TensorRef dst = p.out.IsContiguous() ? p.out : plan.Temporary(p.out.dtype, out_shape);
  epilogue.out = dst.buffer;
  epilogue.scale_dtype = p.scale.dtype;
  epilogue.scale = plan.Contiguous(p.scale, p.scale.dtype).buffer;
  epilogue.scale_count = p.scale_count;
  if (p.has_pertoken) {
    epilogue.has_token_scale = true;
    epilogue.token_scale = plan.Contiguous(p.pertoken, ACL_FLOAT).buffer;
  }
  if (p.has_bias) {
    epilogue.has_bias = true;
    epilogue.bias_dtype = p.bias.dtype;
    epilogue.bias = plan.Contiguous(p.bias, p.bias.dtype).buffer;
    epilogue.bias_batch_stride = p.bias.rank() == 3 ? n : 0;
  }
  plan.AddStep(kernels::MakeQuantEpilogueStep(epilogue));
  if (!p.out.IsContiguous()) plan.Copy(dst, p.out);
  return ACLNN_SUCCESS;
}

}  // namespace canopy::ops

namespace {

// The product's geometry: m and k of x1, k and n of x2 (the last two dims, swapped where transposed; the
// two k equal) and the broadcast batch dims, into `p`; `out_shape` is batch..., m, n.
aclnnStatus PlanGeometry(Plan& plan, const aclTensor* x1, const aclTensor* x2, bool transpose_x1, bool transpose_x2,
                         QuantProduct& p, Shape& out_shape) {
  const Shape& s1 = x1->view_shape;
  const Shape& s2 = x2->view_shape;
  const size_t r1 = s1.size(), r2 = s2.size();
  p.transpose_x1 = transpose_x1;
  p.transpose_x2 = transpose_x2;
  p.m = transpose_x1 ? s1[r1 - 1] : s1[r1 - 2];
  p.k = transpose_x1 ? s1[r1 - 2] : s1[r1 - 1];
  const int64_t k2 = transpose_x2 ? s2[r2 - 1] : s2[r2 - 2];
  p.n = transpose_x2 ? s2[r2 - 2] : s2[r2 - 1];
  if (p.k != k2) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x1's k (%lld) and x2's k (%lld) differ", static_cast<long long>(p.k),
                       static_cast<long long>(k2));
  }
  CANOPY_CHECK(
      plan.CheckBroadcast("x1", Shape(s1.begin(), s1.end() - 2), "x2", Shape(s2.begin(), s2.end() - 2), p.batch));
  out_shape = p.batch;
  out_shape.push_back(p.m);
  out_shape.push_back(p.n);
  return ACLNN_SUCCESS;
}

}  // namespace

aclnnStatus canopy::ops::CheckQuantMatmul(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* scale,
                                          const aclTensor* offset, const aclTensor* pertoken, const aclTensor* bias,
                                          bool transpose_x1, bool transpose_x2, const aclTensor* out,
                                          const QuantArgumentNames& names, QuantProduct& product) {
  // ---- formats: x2 may be NZ (Canopy's NZ is ND); the rest plain
  CANOPY_CHECK(plan.CheckPlainFormat("x1", x1));
  if (x2->format != ACL_FORMAT_FRACTAL_NZ) CANOPY_CHECK(plan.CheckPlainFormat("x2", x2));
  for (const auto& [name, t] : {std::pair{names.scale, scale}, std::pair{names.offset, offset},
                                std::pair{names.pertoken, pertoken}, std::pair{"bias", bias}, std::pair{"out", out}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckPlainFormat(name, t));
  }
  // ---- dtypes and their combinations
  CANOPY_CHECK(CheckOperand(plan, "x1", x1));
  CANOPY_CHECK(CheckOperand(plan, "x2", x2));
  if (out->dtype == ACL_INT8 || out->dtype == ACL_INT32) {
    return plan.Reject(kNotSupported, "argument 'out' is %s: an INT8 or INT32 output is not supported by Canopy",
                       DtypeName(out->dtype));
  }
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kOutDtypes));
  CANOPY_CHECK(plan.CheckDtype(names.scale, scale->dtype, kScaleDtypes));
  if (offset != nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is only taken with an INT8 out (out is %s)",
                       names.offset, DtypeName(out->dtype));
  }
  if (pertoken != nullptr) CANOPY_CHECK(plan.CheckDtype(names.pertoken, pertoken->dtype, DtypeSet{ACL_FLOAT}));
  const bool packed_scale = scale->dtype == ACL_UINT64 || scale->dtype == ACL_INT64;
  if (out->dtype == ACL_FLOAT16) {
    const bool ok = packed_scale ? pertoken == nullptr : (scale->dtype == ACL_FLOAT && pertoken != nullptr);
    if (!ok) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "a FLOAT16 out takes a UINT64 / INT64 %s without %s, or a FLOAT32 %s with it (%s is %s, %s "
                         "%s)",
                         names.scale, names.pertoken, names.scale, names.scale, DtypeName(scale->dtype), names.pertoken,
                         pertoken != nullptr ? "given" : "absent");
    }
  } else if (packed_scale) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "a BFLOAT16 out takes a FLOAT32 or BFLOAT16 %s (it is %s)", names.scale,
                       DtypeName(scale->dtype));
  }
  if (bias != nullptr) {
    const DtypeSet allowed = packed_scale                ? DtypeSet{ACL_INT32}
                             : out->dtype == ACL_FLOAT16 ? DtypeSet{ACL_INT32, ACL_FLOAT16, ACL_FLOAT}
                                                         : DtypeSet{ACL_INT32, ACL_BF16, ACL_FLOAT};
    CANOPY_CHECK(plan.CheckDtype("bias", bias->dtype, allowed));
  }

  // ---- shapes
  Shape out_shape;
  CANOPY_CHECK(PlanGeometry(plan, x1, x2, transpose_x1, transpose_x2, product, out_shape));
  const int64_t m = product.m, n = product.n;
  if (product.k == 0) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "k is 0: x1 and x2 may not be empty along k");
  CANOPY_CHECK(plan.CheckShape("out", out, out_shape));
  CANOPY_CHECK(CheckVector(plan, names.scale, scale, n, true));
  if (pertoken != nullptr) CANOPY_CHECK(CheckVector(plan, names.pertoken, pertoken, m, false));
  if (bias != nullptr) {
    const Shape& b = bias->view_shape;
    const bool ok = (b.size() == 1 && b[0] == n) ||
                    (b.size() == 3 && out_shape.size() == 3 && b[0] == out_shape[0] && b[1] == 1 && b[2] == n);
    if (!ok) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'bias' has shape %s; it must be [%lld]%s",
                         ShapeToString(b).c_str(), static_cast<long long>(n),
                         out_shape.size() == 3 ? " or [batch, 1, n] (a 3-D out)" : "");
    }
  }
  product.scale_count = scale->view_shape[0];
  product.has_pertoken = pertoken != nullptr;
  product.has_bias = bias != nullptr;
  return ACLNN_SUCCESS;
}

namespace {

aclnnStatus PlanQuantMatmul(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* scale,
                            const aclTensor* offset, const aclTensor* pertoken, const aclTensor* bias,
                            bool transpose_x1, bool transpose_x2, const aclTensor* out, bool has_pertoken_argument) {
  QuantProduct product;
  CANOPY_CHECK(
      CheckQuantMatmul(plan, x1, x2, scale, offset, pertoken, bias, transpose_x1, transpose_x2, out, {}, product));

  // ---- operands, in the prototype's order
  const TensorRef x1_ref = plan.Input(x1, "x1");
  const TensorRef x2_ref = plan.Input(x2, "x2");
  const TensorRef scale_ref = plan.Input(scale, "scale");
  plan.SkipInput();  // offset (absent: INT8 out only)
  TensorRef pertoken_ref, bias_ref;
  if (has_pertoken_argument) {
    if (pertoken != nullptr) {
      pertoken_ref = plan.Input(pertoken, "pertokenScaleOptional");
    } else {
      plan.SkipInput();
    }
  }
  if (bias != nullptr) {
    bias_ref = plan.Input(bias, "bias");
  } else {
    plan.SkipInput();
  }
  const TensorRef out_ref = plan.Output(out, "out");
  if (out->NumElements() == 0) return ACLNN_SUCCESS;

  product.x1 = x1_ref;
  product.x2 = x2_ref;
  product.scale = scale_ref;
  product.pertoken = pertoken_ref;
  product.bias = bias_ref;
  product.out = out_ref;
  return PlanQuantProduct(plan, product);
}

aclnnStatus PlanQuantMatmulV3(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* scale,
                              const aclTensor* offset, const aclTensor* bias, bool transpose_x1, bool transpose_x2,
                              const aclTensor* out) {
  return PlanQuantMatmul(plan, x1, x2, scale, offset, nullptr, bias, transpose_x1, transpose_x2, out, false);
}

aclnnStatus PlanQuantMatmulV4(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* scale,
                              const aclTensor* offset, const aclTensor* pertoken, const aclTensor* bias,
                              bool transpose_x1, bool transpose_x2, const aclTensor* out) {
  return PlanQuantMatmul(plan, x1, x2, scale, offset, pertoken, bias, transpose_x1, transpose_x2, out, true);
}

// QuantMatmulV5 and QuantMatmulWeightNz on their Atlas A2 path for INT8 x1 and x2: V4's checks and product
// with x1Scale the per-token scale, x2Scale the scale and x2Offset the offset (WeightNz's x2 is NZ, which
// Canopy reads through its ND view like V4's, or ND as Canopy's TransMatmulWeight leaves it). CANN reports a non-empty
// yScale, x1Offset or yOffset as 161001. V5 also computes the A8W4 mode (INT32-packed x2, per channel or K-G)
// and the G-B mode (2-D per-block scales) in quant_matmul_v5_modes.cpp; an INT8 x1 with an INT4 x2 is 161002 there
// (CANN's host code takes it into A8W4's checks, which require the yOffset it has refused). WeightNz keeps
// 561003 for those (its own host checks are not yet followed).
aclnnStatus PlanQuantMatmulV5Common(Plan& plan, const QuantMatmulV5Args& args, bool weight_nz) {
  const aclTensor *x1 = args.x1, *x2 = args.x2, *x1_scale = args.x1_scale, *x2_scale = args.x2_scale;
  if (!weight_nz && IsQuantMatmulV5A8W4(args)) return PlanQuantMatmulV5A8W4(plan, args);
  const bool packed_x2 = weight_nz && (x2->dtype == ACL_INT4 || x2->dtype == ACL_INT32);
  for (const auto& [name, t] :
       {std::pair{"yScale", packed_x2 ? nullptr : args.y_scale}, std::pair{"x1Offset", args.x1_offset},
        std::pair{"yOffset", packed_x2 ? nullptr : args.y_offset}}) {
    if (t != nullptr && t->NumElements() != 0) {
      return plan.Reject(ACLNN_ERR_PARAM_NULLPTR, "argument '%s' must be null or empty (it has shape %s)", name,
                         ShapeToString(t->view_shape).c_str());
    }
  }
  if (!weight_nz && x1->dtype == ACL_INT8 && x2->dtype == ACL_INT4) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "x2 is INT4 with an INT8 x1: CANN's A8W4 path takes x2 as INT32 words of eight INT4 values "
                       "(an INT4 x2 needs a yOffset that its host code refuses)");
  }
  if (x1_scale != nullptr && x1_scale->rank() >= 2 && x2_scale->rank() >= 2) {
    if (!weight_nz && x1->dtype == ACL_INT8) return PlanQuantMatmulV5PerBlock(plan, args);
    const auto int4 = [](const aclTensor* t) { return t->dtype == ACL_INT4 || t->dtype == ACL_INT32; };
    if (!weight_nz && int4(x1) && int4(x2)) return PlanQuantMatmulV5A4W4Group(plan, args);
    return plan.Reject(kNotSupported,
                       "x1Scale %s and x2Scale %s are per-block scales: per-block quantisation is "
                       "not supported by Canopy here",
                       ShapeToString(x1_scale->view_shape).c_str(), ShapeToString(x2_scale->view_shape).c_str());
  }
  const aclTensor *y_scale = args.y_scale, *x1_offset = args.x1_offset, *x2_offset = args.x2_offset,
                  *y_offset = args.y_offset, *bias = args.bias, *out = args.out;
  const bool transpose_x1 = args.transpose_x1, transpose_x2 = args.transpose_x2;
  QuantProduct product;
  const QuantArgumentNames names{.scale = "x2Scale", .offset = "x2Offset", .pertoken = "x1Scale"};
  CANOPY_CHECK(CheckQuantMatmul(plan, x1, x2, x2_scale, x2_offset, x1_scale, bias, transpose_x1, transpose_x2, out,
                                names, product));

  // ---- operands, in the prototype's order
  product.x1 = plan.Input(x1, "x1");
  product.x2 = plan.Input(x2, "x2");
  product.pertoken = InputOrSkip(plan, x1_scale, "x1Scale");
  product.scale = plan.Input(x2_scale, "x2Scale");
  InputOrSkip(plan, y_scale, "yScale");  // null or empty
  InputOrSkip(plan, x1_offset, "x1Offset");
  plan.SkipInput();  // x2Offset (absent: INT8 out only)
  InputOrSkip(plan, y_offset, "yOffset");
  product.bias = InputOrSkip(plan, bias, "bias");
  product.out = plan.Output(out, "out");
  if (out->NumElements() == 0) return ACLNN_SUCCESS;
  return PlanQuantProduct(plan, product);
}

aclnnStatus PlanQuantMatmulV5(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* x1_scale,
                              const aclTensor* x2_scale, const aclTensor* y_scale, const aclTensor* x1_offset,
                              const aclTensor* x2_offset, const aclTensor* y_offset, const aclTensor* bias,
                              bool transpose_x1, bool transpose_x2, int64_t group_size, const aclTensor* out) {
  return PlanQuantMatmulV5Common(plan,
                                 {x1, x2, x1_scale, x2_scale, y_scale, x1_offset, x2_offset, y_offset, bias,
                                  transpose_x1, transpose_x2, group_size, out},
                                 false);
}

aclnnStatus PlanQuantMatmulWeightNz(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* x1_scale,
                                    const aclTensor* x2_scale, const aclTensor* y_scale, const aclTensor* x1_offset,
                                    const aclTensor* x2_offset, const aclTensor* y_offset, const aclTensor* bias,
                                    bool transpose_x1, bool transpose_x2, int64_t group_size, const aclTensor* out) {
  return PlanQuantMatmulV5Common(plan,
                                 {x1, x2, x1_scale, x2_scale, y_scale, x1_offset, x2_offset, y_offset, bias,
                                  transpose_x1, transpose_x2, group_size, out},
                                 true);
}

// QuantMatmul (V1) and V2: CANN's older checks, then the shared product. deq_scale: V2's tensor, or
// null for V1's `deq_value`.
aclnnStatus PlanQuantMatmulDeq(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                               const aclTensor* deq_scale, float deq_value, bool adj_x1, bool adj_x2,
                               const aclTensor* out) {
  constexpr int64_t kScaleAlign = 16;
  constexpr uint32_t kDeqScaleMask = 0xFFFFE000u;  // the NPU keeps 10 bits of the scale's mantissa
  CANOPY_CHECK(plan.CheckDtype("x1", x1->dtype, kOperandDtypes));
  CANOPY_CHECK(plan.CheckDtype("x2", x2->dtype, kOperandDtypes));
  if (bias != nullptr) CANOPY_CHECK(plan.CheckDtype("bias", bias->dtype, DtypeSet{ACL_INT32}));
  if (deq_scale != nullptr) CANOPY_CHECK(plan.CheckDtype("deqScale", deq_scale->dtype, DtypeSet{ACL_UINT64}));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, DtypeSet{ACL_FLOAT16}));
  for (const auto& [name, t] : {std::pair{"x1", x1}, std::pair{"x2", x2}}) {
    if (t->rank() < 2 || t->rank() > 3) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has rank %lld; it must be 2 or 3", name,
                         static_cast<long long>(t->rank()));
    }
  }
  if (bias != nullptr && bias->rank() != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'bias' has rank %lld; it must be 1",
                       static_cast<long long>(bias->rank()));
  }
  if (deq_scale != nullptr && deq_scale->rank() != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'deqScale' has rank %lld; it must be 1",
                       static_cast<long long>(deq_scale->rank()));
  }
  // CANN compares x1's batch dims with x2's dims of the same index.
  const Shape& s1 = x1->view_shape;
  const Shape& s2 = x2->view_shape;
  for (size_t i = 0; i + 2 < s1.size(); ++i) {
    if (s1[i] != s2[i]) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x1 %s and x2 %s differ at batch dim %zu", ShapeToString(s1).c_str(),
                         ShapeToString(s2).c_str(), i);
    }
  }
  QuantProduct product;
  Shape out_shape;
  CANOPY_CHECK(PlanGeometry(plan, x1, x2, adj_x1, adj_x2, product, out_shape));
  const int64_t n = product.n;
  if (bias != nullptr && bias->view_shape[0] != n) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'bias' holds %lld values; it must hold x2's n (%lld)",
                       static_cast<long long>(bias->view_shape[0]), static_cast<long long>(n));
  }
  CANOPY_CHECK(plan.CheckShape("out", out, out_shape));
  if (deq_scale != nullptr) {
    const int64_t padded = (n + kScaleAlign - 1) / kScaleAlign * kScaleAlign;
    if (deq_scale->view_shape[0] != padded) {
      return plan.Reject(
          ACLNN_ERR_PARAM_INVALID, "argument 'deqScale' has shape %s; it must be [%lld] (n = %lld rounded up to 16)",
          ShapeToString(deq_scale->view_shape).c_str(), static_cast<long long>(padded), static_cast<long long>(n));
    }
  }

  product.x1 = plan.Input(x1, "x1");
  product.x2 = plan.Input(x2, "x2");
  if (bias != nullptr) {
    product.bias = plan.Input(bias, "bias");
    product.has_bias = true;
  } else {
    plan.SkipInput();
  }
  if (deq_scale != nullptr) {
    product.scale = plan.Input(deq_scale, "deqScale");
    product.scale_count = n;  // the first n of [n rounded up to 16]
  } else {
    uint32_t bits = 0;
    std::memcpy(&bits, &deq_value, sizeof bits);
    bits &= kDeqScaleMask;
    float cut = 0.0f;
    std::memcpy(&cut, &bits, sizeof cut);
    product.scale = plan.Temporary(ACL_FLOAT, {1});
    plan.Fill(product.scale, ScalarValue::Real(cut));
  }
  product.out = plan.Output(out, "out");
  if (out->NumElements() == 0) return ACLNN_SUCCESS;
  if (product.k == 0) {
    if (bias != nullptr) return plan.Reject(ACLNN_ERR_INNER_NULLPTR, "k is 0: CANN takes no bias with an empty k");
    plan.Fill(product.out, ScalarValue::Integer(0));
    return ACLNN_SUCCESS;
  }
  return PlanQuantProduct(plan, product);
}

aclnnStatus PlanQuantMatmulV1(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                              float deq_scale, const aclTensor* out) {
  return PlanQuantMatmulDeq(plan, x1, x2, bias, nullptr, deq_scale, false, false, out);
}

aclnnStatus PlanQuantMatmulV2(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                              const aclTensor* deq_scale, bool adj_x1, bool adj_x2, const aclTensor* out) {
  return PlanQuantMatmulDeq(plan, x1, x2, bias, deq_scale, 0.0f, adj_x1, adj_x2, out);
}

constexpr DtypeSet kAllDtypes = {ACL_INT8, ACL_INT32, ACL_INT64, ACL_UINT64, ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

}  // namespace

CANOPY_ACLNN_OP(QuantMatmulV3, PlanQuantMatmulV3,
                (OpTraits{.header = "aclnnop/aclnn_quant_matmul_v3.h",
                          .dtypes = kAllDtypes,
                          .max_rank = 6,
                          .private_formats = true,
                          .example = "i8[5,2] i8[2,3] f32[3] - i32[3] false false bf16[5,3]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, scale),
                (const aclTensor*, offset, optional), (const aclTensor*, bias, optional), (bool, transposeX1),
                (bool, transposeX2), (const aclTensor*, out))

CANOPY_ACLNN_OP(QuantMatmulV4, PlanQuantMatmulV4,
                (OpTraits{.header = "aclnnop/aclnn_quant_matmul_v4.h",
                          .dtypes = kAllDtypes,
                          .max_rank = 6,
                          .private_formats = true,
                          .example = "i8[5,2] i8[2,3] f32[3] - f32[5] i32[3] false false bf16[5,3]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, scale),
                (const aclTensor*, offset, optional), (const aclTensor*, pertokenScaleOptional, optional),
                (const aclTensor*, bias, optional), (bool, transposeX1), (bool, transposeX2), (const aclTensor*, out))

CANOPY_ACLNN_OP(QuantMatmul, PlanQuantMatmulV1,
                (OpTraits{.header = "aclnnop/aclnn_quant_matmul.h",
                          .dtypes = kAllDtypes,
                          .max_rank = 3,
                          .example = "i8[5,2] i8[2,3] i32[3] 0.5 f16[5,3]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, bias, optional), (float, deqScale),
                (aclTensor*, out))

CANOPY_ACLNN_OP(QuantMatmulV2, PlanQuantMatmulV2,
                (OpTraits{.header = "aclnnop/aclnn_quant_matmul.h",
                          .dtypes = kAllDtypes,
                          .max_rank = 3,
                          .example = "i8[5,2] i8[2,3] i32[3] u64[16] false false f16[5,3]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, bias, optional),
                (const aclTensor*, deqScale), (bool, adjX1), (bool, adjX2), (aclTensor*, out))

CANOPY_ACLNN_OP(QuantMatmulV5, PlanQuantMatmulV5,
                (OpTraits{.header = "aclnnop/aclnn_quant_matmul_v5.h",
                          .dtypes = kAllDtypes,
                          .max_rank = 6,
                          .private_formats = true,
                          .example = "i8[5,2] i8[2,3] f32[5] f32[3] - - - - i32[3] false false 0 bf16[5,3]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, x1Scale, optional),
                (const aclTensor*, x2Scale), (const aclTensor*, yScale, optional),
                (const aclTensor*, x1Offset, optional), (const aclTensor*, x2Offset, optional),
                (const aclTensor*, yOffset, optional), (const aclTensor*, bias, optional), (bool, transposeX1),
                (bool, transposeX2), (int64_t, groupSize), (aclTensor*, out))

CANOPY_ACLNN_OP(QuantMatmulWeightNz, PlanQuantMatmulWeightNz,
                (OpTraits{.header = "aclnnop/aclnn_quant_matmul_weight_nz.h",
                          .dtypes = kAllDtypes,
                          .max_rank = 6,
                          .private_formats = true,
                          .example = "i8[5,2] i8[2,3] f32[5] f32[3] - - - - i32[3] false false 0 bf16[5,3]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, x1Scale, optional),
                (const aclTensor*, x2Scale), (const aclTensor*, yScale, optional),
                (const aclTensor*, x1Offset, optional), (const aclTensor*, x2Offset, optional),
                (const aclTensor*, yOffset, optional), (const aclTensor*, bias, optional), (bool, transposeX1),
                (bool, transposeX2), (int64_t, groupSize), (aclTensor*, out))
