// The float64 reference of a unary op with the error bound its functor
// declares (src/kernels/unary_accuracy.h), shared by the unary harness suites.
#ifndef CANOPY_TESTS_OPS_UNARY_BOUNDS_H_
#define CANOPY_TESTS_OPS_UNARY_BOUNDS_H_

#include <cmath>
#include <functional>
#include <utility>

#include "harness/harness.h"

namespace canopy_test::unary_bounds {

using harness::AttrSet;
using harness::Operand;
using harness::RefCall;
using harness::Reference;

// f(x) in float64 (complex for Sign), with the op's attributes.
using ScalarFn = std::function<Value(Value x, const AttrSet& attrs)>;

inline double SmallestNormal(aclDataType dtype) {
  switch (dtype) {
    case ACL_FLOAT16:
      return 0x1p-14;
    case ACL_DOUBLE:
    case ACL_COMPLEX128:
      return 0x1p-1022;
    default:
      return 0x1p-126;  // f32, bf16, c64
  }
}

// The expected value of f at x rounded to the result dtype and then to out,
// and its tolerance: the functor's bound `ulps` in units of the compute type's
// roundoff relative to |f(x)| + |x f'(x)| (unary_accuracy.h), the two
// roundings, and as much again of the smallest normal (results that underflow).
inline Expected Bounded(const ScalarFn& f, double ulps, const Values& in, aclDataType self, aclDataType result,
                        aclDataType out, const AttrSet& attrs) {
  const double compute =
      (self == ACL_DOUBLE || self == ACL_COMPLEX128) ? UnitRoundoff(ACL_DOUBLE) : UnitRoundoff(ACL_FLOAT);
  const double rounding = 2 * (UnitRoundoff(result) + UnitRoundoff(out));
  Expected e;
  for (Value x : in) {
    const Value exact = f(x, attrs);
    const Value want = ConvertValue(ConvertValue(exact, result), out);
    e.values.push_back(want);
    if (!std::isfinite(std::abs(want))) {
      e.tolerance.push_back(0);  // NaN matches NaN, an infinity itself
      continue;
    }
    constexpr double kStep = 0x1p-20;
    double sensitivity = std::abs(f(x * (1 + kStep), attrs) - exact) / kStep;
    if (!std::isfinite(sensitivity)) sensitivity = 0;
    const double bound = ulps * compute * (std::abs(exact) + sensitivity);
    e.tolerance.push_back(bound + rounding * std::abs(want) + (ulps + 2) * compute * SmallestNormal(result));
  }
  return e;
}

// The dtype the op rounds to before out: self's own, BOOL for a predicate.
inline Reference BoundedReference(ScalarFn f, double ulps, bool boolResult = false) {
  return [f = std::move(f), ulps, boolResult](const RefCall& call) {
    const Operand& self = call.inputs[0];
    return Bounded(f, ulps, self.values, self.dtype, boolResult ? ACL_BOOL : self.dtype, call.out, call.attrs);
  };
}

}  // namespace canopy_test::unary_bounds

#endif  // CANOPY_TESTS_OPS_UNARY_BOUNDS_H_
