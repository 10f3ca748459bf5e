// The error bound each unary functor (unary_functors.h) promises, in one
// dependency-free header so that the op tests read the same numbers the
// functors declare (tests/ops/harness_unary_test.cpp includes it).
//
// A bound is in units of roundoff of the compute type (f32: 2^-24, f64:
// 2^-53), relative to |f(x)| + |x f'(x)|: the value itself plus how much it
// moves when x is perturbed by one unit of roundoff, which is what rounding
// an intermediate such as beta * x or x * inputScale costs however the
// function is evaluated. Rounding the result to a 16-bit storage dtype comes
// on top. The counts add up the roundings of each vector kernel (SLEEF's
// functions: 1 ulp, erfc 1.5) with a unit to spare.
#pragma once

namespace canopy::kernels::unary_accuracy {

inline constexpr double kExact = 0;       // rounding to an integral value, frac
inline constexpr double kSign = 0;        // exact
inline constexpr double kThreshold = 0;   // a comparison and a select
inline constexpr double kLogicalNot = 0;  // a comparison
// x / 6 + 0.5: two roundings.
inline constexpr double kHardsigmoid = 2;
// x * slope: the slope rounded to f32, then the product.
inline constexpr double kLeakyRelu = 2;
// max(y, 0) + log1p(exp(-|y|)) over beta: exp, log1p, the sum and the division.
inline constexpr double kSoftplus = 5;
// scale * alpha * expm1(x * inputScale): expm1 and two products.
inline constexpr double kElu = 4;
// x * sigmoid(2 sqrt(2 / pi) (x + 0.044715 x^3)): the cubic's four roundings,
// exp, the sum and quotient of the sigmoid, the final product.
inline constexpr double kGeluTanh = 8;
// x / 2 * erfc(-x / sqrt 2): the constant, the scaling, erfc and the product.
inline constexpr double kGeluErf = 5;
// One SLEEF function (exp2, expm1, log1p, log2, log10, erf, tan, asin, acos,
// atan, sinh, cosh, asinh, acosh, atanh).
inline constexpr double kSleef = 2;
// SLEEF's erfc: 1.5 ulp.
inline constexpr double kErfc = 3;
// 1 / sqrt(x): the root and the division (AVX2, portable), or vrsqrt14 and one
// Newton step (AVX-512: about 1.6, simd_lanes.h).
inline constexpr double kRsqrt = 3;
// 1 / x and x * x: one rounding.
inline constexpr double kReciprocal = 2;
inline constexpr double kSquare = 2;
// Hardtanh, Hardshrink: comparisons and selects; Softshrink: one subtraction.
inline constexpr double kHardtanh = 0;
inline constexpr double kHardshrink = 0;
inline constexpr double kSoftshrink = 1;
// x * sigmoid(beta * x): the scaling, exp, the sum and quotient of the sigmoid, the product.
inline constexpr double kSwish = 6;
// max(x, 0) squared: one rounding.
inline constexpr double kSquaredRelu = 1;
// x * m / (m + 2) with m = e^x (e^x + 2): exp, the sum and product of m, m + 2,
// the quotient and the final product.
inline constexpr double kMish = 7;
// min(x, 0) - log1p(e^-|x|): exp, log1p and the difference.
inline constexpr double kLogSigmoid = 4;

}  // namespace canopy::kernels::unary_accuracy
