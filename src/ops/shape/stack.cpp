// aclnnStack: the tensors of a list, all of one shape, joined along a new
// dimension dim of out: out's slice i along dim is tensors[i], one strided copy
// per member. The members' dtypes are promoted together and the result
// converted to out's dtype, as CANN does.
#include <string>
#include <vector>

#include "aclnnop/aclnn_stack.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kStackDtypes = {ACL_FLOAT16, ACL_FLOAT,  ACL_INT8,      ACL_INT16,      ACL_INT32,
                                   ACL_INT64,   ACL_UINT8,  ACL_UINT16,    ACL_UINT32,     ACL_UINT64,
                                   ACL_BOOL,    ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

aclnnStatus CheckStack(Plan& plan, const aclTensorList* tensors, int64_t dim, const aclTensor* out, int64_t& d,
                       aclDataType& promoted) {
  const std::vector<aclTensor*>& members = tensors->tensors;
  if (members.empty()) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'tensors' is an empty list");
  std::vector<std::string> names;
  for (size_t i = 0; i < members.size(); ++i) {
    names.push_back("tensors[" + std::to_string(i) + "]");
    CANOPY_CHECK(plan.CheckDtype(names[i].c_str(), members[i]->dtype, kStackDtypes));
  }
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kStackDtypes));
  promoted = members[0]->dtype;
  for (size_t i = 1; i < members.size(); ++i) {
    CANOPY_CHECK(plan.CheckPromotable("tensors", promoted, names[i].c_str(), members[i]->dtype, promoted));
  }
  CANOPY_CHECK(plan.CheckCastable(promoted, "out", out->dtype));
  const int64_t rank = members[0]->rank();
  if (rank > 7) {  // out gains a dimension and has at most 8
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'tensors[0]' has rank %lld; Stack takes at most 7",
                       static_cast<long long>(rank));
  }
  CANOPY_CHECK(CheckDim(plan, "dim", dim, rank + 1, d));  // an insertion point: [-(rank + 1), rank]
  for (size_t i = 1; i < members.size(); ++i) {
    if (members[i]->view_shape != members[0]->view_shape) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; 'tensors[0]' has shape %s",
                         names[i].c_str(), ShapeToString(members[i]->view_shape).c_str(),
                         ShapeToString(members[0]->view_shape).c_str());
    }
  }
  Shape expected = members[0]->view_shape;
  expected.insert(expected.begin() + d, static_cast<int64_t>(members.size()));
  return plan.CheckShape("out", out, expected);
}

aclnnStatus PlanStack(Plan& plan, const aclTensorList* tensors, int64_t dim, const aclTensor* out) {
  int64_t d = 0;
  aclDataType promoted = ACL_DT_UNDEFINED;
  CANOPY_CHECK(CheckStack(plan, tensors, dim, out, d, promoted));
  const std::vector<TensorRef> list = plan.InputList(tensors, "tensors");
  const TensorRef dst = plan.Output(out, "out");
  for (size_t i = 0; i < list.size(); ++i) {
    const TensorRef& src = list[i];
    if (src.NumElements() == 0) continue;
    const TensorRef slice = Select(dst, d, static_cast<int64_t>(i));
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

CANOPY_ACLNN_OP(Stack, PlanStack,
                (OpTraits{.header = "aclnnop/aclnn_stack.h",
                          .dtypes = kStackDtypes,
                          .example = "(f32[2,3],f32[2,3]) 0 f32[2,2,3]"}),
                (const aclTensorList*, tensors), (int64_t, dim), (aclTensor*, out))
