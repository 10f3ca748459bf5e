// aclnnMoeGatingTopKSoftmax and aclnnMoeGatingTopKSoftmaxV2: MoE routing
// weights. For each token row of x (2-D [rows, experts] or 3-D [b, s,
// experts]) the softmax over the experts, its k largest values (yOut, x's
// dtype) and their expert numbers (expertIdxOut, int32). A row whose
// finishedOptional entry is true reports expert number `experts` (x's last
// extent) in every slot.
//
// V1: also the k-major source-row numbers (rowIdxOut[i, j] = j * rows + i);
//   k is in [0, experts] and at most 1024 (the doc allows k = 0: empty
//   outputs); shape errors are 161002.
// V2: no row numbers; renorm 1 takes the k largest logits first and the
//   softmax over those k; renorm 0 with outputSoftmaxResultFlag writes the
//   whole softmax (f32, x's shape) to softmaxResultOutOptional, which is left
//   alone otherwise. k is in [1, experts] and at most 1024; the shape and
//   attribute errors are CANN's tiling faults (561002), the dtypes 161002.
#include "aclnnop/aclnn_moe_gating_top_k_softmax.h"
#include "aclnnop/aclnn_moe_gating_top_k_softmax_v2.h"
#include "kernels/moe_gating.h"
#include "ops/framework/aclnn_op.h"
#include "ops/transformer/moe_plan_support.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kGatingDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr int64_t kMaxK = 1024;

// What sets the versions apart.
struct GatingForm {
  aclnnStatus shape_status = ACLNN_ERR_PARAM_INVALID;  // for shapes and attributes
  int64_t min_k = 0;
  bool renorm = false;
  const aclTensor* row_idx_out = nullptr;  // V1
  const aclTensor* softmax_out = nullptr;  // V2, when asked for
  bool has_softmax_argument = false;       // V2's optional output (skipped when not asked for)
};

using moe::CheckShapeIs;

aclnnStatus PlanGating(Plan& plan, const GatingForm& form, const aclTensor* x, const aclTensor* finished, int64_t k,
                       const aclTensor* y_out, const aclTensor* expert_idx_out) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kGatingDtypes));
  if (x->rank() != 2 && x->rank() != 3) {
    return plan.Reject(form.shape_status, "argument 'x' has rank %lld; it must be 2 or 3",
                       static_cast<long long>(x->rank()));
  }
  const int64_t experts = x->view_shape.back();
  if (form.min_k > 0 && experts == 0) {
    return plan.Reject(form.shape_status, "argument 'x' has shape %s; its last extent (the experts) must not be 0",
                       ShapeToString(x->view_shape).c_str());
  }
  if (k < form.min_k || k > experts || k > kMaxK) {
    return plan.Reject(form.shape_status,
                       "argument 'k' is %lld; it must be in [%lld, %lld] (x's last extent, at most %lld)",
                       static_cast<long long>(k), static_cast<long long>(form.min_k),
                       static_cast<long long>(std::min(experts, kMaxK)), static_cast<long long>(kMaxK));
  }
  const Shape row_shape(x->view_shape.begin(), x->view_shape.end() - 1);
  if (finished != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("finishedOptional", finished->dtype, DtypeSet{ACL_BOOL}));
    CANOPY_CHECK(CheckShapeIs(plan, form.shape_status, "finishedOptional", finished, row_shape));
  }
  CANOPY_CHECK(plan.CheckDtype("yOut", y_out->dtype, kGatingDtypes));
  if (y_out->dtype != x->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'yOut' is %s, but x is %s: they must match",
                       DtypeName(y_out->dtype), DtypeName(x->dtype));
  }
  CANOPY_CHECK(plan.CheckDtype("expertIdxOut", expert_idx_out->dtype, DtypeSet{ACL_INT32}));
  if (form.row_idx_out != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("rowIdxOut", form.row_idx_out->dtype, DtypeSet{ACL_INT32}));
  }
  Shape out_shape = row_shape;
  out_shape.push_back(k);
  CANOPY_CHECK(CheckShapeIs(plan, form.shape_status, "yOut", y_out, out_shape));
  CANOPY_CHECK(CheckShapeIs(plan, form.shape_status, "expertIdxOut", expert_idx_out, out_shape));
  if (form.row_idx_out != nullptr) {
    CANOPY_CHECK(CheckShapeIs(plan, form.shape_status, "rowIdxOut", form.row_idx_out, out_shape));
  }
  if (form.softmax_out != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("softmaxResultOutOptional", form.softmax_out->dtype, DtypeSet{ACL_FLOAT}));
    CANOPY_CHECK(CheckShapeIs(plan, form.shape_status, "softmaxResultOutOptional", form.softmax_out, x->view_shape));
  }

  const TensorRef x_ref = plan.Input(x, "x");
  TensorRef finished_ref;
  if (finished != nullptr) {
    finished_ref = plan.Input(finished, "finishedOptional");
  } else {
    plan.SkipInput();
  }
  const TensorRef y_ref = plan.Output(y_out, "yOut");
  const TensorRef expert_ref = plan.Output(expert_idx_out, "expertIdxOut");
  TensorRef row_ref, softmax_ref;
  if (form.row_idx_out != nullptr) row_ref = plan.Output(form.row_idx_out, "rowIdxOut");
  if (form.softmax_out != nullptr) {
    softmax_ref = plan.Output(form.softmax_out, "softmaxResultOutOptional");
  } else if (form.has_softmax_argument) {
    plan.SkipOutput();
  }
  if (x->NumElements() == 0 || (y_out->NumElements() == 0 && form.softmax_out == nullptr)) return ACLNN_SUCCESS;

  moe::DenseOutputs outputs;
  kernels::MoeGatingDesc desc;
  desc.dtype = x->dtype;
  desc.experts = experts;
  desc.rows = x->NumElements() / experts;
  desc.k = k;
  desc.renorm = form.renorm;
  desc.x = plan.Contiguous(x_ref, x_ref.dtype).buffer;
  if (finished != nullptr) {
    desc.has_finished = true;
    desc.finished = plan.Contiguous(finished_ref, ACL_BOOL).buffer;
  }
  desc.y = outputs.Dense(plan, y_ref);
  desc.expert_index = outputs.Dense(plan, expert_ref);
  desc.has_row_index = form.row_idx_out != nullptr;
  if (desc.has_row_index) desc.row_index = outputs.Dense(plan, row_ref);
  desc.has_softmax = form.softmax_out != nullptr;
  if (desc.has_softmax) desc.softmax = outputs.Dense(plan, softmax_ref);
  plan.AddStep(kernels::MakeMoeGatingStep(desc));
  outputs.Finish(plan);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanMoeGatingTopKSoftmax(Plan& plan, const aclTensor* x, const aclTensor* finished, int64_t k,
                                     const aclTensor* y_out, const aclTensor* expert_idx_out,
                                     const aclTensor* row_idx_out) {
  return PlanGating(plan, GatingForm{.row_idx_out = row_idx_out}, x, finished, k, y_out, expert_idx_out);
}

constexpr int64_t kRenormAfterTopK = 1;

aclnnStatus PlanMoeGatingTopKSoftmaxV2(Plan& plan, const aclTensor* x, const aclTensor* finished, int64_t k,
                                       int64_t renorm, bool output_softmax, const aclTensor* y_out,
                                       const aclTensor* expert_idx_out, const aclTensor* softmax_out) {
  if (renorm != 0 && renorm != kRenormAfterTopK) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'renorm' is %lld; it must be 0 or 1",
                       static_cast<long long>(renorm));
  }
  const bool softmax_asked = renorm == 0 && output_softmax;
  if (softmax_asked && softmax_out == nullptr) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                       "argument 'softmaxResultOutOptional' is null, but renorm 0 with outputSoftmaxResultFlag "
                       "true writes the softmax there");
  }
  const GatingForm form{.shape_status = ACLNN_ERR_INNER_TILING_ERROR,
                        .min_k = 1,
                        .renorm = renorm == kRenormAfterTopK,
                        .softmax_out = softmax_asked ? softmax_out : nullptr,
                        .has_softmax_argument = true};
  return PlanGating(plan, form, x, finished, k, y_out, expert_idx_out);
}

}  // namespace

CANOPY_ACLNN_OP(MoeGatingTopKSoftmax, PlanMoeGatingTopKSoftmax,
                (OpTraits{.header = "aclnnop/aclnn_moe_gating_top_k_softmax.h",
                          .dtypes = kGatingDtypes,
                          .max_rank = 3,
                          .example = "f32[3,4] - 2 f32[3,2] i32[3,2] i32[3,2]"}),
                (const aclTensor*, x), (const aclTensor*, finishedOptional, optional), (int64_t, k),
                (const aclTensor*, yOut), (const aclTensor*, expertIdxOut), (const aclTensor*, rowIdxOut))

CANOPY_ACLNN_OP(MoeGatingTopKSoftmaxV2, PlanMoeGatingTopKSoftmaxV2,
                (OpTraits{.header = "aclnnop/aclnn_moe_gating_top_k_softmax_v2.h",
                          .dtypes = kGatingDtypes,
                          .example = "f32[3,4] - 2 0 false f32[3,2] i32[3,2] f32[3,4]"}),
                (const aclTensor*, x), (const aclTensor*, finishedOptional, optional), (int64_t, k), (int64_t, renorm),
                (bool, outputSoftmaxResultFlag), (const aclTensor*, yOut), (const aclTensor*, expertIdxOut),
                (const aclTensor*, softmaxResultOutOptional, optional))
