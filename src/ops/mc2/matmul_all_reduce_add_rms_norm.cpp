// aclnnMatmulAllReduceAddRmsNorm and aclnnInplaceMatmulAllReduceAddRmsNorm:
// a tensor-parallel linear layer's all-reduce fused with the residual add and
// RMS norm that follow it (CANN's mc2, Atlas A2):
//   y = residual + allreduce(x1 @ x2 + bias),  normOut = rmsnorm(y) * gamma.
// The in-place form writes y over residual.
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
aclnnStatus CheckInner(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                       const aclTensor* residual, const aclTensor* gamma, double epsilon, const aclTensor* y,
                       const aclTensor* norm_out) {
  for (const auto& [name, t] :
       {std::pair{"x1", x1}, std::pair{"x2", x2}, std::pair{"bias", bias}, std::pair{"residual", residual},
        std::pair{"gamma", gamma}, std::pair{"y", y}, std::pair{"normOut", norm_out}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckDtype(name, t->dtype, kHalves));
  }
  CANOPY_CHECK(plan.CheckDtype("x2", x2->dtype, {x1->dtype}));
  if (bias != nullptr) CANOPY_CHECK(plan.CheckDtype("bias", bias->dtype, {x1->dtype}));
  const auto tiling = [&plan](const char* what, const aclTensor* t) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument %s (shape %s, dtype %s)", what,
                       ShapeToString(t->view_shape).c_str(), DtypeName(t->dtype));
  };
  if (x1->rank() < 2 || x1->rank() > 3) return tiling("'x1' must be 2-D or 3-D", x1);
  if (x2->rank() != 2) return tiling("'x2' must be 2-D", x2);
  const int64_t n = x2->view_shape[1];
  if (bias != nullptr && (bias->rank() != 1 || bias->view_shape[0] != n)) return tiling("'bias' must be [n]", bias);
  if (residual->dtype != x1->dtype) return tiling("'residual' must have x1's dtype", residual);
  for (const auto& [what, t] :
       {std::pair{"'gamma' must have residual's dtype", gamma}, std::pair{"'y' must have residual's dtype", y},
        std::pair{"'normOut' must have residual's dtype", norm_out}}) {
    if (t->dtype != residual->dtype) return tiling(what, t);
  }
  if (residual->rank() != 3) return tiling("'residual' must be 3-D", residual);
  if (gamma->rank() != 1 || gamma->view_shape[0] != residual->view_shape[2]) {
    return tiling("'gamma' must be [n], residual's last dim", gamma);
  }
  if (y->view_shape != residual->view_shape) return tiling("'y' must have residual's shape", y);
  if (norm_out->view_shape != residual->view_shape) return tiling("'normOut' must have residual's shape", norm_out);
  if (residual->view_shape[0] * residual->view_shape[1] != x1->NumElements() / x1->view_shape.back()) {
    return tiling("'residual' must hold as many rows as x1", residual);
  }
  if (!(epsilon > 0 && epsilon < 1)) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'epsilon' is %g; it must lie in (0, 1)", epsilon);
  }
  return ACLNN_SUCCESS;
}

// `y`: null for the in-place form, whose y is residual.
aclnnStatus PlanArn(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                    const aclTensor* residual, const aclTensor* gamma, double epsilon, const char* group,
                    const char* reduce_op, int64_t comm_turn, int64_t stream_mode, const aclTensor* y,
                    const aclTensor* norm_out) {
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
  if (x1->NumElements() == 0 || x2->NumElements() == 0 || residual->NumElements() == 0 || gamma->NumElements() == 0) {
    if (x1->view_shape.back() == 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "k = 0 (x1 %s) is not supported",
                         ShapeToString(x1->view_shape).c_str());
    }
    return ACLNN_SUCCESS;  // CANN computes nothing
  }
  CANOPY_CHECK(CheckStreamMode(plan, stream_mode));
  CANOPY_CHECK(CheckInner(plan, x1, x2, bias, residual, gamma, epsilon, y_out, norm_out));
  CANOPY_CHECK(CheckReduceOpSum(plan, reduce_op, ACLNN_ERR_INNER_TILING_ERROR));
  CommGroup comm;
  CANOPY_CHECK(ResolveGroup(plan, group, comm_turn, kAllReduceRankSizes, comm));

  const int64_t n = x2->view_shape[1];
  const int64_t m = x1->NumElements() / x1->view_shape.back();
  const TensorRef a = plan.Input(x1, "x1");
  const TensorRef b = plan.Input(x2, "x2");
  std::optional<TensorRef> bias_ref;
  if (bias != nullptr) {
    bias_ref = plan.Input(bias, "bias");
  } else {
    plan.SkipInput();
  }
  NormOperandRefs refs;
  refs.x2 = {true, plan.Input(residual, "residual")};
  refs.gamma = {true, plan.Input(gamma, "gamma")};
  refs.sum = {true, plan.Output(y_out, in_place ? "residual" : "y")};
  refs.y = {true, plan.Output(norm_out, "normOut")};

  // The reduced product, x1's shape with n last, seen as residual's rows.
  Shape product_shape = x1->view_shape;
  product_shape.back() = n;
  const TensorRef product = plan.Temporary(x1->dtype, product_shape);
  PlanMatmulAllReduceInto(plan, a, b, bias_ref ? &*bias_ref : nullptr, nullptr, comm, product);
  const TensorRef reduced = *Reshape(product, residual->view_shape);

  NormPlan norm;
  norm.kind = kernels::NormKind::kRms;
  norm.eps = epsilon;
  norm.rows = m;
  norm.length = n;
  if (x1->dtype == ACL_FLOAT16) {
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
