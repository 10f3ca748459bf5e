// aclnnSplitWithSize and aclnnSplitTensor: self cut along dim into
// consecutive pieces, piece i written to out[i] (converted to its dtype, as
// CANN does), one strided copy of a narrowed view per piece. SplitWithSize
// takes the pieces' extents; SplitTensor pieces of splitSections each (the
// last one smaller).
#include <string>
#include <vector>

#include "aclnnop/aclnn_split_tensor.h"
#include "aclnnop/aclnn_split_with_size.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// CANN's A2 host code (the non-950 list): no UINT16 / 32 / 64, which the doc's general column names.
constexpr DtypeSet kSplitDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT32,      ACL_INT64,     ACL_INT16,
                                   ACL_INT8,  ACL_UINT8,   ACL_BOOL,   ACL_COMPLEX128, ACL_COMPLEX64, ACL_BF16};

aclnnStatus CheckSelfAndDim(Plan& plan, const aclTensor* self, const aclTensorList* out, int64_t dim, int64_t& d) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kSplitDtypes));
  for (size_t i = 0; i < out->tensors.size(); ++i) {
    CANOPY_CHECK(plan.CheckDtype(("out[" + std::to_string(i) + "]").c_str(), out->tensors[i]->dtype, kSplitDtypes));
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 1, 8));
  return CheckDim(plan, "dim", dim, self->rank(), d);
}

// out[i] = self's elements [offset_i, offset_i + sizes[i]) along d; sizes are
// checked (count, each non-negative and adding up to the extent) by the caller.
aclnnStatus PlanPieces(Plan& plan, const aclTensor* self, int64_t d, const std::vector<int64_t>& sizes,
                       const aclTensorList* out) {
  if (sizes.size() != out->tensors.size()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self splits into %zu pieces; argument 'out' holds %zu tensors",
                       sizes.size(), out->tensors.size());
  }
  for (size_t i = 0; i < sizes.size(); ++i) {
    Shape expected = self->view_shape;
    expected[d] = sizes[i];
    CANOPY_CHECK(plan.CheckShape(("out[" + std::to_string(i) + "]").c_str(), out->tensors[i], expected));
  }
  const TensorRef src = plan.Input(self, "self");
  const std::vector<TensorRef> pieces = plan.OutputList(out, "out");
  int64_t offset = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (pieces[i].NumElements() != 0) plan.Copy(Narrow(src, d, offset, sizes[i]), pieces[i]);
    offset += sizes[i];
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanSplitWithSize(Plan& plan, const aclTensor* self, const aclIntArray* splitSize, int64_t dim,
                              const aclTensorList* out) {
  int64_t d = 0;
  CANOPY_CHECK(CheckSelfAndDim(plan, self, out, dim, d));
  int64_t total = 0;
  for (int64_t size : splitSize->values) {
    if (size < 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'splitSize' holds %lld; sizes cannot be negative",
                         static_cast<long long>(size));
    }
    if (__builtin_add_overflow(total, size, &total)) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "argument 'splitSize' adds up past int64; self has %lld along dim %lld",
                         static_cast<long long>(self->view_shape[d]), static_cast<long long>(d));
    }
  }
  if (total != self->view_shape[d]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'splitSize' adds up to %lld; self has %lld along dim %lld",
                       static_cast<long long>(total), static_cast<long long>(self->view_shape[d]),
                       static_cast<long long>(d));
  }
  return PlanPieces(plan, self, d, splitSize->values, out);
}

aclnnStatus PlanSplitTensor(Plan& plan, const aclTensor* self, uint64_t splitSections, int64_t dim,
                            const aclTensorList* out) {
  int64_t d = 0;
  CANOPY_CHECK(CheckSelfAndDim(plan, self, out, dim, d));
  const int64_t extent = self->view_shape[d];
  if ((extent == 0) != (splitSections == 0)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'splitSections' is %llu; it must be 0 exactly when self's dim %lld (extent %lld) is "
                       "empty",
                       static_cast<unsigned long long>(splitSections), static_cast<long long>(d),
                       static_cast<long long>(extent));
  }
  // Pieces of splitSections, the last one what is left; an empty dim is one empty piece.
  std::vector<int64_t> sizes;
  const int64_t section = extent == 0 ? 0 : static_cast<int64_t>(std::min<uint64_t>(splitSections, extent));
  for (int64_t at = 0; at < extent; at += section) sizes.push_back(std::min(section, extent - at));
  if (sizes.empty()) sizes.push_back(0);
  return PlanPieces(plan, self, d, sizes, out);
}

constexpr OpTraits kSplitWithSize{.header = "aclnnop/aclnn_split_with_size.h",
                                  .dtypes = kSplitDtypes,
                                  .example = "f32[4,2] ints[1,3] 0 (f32[1,2],f32[3,2])"};
constexpr OpTraits kSplitTensor{.header = "aclnnop/aclnn_split_tensor.h",
                                .dtypes = kSplitDtypes,
                                .example = "f32[5,2] 2 0 (f32[2,2],f32[2,2],f32[1,2])"};

}  // namespace

CANOPY_ACLNN_OP(SplitWithSize, PlanSplitWithSize, kSplitWithSize, (const aclTensor*, self),
                (const aclIntArray*, splitSize), (int64_t, dim), (aclTensorList*, out))
CANOPY_ACLNN_OP(SplitTensor, PlanSplitTensor, kSplitTensor, (const aclTensor*, self), (uint64_t, splitSections),
                (int64_t, dim), (aclTensorList*, out))
