// The quantised MatmulAllReduceAddRmsNorm forms on Atlas A2, each in place
// (y written over residual) or not:
//   QuantMatmulAllReduceAddRmsNorm:       part = dequantScale * (x1 @ x2 + bias)   (INT8, INT32 bias)
//   WeightQuantMatmulAllReduceAddRmsNorm: part = x1 @ ((x2 + offset) * scale) + bias  (INT8 / INT4 x2)
// then y = residual + allreduce(part), normOut = rmsnorm(y) * gamma, on the
// AddRmsNorm tail the float form uses (matmul_all_reduce_add_rms_norm.h).
#include "aclnnop/aclnn_inplace_quant_matmul_all_reduce_add_rms_norm.h"
#include "aclnnop/aclnn_inplace_weight_quant_matmul_all_reduce_add_rms_norm.h"
#include "aclnnop/aclnn_quant_matmul_all_reduce_add_rms_norm.h"
#include "aclnnop/aclnn_weight_quant_matmul_all_reduce_add_rms_norm.h"
#include "common/dtype.h"
#include "matmul_all_reduce.h"
#include "matmul_all_reduce_add_rms_norm.h"
#include "ops/nn/quant_matmul.h"
#include "weight_quant_all_reduce.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kHalves = {ACL_FLOAT16, ACL_BF16};

// [1], [n] or [1, n].
bool IsScaleOfN(const aclTensor* t, int64_t n) {
  const Shape& s = t->view_shape;
  return (s.size() == 1 && (s[0] == 1 || s[0] == n)) || (s.size() == 2 && s[0] == 1 && s[1] == n);
}

struct QuantArn {
  const aclTensor *x1, *x2, *bias, *dequant;
  TensorRef x1_ref, x2_ref, bias_ref, dequant_ref;

  ArnProduct Product() {
    ArnProduct p;
    p.x1 = x1;
    p.x2 = x2;
    p.bias = bias;
    p.scale = dequant;
    p.check_dtypes = [this](Plan& plan) {
      CANOPY_CHECK(plan.CheckDtype("x1", x1->dtype, {ACL_INT8}));
      CANOPY_CHECK(plan.CheckDtype("x2", x2->dtype, {ACL_INT8}));
      if (bias != nullptr) CANOPY_CHECK(plan.CheckDtype("bias", bias->dtype, {ACL_INT32}));
      // CANN's host layer retypes an INT64 dequantScale to UINT64 first.
      return plan.CheckDtype("dequantScale", dequant->dtype, {ACL_UINT64, ACL_INT64, ACL_BF16});
    };
    p.check_tiling = [this](Plan& plan, const aclTensor* residual) {
      // A BFLOAT16 dequantScale goes with a BFLOAT16 residual, a packed one with FLOAT16.
      const aclDataType want = dequant->dtype == ACL_BF16 ? ACL_BF16 : ACL_FLOAT16;
      if (residual->dtype != want) {
        return RejectArnTiling(plan,
                               want == ACL_BF16 ? "'residual' must be BFLOAT16 with a BFLOAT16 dequantScale"
                                                : "'residual' must be FLOAT16 with a UINT64 / INT64 dequantScale",
                               residual);
      }
      if (!IsScaleOfN(dequant, x2->view_shape[1])) {
        return RejectArnTiling(plan, "'dequantScale' must be [1], [n] or [1, n]", dequant);
      }
      return ACLNN_SUCCESS;
    };
    p.add_inputs = [this](Plan& plan) {
      x1_ref = plan.Input(x1, "x1");
      x2_ref = plan.Input(x2, "x2");
      if (bias != nullptr) {
        bias_ref = plan.Input(bias, "bias");
      } else {
        plan.SkipInput();
      }
      dequant_ref = plan.Input(dequant, "dequantScale");
    };
    p.plan_part = [this](Plan& plan, const TensorRef& part) {
      QuantProduct q;
      q.m = part.shape[0];
      q.n = part.shape[1];
      q.k = x1->view_shape.back();
      q.x1 = AsMatrix(plan, x1_ref, q.m, q.k);
      q.x2 = x2_ref;
      q.scale = dequant_ref;
      q.scale_count = dequant->NumElements();
      q.bias = bias_ref;
      q.has_bias = bias != nullptr;
      q.out = part;
      return PlanQuantProduct(plan, q);
    };
    return p;
  }
};

struct WeightQuantArn {
  const aclTensor *x1, *x2, *bias, *scale, *offset;
  int64_t group_size;
  TensorRef x1_ref, x2_ref, bias_ref, scale_ref, offset_ref;

  ArnProduct Product() {
    ArnProduct p;
    p.x1 = x1;
    p.x2 = x2;
    p.bias = bias;
    p.scale = scale;
    p.check_dtypes = [this](Plan& plan) {
      CANOPY_CHECK(plan.CheckDtype("x1", x1->dtype, kHalves));
      CANOPY_CHECK(plan.CheckDtype("x2", x2->dtype, {ACL_INT8, ACL_INT4}));
      if (bias != nullptr) CANOPY_CHECK(plan.CheckDtype("bias", bias->dtype, {x1->dtype}));
      CANOPY_CHECK(plan.CheckDtype("antiquantScale", scale->dtype, {x1->dtype}));
      if (offset != nullptr) CANOPY_CHECK(plan.CheckDtype("antiquantOffset", offset->dtype, {x1->dtype}));
      return ACLNN_SUCCESS;
    };
    p.check_tiling = [this](Plan& plan, const aclTensor* residual) -> aclnnStatus {
      if (residual->dtype != x1->dtype) return RejectArnTiling(plan, "'residual' must have x1's dtype", residual);
      // The weight-quant tiling's checks of the antiquant arguments, 561002 here.
      const int64_t k = x1->view_shape.back(), n = x2->view_shape[1];
      const int64_t m = x1->NumElements() / k;
      CANOPY_CHECK(CheckWeightQuantGroupSize(plan, k, group_size, ACLNN_ERR_INNER_TILING_ERROR));
      CANOPY_CHECK(CheckAntiquantShapes(plan, scale, offset, k, n, group_size, ACLNN_ERR_INNER_TILING_ERROR));
      return CheckWeightQuantTiling(plan, x2, m, k, n, group_size);
    };
    p.add_inputs = [this](Plan& plan) {
      x1_ref = plan.Input(x1, "x1");
      x2_ref = plan.Input(x2, "x2");
      if (bias != nullptr) {
        bias_ref = plan.Input(bias, "bias");
      } else {
        plan.SkipInput();
      }
      scale_ref = plan.Input(scale, "antiquantScale");
      if (offset != nullptr) {
        offset_ref = plan.Input(offset, "antiquantOffset");
      } else {
        plan.SkipInput();
      }
    };
    p.plan_part = [this](Plan& plan, const TensorRef& part) {
      WeightQuantPart w;
      w.x2 = x2;
      w.scale_tensor = scale;
      w.offset_tensor = offset;
      w.group_size = group_size;
      w.k = x1->view_shape.back();
      w.x1 = AsMatrix(plan, x1_ref, part.shape[0], w.k);
      w.x2_ref = x2_ref;
      w.scale = scale_ref;
      w.offset = offset != nullptr ? &offset_ref : nullptr;
      w.bias = bias != nullptr ? &bias_ref : nullptr;
      return PlanWeightQuantPart(plan, w, part);
    };
    return p;
  }
};

aclnnStatus PlanQuantArn(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                         const aclTensor* dequant, const aclTensor* residual, const aclTensor* gamma, double epsilon,
                         const char* group, const char* reduce_op, int64_t comm_turn, int64_t stream_mode,
                         const aclTensor* y, const aclTensor* norm_out) {
  QuantArn product{x1, x2, bias, dequant, {}, {}, {}, {}};
  return PlanAllReduceAddRmsNorm(plan, product.Product(), residual, gamma, epsilon, group, reduce_op, comm_turn,
                                 stream_mode, y, norm_out);
}

aclnnStatus PlanInplaceQuantArn(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                                const aclTensor* dequant, const aclTensor* residual, const aclTensor* gamma,
                                double epsilon, const char* group, const char* reduce_op, int64_t comm_turn,
                                int64_t stream_mode, const aclTensor* norm_out) {
  return PlanQuantArn(plan, x1, x2, bias, dequant, residual, gamma, epsilon, group, reduce_op, comm_turn, stream_mode,
                      nullptr, norm_out);
}

aclnnStatus PlanWeightQuantArn(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                               const aclTensor* scale, const aclTensor* offset, const aclTensor* residual,
                               const aclTensor* gamma, double epsilon, const char* group, const char* reduce_op,
                               int64_t comm_turn, int64_t stream_mode, int64_t group_size, const aclTensor* y,
                               const aclTensor* norm_out) {
  WeightQuantArn product{x1, x2, bias, scale, offset, group_size, {}, {}, {}, {}, {}};
  return PlanAllReduceAddRmsNorm(plan, product.Product(), residual, gamma, epsilon, group, reduce_op, comm_turn,
                                 stream_mode, y, norm_out);
}

aclnnStatus PlanInplaceWeightQuantArn(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                                      const aclTensor* scale, const aclTensor* offset, const aclTensor* residual,
                                      const aclTensor* gamma, double epsilon, const char* group, const char* reduce_op,
                                      int64_t comm_turn, int64_t stream_mode, int64_t group_size,
                                      const aclTensor* norm_out) {
  return PlanWeightQuantArn(plan, x1, x2, bias, scale, offset, residual, gamma, epsilon, group, reduce_op, comm_turn,
                            stream_mode, group_size, nullptr, norm_out);
}

constexpr DtypeSet kQuantDtypes = {ACL_INT8, ACL_INT32, ACL_INT64, ACL_UINT64, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kWeightQuantDtypes = {ACL_INT8, ACL_FLOAT16, ACL_BF16};

}  // namespace

CANOPY_ACLNN_OP(QuantMatmulAllReduceAddRmsNorm, PlanQuantArn,
                (OpTraits{.header = "aclnnop/aclnn_quant_matmul_all_reduce_add_rms_norm.h",
                          .dtypes = kQuantDtypes,
                          .max_rank = 3,
                          .private_formats = true,
                          .example = "i8[2,4] i8[4,3] i32[3] bf16[3] bf16[1,2,3] bf16[3] 1e-6 'hccl_world_group' "
                                     "'sum' 0 1 bf16[1,2,3] bf16[1,2,3]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, bias, optional),
                (const aclTensor*, dequantScale), (const aclTensor*, residual), (const aclTensor*, gamma),
                (double, epsilon), (const char*, group), (const char*, reduceOp), (int64_t, commTurn),
                (int64_t, streamMode), (const aclTensor*, y), (const aclTensor*, normOut))

CANOPY_ACLNN_OP(InplaceQuantMatmulAllReduceAddRmsNorm, PlanInplaceQuantArn,
                (OpTraits{.header = "aclnnop/aclnn_inplace_quant_matmul_all_reduce_add_rms_norm.h",
                          .dtypes = kQuantDtypes,
                          .max_rank = 3,
                          .private_formats = true,
                          .example = "i8[2,4] i8[4,3] i32[3] bf16[3] bf16[1,2,3] bf16[3] 1e-6 'hccl_world_group' "
                                     "'sum' 0 1 bf16[1,2,3]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, bias, optional),
                (const aclTensor*, dequantScale), (const aclTensor*, residual), (const aclTensor*, gamma),
                (double, epsilon), (const char*, group), (const char*, reduceOp), (int64_t, commTurn),
                (int64_t, streamMode), (const aclTensor*, normOut))

CANOPY_ACLNN_OP(WeightQuantMatmulAllReduceAddRmsNorm, PlanWeightQuantArn,
                (OpTraits{.header = "aclnnop/aclnn_weight_quant_matmul_all_reduce_add_rms_norm.h",
                          .dtypes = kWeightQuantDtypes,
                          .max_rank = 3,
                          .private_formats = true,
                          .example = "f16[2,4] i8[4,3] f16[3] f16[3] f16[3] f16[1,2,3] f16[3] 1e-6 "
                                     "'hccl_world_group' 'sum' 0 1 0 f16[1,2,3] f16[1,2,3]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, bias, optional),
                (const aclTensor*, antiquantScale), (const aclTensor*, antiquantOffset, optional),
                (const aclTensor*, residual), (const aclTensor*, gamma), (double, epsilon), (const char*, group),
                (const char*, reduceOp), (int64_t, commTurn), (int64_t, streamMode), (int64_t, antiquantGroupSize),
                (const aclTensor*, y), (const aclTensor*, normOut))

CANOPY_ACLNN_OP(InplaceWeightQuantMatmulAllReduceAddRmsNorm, PlanInplaceWeightQuantArn,
                (OpTraits{.header = "aclnnop/aclnn_inplace_weight_quant_matmul_all_reduce_add_rms_norm.h",
                          .dtypes = kWeightQuantDtypes,
                          .max_rank = 3,
                          .private_formats = true,
                          .example = "f16[2,4] i8[4,3] f16[3] f16[3] f16[3] f16[1,2,3] f16[3] 1e-6 "
                                     "'hccl_world_group' 'sum' 0 1 0 f16[1,2,3]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, bias, optional),
                (const aclTensor*, antiquantScale), (const aclTensor*, antiquantOffset, optional),
                (const aclTensor*, residual), (const aclTensor*, gamma), (double, epsilon), (const char*, group),
                (const char*, reduceOp), (int64_t, commTurn), (int64_t, streamMode), (int64_t, antiquantGroupSize),
                (const aclTensor*, normOut))
