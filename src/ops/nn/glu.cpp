// aclnnSwiGlu, aclnnGeGlu, aclnnGeGluV3: x split in halves A, B along `dim`;
// SwiGlu: out = swish(A) * B. GeGlu: out = A * gelu(B), outGelu = gelu(B).
// GeGluV3 with activateLeft: out = gelu(A) * B, outGelu = gelu(A).
// approximate 0 is the erf GELU and 1 the tanh one (CANN's kernel and golden).
#include "kernels/glu.h"
#include "aclnnop/aclnn_geglu.h"
#include "aclnnop/aclnn_swi_glu.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kGluDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr int64_t kApproximateErf = 0;
constexpr int64_t kApproximateTanh = 1;

// `dim` in [-rank, rank) (rank 0 counts as 1); the wrapped value.
aclnnStatus CheckSplitDim(Plan& plan, const aclTensor* x, int64_t dim, int64_t& split) {
  const int64_t rank = std::max<int64_t>(x->rank(), 1);
  if (dim < -rank || dim >= rank) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dim' is %lld, outside [%lld, %lld]",
                       static_cast<long long>(dim), static_cast<long long>(-rank), static_cast<long long>(rank - 1));
  }
  split = dim < 0 ? dim + rank : dim;
  return ACLNN_SUCCESS;
}

// Each output has x's shape with the split dim halved (x's extent there even).
aclnnStatus CheckHalvedShape(Plan& plan, const char* x_name, const aclTensor* x, int64_t split,
                             std::initializer_list<std::pair<const char*, const aclTensor*>> outs, Shape& halved) {
  if (x->rank() == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is rank 0: there is no dimension to split in two",
                       x_name);
  }
  halved = x->view_shape;
  const int64_t extent = halved[static_cast<size_t>(split)];
  if (extent % 2 != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has extent %lld along dim %lld, which is not even",
                       x_name, static_cast<long long>(extent), static_cast<long long>(split));
  }
  halved[static_cast<size_t>(split)] = extent / 2;
  for (const auto& [name, out] : outs) CANOPY_CHECK(plan.CheckShape(name, out, halved));
  return ACLNN_SUCCESS;
}

// The step over contiguous operands; non-contiguous ones go through copies.
void PlanGlu(Plan& plan, kernels::GluDesc desc, const TensorRef& x, int64_t split, const TensorRef& out,
             const TensorRef* activated) {
  if (x.NumElements() == 0) return;
  const TensorRef in = plan.Contiguous(x, x.dtype);
  int64_t groups = 1;
  for (int64_t d = 0; d < split; ++d) groups *= x.shape[static_cast<size_t>(d)];
  desc.groups = groups;
  desc.half = x.NumElements() / groups / 2;
  desc.dtype = x.dtype;
  desc.in = in.buffer;
  const TensorRef dst = out.IsContiguous() ? out : plan.Temporary(out.dtype, out.shape);
  desc.out = dst.buffer;
  TensorRef gelu_dst;
  if (activated != nullptr) {
    gelu_dst = activated->IsContiguous() ? *activated : plan.Temporary(activated->dtype, activated->shape);
    desc.has_activated = true;
    desc.activated = gelu_dst.buffer;
  }
  plan.AddStep(kernels::MakeGluStep(desc));
  if (!out.IsContiguous()) plan.Copy(dst, out);
  if (activated != nullptr && !activated->IsContiguous()) plan.Copy(gelu_dst, *activated);
}

aclnnStatus PlanSwiGlu(Plan& plan, const aclTensor* x, int64_t dim, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kGluDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kGluDtypes));
  if (out->dtype != x->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'out' is %s, but x is %s: they must match",
                       DtypeName(out->dtype), DtypeName(x->dtype));
  }
  int64_t split = 0;
  CANOPY_CHECK(CheckSplitDim(plan, x, dim, split));
  Shape halved;
  CANOPY_CHECK(CheckHalvedShape(plan, "x", x, split, {{"out", out}}, halved));
  const TensorRef in = plan.Input(x, "x");
  const TensorRef dst = plan.Output(out, "out");
  kernels::GluDesc desc;
  desc.activation = kernels::GluActivation::kSwish;
  PlanGlu(plan, desc, in, split, dst, nullptr);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanGeGluOf(Plan& plan, const aclTensor* self, int64_t dim, int64_t approximate, bool activate_left,
                        const aclTensor* out, const aclTensor* out_gelu) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kGluDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kGluDtypes));
  CANOPY_CHECK(plan.CheckDtype("outGelu", out_gelu->dtype, kGluDtypes));
  const bool empty = self->NumElements() == 0;
  if (!empty) {
    for (const auto& [name, t] : {std::pair{"out", out}, std::pair{"outGelu", out_gelu}}) {
      if (t->dtype != self->dtype) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is %s, but self is %s: they must match", name,
                           DtypeName(t->dtype), DtypeName(self->dtype));
      }
    }
  }
  int64_t split = 0;
  CANOPY_CHECK(CheckSplitDim(plan, self, dim, split));
  Shape halved;
  CANOPY_CHECK(CheckHalvedShape(plan, "self", self, split, {{"out", out}, {"outGelu", out_gelu}}, halved));
  if (approximate != kApproximateErf && approximate != kApproximateTanh) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'approximate' is %lld; it must be 0 (erf) or 1 (tanh)",
                       static_cast<long long>(approximate));
  }
  const TensorRef in = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  const TensorRef gelu = plan.Output(out_gelu, "outGelu");
  kernels::GluDesc desc;
  desc.activation =
      approximate == kApproximateTanh ? kernels::GluActivation::kGeluTanh : kernels::GluActivation::kGeluErf;
  desc.activate_first = activate_left;
  PlanGlu(plan, desc, in, split, dst, &gelu);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanGeGlu(Plan& plan, const aclTensor* self, int64_t dim, int64_t approximate, const aclTensor* out,
                      const aclTensor* out_gelu) {
  return PlanGeGluOf(plan, self, dim, approximate, false, out, out_gelu);
}

aclnnStatus PlanGeGluV3(Plan& plan, const aclTensor* self, int64_t dim, int64_t approximate, bool activate_left,
                        const aclTensor* out, const aclTensor* out_gelu) {
  return PlanGeGluOf(plan, self, dim, approximate, activate_left, out, out_gelu);
}

}  // namespace

CANOPY_ACLNN_OP(SwiGlu, PlanSwiGlu,
                (OpTraits{.header = "aclnnop/aclnn_swi_glu.h", .dtypes = kGluDtypes, .example = "f32[2,2] 0 f32[1,2]"}),
                (const aclTensor*, x), (int64_t, dim), (const aclTensor*, out))
CANOPY_ACLNN_OP(
    GeGlu, PlanGeGlu,
    (OpTraits{.header = "aclnnop/aclnn_geglu.h", .dtypes = kGluDtypes, .example = "f32[2,2] 0 0 f32[1,2] f32[1,2]"}),
    (const aclTensor*, self), (int64_t, dim), (int64_t, approximate), (aclTensor*, out), (aclTensor*, outGelu))
CANOPY_ACLNN_OP(GeGluV3, PlanGeGluV3,
                (OpTraits{.header = "aclnnop/aclnn_geglu.h",
                          .dtypes = kGluDtypes,
                          .example = "f32[2,2] 0 0 false f32[1,2] f32[1,2]"}),
                (const aclTensor*, self), (int64_t, dim), (int64_t, approximate), (bool, activateLeft),
                (aclTensor*, out), (aclTensor*, outGelu))
