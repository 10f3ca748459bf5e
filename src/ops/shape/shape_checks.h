// Checks the shape family's ops share: an output of its input's dtype, and a
// dim argument normalised against a rank.
#pragma once

#include "ops/framework/plan.h"
#include "ops/framework/tensor_view.h"

namespace canopy::ops {

inline aclnnStatus CheckSameDtype(Plan& plan, const char* name, const aclTensor* tensor, const char* source_name,
                                  const aclTensor* source) {
  if (tensor->dtype == source->dtype) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has dtype %s; it must be %s's dtype %s", name,
                     DtypeName(tensor->dtype), source_name, DtypeName(source->dtype));
}

// `dim` in [-rank, rank) as an index into the dimensions, or 161002 naming it.
inline aclnnStatus CheckDim(Plan& plan, const char* name, int64_t dim, int64_t rank, int64_t& normalized) {
  const auto d = NormalizeDim(dim, rank);
  if (!d) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is %lld; it must be in [%lld, %lld]", name,
                       static_cast<long long>(dim), static_cast<long long>(-rank), static_cast<long long>(rank - 1));
  }
  normalized = *d;
  return ACLNN_SUCCESS;
}

}  // namespace canopy::ops
