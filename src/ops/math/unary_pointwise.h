// The recipes every unary pointwise op shares: an op is a UnaryRule (its
// dtype lists and dtype policy, from its CANN document) plus a row of the
// kernel functor table (kernels/unary_functors.h). Checks run in CANN's order:
// self's dtype, the attribute scalars, out's dtype, the result castable to
// out, the shapes.
#pragma once

#include <initializer_list>
#include <vector>

#include "binary_pointwise.h"
#include "ops/framework/aclnn_op.h"

namespace canopy::ops {

enum class UnaryPolicy : uint8_t {
  kPromoteIntegers,  // bool and integer inputs compute in FLOAT (Exp of INT64 gives a float)
  kSameAsInput,      // the result has self's dtype
  kRealOfComplex,    // the result of a complex self is its real dtype (COMPLEX64 -> FLOAT: Abs)
  kBoolOut,          // a predicate: computed on self's values in self's type, the result is BOOL
                     // (cast to out's dtype: LogicalNot into a FLOAT out gives 1.0 / 0.0)
};

struct UnaryRule {
  UnaryOp op = UnaryOp::kExp;
  DtypeSet self = {};     // the out-of-place form's self
  DtypeSet out = {};      // its out
  DtypeSet inplace = {};  // the in-place form's selfRef (empty: no in-place form)
  UnaryPolicy policy = UnaryPolicy::kSameAsInput;
  bool out_same_dtype = false;  // out must have the result's dtype (else: the result must cast to it)
  // The prototype's names for self, out and selfRef (in messages and checker reports).
  const char* self_name = "self";
  const char* inplace_name = "selfRef";
  const char* out_name = "out";
};

// How an attribute scalar's dtype is checked against the tensor's.
enum class ScalarRule : uint8_t {
  kCastsToSelf,      // castable to self's dtype (Softplus's beta)
  kCastsToFloat,     // castable to FLOAT (Elu's alpha)
  kPromotesWithSelf  // promotable with self's dtype (Threshold's threshold)
};

struct UnaryScalar {
  const char* name;
  const aclScalar* scalar;
  ScalarRule rule;
};

// out = f(self) (self, out as the rule names them); `scalars` are checked
// after self's dtype. params: the functor's attributes (kernels/unary.h).
aclnnStatus PlanUnary(Plan& plan, const UnaryRule& rule, const aclTensor* self, const aclTensor* out,
                      UnaryParams params = {}, std::initializer_list<UnaryScalar> scalars = {});
// selfRef = f(selfRef).
aclnnStatus PlanInplaceUnary(Plan& plan, const UnaryRule& rule, const aclTensor* selfRef, UnaryParams params = {},
                             std::initializer_list<UnaryScalar> scalars = {});

// The same recipes with f a row of the pointwise engine's table
// (kernels/binary_pointwise.h) instead of the unary engine's: the special
// functions without a vector kernel (Digamma, Erfinv), and functors that take
// operands after self (`extra`: NanToNum's replacement values). rule.op is
// not used.
aclnnStatus PlanUnaryPointwise(Plan& plan, const UnaryRule& rule, PointwiseOp op, const aclTensor* self,
                               const aclTensor* out, const std::vector<PointwiseOperand>& extra = {});
aclnnStatus PlanInplaceUnaryPointwise(Plan& plan, const UnaryRule& rule, PointwiseOp op, const aclTensor* selfRef,
                                      const std::vector<PointwiseOperand>& extra = {});

// A scalar attribute as CANN hands it to a kernel on a tensor of `dtype`:
// converted to that dtype (rounded to a 16-bit float, truncated and wrapped
// to an integer). Integer dtypes fill `integer` (and `real` with the same value).
ScalarValue ScalarIn(const aclScalar& scalar, aclDataType dtype);

}  // namespace canopy::ops
