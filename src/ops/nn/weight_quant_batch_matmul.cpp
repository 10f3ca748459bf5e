// aclnnWeightQuantBatchMatmul (the first, deprecated form): out = x1 @ w + bias, FLOAT16, with w the INT8 x2
// dequantised to FLOAT16 in one of two ways, chosen by m as CANN's host code does:
//   m <= 64 (the fixpipe kernel): w = (x2 + deqOffset) * deqScale, deqScale aclnnTransQuantParam's UINT64 words;
//     diagonalMatrix (the [32, 32] identity the NPU multiplies x2 by to reach its fixpipe) is checked, not read.
//     Canopy reads this as the fixpipe's usual dequantisation of an INT32 value plus an INT32 offset (as
//     QuantMatmul's INT32 bias), the vectors being one value per column n or one for all.
//   m > 64: w = ((f32(x2) + antiquantOffset) * antiquantScale, rounded to FLOAT16, + addOffset) * mulScale,
//     each FLOAT16 step rounded, addOffset and mulScale broadcast against x2 as stored.
// The product runs in f32 (FLOAT16 operands) and is rounded once. x1 and x2 are 2-D (the doc: no batch axis).
#include <cmath>
#include <limits>

#include "aclnnop/aclnn_weight_quant_batch_matmul.h"
#include "kernels/quant_matmul_epilogue.h"
#include "matmul_planner.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr int64_t kFixpipeMaxRows = 64;  // CANN's M_THRESHOLD: the fixpipe kernel up to this m
constexpr int64_t kDiagonalExtent = 32;
constexpr int64_t kMatrixRank = 2;

// CANN's broadcast rule for the dequantisation vectors: rank 1 holds 1 or n values (1 only when x2 is
// transposed); a higher rank has 1 or n along x2's n axis (the last, or the one before when transposed).
aclnnStatus CheckDequantVector(Plan& plan, const char* name, const aclTensor* t, bool transposed, int64_t n) {
  const Shape& s = t->view_shape;
  bool ok = true;
  if (s.size() == 1) {
    ok = s[0] == 1 || (!transposed && s[0] == n);
  } else if (s.size() > 1) {
    const int64_t along_n = transposed ? s[s.size() - 2] : s.back();
    ok = along_n == 1 || along_n == n;
  }
  if (!ok) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument '%s' has shape %s; it must hold 1 or n = %lld values "
                       "along x2's n axis (one value if 1-D with a transposed x2)",
                       name, ShapeToString(s).c_str(), static_cast<long long>(n));
  }
  return ACLNN_SUCCESS;
}

// A vector of 1 or n values as a contiguous [n] tensor of `dtype` (the fixpipe's per-column operand).
TensorRef PerColumn(Plan& plan, const TensorRef& t, aclDataType dtype, int64_t n) {
  const TensorRef flat = *Reshape(plan.Contiguous(t, t.dtype), {t.NumElements()});
  TensorRef dst = plan.Temporary(dtype, {n});
  plan.Copy(BroadcastTo(flat, {n}), dst);
  return dst;
}

aclnnStatus PlanWeightQuantBatchMatmul(Plan& plan, const aclTensor* x1, const aclTensor* x2,
                                       const aclTensor* diagonal_matrix, const aclTensor* deq_offset,
                                       const aclTensor* deq_scale, const aclTensor* add_offset,
                                       const aclTensor* mul_scale, const aclTensor* bias, bool transpose_x1,
                                       bool transpose_x2, float antiquant_scale, float antiquant_offset,
                                       const aclTensor* out) {
  for (const auto& [name, t] : {std::pair{"x1", x1}, std::pair{"x2", x2}}) {
    if (t->rank() != kMatrixRank) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has rank %lld; it must be 2", name,
                         static_cast<long long>(t->rank()));
    }
  }
  const int64_t m = transpose_x1 ? x1->view_shape[1] : x1->view_shape[0];
  const int64_t k = transpose_x1 ? x1->view_shape[0] : x1->view_shape[1];
  const int64_t k2 = transpose_x2 ? x2->view_shape[1] : x2->view_shape[0];
  const int64_t n = transpose_x2 ? x2->view_shape[0] : x2->view_shape[1];
  const bool fixpipe = m <= kFixpipeMaxRows;
  if (fixpipe) {
    for (const auto& [name, t] : {std::pair{"diagonalMatrix", diagonal_matrix}, std::pair{"deqOffset", deq_offset},
                                  std::pair{"deqScale", deq_scale}}) {
      if (t == nullptr) {
        return plan.Reject(ACLNN_ERR_PARAM_NULLPTR, "argument '%s' is null; m = %lld (at most 64) needs it", name,
                           static_cast<long long>(m));
      }
    }
  }
  // ---- dtypes (the host code's lists: out is FLOAT16 only, where the doc also names INT8)
  CANOPY_CHECK(plan.CheckDtype("x1", x1->dtype, {ACL_FLOAT16}));
  CANOPY_CHECK(plan.CheckDtype("x2", x2->dtype, {ACL_INT8}));
  if (bias != nullptr) CANOPY_CHECK(plan.CheckDtype("bias", bias->dtype, {ACL_FLOAT}));
  if (fixpipe) {
    CANOPY_CHECK(plan.CheckDtype("diagonalMatrix", diagonal_matrix->dtype, {ACL_INT8}));
    CANOPY_CHECK(plan.CheckDtype("deqOffset", deq_offset->dtype, {ACL_INT32}));
    CANOPY_CHECK(plan.CheckDtype("deqScale", deq_scale->dtype, {ACL_UINT64}));
  } else {
    if (add_offset != nullptr) CANOPY_CHECK(plan.CheckDtype("addOffset", add_offset->dtype, {ACL_FLOAT16}));
    if (mul_scale != nullptr) CANOPY_CHECK(plan.CheckDtype("mulScale", mul_scale->dtype, {ACL_FLOAT16}));
  }
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, {ACL_FLOAT16}));
  // ---- shapes
  if (fixpipe) {
    CANOPY_CHECK(CheckDequantVector(plan, "deqOffset", deq_offset, false, n));
    CANOPY_CHECK(CheckDequantVector(plan, "deqScale", deq_scale, false, n));
    for (const auto& [name, t] : {std::pair{"deqOffset", deq_offset}, std::pair{"deqScale", deq_scale}}) {
      if (t->NumElements() != 1 && t->NumElements() != n) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; it must hold 1 or n = %lld values",
                           name, ShapeToString(t->view_shape).c_str(), static_cast<long long>(n));
      }
    }
    CANOPY_CHECK(plan.CheckShape("diagonalMatrix", diagonal_matrix, {kDiagonalExtent, kDiagonalExtent}));
  } else {
    for (const auto& [name, t] : {std::pair{"addOffset", add_offset}, std::pair{"mulScale", mul_scale}}) {
      if (t == nullptr) continue;
      CANOPY_CHECK(CheckDequantVector(plan, name, t, transpose_x2, n));
      Shape broadcast;
      if (!BroadcastShapes(t->view_shape, x2->view_shape, broadcast) || broadcast != x2->view_shape) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' %s does not broadcast to x2 %s", name,
                           ShapeToString(t->view_shape).c_str(), ShapeToString(x2->view_shape).c_str());
      }
    }
  }
  if (bias != nullptr && (bias->rank() != 1 || (bias->view_shape[0] != 1 && bias->view_shape[0] != n))) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'bias' has shape %s; it must be [n] = [%lld] or [1]",
                       ShapeToString(bias->view_shape).c_str(), static_cast<long long>(n));
  }
  if (k != k2) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x1's k (%lld) and x2's k (%lld) differ", static_cast<long long>(k),
                       static_cast<long long>(k2));
  }
  CANOPY_CHECK(plan.CheckShape("out", out, {m, n}));

  // ---- operands, in the prototype's order
  const auto input_or_skip = [&plan](const aclTensor* t, const char* name) {
    if (t == nullptr) {
      plan.SkipInput();
      return TensorRef{};
    }
    return plan.Input(t, name);
  };
  const TensorRef x1_in = plan.Input(x1, "x1");
  const TensorRef x2_in = plan.Input(x2, "x2");
  input_or_skip(diagonal_matrix, "diagonalMatrix");
  const TensorRef deq_offset_in = input_or_skip(deq_offset, "deqOffset");
  const TensorRef deq_scale_in = input_or_skip(deq_scale, "deqScale");
  const TensorRef add_offset_in = input_or_skip(add_offset, "addOffset");
  const TensorRef mul_scale_in = input_or_skip(mul_scale, "mulScale");
  const TensorRef bias_in = input_or_skip(bias, "bias");
  const TensorRef out_ref = plan.Output(out, "out");
  if (m == 0 || n == 0) return ACLNN_SUCCESS;

  // ---- the FLOAT16 weight w [k, n]
  TensorRef weight = plan.Temporary(ACL_FLOAT16, {k, n});
  if (k > 0 && fixpipe) {
    // (x2 + deqOffset) * deqScale per column: QuantMatmul's epilogue over x2 as INT32 rows.
    const TensorRef acc = plan.Temporary(ACL_INT32, {k, n});
    plan.Copy(transpose_x2 ? Transpose(x2_in, 0, 1) : x2_in, acc);
    kernels::QuantEpilogueDesc epilogue;
    epilogue.batch = 1;
    epilogue.m = k;
    epilogue.n = n;
    epilogue.acc = acc.buffer;
    epilogue.out_dtype = ACL_FLOAT16;
    epilogue.out = weight.buffer;
    epilogue.scale_dtype = ACL_UINT64;
    epilogue.scale = plan.Contiguous(deq_scale_in, ACL_UINT64).buffer;
    epilogue.scale_count = deq_scale->NumElements();
    epilogue.has_bias = true;
    epilogue.bias_dtype = ACL_INT32;
    epilogue.bias = PerColumn(plan, deq_offset_in, ACL_INT32, n).buffer;
    plan.AddStep(kernels::MakeQuantEpilogueStep(epilogue));
  } else if (k > 0) {
    // CANN's chain of FLOAT16 ops over x2 as stored, each rounded.
    const TensorRef stored = plan.Temporary(ACL_FLOAT, x2_in.shape);
    plan.Copy(x2_in, stored);
    const auto close = [](float a, float b) { return std::fabs(a - b) <= std::numeric_limits<float>::epsilon(); };
    if (!close(antiquant_offset, 0.0f)) {
      plan.Elementwise(ElementwiseOp::kAdd, ComputeType::kF32, {stored}, stored, ScalarValue::Integer(1),
                       ScalarValue::Real(antiquant_offset));
    }
    if (!close(antiquant_scale, 1.0f)) {
      plan.Elementwise(ElementwiseOp::kMul, ComputeType::kF32, {stored}, stored, ScalarValue::Integer(1),
                       ScalarValue::Real(antiquant_scale));
    }
    const TensorRef half = plan.Temporary(ACL_FLOAT16, x2_in.shape);
    plan.Copy(stored, half);
    if (add_offset != nullptr) {
      plan.Elementwise(ElementwiseOp::kAdd, ComputeType::kF32, {half, BroadcastTo(add_offset_in, half.shape)}, half,
                       ScalarValue::Integer(1));
    }
    if (mul_scale != nullptr) {
      plan.Elementwise(ElementwiseOp::kMul, ComputeType::kF32, {half, BroadcastTo(mul_scale_in, half.shape)}, half,
                       ScalarValue::Integer(1));
    }
    weight = transpose_x2 ? Transpose(half, 0, 1) : half;
  }

  // ---- the product (the m > 64 path adds the bias in FLOAT16, as CANN casts it first)
  ProductTerms terms;
  TensorRef bias_rows;
  if (bias != nullptr) {
    TensorRef bias_vector = bias_in;
    if (!fixpipe) {
      bias_vector = plan.Temporary(ACL_FLOAT16, bias_in.shape);
      plan.Copy(bias_in, bias_vector);
    }
    bias_rows = BroadcastTo(Unsqueeze(bias_vector, 0), {m, n});
    terms.beta = 1.0f;
    terms.bias = &bias_rows;
  }
  return PlanProduct(plan, transpose_x1 ? Transpose(x1_in, 0, 1) : x1_in, weight, out_ref, 0, terms);
}

}  // namespace

CANOPY_ACLNN_OP(WeightQuantBatchMatmul, PlanWeightQuantBatchMatmul,
                (OpTraits{.header = "aclnnop/aclnn_weight_quant_batch_matmul.h",
                          .dtypes = {ACL_FLOAT16, ACL_INT8, ACL_INT32, ACL_UINT64, ACL_FLOAT},
                          .max_rank = 2,
                          .example = "f16[65,8] i8[8,6] - - - f16[6] f16[6] f32[6] false false 1 0 f16[65,6]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, diagonalMatrix, optional),
                (const aclTensor*, deqOffset, optional), (const aclTensor*, deqScale, optional),
                (const aclTensor*, addOffset, optional), (const aclTensor*, mulScale, optional),
                (const aclTensor*, bias, optional), (bool, transposeX1), (bool, transposeX2), (float, antiquantScale),
                (float, antiquantOffset), (aclTensor*, out))
