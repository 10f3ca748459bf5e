// aclnnCat: the tensors of a list concatenated along dim into out, a strided
// copy per member into its slice of out (members of out's dtype: one step that
// moves their bytes in a single fork of the team). As CANN does, 1-D members of extent 0
// are left out before anything is checked (a list of only those, or an empty
// list, writes nothing); the members' dtypes are promoted together and the
// result converted to out's dtype.
#include <string>
#include <vector>

#include "aclnnop/aclnn_cat.h"
#include "kernels/strided_copy.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/elementwise_desc.h"
#include "ops/framework/tensor_view.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kCatDtypes = {ACL_FLOAT, ACL_FLOAT16,   ACL_INT32, ACL_INT64, ACL_INT16, ACL_INT8,
                                 ACL_UINT8, ACL_COMPLEX64, ACL_BF16,  ACL_BOOL,  ACL_DOUBLE};

bool IsErased(const aclTensor* t) { return t->rank() == 1 && t->view_shape[0] == 0; }

aclnnStatus CheckCat(Plan& plan, const std::vector<const aclTensor*>& members, const std::vector<std::string>& names,
                     int64_t dim, const aclTensor* out, int64_t& d, aclDataType& promoted) {
  for (size_t i = 0; i < members.size(); ++i) {
    CANOPY_CHECK(plan.CheckDtype(names[i].c_str(), members[i]->dtype, kCatDtypes));
  }
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kCatDtypes));
  promoted = members[0]->dtype;
  for (size_t i = 1; i < members.size(); ++i) {
    CANOPY_CHECK(plan.CheckPromotable("tensors", promoted, names[i].c_str(), members[i]->dtype, promoted));
    if (promoted == ACL_COMPLEX128) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "the members of 'tensors' promote to COMPLEX128, which Cat lacks");
    }
  }
  CANOPY_CHECK(plan.CheckCastable(promoted, "out", out->dtype));
  const aclFormat format = members[0]->format;
  for (size_t i = 1; i < members.size(); ++i) {
    if (members[i]->format != format) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has format %d; '%s' has format %d", names[i].c_str(),
                         static_cast<int>(members[i]->format), names[0].c_str(), static_cast<int>(format));
    }
  }
  if (out->format != format) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'out' has format %d; the tensors have format %d",
                       static_cast<int>(out->format), static_cast<int>(format));
  }
  const int64_t rank = members[0]->rank();
  CANOPY_CHECK(CheckDim(plan, "dim", dim, rank, d));
  Shape expected = members[0]->view_shape;
  for (size_t i = 1; i < members.size(); ++i) {
    const aclTensor* t = members[i];
    if (t->rank() != rank) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has rank %lld; '%s' has rank %lld", names[i].c_str(),
                         static_cast<long long>(t->rank()), names[0].c_str(), static_cast<long long>(rank));
    }
    for (int64_t j = 0; j < rank; ++j) {
      if (j != d && t->view_shape[j] != expected[j]) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                           "argument '%s' of shape %s differs from '%s' of shape %s outside dim %lld", names[i].c_str(),
                           ShapeToString(t->view_shape).c_str(), names[0].c_str(),
                           ShapeToString(members[0]->view_shape).c_str(), static_cast<long long>(d));
      }
    }
    if (__builtin_add_overflow(expected[d], t->view_shape[d], &expected[d])) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "the members' extents along dim %lld add up past int64",
                         static_cast<long long>(d));
    }
  }
  return plan.CheckShape("out", out, expected);
}

// Members all of out's dtype: their bytes move into out's slices in one step
// (kernels/strided_copy.h), one fork of the team for the whole list. False
// (nothing planned) when a member converts or the dtype's copies do not move
// bits (bool).
bool PlanSameDtypeCat(Plan& plan, const std::vector<const aclTensor*>& members, const std::vector<size_t>& positions,
                      const std::vector<TensorRef>& list, int64_t d, const TensorRef& dst) {
  std::vector<kernels::ElementwiseDesc> copies;
  std::vector<TensorRef> reads;
  int64_t offset = 0;
  for (size_t k = 0; k < members.size(); ++k) {
    const TensorRef& src = list[positions[k]];
    const TensorRef slice = Narrow(dst, d, offset, src.shape[d]);
    offset += src.shape[d];
    if (src.NumElements() == 0) continue;
    const kernels::ElementwiseDesc desc = CopyDescOf(src, slice);
    if (!kernels::IsBitCopy(desc)) return false;
    copies.push_back(desc);
    reads.push_back(src);
  }
  if (!copies.empty()) plan.AddStep(kernels::MakeBitCopyStep(copies), reads, dst);
  return true;
}

aclnnStatus PlanCat(Plan& plan, const aclTensorList* tensors, int64_t dim, const aclTensor* out) {
  std::vector<const aclTensor*> members;
  std::vector<std::string> names;
  std::vector<size_t> positions;  // of the members kept, in the list
  for (size_t i = 0; i < tensors->tensors.size(); ++i) {
    if (IsErased(tensors->tensors[i])) continue;
    members.push_back(tensors->tensors[i]);
    names.push_back("tensors[" + std::to_string(i) + "]");
    positions.push_back(i);
  }
  int64_t d = 0;
  aclDataType promoted = ACL_DT_UNDEFINED;
  if (!members.empty()) CANOPY_CHECK(CheckCat(plan, members, names, dim, out, d, promoted));
  const std::vector<TensorRef> list = plan.InputList(tensors, "tensors");
  const TensorRef dst = plan.Output(out, "out");
  if (PlanSameDtypeCat(plan, members, positions, list, d, dst)) return ACLNN_SUCCESS;
  int64_t offset = 0;
  for (size_t k = 0; k < members.size(); ++k) {
    const TensorRef& src = list[positions[k]];
    const int64_t extent = src.shape[d];
    const TensorRef slice = Narrow(dst, d, offset, extent);
    offset += extent;
    if (src.NumElements() == 0) continue;
    // A member converts to the promoted dtype first, then to out's (the rounding CANN's two casts give).
    if (src.dtype != promoted && promoted != dst.dtype) {
      const TensorRef staged = plan.Temporary(promoted, src.shape);
      plan.Copy(src, staged);
      plan.Copy(staged, slice);
    } else {
      plan.Copy(src, slice);
    }
  }
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(
    Cat, PlanCat,
    (OpTraits{.header = "aclnnop/aclnn_cat.h", .dtypes = kCatDtypes, .example = "(f32[1,2],f32[2,2]) 0 f32[3,2]"}),
    (const aclTensorList*, tensors), (int64_t, dim), (aclTensor*, out))
