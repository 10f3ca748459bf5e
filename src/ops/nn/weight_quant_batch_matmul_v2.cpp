// aclnnWeightQuantBatchMatmulV2: y = x @ ((weight + antiquantOffset) * antiquantScale) + bias
// with an INT8 or INT4 weight and one scale (and offset) per tensor, per
// column or per group of antiquantGroupSize rows along K. V3 adds innerPrecise
// (0 high precision, 1 high performance; anything else 161002, checked before
// the operands as CANN does): both compute in f32 on Canopy.
//
// A weight in FRACTAL_NZ is read as its view describes it: on Canopy the NZ
// layout of a matmul weight is its ND layout (see trans_matmul_weight.cpp).
#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"
#include "aclnnop/aclnn_weight_quant_batch_matmul_v3.h"
#include "kernels/quant_matmul.h"
#include "matmul_planner.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "weight_quant_matmul.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kActivationDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kWeightDtypes = {ACL_INT8, ACL_INT4};
constexpr int64_t kMaxKN = 65535;
constexpr int64_t kMaxM = (int64_t{1} << 31) - 1;
constexpr int64_t kGroupAlign = 32;

// Whether a 2-D view is its storage (row-major) or the transpose of it: the
// only non-contiguous form the doc allows. Extent-1 dimensions may carry any stride.
bool IsRowMajor(const aclTensor* t) {
  const Shape& s = t->view_shape;
  return (s[1] <= 1 || t->strides[1] == 1) && (s[0] <= 1 || t->strides[0] == s[1]);
}
bool IsTransposed(const aclTensor* t) {
  const Shape& s = t->view_shape;
  return (s[0] <= 1 || t->strides[0] == 1) && (s[1] <= 1 || t->strides[1] == s[0]);
}

aclnnStatus CheckLayout(Plan& plan, const char* name, const aclTensor* t) {
  if (t->rank() == 1 ? (t->view_shape[0] <= 1 || t->strides[0] == 1) : (IsRowMajor(t) || IsTransposed(t))) {
    return ACLNN_SUCCESS;
  }
  return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                     "argument '%s' (%s, strides %s) must be contiguous or a transposed view of contiguous storage",
                     name, ShapeToString(t->view_shape).c_str(), ShapeToString(t->strides).c_str());
}

aclnnStatus CheckPlain(Plan& plan, const char* name, const aclTensor* t) {
  return t == nullptr ? ACLNN_SUCCESS : plan.CheckPlainFormat(name, t);
}

}  // namespace

namespace canopy::ops {

aclnnStatus DescribeQuantWeight(Plan& plan, const aclTensor* weight, const aclTensor* scale, const aclTensor* offset,
                                int64_t group_size, kernels::QuantWeight& w, const WeightQuantNames& names) {
  CANOPY_CHECK(CheckLayout(plan, names.weight, weight));
  CANOPY_CHECK(CheckLayout(plan, names.scale, scale));
  if (offset != nullptr) CANOPY_CHECK(CheckLayout(plan, names.offset, offset));
  const int64_t k = weight->view_shape[0], n = weight->view_shape[1];
  w.dtype = weight->dtype;
  w.k = k;
  w.n = n;
  w.k_contiguous = n == 1 || (k > 1 && IsTransposed(weight) && !IsRowMajor(weight));
  w.ld = w.k_contiguous ? (n > 1 ? weight->strides[1] : k) : (k > 1 ? weight->strides[0] : n);
  if (w.dtype == ACL_INT4 && ((w.k_contiguous ? k : n) % 2 != 0 || w.ld % 2 != 0 || weight->offset % 2 != 0)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "an INT4 weight packs two values a byte along its contiguous axis: that axis (%lld) and the "
                       "view's offset (%lld) must be even",
                       static_cast<long long>(w.k_contiguous ? k : n), static_cast<long long>(weight->offset));
  }
  w.group_size = group_size == 0 ? k : group_size;
  return ACLNN_SUCCESS;
}

aclnnStatus PlanWeightQuantProduct(Plan& plan, kernels::QuantWeight w, const TensorRef& x, const TensorRef& weight,
                                   const TensorRef& scale, const TensorRef* offset, const TensorRef* bias,
                                   const TensorRef& y) {
  const int64_t m = x.shape[0], k = w.k, n = w.n, groups = w.Groups();
  // Scales and offsets as dense f32 in the weight's orientation ([n, groups]
  // for a K-contiguous weight, else [groups, n]), whatever their view: the
  // transposed scales ggml passes with its transposed weights copy straight.
  const auto grid_of = [&](const TensorRef& t) {
    return BroadcastTo(t.rank() == 1 ? Unsqueeze(t, 0) : t, {groups, n});  // [groups, n]
  };
  auto as_groups = [&](const TensorRef& t) {
    const TensorRef grid = grid_of(t);
    TensorRef dense = plan.Temporary(ACL_FLOAT, w.k_contiguous ? Shape{n, groups} : Shape{groups, n});
    plan.Copy(w.k_contiguous ? Transpose(grid, 0, 1) : grid, dense);
    return dense;
  };
  w.data = weight.buffer;
  w.has_offset = offset != nullptr;
  // The fused product of a K-contiguous weight reads f32 / f16 / bf16 scales
  // where they lie when they are already [n, groups] and dense: ggml's
  // transposed scales are, and copying them would cost up to a third of what
  // reading an INT4 weight does.
  const auto in_place = [&](const TensorRef& t) {
    const bool dtype_ok = t.dtype == ACL_FLOAT || t.dtype == ACL_FLOAT16 || t.dtype == ACL_BF16;
    return dtype_ok && t.dtype == scale.dtype && Transpose(grid_of(t), 0, 1).IsContiguous();
  };
  const bool fused = kernels::QuantFusedTakes(w, m, x.dtype);
  if (fused && w.k_contiguous && in_place(scale) && (offset == nullptr || in_place(*offset))) {
    w.scale = scale.buffer;
    w.scale_dtype = scale.dtype;
    if (w.has_offset) w.offset = offset->buffer;
  } else {
    w.scale = as_groups(scale).buffer;
    if (w.has_offset) w.offset = as_groups(*offset).buffer;
  }

  if (!fused) {
    // Many rows the fused product does not take: the product's cost dwarfs one dequantisation of the weight.
    // With bf16 activations the dequantised weight is rounded to bf16, as the
    // NPU's antiquantisation makes it in the activations' dtype, so that the
    // product runs as a bf16 one (f32 accumulation) at the CPU's bf16 rate.
    const aclDataType dense_dtype = x.dtype == ACL_BF16 ? ACL_BF16 : ACL_FLOAT;
    const TensorRef dense = plan.Temporary(dense_dtype, w.k_contiguous ? Shape{n, k} : Shape{k, n});
    plan.AddStep(kernels::MakeDequantizeWeightStep(w, dense.buffer, dense_dtype));
    const TensorRef weights = w.k_contiguous ? Transpose(dense, 0, 1) : dense;
    ProductTerms terms;
    TensorRef bias_rows;
    if (bias != nullptr) {
      bias_rows = BroadcastTo(bias->rank() == 1 ? Unsqueeze(*bias, 0) : *bias, {m, n});
      terms.beta = 1.0f;
      terms.bias = &bias_rows;
    }
    return PlanProduct(plan, x, weights, y, 0, terms);
  }

  kernels::QuantMatmulDesc desc;
  desc.w = w;
  desc.m = m;
  desc.x = plan.Contiguous(x, ACL_FLOAT).buffer;
  desc.x_source = x.dtype;
  const TensorRef result = plan.Temporary(ACL_FLOAT, {m, n});
  desc.y = result.buffer;
  if (bias != nullptr) {
    const TensorRef bias_f32 = plan.Temporary(ACL_FLOAT, {n});
    plan.Copy(bias->rank() == 2 ? Select(*bias, 0, 0) : *bias, bias_f32);
    desc.bias = bias_f32.buffer;
    desc.has_bias = true;
  }
  desc.scratch = plan.Temporary(ACL_UINT8, {kernels::QuantMatmulScratchBytes(desc)}).buffer;
  plan.AddStep(kernels::MakeQuantMatmulStep(desc));
  plan.Copy(result, y);
  return ACLNN_SUCCESS;
}

TensorRef DeqScaleValues(const TensorRef& t) {
  if (t.dtype != ACL_UINT64 && t.dtype != ACL_INT64) return t;
  TensorRef words = t;
  words.dtype = ACL_FLOAT;
  for (int64_t& stride : words.strides) stride *= 2;
  return words;
}

void PlanDequantizeExperts(Plan& plan, const TensorRef& w, const TensorRef& scales, const TensorRef* offsets,
                           const TensorRef& dense) {
  const int64_t experts = w.shape[0], k = w.shape[1], n = w.shape[2];
  for (int64_t e = 0; e < experts; ++e) {
    kernels::QuantWeight q;
    q.dtype = w.dtype;
    q.data = w.buffer;
    const int64_t first = e * k * n;
    q.data.byte_offset += ElementByteOffset(w.dtype, first);
    q.k_contiguous = false;
    q.ld = n;
    q.k = k;
    q.n = n;
    q.group_size = k / scales.shape[1];
    q.scale = Select(scales, 0, e).buffer;
    if (offsets != nullptr) {
      q.offset = Select(*offsets, 0, e).buffer;
      q.has_offset = true;
    }
    plan.AddStep(kernels::MakeDequantizeWeightStep(q, Select(dense, 0, e).buffer));
  }
}

}  // namespace canopy::ops

namespace {

aclnnStatus PlanWeightQuantBatchMatmulV2(Plan& plan, const aclTensor* x, const aclTensor* weight,
                                         const aclTensor* antiquant_scale, const aclTensor* antiquant_offset,
                                         const aclTensor* quant_scale, const aclTensor* quant_offset,
                                         const aclTensor* bias, int group_size, const aclTensor* y) {
  // Formats: the weight may be FRACTAL_NZ (Canopy's NZ is ND), the rest is plain.
  if (weight->format != ACL_FORMAT_FRACTAL_NZ) CANOPY_CHECK(plan.CheckPlainFormat("weight", weight));
  CANOPY_CHECK(CheckPlain(plan, "x", x));
  CANOPY_CHECK(CheckPlain(plan, "antiquantScale", antiquant_scale));
  CANOPY_CHECK(CheckPlain(plan, "antiquantOffsetOptional", antiquant_offset));
  CANOPY_CHECK(CheckPlain(plan, "quantScaleOptional", quant_scale));
  CANOPY_CHECK(CheckPlain(plan, "quantOffsetOptional", quant_offset));
  CANOPY_CHECK(CheckPlain(plan, "biasOptional", bias));
  CANOPY_CHECK(CheckPlain(plan, "y", y));

  // Dtypes.
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kActivationDtypes));
  CANOPY_CHECK(plan.CheckDtype("weight", weight->dtype, kWeightDtypes));
  const DtypeSet same_as_x = DtypeSet{x->dtype};
  CANOPY_CHECK(plan.CheckDtype("antiquantScale", antiquant_scale->dtype, same_as_x));
  if (antiquant_offset != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("antiquantOffsetOptional", antiquant_offset->dtype, same_as_x));
  }
  if (quant_offset != nullptr && quant_scale == nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "quantOffsetOptional is given without quantScaleOptional");
  }
  if (quant_scale != nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "quantScaleOptional (quantising y to INT8) is not implemented on Canopy; pass null");
  }
  if (bias != nullptr) {
    // FLOAT16 x takes a FLOAT16 bias, BFLOAT16 x a FLOAT one.
    CANOPY_CHECK(
        plan.CheckDtype("biasOptional", bias->dtype, DtypeSet{x->dtype == ACL_BF16 ? ACL_FLOAT : ACL_FLOAT16}));
  }
  CANOPY_CHECK(plan.CheckDtype("y", y->dtype, same_as_x));

  // Ranks and shapes.
  CANOPY_CHECK(plan.CheckRank("x", x, 2, 2));
  CANOPY_CHECK(plan.CheckRank("weight", weight, 2, 2));
  CANOPY_CHECK(plan.CheckRank("antiquantScale", antiquant_scale, 1, 2));
  if (bias != nullptr) CANOPY_CHECK(plan.CheckRank("biasOptional", bias, 1, 2));
  CANOPY_CHECK(plan.CheckRank("y", y, 2, 2));
  const int64_t m = x->view_shape[0], k = x->view_shape[1], n = weight->view_shape[1];
  if (weight->view_shape[0] != k) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x %s and weight %s do not agree on k",
                       ShapeToString(x->view_shape).c_str(), ShapeToString(weight->view_shape).c_str());
  }
  if (k < 1 || k > kMaxKN || n < 1 || n > kMaxKN || m < 1 || m > kMaxM) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "m = %lld, k = %lld, n = %lld: k and n must lie in [1, 65535] and m in [1, 2^31 - 1] "
                       "(empty tensors are not supported)",
                       static_cast<long long>(m), static_cast<long long>(k), static_cast<long long>(n));
  }
  if (group_size != 0 && (group_size < kGroupAlign || group_size > k - 1 || group_size % kGroupAlign != 0)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "antiquantGroupSize %d must be 0 or a multiple of 32 in [32, k - 1] (k = %lld)", group_size,
                       static_cast<long long>(k));
  }
  const Shape& ss = antiquant_scale->view_shape;
  const int64_t groups = group_size == 0 ? 1 : (k + group_size - 1) / group_size;
  const bool per_tensor = group_size == 0 && (ss == Shape{1} || ss == Shape{1, 1});
  const bool per_channel = group_size == 0 && (ss == Shape{n} || ss == Shape{1, n});
  const bool per_group = group_size != 0 && ss == Shape{groups, n};
  if (!per_tensor && !per_channel && !per_group) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "antiquantScale %s fits no mode: [1] or [1, 1] per tensor, [%lld] or [1, %lld] per channel "
                       "(antiquantGroupSize 0), [%lld, %lld] per group of %d",
                       ShapeToString(ss).c_str(), static_cast<long long>(n), static_cast<long long>(n),
                       static_cast<long long>(groups), static_cast<long long>(n), group_size);
  }
  if (antiquant_offset != nullptr && antiquant_offset->view_shape != ss) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "antiquantOffsetOptional %s must have antiquantScale's shape %s",
                       ShapeToString(antiquant_offset->view_shape).c_str(), ShapeToString(ss).c_str());
  }
  if (bias != nullptr && bias->view_shape != Shape{n} && bias->view_shape != Shape{1, n}) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "biasOptional %s must be [%lld] or [1, %lld]",
                       ShapeToString(bias->view_shape).c_str(), static_cast<long long>(n), static_cast<long long>(n));
  }
  CANOPY_CHECK(plan.CheckShape("y", y, {m, n}));

  // Layouts: contiguous or transposed; INT4 pairs must share a byte.
  CANOPY_CHECK(CheckLayout(plan, "x", x));
  kernels::QuantWeight w;
  CANOPY_CHECK(DescribeQuantWeight(plan, weight, antiquant_scale, antiquant_offset, group_size, w));

  const TensorRef x_in = plan.Input(x, "x");
  const TensorRef w_in = plan.Input(weight, "weight");
  const TensorRef scale_in = plan.Input(antiquant_scale, "antiquantScale");
  TensorRef offset_in;
  if (antiquant_offset != nullptr) {
    offset_in = plan.Input(antiquant_offset, "antiquantOffsetOptional");
  } else {
    plan.SkipInput();
  }
  plan.SkipInput();  // quantScaleOptional
  plan.SkipInput();  // quantOffsetOptional
  TensorRef bias_in;
  if (bias != nullptr) {
    bias_in = plan.Input(bias, "biasOptional");
  } else {
    plan.SkipInput();
  }
  const TensorRef y_out = plan.Output(y, "y");

  return PlanWeightQuantProduct(plan, w, x_in, w_in, scale_in, antiquant_offset != nullptr ? &offset_in : nullptr,
                                bias != nullptr ? &bias_in : nullptr, y_out);
}

aclnnStatus PlanWeightQuantBatchMatmulV3(Plan& plan, const aclTensor* x, const aclTensor* weight,
                                         const aclTensor* antiquant_scale, const aclTensor* antiquant_offset,
                                         const aclTensor* quant_scale, const aclTensor* quant_offset,
                                         const aclTensor* bias, int antiquant_group_size, int inner_precise,
                                         const aclTensor* y) {
  if (inner_precise != 0 && inner_precise != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'innerPrecise' is %d; it must be 0 (high precision) or 1 (high performance)",
                       inner_precise);
  }
  return PlanWeightQuantBatchMatmulV2(plan, x, weight, antiquant_scale, antiquant_offset, quant_scale, quant_offset,
                                      bias, antiquant_group_size, y);
}

}  // namespace

CANOPY_ACLNN_OP(WeightQuantBatchMatmulV2, PlanWeightQuantBatchMatmulV2,
                (OpTraits{.header = "aclnnop/aclnn_weight_quant_batch_matmul_v2.h",
                          .dtypes = kActivationDtypes,
                          .private_formats = true,
                          .example = "f16[2,2] i8[2,3] f16[3] f16[3] - - f16[3] 0 f16[2,3]"}),
                (const aclTensor*, x), (const aclTensor*, weight), (const aclTensor*, antiquantScale),
                (const aclTensor*, antiquantOffsetOptional, optional), (const aclTensor*, quantScaleOptional, optional),
                (const aclTensor*, quantOffsetOptional, optional), (const aclTensor*, biasOptional, optional),
                (int, antiquantGroupSize), (const aclTensor*, y))

CANOPY_ACLNN_OP(WeightQuantBatchMatmulV3, PlanWeightQuantBatchMatmulV3,
                (OpTraits{.header = "aclnnop/aclnn_weight_quant_batch_matmul_v3.h",
                          .dtypes = kActivationDtypes,
                          .private_formats = true,
                          .example = "f16[2,2] i8[2,3] f16[3] f16[3] - - f16[3] 0 1 f16[2,3]"}),
                (const aclTensor*, x), (const aclTensor*, weight), (const aclTensor*, antiquantScale),
                (const aclTensor*, antiquantOffsetOptional, optional), (const aclTensor*, quantScaleOptional, optional),
                (const aclTensor*, quantOffsetOptional, optional), (const aclTensor*, biasOptional, optional),
                (int, antiquantGroupSize), (int, innerPrecise), (const aclTensor*, y))
