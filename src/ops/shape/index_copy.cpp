// aclnnIndexCopy and aclnnInplaceIndexCopy: the slices of source along dim
// written into selfRef (or into outRef, a copy of selfRef) at the positions
// index gives, on the shared scatter block. Index values are checked at run
// time before anything is written; with duplicates the last one wins.
#include "aclnnop/aclnn_index_copy.h"
#include "gather.h"
#include "ops/framework/aclnn_op.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kIndexCopyDtypes = {ACL_FLOAT, ACL_BF16,  ACL_FLOAT16, ACL_INT32,      ACL_INT64,     ACL_INT16,
                                       ACL_INT8,  ACL_UINT8, ACL_DOUBLE,  ACL_COMPLEX128, ACL_COMPLEX64, ACL_BOOL};

aclnnStatus CheckIndexCopy(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index,
                           const aclTensor* source, const aclTensor* out, int64_t& d) {
  CANOPY_CHECK(plan.CheckDtype("selfRef", self->dtype, kIndexCopyDtypes));
  CANOPY_CHECK(plan.CheckDtype("index", index->dtype, kIndexDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "source", source, "selfRef", self));
  if (out != self) {
    CANOPY_CHECK(CheckSameDtype(plan, "outRef", out, "selfRef", self));
    if (out->format != self->format) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "selfRef's format %d and outRef's format %d differ",
                         static_cast<int>(self->format), static_cast<int>(out->format));
    }
    CANOPY_CHECK(plan.CheckShape("outRef", out, self->view_shape));
  }
  if (index->rank() > 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'index' has rank %lld; it must be 0 or 1",
                       static_cast<long long>(index->rank()));
  }
  const int64_t count = index->NumElements();
  if (source->rank() == 0 && count != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "a rank-0 'source' takes one index; 'index' has %lld",
                       static_cast<long long>(count));
  }
  if (source->rank() == 0 && self->rank() > 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "a rank-0 'source' cannot fill a slice of selfRef of shape %s",
                       ShapeToString(self->view_shape).c_str());
  }
  if (self->rank() == 0 && source->rank() > 1) {  // selfRef is one slice of one element
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "a rank-0 selfRef takes a 'source' of rank 0 or 1; it has rank %lld",
                       static_cast<long long>(source->rank()));
  }
  if (self->rank() > 0 && source->rank() > 0 && self->rank() != source->rank()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'source' has rank %lld; selfRef has rank %lld",
                       static_cast<long long>(source->rank()), static_cast<long long>(self->rank()));
  }
  CANOPY_CHECK(CheckDim(plan, "dim", dim, std::max<int64_t>(self->rank(), 1), d));  // rank 0 counts as 1
  if (source->rank() > 0) {
    for (int64_t i = 0; i < self->rank(); ++i) {
      if (i != d && self->view_shape[i] != source->view_shape[i]) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                           "argument 'source' of shape %s and selfRef of shape %s differ "
                           "outside dim %lld",
                           ShapeToString(source->view_shape).c_str(), ShapeToString(self->view_shape).c_str(),
                           static_cast<long long>(d));
      }
    }
    if (source->view_shape[d] != count) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'index' has %lld elements; source has %lld along dim %lld",
                         static_cast<long long>(count), static_cast<long long>(source->view_shape[d]),
                         static_cast<long long>(d));
    }
  }
  return ACLNN_SUCCESS;
}

// `out` is selfRef itself for the in-place form.
aclnnStatus PlanIndexCopyInto(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index,
                              const aclTensor* source, const aclTensor* out) {
  int64_t d = 0;
  CANOPY_CHECK(CheckIndexCopy(plan, self, dim, index, source, out, d));
  const bool in_place = out == self;
  TensorRef original = plan.Input(self, "selfRef");
  TensorRef indices = plan.Input(index, "index");
  TensorRef slices = plan.Input(source, "source");
  TensorRef dst = plan.Output(out, in_place ? "selfRef" : "outRef");
  if (self->rank() == 0) {  // one element: a dimension of extent 1
    original = Unsqueeze(original, 0);
    dst = Unsqueeze(dst, 0);
  }
  if (source->rank() == 0) slices = Unsqueeze(slices, 0);
  indices = *Reshape(indices, {indices.NumElements()});
  // The check comes first: a failed one leaves out as it was.
  const std::optional<TensorRef> values = PlanIndexValues(plan, indices, "index", d, dst.shape[d]);
  if (!in_place) plan.Copy(original, dst);
  if (values) PlanScatterSlices(plan, *values, dst, d, slices);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanIndexCopy(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index,
                          const aclTensor* source, const aclTensor* out) {
  return PlanIndexCopyInto(plan, self, dim, index, source, out);
}

aclnnStatus PlanInplaceIndexCopy(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index,
                                 const aclTensor* source) {
  return PlanIndexCopyInto(plan, self, dim, index, source, self);
}

constexpr OpTraits kIndexCopy{.header = "aclnnop/aclnn_index_copy.h", .dtypes = kIndexCopyDtypes};

}  // namespace

CANOPY_ACLNN_OP(IndexCopy, PlanIndexCopy, kIndexCopy, (aclTensor*, selfRef), (int64_t, dim), (const aclTensor*, index),
                (const aclTensor*, source), (aclTensor*, outRef))
CANOPY_ACLNN_OP(InplaceIndexCopy, PlanInplaceIndexCopy, InPlace(kIndexCopy), (aclTensor*, selfRef), (int64_t, dim),
                (const aclTensor*, index), (const aclTensor*, source))
