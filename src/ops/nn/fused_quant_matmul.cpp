// aclnnFusedQuantMatmul and aclnnFusedQuantMatmulWeightNz: QuantMatmulV4's
// product with x1Scale the per-token scale and x2Scale the per-channel (or
// per-tensor) scale, then GELU:
//   qbmmout = (x1 @ x2 + bias) * x2Scale * x1Scale    (INT32 bias)
//   qbmmout = x1 @ x2 * x2Scale * x1Scale + bias       (f32 / f16 / bf16 bias)
//   out = gelu_erf(qbmmout) or gelu_tanh(qbmmout)      (fusedOpType)
// qbmmout stays f32 until the GELU's result is stored in out's dtype. x1 and
// x2 may be transposed views of their last two dims (CANN reads the
// transposition from the strides; Canopy multiplies the views as they are);
// x2 may be FRACTAL_NZ in both forms, as QuantMatmulV4's (checked in the WeightNz form).
//
// CANN's order: fusedOpType; x1Scale, x2Scale and out present, and the reserved
// yScale, x1Offset, x2Offset, yOffset, x3 null or empty and groupSize 0 (all
// 161001); ranks (x1, out 2-6; the scales 1-D); A8W8 or A4W4; x1Scale [m] and
// x2Scale [n] or [1]; then QuantMatmulV4's checks (quant_matmul.h), which
// Canopy shares. No operand may be empty. A4W4 (INT4 / INT32-packed x1 and x2)
// passes CANN's checks and is not computed by Canopy (561003, as QuantMatmulV4).
//
// The WeightNz form takes x2 in FRACTAL_NZ with CANN's INT8 NZ storage shape,
// [..., ceil(n / 32), ceil(k / 16), 16, 32] for a [k, n] weight stored row-major
// (its transpose: [..., ceil(k / 32), ceil(n / 16), 16, 32]), and reads it
// through its view (see trans_matmul_weight.cpp); an ND x2 (the descriptor
// Canopy's TransMatmulWeight leaves) is taken too.
#include <cstring>

#include "aclnnop/aclnn_fused_quant_matmul.h"
#include "aclnnop/aclnn_fused_quant_matmul_weight_nz.h"
#include "common/shape.h"
#include "nnopbase/meta_objects.h"
#include "ops/framework/aclnn_op.h"
#include "quant_matmul.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr int64_t kMinRank = 2, kMaxRank = 6;
constexpr int64_t kNzRows = 16, kNzColumns = 32;  // an INT8 NZ block: 16 rows of 32 bytes

// The last two dims of a view whose storage holds them swapped (a transposed matrix).
bool LastTwoSwapped(const aclTensor* t) {
  const size_t r = t->view_shape.size();
  return t->strides[r - 2] == 1 && t->strides[r - 1] == t->view_shape[r - 2] && t->view_shape[r - 1] > 1;
}

// CANN's INT8 NZ storage of x2: the stored matrix [rows, columns] as
// [..., ceil(columns / 32), ceil(rows / 16), 16, 32] after the view's batch dims.
aclnnStatus CheckNzStorage(Plan& plan, const aclTensor* x2) {
  const Shape& view = x2->view_shape;
  const size_t r = view.size();
  const bool swapped = LastTwoSwapped(x2);
  const int64_t rows = swapped ? view[r - 1] : view[r - 2], columns = swapped ? view[r - 2] : view[r - 1];
  Shape expected(view.begin(), view.end() - 2);
  expected.insert(expected.end(), {CeilDiv(columns, kNzColumns), CeilDiv(rows, kNzRows), kNzRows, kNzColumns});
  if (x2->storage_shape != expected) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "x2 is FRACTAL_NZ with storage shape %s; for its view %s it must be %s (aclnnTransMatmulWeight "
                       "prepares such a weight)",
                       ShapeToString(x2->storage_shape).c_str(), ShapeToString(view).c_str(),
                       ShapeToString(expected).c_str());
  }
  if (view[r - 2] == 1 || view[r - 1] == 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x2 %s: an NZ weight's k and n must not be 1",
                       ShapeToString(view).c_str());
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanFused(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* x1_scale,
                      const aclTensor* x2_scale, const aclTensor* y_scale, const aclTensor* x1_offset,
                      const aclTensor* x2_offset, const aclTensor* y_offset, const aclTensor* bias, const aclTensor* x3,
                      const char* fused_op_type, int64_t group_size, const aclTensor* out, bool weight_nz) {
  if (weight_nz) {
    CANOPY_CHECK(plan.CheckRank("x2", x2, kMinRank, kMaxRank));
    if (x2->format == ACL_FORMAT_FRACTAL_NZ) {
      CANOPY_CHECK(CheckNzStorage(plan, x2));
    } else if (x2->format != ACL_FORMAT_ND) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'x2' has format %d; it must be FRACTAL_NZ",
                         static_cast<int>(x2->format));
    }
  }
  UnaryOp gelu = UnaryOp::kGeluErf;
  if (std::strcmp(fused_op_type, "gelu_tanh") == 0) {
    gelu = UnaryOp::kGeluTanh;
  } else if (std::strcmp(fused_op_type, "gelu_erf") != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'fusedOpType' is '%s'; it must be 'gelu_erf' or 'gelu_tanh'",
                       fused_op_type);
  }
  for (const auto& [name, t] : {std::pair{"yScaleOptional", y_scale}, std::pair{"x1OffsetOptional", x1_offset},
                                std::pair{"x2OffsetOptional", x2_offset}, std::pair{"yOffsetOptional", y_offset},
                                std::pair{"x3Optional", x3}}) {
    if (t != nullptr && t->NumElements() != 0) {
      return plan.Reject(ACLNN_ERR_PARAM_NULLPTR, "argument '%s' is reserved: it must be null or empty (shape %s)",
                         name, ShapeToString(t->view_shape).c_str());
    }
  }
  if (group_size != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_NULLPTR, "argument 'groupSizeOptional' is %lld; it must be 0",
                       static_cast<long long>(group_size));
  }
  CANOPY_CHECK(plan.CheckRank("x2", x2, kMinRank, kMaxRank));
  CANOPY_CHECK(plan.CheckRank("x1", x1, kMinRank, kMaxRank));
  CANOPY_CHECK(plan.CheckRank("out", out, kMinRank, kMaxRank));
  CANOPY_CHECK(plan.CheckRank("x1Scale", x1_scale, 1, 1));
  CANOPY_CHECK(plan.CheckRank("x2Scale", x2_scale, 1, 1));
  const bool a8w8 = x1->dtype == ACL_INT8 && x2->dtype == ACL_INT8;
  const bool a4w4 =
      (x1->dtype == ACL_INT4 || x1->dtype == ACL_INT32) && (x2->dtype == ACL_INT4 || x2->dtype == ACL_INT32);
  if (!a8w8 && !a4w4) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x1 (%s) and x2 (%s) must both be INT8 (A8W8) or INT4 (A4W4)",
                       DtypeName(x1->dtype), DtypeName(x2->dtype));
  }
  const Shape& s1 = x1->view_shape;
  const Shape& s2 = x2->view_shape;
  const int64_t m = s1[s1.size() - 2], n = s2.back();
  if (x1_scale->view_shape[0] != m) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x1Scale %s must be [m] = [%lld] (per-token)",
                       ShapeToString(x1_scale->view_shape).c_str(), static_cast<long long>(m));
  }
  if (x2_scale->view_shape[0] != n && x2_scale->view_shape[0] != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x2Scale %s must be [n] = [%lld] or [1]",
                       ShapeToString(x2_scale->view_shape).c_str(), static_cast<long long>(n));
  }
  QuantProduct product;
  const QuantArgumentNames names{.scale = "x2Scale", .offset = "x2OffsetOptional", .pertoken = "x1Scale"};
  CANOPY_CHECK(CheckQuantMatmul(plan, x1, x2, x2_scale, nullptr, x1_scale, bias, false, false, out, names, product));
  for (const auto& [name, t] : {std::pair{"x1", x1}, std::pair{"x2", x2}, std::pair{"out", out}}) {
    if (t->NumElements() == 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' %s is empty; it must not be", name,
                         ShapeToString(t->view_shape).c_str());
    }
  }

  // ---- operands, in the prototype's order
  product.x1 = plan.Input(x1, "x1");
  product.x2 = plan.Input(x2, "x2");
  product.pertoken = plan.Input(x1_scale, "x1Scale");
  product.scale = plan.Input(x2_scale, "x2Scale");
  InputOrSkip(plan, y_scale, "yScaleOptional");  // null or empty
  InputOrSkip(plan, x1_offset, "x1OffsetOptional");
  InputOrSkip(plan, x2_offset, "x2OffsetOptional");
  InputOrSkip(plan, y_offset, "yOffsetOptional");
  product.bias = InputOrSkip(plan, bias, "biasOptional");
  InputOrSkip(plan, x3, "x3Optional");
  const TensorRef result = plan.Output(out, "out");
  // qbmmout in f32, then the GELU into out's dtype.
  product.out = plan.Temporary(ACL_FLOAT, result.shape);
  CANOPY_CHECK(PlanQuantProduct(plan, product));
  plan.Unary(gelu, ComputeType::kF32, product.out, result);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanFusedQuantMatmul(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* x1_scale,
                                 const aclTensor* x2_scale, const aclTensor* y_scale, const aclTensor* x1_offset,
                                 const aclTensor* x2_offset, const aclTensor* y_offset, const aclTensor* bias,
                                 const aclTensor* x3, const char* fused_op_type, int64_t group_size,
                                 const aclTensor* out) {
  return PlanFused(plan, x1, x2, x1_scale, x2_scale, y_scale, x1_offset, x2_offset, y_offset, bias, x3, fused_op_type,
                   group_size, out, false);
}

aclnnStatus PlanFusedQuantMatmulWeightNz(Plan& plan, const aclTensor* x1, const aclTensor* x2,
                                         const aclTensor* x1_scale, const aclTensor* x2_scale, const aclTensor* y_scale,
                                         const aclTensor* x1_offset, const aclTensor* x2_offset,
                                         const aclTensor* y_offset, const aclTensor* bias, const aclTensor* x3,
                                         const char* fused_op_type, int64_t group_size, const aclTensor* out) {
  return PlanFused(plan, x1, x2, x1_scale, x2_scale, y_scale, x1_offset, x2_offset, y_offset, bias, x3, fused_op_type,
                   group_size, out, true);
}

constexpr DtypeSet kFusedQuantDtypes = {ACL_INT8, ACL_FLOAT, ACL_BF16, ACL_FLOAT16, ACL_INT32};

}  // namespace

#define CANOPY_FUSED_QUANT_MATMUL_ARGS                                                                      \
  (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, x1Scale), (const aclTensor*, x2Scale), \
      (const aclTensor*, yScaleOptional, optional), (const aclTensor*, x1OffsetOptional, optional),         \
      (const aclTensor*, x2OffsetOptional, optional), (const aclTensor*, yOffsetOptional, optional),        \
      (const aclTensor*, biasOptional, optional), (const aclTensor*, x3Optional, optional),                 \
      (const char*, fusedOpType), (int64_t, groupSizeOptional), (aclTensor*, out)

CANOPY_ACLNN_OP(FusedQuantMatmul, PlanFusedQuantMatmul,
                (OpTraits{.header = "aclnnop/aclnn_fused_quant_matmul.h",
                          .dtypes = kFusedQuantDtypes,
                          .max_rank = kMaxRank,
                          .private_formats = true,
                          .example = "i8[4,32] i8[32,16] f32[4] f32[16] - - - - i32[16] - 'gelu_tanh' 0 bf16[4,16]"}),
                CANOPY_FUSED_QUANT_MATMUL_ARGS)
CANOPY_ACLNN_OP(FusedQuantMatmulWeightNz, PlanFusedQuantMatmulWeightNz,
                (OpTraits{.header = "aclnnop/aclnn_fused_quant_matmul_weight_nz.h",
                          .dtypes = kFusedQuantDtypes,
                          .max_rank = kMaxRank,
                          .private_formats = true,
                          .example = "i8[4,32] i8[32,16] f32[4] f32[16] - - - - i32[16] - 'gelu_erf' 0 f16[4,16]"}),
                CANOPY_FUSED_QUANT_MATMUL_ARGS)
