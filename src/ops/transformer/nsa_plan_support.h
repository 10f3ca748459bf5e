// Plan helpers the NSA attention ops share: their actual-length lists are
// prefix sums (each sequence's end), which the kernels take as lengths.
#pragma once

#include <vector>

#include "ops/framework/aclnn_op.h"

namespace canopy::ops::nsa {

// `ends` (argument `name`) as lengths; a prefix sum below the one before it is 161002.
inline aclnnStatus PrefixSumLengths(Plan& plan, const char* name, const aclIntArray* ends,
                                    std::vector<int64_t>& lengths) {
  int64_t begin = 0;
  for (size_t b = 0; b < ends->values.size(); ++b) {
    const int64_t end = ends->values[b];
    if (end < begin) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "argument '%s' holds prefix sums: element %zu (%lld) is below the one before (%lld)", name, b,
                         static_cast<long long>(end), static_cast<long long>(begin));
    }
    lengths.push_back(end - begin);
    begin = end;
  }
  return ACLNN_SUCCESS;
}

}  // namespace canopy::ops::nsa
