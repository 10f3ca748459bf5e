// aclnnMoeGatingTopKSoftmax: MoE routing weights. For each token row of x
// (2-D [rows, experts] or 3-D [b, s, experts]) the softmax over the experts,
// its k largest values (yOut, x's dtype), their expert numbers (expertIdxOut)
// and the k-major source-row numbers (rowIdxOut[i, j] = j * rows + i), both
// int32. A row whose finishedOptional entry is true reports expert number
// `experts` (x's last extent) in every slot. k is in [0, experts] and at most
// 1024 (the doc allows k = 0: empty outputs).
#include "aclnnop/aclnn_moe_gating_top_k_softmax.h"
#include "kernels/moe_gating.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kGatingDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr int64_t kMaxK = 1024;

// A contiguous destination for `out`: out itself, or a temporary copied into it afterwards.
TensorRef ContiguousOut(Plan& plan, const TensorRef& out) {
  return out.IsContiguous() ? out : plan.Temporary(out.dtype, out.shape);
}

aclnnStatus PlanMoeGatingTopKSoftmax(Plan& plan, const aclTensor* x, const aclTensor* finished, int64_t k,
                                     const aclTensor* y_out, const aclTensor* expert_idx_out,
                                     const aclTensor* row_idx_out) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kGatingDtypes));
  if (x->rank() != 2 && x->rank() != 3) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'x' has rank %lld; it must be 2 or 3",
                       static_cast<long long>(x->rank()));
  }
  const int64_t experts = x->view_shape.back();
  if (k < 0 || k > experts || k > kMaxK) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'k' is %lld; it must be in [0, %lld] (x's last extent, at "
                       "most %lld)",
                       static_cast<long long>(k), static_cast<long long>(std::min(experts, kMaxK)),
                       static_cast<long long>(kMaxK));
  }
  const Shape row_shape(x->view_shape.begin(), x->view_shape.end() - 1);
  if (finished != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("finishedOptional", finished->dtype, DtypeSet{ACL_BOOL}));
    CANOPY_CHECK(plan.CheckShape("finishedOptional", finished, row_shape));
  }
  CANOPY_CHECK(plan.CheckDtype("yOut", y_out->dtype, kGatingDtypes));
  if (y_out->dtype != x->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'yOut' is %s, but x is %s: they must match",
                       DtypeName(y_out->dtype), DtypeName(x->dtype));
  }
  CANOPY_CHECK(plan.CheckDtype("expertIdxOut", expert_idx_out->dtype, DtypeSet{ACL_INT32}));
  CANOPY_CHECK(plan.CheckDtype("rowIdxOut", row_idx_out->dtype, DtypeSet{ACL_INT32}));
  Shape out_shape = row_shape;
  out_shape.push_back(k);
  CANOPY_CHECK(plan.CheckShape("yOut", y_out, out_shape));
  CANOPY_CHECK(plan.CheckShape("expertIdxOut", expert_idx_out, out_shape));
  CANOPY_CHECK(plan.CheckShape("rowIdxOut", row_idx_out, out_shape));

  const TensorRef x_ref = plan.Input(x, "x");
  TensorRef finished_ref;
  if (finished != nullptr) {
    finished_ref = plan.Input(finished, "finishedOptional");
  } else {
    plan.SkipInput();
  }
  const TensorRef y_ref = plan.Output(y_out, "yOut");
  const TensorRef expert_ref = plan.Output(expert_idx_out, "expertIdxOut");
  const TensorRef row_ref = plan.Output(row_idx_out, "rowIdxOut");
  if (y_out->NumElements() == 0) return ACLNN_SUCCESS;

  kernels::MoeGatingDesc desc;
  desc.dtype = x->dtype;
  desc.experts = experts;
  desc.rows = x->NumElements() / experts;
  desc.k = k;
  desc.x = plan.Contiguous(x_ref, x_ref.dtype).buffer;
  if (finished != nullptr) {
    desc.has_finished = true;
    desc.finished = plan.Contiguous(finished_ref, ACL_BOOL).buffer;
  }
  const TensorRef y = ContiguousOut(plan, y_ref);
  const TensorRef expert = ContiguousOut(plan, expert_ref);
  const TensorRef row = ContiguousOut(plan, row_ref);
  desc.y = y.buffer;
  desc.expert_index = expert.buffer;
  desc.row_index = row.buffer;
  plan.AddStep(kernels::MakeMoeGatingStep(desc));
  if (!y_ref.IsContiguous()) plan.Copy(y, y_ref);
  if (!expert_ref.IsContiguous()) plan.Copy(expert, expert_ref);
  if (!row_ref.IsContiguous()) plan.Copy(row, row_ref);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(MoeGatingTopKSoftmax, PlanMoeGatingTopKSoftmax,
                (OpTraits{.header = "aclnnop/aclnn_moe_gating_top_k_softmax.h",
                          .dtypes = kGatingDtypes,
                          .max_rank = 3,
                          .example = "f32[3,4] - 2 f32[3,2] i32[3,2] i32[3,2]"}),
                (const aclTensor*, x), (const aclTensor*, finishedOptional, optional), (int64_t, k),
                (const aclTensor*, yOut), (const aclTensor*, expertIdxOut), (const aclTensor*, rowIdxOut))
