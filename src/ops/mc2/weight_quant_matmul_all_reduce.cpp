// aclnnWeightQuantMatmulAllReduce: the weight-quantised (A16W8 / A16W4) form
// of MatmulAllReduce on Atlas A2. Each rank computes
//   part = x1 @ ((x2 + antiquantOffset) * antiquantScale) + bias [+ x3]
// (x2 INT8 or INT4, one scale and offset per tensor, per column or per group
// of antiquantGroupSize rows along K; WeightQuantBatchMatmulV2's product in
// f32, rounded to x1's dtype, x3 added and rounded again) and the parts are
// summed over the ranks of the communicator `group` names. CANN's product
// table marks the op unsupported on A2, but its body, op definition and host
// code run it there; Canopy follows the code.
#include "aclnnop/aclnn_weight_quant_matmul_all_reduce.h"
#include "matmul_all_reduce.h"
#include "ops/framework/tensor_view.h"
#include "weight_quant_all_reduce.h"

using namespace canopy;
using namespace canopy::ops;

namespace canopy::ops {

aclnnStatus CheckWeightQuantGroupSize(Plan& plan, int64_t k, int64_t group_size, aclnnStatus status) {
  constexpr int64_t kGroupAlign = 32;
  if (k == 0 || group_size == 0) return ACLNN_SUCCESS;
  const int64_t most = std::min<int64_t>(k - 1, INT32_MAX);
  if (group_size % kGroupAlign != 0 || group_size < kGroupAlign || group_size > most) {
    return plan.Reject(status,
                       "argument 'antiquantGroupSize' is %lld; it must be 0 or a multiple of 32 in [32, %lld] (k = "
                       "%lld)",
                       static_cast<long long>(group_size), static_cast<long long>(most), static_cast<long long>(k));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckAntiquantShapes(Plan& plan, const aclTensor* scale, const aclTensor* offset, int64_t k, int64_t n,
                                 int64_t group_size, aclnnStatus status) {
  const Shape& s = scale->view_shape;
  const int64_t groups = group_size == 0 ? 1 : (k + group_size - 1) / group_size;
  const bool ok = group_size == 0
                      ? (s.size() == 1 && (s[0] == 1 || s[0] == n)) || (s.size() == 2 && s[0] == 1 && s[1] == n)
                      : s == Shape{groups, n};
  if (!ok) {
    return plan.Reject(status,
                       "argument 'antiquantScale' has shape %s; it must be %s (n = %lld, antiquantGroupSize %lld)",
                       ShapeToString(s).c_str(),
                       group_size == 0 ? "[1], [n] or [1, n] per tensor / channel" : "[ceil(k / group), n] per group",
                       static_cast<long long>(n), static_cast<long long>(group_size));
  }
  if (offset != nullptr && offset->view_shape != s) {
    return plan.Reject(status, "argument 'antiquantOffset' has shape %s; it must be antiquantScale's %s",
                       ShapeToString(offset->view_shape).c_str(), ShapeToString(s).c_str());
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckWeightQuantTiling(Plan& plan, const aclTensor* x2, int64_t m, int64_t k, int64_t n,
                                   int64_t group_size) {
  constexpr int64_t kMaxKN = 65535;
  if (m > INT32_MAX || k > kMaxKN || n > kMaxKN) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                       "m = %lld, k = %lld, n = %lld: m must be at most 2^31 - 1, k and n at most 65535",
                       static_cast<long long>(m), static_cast<long long>(k), static_cast<long long>(n));
  }
  if (x2->format == ACL_FORMAT_FRACTAL_NZ && group_size != 0) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                       "a FRACTAL_NZ x2 takes per-tensor or per-channel scales only (antiquantGroupSize is %lld)",
                       static_cast<long long>(group_size));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanWeightQuantPart(Plan& plan, const WeightQuantPart& p, const TensorRef& part) {
  const int64_t m = part.shape[0], n = part.shape[1];
  if (p.k == 0) {
    // An empty K: the product is zeros (CANN's empty-K kernel), plus the bias.
    if (p.bias != nullptr) {
      plan.Copy(BroadcastTo(Unsqueeze(*p.bias, 0), {m, n}), part);
    } else {
      plan.Fill(part, ScalarValue::Integer(0));
    }
    return ACLNN_SUCCESS;
  }
  kernels::QuantWeight w;
  CANOPY_CHECK(DescribeQuantWeight(plan, p.x2, p.scale_tensor, p.offset_tensor, p.group_size, w,
                                   {.weight = "x2", .scale = "antiquantScale", .offset = "antiquantOffset"}));
  return PlanWeightQuantProduct(plan, w, p.x1, p.x2_ref, p.scale, p.offset, p.bias, part);
}

}  // namespace canopy::ops

namespace {

constexpr DtypeSet kHalves = {ACL_FLOAT16, ACL_BF16};

aclnnStatus PlanWeightQuantMatmulAllReduce(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                                           const aclTensor* scale, const aclTensor* offset, const aclTensor* x3,
                                           const char* group, const char* reduce_op, int64_t comm_turn,
                                           int64_t stream_mode, int64_t group_size, const aclTensor* output) {
  // ---- dtypes (161002)
  CANOPY_CHECK(plan.CheckDtype("x1", x1->dtype, kHalves));
  CANOPY_CHECK(plan.CheckDtype("x2", x2->dtype, {ACL_INT8, ACL_INT4}));
  CANOPY_CHECK(plan.CheckDtype("antiquantScale", scale->dtype, kHalves));
  CANOPY_CHECK(plan.CheckDtype("output", output->dtype, kHalves));
  CANOPY_CHECK(plan.CheckDtype("antiquantScale", scale->dtype, {x1->dtype}));
  CANOPY_CHECK(plan.CheckDtype("output", output->dtype, {x1->dtype}));
  if (bias != nullptr) CANOPY_CHECK(plan.CheckDtype("bias", bias->dtype, {x1->dtype}));
  if (offset != nullptr) CANOPY_CHECK(plan.CheckDtype("antiquantOffset", offset->dtype, {scale->dtype}));
  if (x3 != nullptr) CANOPY_CHECK(plan.CheckDtype("x3", x3->dtype, {x1->dtype}));
  // ---- attributes (161002)
  CANOPY_CHECK(CheckReduceOpSum(plan, reduce_op));
  CANOPY_CHECK(CheckStreamMode(plan, stream_mode));
  const int64_t k = x1->rank() > 0 ? x1->view_shape.back() : 0;
  CANOPY_CHECK(CheckWeightQuantGroupSize(plan, k, group_size, ACLNN_ERR_PARAM_INVALID));
  // ---- shapes (161002)
  CANOPY_CHECK(plan.CheckRank("x1", x1, 2, 3));
  CANOPY_CHECK(plan.CheckRank("x2", x2, 2, 2));
  if (k != x2->view_shape[0]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "the last dim of x1 %s differs from the first dim of x2 %s",
                       ShapeToString(x1->view_shape).c_str(), ShapeToString(x2->view_shape).c_str());
  }
  const int64_t n = x2->view_shape[1];
  Shape out_shape = x1->view_shape;
  out_shape.back() = n;
  CANOPY_CHECK(plan.CheckShape("output", output, out_shape));
  if (bias != nullptr) {
    CANOPY_CHECK(plan.CheckRank("bias", bias, 1, 1));
    CANOPY_CHECK(plan.CheckShape("bias", bias, {n}));
  }
  if (x3 != nullptr) CANOPY_CHECK(plan.CheckShape("x3", x3, out_shape));
  if (k != 0) CANOPY_CHECK(CheckAntiquantShapes(plan, scale, offset, k, n, group_size, ACLNN_ERR_PARAM_INVALID));
  // ---- the tiling's (561002)
  CommGroup comm;
  CANOPY_CHECK(ResolveGroup(plan, group, comm_turn, kAllReduceRankSizes, comm));
  if (output->NumElements() == 0 || scale->NumElements() == 0) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "output %s or antiquantScale %s is empty",
                       ShapeToString(output->view_shape).c_str(), ShapeToString(scale->view_shape).c_str());
  }
  const int64_t m = output->NumElements() / n;
  CANOPY_CHECK(CheckWeightQuantTiling(plan, x2, m, k, n, group_size));

  WeightQuantPart p;
  p.x2 = x2;
  p.scale_tensor = scale;
  p.offset_tensor = offset;
  p.group_size = group_size;
  p.k = k;
  p.x1 = AsMatrix(plan, plan.Input(x1, "x1"), m, k);
  p.x2_ref = plan.Input(x2, "x2");
  TensorRef bias_ref, offset_ref, x3_ref;
  if (bias != nullptr) {
    bias_ref = plan.Input(bias, "bias");
    p.bias = &bias_ref;
  } else {
    plan.SkipInput();
  }
  p.scale = plan.Input(scale, "antiquantScale");
  if (offset != nullptr) {
    offset_ref = plan.Input(offset, "antiquantOffset");
    p.offset = &offset_ref;
  } else {
    plan.SkipInput();
  }
  if (x3 != nullptr) {
    x3_ref = AsMatrix(plan, plan.Input(x3, "x3"), m, n);
  } else {
    plan.SkipInput();
  }
  const TensorRef out = plan.Output(output, "output");
  const TensorRef part = out.IsContiguous() ? *Reshape(out, {m, n}) : plan.Temporary(out.dtype, {m, n});
  CANOPY_CHECK(PlanWeightQuantPart(plan, p, part));
  PlanAddX3AllReduce(plan, x3 != nullptr ? &x3_ref : nullptr, comm, part);
  if (!out.IsContiguous()) plan.Copy(*Reshape(part, out.shape), out);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(WeightQuantMatmulAllReduce, PlanWeightQuantMatmulAllReduce,
                (OpTraits{
                    .header = "aclnnop/aclnn_weight_quant_matmul_all_reduce.h",
                    .dtypes = {ACL_FLOAT16, ACL_BF16, ACL_INT8},
                    .max_rank = 3,
                    .private_formats = true,
                    .example = "f16[2,4] i8[4,3] f16[3] f16[3] f16[3] - 'hccl_world_group' 'sum' 0 1 0 f16[2,3]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, bias, optional),
                (const aclTensor*, antiquantScale), (const aclTensor*, antiquantOffset, optional),
                (const aclTensor*, x3, optional), (const char*, group), (const char*, reduceOp), (int64_t, commTurn),
                (int64_t, streamMode), (int64_t, antiquantGroupSize), (const aclTensor*, output))
