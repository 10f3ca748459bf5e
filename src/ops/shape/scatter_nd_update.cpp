// aclnnScatterNdUpdate and aclnnTfScatterAdd: TensorFlow's in-place scatters
// into varRef. indices of shape [B..., K] address varRef's first K dimensions;
// updates[b..., :] is the block of varRef's remaining dimensions written at
// (ScatterNdUpdate, the last duplicate wins) or added to (TfScatterAdd,
// duplicates add up in B's row-major order) varRef[indices[b..., :], :].
// TfScatterAdd also takes tf.scatter_add's form, where every element of
// indices addresses dimension 0: it is taken whenever the first form's shapes
// do not fit, as CANN does. TfScatterAdd runs on the advanced-indexing block
// (nd_index.h): every coordinate is checked at run time, before varRef is
// written (CANN documents negative and out-of-range values as unsupported).
// ScatterNdUpdate does what CANN's Atlas A2 kernel does with such values,
// since CANN's own example program relies on it: see LinearRowScatterStep.
#include "aclnnop/aclnn_scatter_nd_update.h"
#include "aclnnop/aclnn_tf_scatter_add.h"
#include "nd_index.h"
#include "ops/framework/aclnn_op.h"
#include "shape_checks.h"
#include "strided_loops.h"

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

// ScatterNdUpdate as CANN's Atlas A2 kernel runs it: each index row becomes
// a row number of varRef's first K dimensions taken as one row-major array
// (the sum of coordinate x row stride), and only the rows whose number falls
// inside that array are written. A row outside it is skipped without an
// error, and coordinates out of their own range whose number lands inside
// write the row it names: CANN's example program for the op passes such
// indices, and it runs on an NPU. Nothing is written outside varRef. The
// number is formed in 64 bits (the NPU wraps it to 32: values that far out
// are skipped here).
class LinearRowScatterStep final : public Step {
 public:
  LinearRowScatterStep(const TensorRef& var, const TensorRef& indices, const TensorRef& updates)
      : var_(var), indices_(indices), updates_(updates) {
    const size_t b_rank = indices.shape.size() - 1;
    const auto k = static_cast<size_t>(indices.shape.back());
    b_shape_.assign(indices.shape.begin(), indices.shape.begin() + static_cast<int64_t>(b_rank));
    b_index_strides_.assign(indices.strides.begin(), indices.strides.begin() + static_cast<int64_t>(b_rank));
    b_update_strides_.assign(updates.strides.begin(), updates.strides.begin() + static_cast<int64_t>(b_rank));
    coordinate_stride_ = indices.strides.back();
    addressed_.assign(var.shape.begin(), var.shape.begin() + static_cast<int64_t>(k));
    addressed_strides_.assign(var.strides.begin(), var.strides.begin() + static_cast<int64_t>(k));
    block_shape_.assign(var.shape.begin() + static_cast<int64_t>(k), var.shape.end());
    var_block_strides_.assign(var.strides.begin() + static_cast<int64_t>(k), var.strides.end());
    update_block_strides_.assign(updates.strides.begin() + static_cast<int64_t>(b_rank), updates.strides.end());
    for (int64_t extent : addressed_) rows_ *= extent;
  }

  aclnnStatus Run(const RunContext& context) const override {
    char* var = context.Resolve(var_.buffer);
    const char* indices = context.Resolve(indices_.buffer);
    const char* updates = context.Resolve(updates_.buffer);
    const auto bytes = static_cast<int64_t>(DtypeSize(var_.dtype));
    const bool wide = indices_.dtype == ACL_INT64;
    const auto coordinate = [&](int64_t offset) {
      if (wide) return reinterpret_cast<const int64_t*>(indices)[offset];
      return static_cast<int64_t>(reinterpret_cast<const int32_t*>(indices)[offset]);
    };
    ForEachOffsetPair(b_shape_, b_index_strides_, b_update_strides_, [&](int64_t at_index, int64_t at_update) {
      int64_t row = 0;
      for (size_t j = 0; j < addressed_.size(); ++j) {
        const int64_t value = coordinate(at_index + static_cast<int64_t>(j) * coordinate_stride_);
        if (__builtin_mul_overflow(row, addressed_[j], &row) || __builtin_add_overflow(row, value, &row)) return;
      }
      if (row < 0 || row >= rows_) return;
      int64_t offset = 0;  // the row's place in varRef's view
      for (size_t j = addressed_.size(); j > 0; --j) {
        offset += (row % addressed_[j - 1]) * addressed_strides_[j - 1];
        row /= addressed_[j - 1];
      }
      CopyBlock(var + offset * bytes, var_block_strides_.data(), updates + at_update * bytes,
                update_block_strides_.data(), block_shape_.data(), block_shape_.size(), bytes);
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "scatter " + ShapeToString(b_shape_) + " rows of " + ShapeToString(block_shape_) + " " +
           DtypeName(var_.dtype) + " by row number into " + ShapeToString(addressed_);
  }

 private:
  TensorRef var_;
  TensorRef indices_;
  TensorRef updates_;
  Shape b_shape_;  // indices' positions, and both inputs' strides over them
  Shape b_index_strides_;
  Shape b_update_strides_;
  int64_t coordinate_stride_ = 0;
  Shape addressed_;  // varRef's first K extents, and its strides over them
  Shape addressed_strides_;
  int64_t rows_ = 1;
  Shape block_shape_;  // varRef's other dimensions, and both views' strides over them
  Shape var_block_strides_;
  Shape update_block_strides_;
};

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
  plan.AddStep(std::make_unique<LinearRowScatterStep>(dst, coordinates, blocks), {coordinates, blocks}, dst);
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
