// aclnnMatmulAllReduceAddRmsNorm and aclnnInplaceMatmulAllReduceAddRmsNorm:
// a tensor-parallel linear layer's all-reduce fused with the residual add and
// RMS norm that follow it (CANN's mc2, Atlas A2):
//   y = residual + allreduce(x1 @ x2 + bias),  normOut = rmsnorm(y) * gamma.
// The in-place form writes y over residual.
#include "matmul_all_reduce_add_rms_norm.h"
#include "aclnnop/aclnn_inplace_matmul_all_reduce_add_rms_norm.h"
#include "aclnnop/aclnn_matmul_all_reduce_add_rms_norm.h"
#include "common/dtype.h"
#include "matmul_all_reduce.h"
#include "ops/framework/tensor_view.h"
#include "ops/reduce/row_norm.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kHalves = {ACL_FLOAT16, ACL_BF16};

// CANN's checks after the host layer's: the op definition's dtypes (161002),
// then its tiling's (561002) in the order CheckMRNInput / CheckAddRmsNormInput make them.
aclnnStatus CheckInner(Plan& plan, const ArnProduct& product, const aclTensor* residual, const aclTensor* gamma,
                       double epsilon, const aclTensor* y, const aclTensor* norm_out) {
  const aclTensor* x1 = product.x1;
  const aclTensor* x2 = product.x2;
  const aclTensor* bias = product.bias;
  CANOPY_CHECK(product.check_dtypes(plan));
  for (const auto& [name, t] : {std::pair{"residual", residual}, std::pair{"gamma", gamma}, std::pair{"y", y},
                                std::pair{"normOut", norm_out}}) {
    CANOPY_CHECK(plan.CheckDtype(name, t->dtype, kHalves));
  }
  if (x1->rank() < 2 || x1->rank() > 3) return RejectArnTiling(plan, "'x1' must be 2-D or 3-D", x1);
  if (x2->rank() != 2) return RejectArnTiling(plan, "'x2' must be 2-D", x2);
  const int64_t n = x2->view_shape[1];
  if (bias != nullptr && (bias->rank() != 1 || bias->view_shape[0] != n)) {
    return RejectArnTiling(plan, "'bias' must be [n]", bias);
  }
  CANOPY_CHECK(product.check_tiling(plan, residual));
  for (const auto& [what, t] :
       {std::pair{"'gamma' must have residual's dtype", gamma}, std::pair{"'y' must have residual's dtype", y},
        std::pair{"'normOut' must have residual's dtype", norm_out}}) {
    if (t->dtype != residual->dtype) return RejectArnTiling(plan, what, t);
  }
  if (residual->rank() != 3) return RejectArnTiling(plan, "'residual' must be 3-D", residual);
  if (gamma->rank() != 1 || gamma->view_shape[0] != residual->view_shape[2]) {
    return RejectArnTiling(plan, "'gamma' must be [n], residual's last dim", gamma);
  }
  if (y->view_shape != residual->view_shape) return RejectArnTiling(plan, "'y' must have residual's shape", y);
  if (norm_out->view_shape != residual->view_shape) {
    return RejectArnTiling(plan, "'normOut' must have residual's shape", norm_out);
  }
  if (residual->view_shape[0] * residual->view_shape[1] != x1->NumElements() / x1->view_shape.back()) {
    return RejectArnTiling(plan, "'residual' must hold as many rows as x1", residual);
  }
  if (!(epsilon > 0 && epsilon < 1)) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'epsilon' is %g; it must lie in (0, 1)", epsilon);
  }
  return ACLNN_SUCCESS;
}

}  // namespace

namespace canopy::ops {

aclnnStatus RejectArnTiling(Plan& plan, const char* what, const aclTensor* t) {
  return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument %s (shape %s, dtype %s)", what,
                     ShapeToString(t->view_shape).c_str(), DtypeName(t->dtype));
}

aclnnStatus PlanAllReduceAddRmsNorm(Plan& plan, const ArnProduct& product, const aclTensor* residual,
                                    const aclTensor* gamma, double epsilon, const char* group, const char* reduce_op,
                                    int64_t comm_turn, int64_t stream_mode, const aclTensor* y,
                                    const aclTensor* norm_out) {
  const aclTensor* x1 = product.x1;
  const aclTensor* x2 = product.x2;
  const bool in_place = y == nullptr;
  const aclTensor* y_out = in_place ? residual : y;
  // CANN's host layer: ranks, then k and n against x2, then empties, then streamMode.
  for (const auto& [name, t] : {std::pair{"x1", x1}, std::pair{"x2", x2}, std::pair{"residual", residual}}) {
    if (t->rank() == 0) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has rank 0", name);
  }
  if (x1->view_shape.back() != x2->view_shape[0]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "the last dim of x1 %s differs from the first dim of x2 %s",
                       ShapeToString(x1->view_shape).c_str(), ShapeToString(x2->view_shape).c_str());
  }
  if (residual->view_shape.back() != x2->view_shape.back()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "the last dim of residual %s differs from x2's n %s",
                       ShapeToString(residual->view_shape).c_str(), ShapeToString(x2->view_shape).c_str());
  }
  const bool scale_empty = product.scale != nullptr && product.scale->NumElements() == 0;
  if (x1->NumElements() == 0 || x2->NumElements() == 0 || residual->NumElements() == 0 || gamma->NumElements() == 0 ||
      scale_empty) {
    if (x1->view_shape.back() == 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "k = 0 (x1 %s) is not supported",
                         ShapeToString(x1->view_shape).c_str());
    }
    return ACLNN_SUCCESS;  // CANN computes nothing
  }
  CANOPY_CHECK(CheckStreamMode(plan, stream_mode));
  CANOPY_CHECK(CheckInner(plan, product, residual, gamma, epsilon, y_out, norm_out));
  CANOPY_CHECK(CheckReduceOpSum(plan, reduce_op, ACLNN_ERR_INNER_TILING_ERROR));
  CommGroup comm;
  CANOPY_CHECK(ResolveGroup(plan, group, comm_turn, kAllReduceRankSizes, comm));

  const int64_t n = x2->view_shape[1];
  const int64_t m = x1->NumElements() / x1->view_shape.back();
  product.add_inputs(plan);
  NormOperandRefs refs;
  refs.x2 = {true, plan.Input(residual, "residual")};
  refs.gamma = {true, plan.Input(gamma, "gamma")};
  refs.sum = {true, plan.Output(y_out, in_place ? "residual" : "y")};
  refs.y = {true, plan.Output(norm_out, "normOut")};

  // This rank's part [m, n], summed over the ranks, seen as residual's rows.
  const TensorRef part = plan.Temporary(residual->dtype, {m, n});
  CANOPY_CHECK(product.plan_part(plan, part));
  AddAllReduceSum(plan, comm, part, part);
  const TensorRef reduced = *Reshape(part, residual->view_shape);

  NormPlan norm;
  norm.kind = kernels::NormKind::kRms;
  norm.eps = epsilon;
  norm.rows = m;
  norm.length = n;
  if (residual->dtype == ACL_FLOAT16) {
    // CANN's f16 kernel adds in half precision and normalises the rounded y.
    plan.Elementwise(kernels::ElementwiseOp::kAdd, kernels::ComputeType::kF32, {reduced, refs.x2.ref}, refs.sum.ref,
                     ScalarValue::Integer(1));
    refs.x = refs.sum;
    refs.x2 = {};
    refs.sum = {};
  } else {
    // Its bf16 kernel normalises the f32 sum and rounds y separately.
    refs.x = {true, reduced};
  }
  PlanRowNormStep(plan, norm, refs);
  return ACLNN_SUCCESS;
}

}  // namespace canopy::ops

namespace {

// The float product's part of the AddRmsNorm forms: x1, x2, bias f16 or bf16, one dtype, residual's.
struct FloatArnProduct {
  const aclTensor *x1, *x2, *bias;
  std::optional<TensorRef> a, b, bias_ref;
  ArnProduct Product() {
    ArnProduct p;
    p.x1 = x1;
    p.x2 = x2;
    p.bias = bias;
    p.check_dtypes = [this](Plan& plan) {
      for (const auto& [name, t] : {std::pair{"x1", x1}, std::pair{"x2", x2}, std::pair{"bias", bias}}) {
        if (t != nullptr) CANOPY_CHECK(plan.CheckDtype(name, t->dtype, kHalves));
      }
      CANOPY_CHECK(plan.CheckDtype("x2", x2->dtype, {x1->dtype}));
      if (bias != nullptr) CANOPY_CHECK(plan.CheckDtype("bias", bias->dtype, {x1->dtype}));
      return ACLNN_SUCCESS;
    };
    p.check_tiling = [this](Plan& plan, const aclTensor* residual) {
      if (residual->dtype != x1->dtype) return RejectArnTiling(plan, "'residual' must have x1's dtype", residual);
      return ACLNN_SUCCESS;
    };
    p.add_inputs = [this](Plan& plan) {
      a = plan.Input(x1, "x1");
      b = plan.Input(x2, "x2");
      if (bias != nullptr) {
        bias_ref = plan.Input(bias, "bias");
      } else {
        plan.SkipInput();
      }
    };
    p.plan_part = [this](Plan& plan, const TensorRef& part) {
      PlanMatmulProductInto(plan, AsMatrix(plan, *a, part.shape[0], x1->view_shape.back()), *b,
                            bias_ref ? &*bias_ref : nullptr, part);
      return ACLNN_SUCCESS;
    };
    return p;
  }
};

// `y`: null for the in-place form, whose y is residual.
aclnnStatus PlanArn(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                    const aclTensor* residual, const aclTensor* gamma, double epsilon, const char* group,
                    const char* reduce_op, int64_t comm_turn, int64_t stream_mode, const aclTensor* y,
                    const aclTensor* norm_out) {
  FloatArnProduct product{x1, x2, bias, {}, {}, {}};
  return PlanAllReduceAddRmsNorm(plan, product.Product(), residual, gamma, epsilon, group, reduce_op, comm_turn,
                                 stream_mode, y, norm_out);
}

aclnnStatus PlanMatmulAllReduceAddRmsNorm(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                                          const aclTensor* residual, const aclTensor* gamma, double epsilon,
                                          const char* group, const char* reduce_op, int64_t comm_turn,
                                          int64_t stream_mode, const aclTensor* y, const aclTensor* norm_out) {
  return PlanArn(plan, x1, x2, bias, residual, gamma, epsilon, group, reduce_op, comm_turn, stream_mode, y, norm_out);
}

aclnnStatus PlanInplaceMatmulAllReduceAddRmsNorm(Plan& plan, const aclTensor* x1, const aclTensor* x2,
                                                 const aclTensor* bias, const aclTensor* residual,
                                                 const aclTensor* gamma, double epsilon, const char* group,
                                                 const char* reduce_op, int64_t comm_turn, int64_t stream_mode,
                                                 const aclTensor* norm_out) {
  return PlanArn(plan, x1, x2, bias, residual, gamma, epsilon, group, reduce_op, comm_turn, stream_mode, nullptr,
                 norm_out);
}

constexpr OpTraits kArn{
    .header = "aclnnop/aclnn_matmul_all_reduce_add_rms_norm.h",
    .dtypes = kHalves,
    .max_rank = 3,
    .example = "f16[2,4] f16[4,3] - f16[1,2,3] f16[3] 1e-6 'hccl_world_group' 'sum' 0 1 f16[1,2,3] f16[1,2,3]"};
constexpr OpTraits kInplaceArn{
    .header = "aclnnop/aclnn_inplace_matmul_all_reduce_add_rms_norm.h",
    .dtypes = kHalves,
    .max_rank = 3,
    .example = "f16[2,4] f16[4,3] - f16[1,2,3] f16[3] 1e-6 'hccl_world_group' 'sum' 0 1 f16[1,2,3]"};

}  // namespace

CANOPY_ACLNN_OP(MatmulAllReduceAddRmsNorm, PlanMatmulAllReduceAddRmsNorm, kArn, (const aclTensor*, x1),
                (const aclTensor*, x2), (const aclTensor*, bias, optional), (const aclTensor*, residual),
                (const aclTensor*, gamma), (double, epsilon), (const char*, group), (const char*, reduceOp),
                (int64_t, commTurn), (int64_t, streamMode), (const aclTensor*, y), (const aclTensor*, normOut))

CANOPY_ACLNN_OP(InplaceMatmulAllReduceAddRmsNorm, PlanInplaceMatmulAllReduceAddRmsNorm, kInplaceArn,
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, bias, optional),
                (const aclTensor*, residual), (const aclTensor*, gamma), (double, epsilon), (const char*, group),
                (const char*, reduceOp), (int64_t, commTurn), (int64_t, streamMode), (const aclTensor*, normOut))
