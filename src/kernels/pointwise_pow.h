// Pow on f32 with SLEEF's 1.0-ulp powf (C99's special cases: pow(x, 0) = 1,
// pow(1, y) = 1, odd integer powers keep the sign, ...), for the pointwise
// engine's Pow (binary_pointwise.cpp): out[i] = base[i] ^ exponent[i] over n
// contiguous floats (out may be base or exponent). Each form lives in the file
// compiled for its instruction set (unary_avx512.cpp, unary_avx2.cpp); call
// only when Cpu() has it.
#pragma once

#include <cstdint>

namespace canopy::kernels {

void PowF32Avx512(const float* base, const float* exponent, float* out, int64_t n);
void PowF32Avx2(const float* base, const float* exponent, float* out, int64_t n);

}  // namespace canopy::kernels
