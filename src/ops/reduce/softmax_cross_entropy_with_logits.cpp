// aclnnSoftmaxCrossEntropyWithLogits: for [batch, classes] logits and labels,
// loss[b] = -sum_c labels * log_softmax(features) and backprop = softmax - labels.
#include "aclnnop/aclnn_softmax_cross_entropy_with_logits.h"
#include "kernels/reduce_softmax.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kCrossEntropyDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

aclnnStatus PlanSoftmaxCrossEntropyWithLogits(Plan& plan, const aclTensor* features, const aclTensor* labels,
                                              const aclTensor* loss, const aclTensor* backprop) {
  CANOPY_CHECK(plan.CheckDtype("features", features->dtype, kCrossEntropyDtypes));
  CANOPY_CHECK(plan.CheckDtype("labels", labels->dtype, {features->dtype}));
  CANOPY_CHECK(plan.CheckDtype("loss", loss->dtype, {features->dtype}));
  CANOPY_CHECK(plan.CheckDtype("backprop", backprop->dtype, {features->dtype}));
  for (const auto& [name, t] : {std::pair{"features", features}, std::pair{"labels", labels}}) {
    if (t->rank() != 2) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has rank %lld; it must be 2 ([batch, classes])", name,
                         static_cast<long long>(t->rank()));
    }
  }
  CANOPY_CHECK(plan.CheckShape("labels", labels, features->view_shape));
  CANOPY_CHECK(plan.CheckShape("loss", loss, {features->view_shape[0]}));
  CANOPY_CHECK(plan.CheckShape("backprop", backprop, features->view_shape));
  const TensorRef x = plan.Input(features, "features");
  const TensorRef y = plan.Input(labels, "labels");
  const TensorRef l = plan.Output(loss, "loss");
  const TensorRef g = plan.Output(backprop, "backprop");
  if (x.NumElements() == 0) return ACLNN_SUCCESS;  // CANN computes nothing
  kernels::SoftmaxCrossEntropyDesc desc;
  desc.rows = x.shape[0];
  desc.classes = x.shape[1];
  desc.features = {x.buffer, x.dtype, {x.strides[0], x.strides[1]}};
  desc.labels = {y.buffer, y.dtype, {y.strides[0], y.strides[1]}};
  desc.loss = {l.buffer, l.dtype, {l.strides[0]}};
  desc.backprop = {g.buffer, g.dtype, {g.strides[0], g.strides[1]}};
  plan.AddStep(kernels::MakeSoftmaxCrossEntropyStep(desc));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(SoftmaxCrossEntropyWithLogits, PlanSoftmaxCrossEntropyWithLogits,
                (OpTraits{.header = "aclnnop/aclnn_softmax_cross_entropy_with_logits.h",
                          .dtypes = kCrossEntropyDtypes,
                          .example = "f32[2,3] f32[2,3] f32[2] f32[2,3]"}),
                (const aclTensor*, features), (aclTensor*, labels), (aclTensor*, loss), (aclTensor*, backprop))
