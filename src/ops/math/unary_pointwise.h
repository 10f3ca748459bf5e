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
  kRealOfComplex,    // the result of a complex self is its real dtype (COMPLEX64 -> FLOAT: Abs)
};

struct UnaryRule {
  UnaryOp op = UnaryOp::kExp;
  DtypeSet self = {};     // the out-of-place form's self
  DtypeSet out = {};      // its out
  DtypeSet inplace = {};  // the in-place form's selfRef (empty: no in-place form)
  UnaryPolicy policy = UnaryPolicy::kSameAsInput;
  bool out_same_dtype = false;  // out must have the result's dtype (else: the result must cast to it)
  // The prototype's names for self and selfRef (in messages and checker reports).
  const char* self_name = "self";
  const char* inplace_name = "selfRef";
};

// out = f(self) (self, out as the prototype names them).
aclnnStatus PlanUnary(Plan& plan, const UnaryRule& rule, const aclTensor* self, const aclTensor* out,
                      UnaryParams params = {});
// selfRef = f(selfRef).
aclnnStatus PlanInplaceUnary(Plan& plan, const UnaryRule& rule, const aclTensor* selfRef, UnaryParams params = {});

}  // namespace canopy::ops
