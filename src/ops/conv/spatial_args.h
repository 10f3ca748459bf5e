// Checks shared by the convolution, pooling and resampling ops: the
// channel-first layout a rank implies, and the int-array attributes
// (stride, padding, dilation, kernel size) their docs constrain.
#pragma once

#include <cstdint>
#include <vector>

#include "nnopbase/meta_objects.h"
#include "ops/framework/plan.h"

namespace canopy::ops {

// "NCHW", ... for messages.
const char* FormatName(aclFormat format);

// NCL for rank 3, NCHW for rank 4, NCDHW for rank 5 (UNDEFINED otherwise).
aclFormat ChannelFirstFormat(int64_t rank);

// `tensor` is laid out as `format` (CANN checks the descriptor's format, not only its rank).
aclnnStatus CheckFormat(Plan& plan, const char* name, const aclTensor* tensor, aclFormat format);

// `array` has one of `lengths` elements, each at least `min_value`.
aclnnStatus CheckIntArray(Plan& plan, const char* name, const aclIntArray* array, const std::vector<size_t>& lengths,
                          int64_t min_value);

// Element `axis` of a pooling array of one value (every axis) or one per
// axis; `fallback` for an empty array.
inline int64_t PerAxis(const aclIntArray* array, size_t axis, int64_t fallback) {
  const auto& v = array->values;
  if (v.empty()) return fallback;
  return v.size() == 1 ? v[0] : v[axis];
}

// Every dim of `tensor` from `first` on holds something (161002 naming it otherwise).
aclnnStatus CheckNonEmptyFrom(Plan& plan, const char* name, const aclTensor* tensor, int64_t first);

}  // namespace canopy::ops
