// The AddRmsNorm tail every MatmulAllReduceAddRmsNorm form shares (float,
// quant, weight-quant, each in place or not): CANN's host checks, the
// AddRmsNorm tiling's, and the plan
//   y = residual + allreduce(part),  normOut = rmsnorm(y) * gamma
// where `part` is each form's own product.
#pragma once

#include <functional>

#include "collective.h"
#include "ops/framework/aclnn_op.h"

namespace canopy::ops {

// What differs between the forms: the product's operands and their checks.
struct ArnProduct {
  const aclTensor* x1 = nullptr;
  const aclTensor* x2 = nullptr;
  const aclTensor* bias = nullptr;   // null: none
  const aclTensor* scale = nullptr;  // dequantScale / antiquantScale (an empty one makes the call a no-op)
  // The op definition's dtypes of the product's operands (161002).
  std::function<aclnnStatus(Plan&)> check_dtypes;
  // The tiling's checks of the product against residual (561002).
  std::function<aclnnStatus(Plan&, const aclTensor* residual)> check_tiling;
  // Registers the product's operands (those before residual in the prototype).
  std::function<void(Plan&)> add_inputs;
  // Plans this rank's part ([m, n], contiguous, residual's dtype).
  std::function<aclnnStatus(Plan&, const TensorRef& part)> plan_part;
};

// The tiling's rejection of an argument (561002): "argument <what> (shape, dtype)".
aclnnStatus RejectArnTiling(Plan& plan, const char* what, const aclTensor* t);

// `y`: null for the in-place forms, whose y is residual.
aclnnStatus PlanAllReduceAddRmsNorm(Plan& plan, const ArnProduct& product, const aclTensor* residual,
                                    const aclTensor* gamma, double epsilon, const char* group, const char* reduce_op,
                                    int64_t comm_turn, int64_t stream_mode, const aclTensor* y,
                                    const aclTensor* norm_out);

}  // namespace canopy::ops
