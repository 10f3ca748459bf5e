// aclnnTransformBiasRescaleQkv (torch's _transform_bias_rescale_qkv): qkv
// [B, T, 3 * numHeads * dimPerHead] plus its bias, split into q, k and v, each
// [B, numHeads, T, dimPerHead]; q is divided by sqrt(dimPerHead). CANN
// generates this entry from the op's definition: dtypes outside its table are
// 161002, and what its tiling refuses (heads, widths, the bias's shape) 561002.
#include <cmath>
#include <utility>

#include "aclnnop/aclnn_transform_bias_rescale_qkv.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kQkvDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr int64_t kParts = 3;  // q, k, v

aclnnStatus PlanTransformBiasRescaleQkv(Plan& plan, const aclTensor* qkv, const aclTensor* qkvBias, int64_t numHeads,
                                        const aclTensor* qOut, const aclTensor* kOut, const aclTensor* vOut) {
  CANOPY_CHECK(plan.CheckDtype("qkv", qkv->dtype, kQkvDtypes));
  for (const auto& [name, t] :
       {std::pair{"qkvBias", qkvBias}, std::pair{"qOut", qOut}, std::pair{"kOut", kOut}, std::pair{"vOut", vOut}}) {
    if (t->dtype != qkv->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s; it must be qkv's (%s)", name, DtypeName(t->dtype),
                         DtypeName(qkv->dtype));
    }
  }
  if (qkv->rank() != 3) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "'qkv' has %lld dims; it must be [B, T, 3 * numHeads * dim]",
                       static_cast<long long>(qkv->rank()));
  }
  if (numHeads <= 0) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'numHeads' is %lld; it must be positive",
                       static_cast<long long>(numHeads));
  }
  const int64_t batch = qkv->view_shape[0], tokens = qkv->view_shape[1], width = qkv->view_shape[2];
  if (width % kParts != 0 || (width / kParts) % numHeads != 0) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                       "the last dim of 'qkv' (%lld) must be 3 * numHeads (%lld) * dimPerHead",
                       static_cast<long long>(width), static_cast<long long>(numHeads));
  }
  if (qkvBias->rank() != 1 || qkvBias->view_shape[0] != width || width == 0) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "'qkvBias' has shape %s; it must be [%lld], not empty",
                       ShapeToString(qkvBias->view_shape).c_str(), static_cast<long long>(width));
  }
  const int64_t dim = width / kParts, per_head = dim / numHeads;
  const Shape out_shape = {batch, numHeads, tokens, per_head};
  for (const auto& [name, t] : {std::pair{"qOut", qOut}, std::pair{"kOut", kOut}, std::pair{"vOut", vOut}}) {
    if (t->view_shape != out_shape) {
      return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "'%s' has shape %s; it must be %s", name,
                         ShapeToString(t->view_shape).c_str(), ShapeToString(out_shape).c_str());
    }
  }
  const TensorRef in = plan.Input(qkv, "qkv");
  const TensorRef bias = plan.Input(qkvBias, "qkvBias");
  const TensorRef outs[kParts] = {plan.Output(qOut, "qOut"), plan.Output(kOut, "kOut"), plan.Output(vOut, "vOut")};
  if (in.NumElements() == 0) return ACLNN_SUCCESS;
  const ComputeType compute = kernels::ComputeTypeOf(qkv->dtype);
  for (int64_t part = 0; part < kParts; ++part) {
    // Part `part` of qkv and of the bias, both seen as [B, numHeads, T, dimPerHead].
    TensorRef src = in;
    src.shape = out_shape;
    src.strides = {in.strides[0], in.strides[2] * per_head, in.strides[1], in.strides[2]};
    src.buffer.byte_offset += ElementByteOffset(in.dtype, part * dim * in.strides[2]);
    TensorRef add = bias;
    add.shape = out_shape;
    add.strides = {0, bias.strides[0] * per_head, 0, bias.strides[0]};
    add.buffer.byte_offset += ElementByteOffset(bias.dtype, part * dim * bias.strides[0]);
    const TensorRef& dst = outs[part];
    if (part != 0) {
      plan.Elementwise(ElementwiseOp::kAdd, compute, {src, add}, dst, ScalarValue::Integer(1));
      continue;
    }
    const TensorRef sum = plan.Temporary(ACL_FLOAT, out_shape);
    plan.Elementwise(ElementwiseOp::kAdd, ComputeType::kF32, {src, add}, sum, ScalarValue::Integer(1));
    plan.Elementwise(ElementwiseOp::kDiv, ComputeType::kF32, {sum}, dst, ScalarValue::Integer(1),
                     ScalarValue::Real(std::sqrt(static_cast<double>(per_head))));
  }
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(TransformBiasRescaleQkv, PlanTransformBiasRescaleQkv,
                (OpTraits{.header = "aclnnop/aclnn_transform_bias_rescale_qkv.h",
                          .dtypes = kQkvDtypes,
                          .example = "f32[2,3,12] f32[12] 2 f32[2,2,3,2] f32[2,2,3,2] f32[2,2,3,2]"}),
                (const aclTensor*, qkv), (const aclTensor*, qkvBias), (int64_t, numHeads), (const aclTensor*, qOut),
                (const aclTensor*, kOut), (const aclTensor*, vOut))
