// x as a sum of bf16 terms, for the INT4 kernels that multiply with bf16 dot
// products (vdpbf16ps, AMX tdpbf16ps): one term holds a bf16 value exactly,
// two an f16 value, three any f32 value, and each product of a term with an
// INT4 weight is exact in f32. Both instructions treat denormal inputs and
// sums as zero whatever MXCSR says, so a term near that range makes the caller
// leave the product to its f32 loops.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "common/half.h"

namespace canopy::kernels {

// The smallest bf16 exponent field a non-zero term may have: its products
// with INT4 weights are then multiples of 2^-126 (8 significant bits), so no
// sum of them is a non-zero value below the normal range.
inline constexpr uint16_t kMinTermExponent = 127 - 119;

// Splits value into `terms` bf16 values (truncations, so none overflows) whose
// sum is exactly `value` when it has at most 8 * terms significant bits,
// written `term_stride` words apart. Returns false when a non-zero term lies
// below 2^-119 (see kMinTermExponent).
inline bool SplitTerms(float value, int terms, uint16_t* out, int64_t term_stride) {
  if (!std::isfinite(value)) {  // infinity or NaN in the first term alone
    out[0] = FloatToBf16(value);
    for (int t = 1; t < terms; ++t) out[t * term_stride] = 0;
    return true;
  }
  bool normal = true;
  float rest = value;
  for (int t = 0; t < terms; ++t) {
    uint32_t bits;
    std::memcpy(&bits, &rest, sizeof(bits));
    const auto top = static_cast<uint16_t>(bits >> 16);
    out[t * term_stride] = top;
    normal = normal && ((top & 0x7FFFu) == 0 || ((top >> 7) & 0xFFu) >= kMinTermExponent);
    rest -= Bf16ToFloat(top);  // exact: the bits truncation dropped
  }
  return normal;
}

}  // namespace canopy::kernels
