// The recipes every unary pointwise op shares: an op is a UnaryRule (its
// dtype lists and dtype policy, from its CANN document) plus a row of the
// kernel functor table (kernels/unary_functors.h). Checks run in CANN's order:
// self's dtype, out's dtype, the result castable to out, the shapes.
#pragma once

#include "ops/framework/aclnn_op.h"

namespace canopy::ops {

enum class UnaryPolicy : uint8_t {
  kPromoteIntegers,  // bool and integer inputs compute in FLOAT (Exp of INT64 gives a float)
  kSameAsInput,      // the result has self's dtype
};

struct UnaryRule {
  UnaryOp op;
  DtypeSet self;     // the out-of-place form's self
  DtypeSet out;      // its out (empty: any dtype the result casts to)
  DtypeSet inplace;  // the in-place form's selfRef
  UnaryPolicy policy = UnaryPolicy::kSameAsInput;
};

// out = f(self) (self, out as the prototype names them).
aclnnStatus PlanUnary(Plan& plan, const UnaryRule& rule, const aclTensor* self, const aclTensor* out,
                      UnaryParams params = {});
// selfRef = f(selfRef).
aclnnStatus PlanInplaceUnary(Plan& plan, const UnaryRule& rule, const aclTensor* selfRef, UnaryParams params = {});

}  // namespace canopy::ops
