// Splits f32 / fp16 values into bf16 pieces (see bf16_split.h): sixteen lanes
// at a time where the CPU has AVX-512, one value at a time elsewhere; both
// give the same bits.
#include "bf16_split.h"

#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>

#include "common/env.h"
#include "common/half.h"
#include "cpu_features.h"
#include "parallel_for.h"

#if defined(__x86_64__)
#include "avx512_lanes.h"
#endif

namespace canopy::kernels {
namespace {

constexpr int64_t kGrain = 16384;

// bf16's largest finite value at or below |x|, with x's sign: the high half of
// x's bits (what a finite x that rounds to infinity keeps).
uint16_t TruncatedBf16(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof(bits));
  return static_cast<uint16_t>(bits >> 16);
}

template <typename Element>
bool SplitPlanesPortable(const Element* src, int64_t count, uint16_t* hi, uint16_t* lo) {
  bool special = false;
  for (int64_t i = 0; i < count; ++i) {
    float x;
    if constexpr (sizeof(Element) == sizeof(float)) {
      x = src[i];
    } else {
      x = HalfToFloat(src[i]);
    }
    special = special || !std::isfinite(x);
    hi[i] = Bf16PieceOf(x, Bf16Piece::kHigh);
    lo[i] = Bf16PieceOf(x, Bf16Piece::kLow);
  }
  return special;
}

#if defined(__x86_64__)
// Sixteen values' pieces; true when a lane was inf or NaN. Bf16::Round is the
// scalar rounding.
template <typename S>
CANOPY_AVX512_TARGET bool SplitPlanesAvx512(const typename S::Element* src, int64_t count, uint16_t* hi, uint16_t* lo) {
  const __m512 infinity = _mm512_set1_ps(std::numeric_limits<float>::infinity());
  __mmask16 all_finite = 0xffff;
  for (int64_t i = 0; i < count; i += 16) {
    const __mmask16 lanes = avx512::LanesBelow(count - i);
    const __m512 x = S::Load(src + i, lanes);
    const __mmask16 finite = _mm512_cmp_ps_mask(_mm512_abs_ps(x), infinity, _CMP_LT_OQ);
    all_finite &= finite | static_cast<__mmask16>(~lanes);
    __m256i hi_bits = avx512::Bf16::Round(x);
    // A finite x rounded up to infinity keeps its truncated high half.
    const __mmask16 overflow =
        _mm512_mask_cmp_ps_mask(finite, _mm512_abs_ps(avx512::Bf16::Widen(hi_bits)), infinity, _CMP_EQ_OQ);
    const __m256i truncated = _mm512_cvtepi32_epi16(_mm512_srli_epi32(_mm512_castps_si512(x), 16));
    hi_bits = _mm256_mask_blend_epi16(overflow, hi_bits, truncated);
    const __m256i lo_bits = avx512::Bf16::Round(_mm512_maskz_sub_ps(finite, x, avx512::Bf16::Widen(hi_bits)));
    _mm256_mask_storeu_epi16(hi + i, lanes, hi_bits);
    _mm256_mask_storeu_epi16(lo + i, lanes, lo_bits);
  }
  return all_finite != 0xffff;
}
#endif

bool SplitPlanesOfRange(const void* src, aclDataType src_dtype, int64_t count, uint16_t* hi, uint16_t* lo) {
  const bool f32 = src_dtype == ACL_FLOAT;
#if defined(__x86_64__)
  if (avx512::Available()) {
    return f32 ? SplitPlanesAvx512<avx512::F32>(static_cast<const float*>(src), count, hi, lo)
               : SplitPlanesAvx512<avx512::F16>(static_cast<const uint16_t*>(src), count, hi, lo);
  }
#endif
  return f32 ? SplitPlanesPortable(static_cast<const float*>(src), count, hi, lo)
             : SplitPlanesPortable(static_cast<const uint16_t*>(src), count, hi, lo);
}

}  // namespace

uint16_t Bf16PieceOf(float x, Bf16Piece piece) {
  if (!std::isfinite(x)) return piece == Bf16Piece::kHigh ? FloatToBf16(x) : uint16_t{0};
  uint16_t hi = FloatToBf16(x);
  if (std::isinf(Bf16ToFloat(hi))) hi = TruncatedBf16(x);
  return piece == Bf16Piece::kLow ? FloatToBf16(x - Bf16ToFloat(hi)) : hi;
}

bool SplitIntoBf16Planes(const void* src, aclDataType src_dtype, int64_t count, uint16_t* hi, uint16_t* lo) {
  const auto element_bytes = static_cast<int64_t>(src_dtype == ACL_FLOAT ? sizeof(float) : sizeof(uint16_t));
  std::atomic<bool> special{false};
  ParallelFor(count, kGrain, 16, [&](int64_t begin, int64_t end) {
    const void* from = static_cast<const char*>(src) + begin * element_bytes;
    if (SplitPlanesOfRange(from, src_dtype, end - begin, hi + begin, lo + begin)) {
      special.store(true, std::memory_order_relaxed);
    }
  });
  return special.load();
}

void FiniteBf16Plane(const uint16_t* hi, uint16_t* finite_hi, int64_t count) {
  constexpr uint16_t kExponent = 0x7f80;  // all ones: inf or NaN
  ParallelFor(count, kGrain, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) finite_hi[i] = (hi[i] & kExponent) == kExponent ? uint16_t{0} : hi[i];
  });
}

bool Bf16SplitForced() {
  static const bool forced = EnvSwitch("CANOPY_BF16_SPLIT", false);
  return forced;
}

bool Bf16SplitEnabled() {
  static const bool enabled = EnvSwitch("CANOPY_BF16_SPLIT", Cpu().amx);
  return enabled;
}

}  // namespace canopy::kernels
