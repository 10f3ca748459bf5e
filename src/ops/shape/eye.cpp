// aclnnEye: out (n x m) = ones on the diagonal, zeros elsewhere: two fills,
// the second through a view of out's diagonal (no kernel of its own).
#include <algorithm>

#include "aclnnop/aclnn_eye.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kEyeDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_INT32, ACL_INT16, ACL_INT8,
                                 ACL_UINT8,   ACL_INT64, ACL_BOOL,  ACL_BF16};

aclnnStatus PlanEye(Plan& plan, int64_t n, int64_t m, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kEyeDtypes));
  CANOPY_CHECK(plan.CheckRank("out", out, 2, 2));
  if (n < 0 || m < 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "arguments 'n' (%lld) and 'm' (%lld) must not be negative",
                       static_cast<long long>(n), static_cast<long long>(m));
  }
  CANOPY_CHECK(plan.CheckShape("out", out, Shape{n, m}));
  const TensorRef dst = plan.Output(out, "out");
  if (out->NumElements() == 0) return ACLNN_SUCCESS;
  plan.Fill(dst, ScalarValue::Integer(0));
  // The diagonal: min(n, m) elements, one step down both dimensions at once.
  TensorRef diagonal = dst;
  diagonal.shape = {std::min(n, m)};
  diagonal.strides = {dst.strides[0] + dst.strides[1]};
  plan.Fill(diagonal, ScalarValue::Integer(1));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Eye, PlanEye,
                (OpTraits{.header = "aclnnop/aclnn_eye.h", .dtypes = kEyeDtypes, .example = "3 4 f32[3,4]"}),
                (int64_t, n), (int64_t, m), (aclTensor*, out))
