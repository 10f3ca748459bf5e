// aclnnScatterNdUpdate and aclnnTfScatterAdd: TensorFlow's in-place scatters
// into varRef. indices of shape [B..., K] address varRef's first K dimensions;
// updates[b..., :] is the block of varRef's remaining dimensions written at
// (ScatterNdUpdate, the last duplicate wins) or added to (TfScatterAdd,
// duplicates add up in B's row-major order) varRef[indices[b..., :], :].
// TfScatterAdd also takes tf.scatter_add's form, where every element of
// indices addresses dimension 0: it is taken whenever the first form's shapes
// do not fit, as CANN does. Both run on the advanced-indexing block
// (nd_index.h): every coordinate is checked at run time, before varRef is
// written (CANN documents negative and out-of-range values as unsupported).
#include "aclnnop/aclnn_scatter_nd_update.h"
#include "aclnnop/aclnn_tf_scatter_add.h"
#include "nd_index.h"
#include "ops/framework/aclnn_op.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// CANN's Atlas A2 lists (its code: its ScatterNdUpdate document leaves out INT16 and INT32).
constexpr DtypeSet kScatterNdUpdateDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BOOL, ACL_INT16,
                                             ACL_BF16,  ACL_INT64,   ACL_INT8, ACL_INT32};
constexpr DtypeSet kTfScatterAddDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT8, ACL_UINT8};

// Whether updates has shape indices.shape[:-1] + var.shape[K:], K = indices.shape[-1] <= var's rank.
bool FitsNdForm(const aclTensor* var, const aclTensor* indices, const aclTensor* updates) {
  if (indices->rank() == 0 || indices->view_shape.back() > var->rank()) return false;
  return updates->view_shape == NdAdvancedIndex(var->rank(), indices->view_shape).ResultShape(var->view_shape, 0);
}

// tf.scatter_add's form: updates has shape indices.shape + var.shape[1:].
bool FitsDimZeroForm(const aclTensor* var, const aclTensor* indices, const aclTensor* updates) {
  if (var->rank() == 0 || indices->rank() == 0) return false;
  if (var->view_shape[0] == 0 && indices->NumElements() != 0) return false;
  Shape expected = indices->view_shape;
  expected.insert(expected.end(), var->view_shape.begin() + 1, var->view_shape.end());
  return updates->view_shape == expected;
}

aclnnStatus CheckScatterDtypes(Plan& plan, DtypeSet dtypes, const aclTensor* var, const aclTensor* indices,
                               const aclTensor* updates) {
  CANOPY_CHECK(plan.CheckDtype("varRef", var->dtype, dtypes));
  CANOPY_CHECK(plan.CheckDtype("indices", indices->dtype, kIndexDtypes));
  return CheckSameDtype(plan, "updates", updates, "varRef", var);
}

bool AnyEmpty(const aclTensor* var, const aclTensor* indices, const aclTensor* updates) {
  return var->NumElements() == 0 || indices->NumElements() == 0 || updates->NumElements() == 0;
}

aclnnStatus PlanScatterNdUpdate(Plan& plan, const aclTensor* var, const aclTensor* indices, const aclTensor* updates) {
  CANOPY_CHECK(CheckScatterDtypes(plan, kScatterNdUpdateDtypes, var, indices, updates));
  plan.Input(var, "varRef");
  const TensorRef coordinates = plan.Input(indices, "indices");
  const TensorRef blocks = plan.Input(updates, "updates");
  const TensorRef dst = plan.Output(var, "varRef");
  if (AnyEmpty(var, indices, updates)) return ACLNN_SUCCESS;  // CANN: nothing to do, before any shape rule
  // CANN leaves these to its kernel; a CPU must not write past varRef.
  if (!FitsNdForm(var, indices, updates)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'updates' has shape %s; indices %s into varRef %s need indices' last extent K at "
                       "most varRef's rank and updates of shape indices.shape[:-1] + varRef.shape[K:]",
                       ShapeToString(updates->view_shape).c_str(), ShapeToString(indices->view_shape).c_str(),
                       ShapeToString(var->view_shape).c_str());
  }
  PlanNdScatter(plan, BlockCopy::kScatter, dst, coordinates, blocks);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanTfScatterAdd(Plan& plan, const aclTensor* var, const aclTensor* indices, const aclTensor* updates) {
  CANOPY_CHECK(CheckScatterDtypes(plan, kTfScatterAddDtypes, var, indices, updates));
  const bool nd_form = FitsNdForm(var, indices, updates);
  if (!nd_form && !FitsDimZeroForm(var, indices, updates)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'updates' has shape %s; indices %s into varRef %s need updates of shape "
                       "indices.shape[:-1] + varRef.shape[K:] (K = indices.shape[-1] <= varRef's rank) or "
                       "indices.shape + varRef.shape[1:]",
                       ShapeToString(updates->view_shape).c_str(), ShapeToString(indices->view_shape).c_str(),
                       ShapeToString(var->view_shape).c_str());
  }
  plan.Input(var, "varRef");
  TensorRef coordinates = plan.Input(indices, "indices");
  const TensorRef blocks = plan.Input(updates, "updates");
  const TensorRef dst = plan.Output(var, "varRef");
  if (AnyEmpty(var, indices, updates)) return ACLNN_SUCCESS;
  // tf.scatter_add's indices are one coordinate each: a last extent of 1.
  if (!nd_form) coordinates = Unsqueeze(coordinates, coordinates.rank());
  PlanNdScatter(plan, BlockCopy::kAccumulate, dst, coordinates, blocks);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(ScatterNdUpdate, PlanScatterNdUpdate,
                (OpTraits{.header = "aclnnop/aclnn_scatter_nd_update.h",
                          .dtypes = kScatterNdUpdateDtypes,
                          .in_place = true,
                          .example = "f32[4,3] i64[2,1]{0:3} f32[2,3]"}),
                (aclTensor*, varRef), (const aclTensor*, indices), (const aclTensor*, updates))
CANOPY_ACLNN_OP(TfScatterAdd, PlanTfScatterAdd,
                (OpTraits{.header = "aclnnop/aclnn_tf_scatter_add.h",
                          .dtypes = kTfScatterAddDtypes,
                          .in_place = true,
                          .example = "f32[4,3] i64[2]{0:3} f32[2,3]"}),
                (aclTensor*, varRef), (const aclTensor*, indices), (const aclTensor*, updates))
