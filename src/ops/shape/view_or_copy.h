// An operand as a view of another shape: itself re-viewed where its strides
// allow (tensor_view.h's Reshape), else a contiguous copy in the workspace.
#pragma once

#include "ops/framework/tensor_view.h"

namespace canopy::ops {

inline TensorRef ViewOrCopy(Plan& plan, const TensorRef& t, const Shape& shape) {
  if (std::optional<TensorRef> view = Reshape(t, shape)) return *view;
  return *Reshape(plan.Contiguous(t, t.dtype), shape);
}

// `t`'s elements in row-major order as one dimension.
inline TensorRef Flat(Plan& plan, const TensorRef& t) { return ViewOrCopy(plan, t, {t.NumElements()}); }

}  // namespace canopy::ops
