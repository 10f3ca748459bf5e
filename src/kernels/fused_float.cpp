#include "fused_float.h"

#include <immintrin.h>

#include <cstring>

// GCC 12 reports the deliberately undefined pass-through operand inside its own
// AVX-512 conversion intrinsics (_mm512_undefined_*) as maybe-uninitialized.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace canopy::kernels {
namespace {

#define CANOPY_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,fma"), always_inline)) inline

// One lane group per storage: Load widens 16 elements to f32, Store rounds them
// back; the masked forms handle the tail without touching bytes past it.
struct F32 {
  using Element = float;
  CANOPY_AVX512 static __m512 Load(const Element* p) { return _mm512_loadu_ps(p); }
  CANOPY_AVX512 static __m512 Load(const Element* p, __mmask16 m) { return _mm512_maskz_loadu_ps(m, p); }
  CANOPY_AVX512 static void Store(Element* p, __m512 v) { _mm512_storeu_ps(p, v); }
  CANOPY_AVX512 static void Store(Element* p, __m512 v, __mmask16 m) { _mm512_mask_storeu_ps(p, m, v); }
};

struct F16 {
  using Element = uint16_t;
  CANOPY_AVX512 static __m512 Load(const Element* p) {
    return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  }
  CANOPY_AVX512 static __m512 Load(const Element* p, __mmask16 m) {
    return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, p));
  }
  CANOPY_AVX512 static __m256i Round(__m512 v) { return _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT); }
  CANOPY_AVX512 static void Store(Element* p, __m512 v) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), Round(v));
  }
  CANOPY_AVX512 static void Store(Element* p, __m512 v, __mmask16 m) { _mm256_mask_storeu_epi16(p, m, Round(v)); }
};

struct Bf16 {
  using Element = uint16_t;
  CANOPY_AVX512 static __m512 Widen(__m256i bits) {
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(bits), 16));
  }
  CANOPY_AVX512 static __m512 Load(const Element* p) {
    return Widen(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  }
  CANOPY_AVX512 static __m512 Load(const Element* p, __mmask16 m) { return Widen(_mm256_maskz_loadu_epi16(m, p)); }
  // Round to nearest even in integer arithmetic, as FloatToBf16 does (the
  // AVX512-BF16 instruction would flush subnormals); NaN gets its quiet bit.
  CANOPY_AVX512 static __m256i Round(__m512 v) {
    const __m512i bits = _mm512_castps_si512(v);
    const __m512i odd = _mm512_and_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(1));
    const __m512i rounded = _mm512_srli_epi32(_mm512_add_epi32(bits, _mm512_add_epi32(odd, _mm512_set1_epi32(0x7fff))), 16);
    const __m512i quiet = _mm512_or_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(0x40));
    const __mmask16 nan = _mm512_cmpgt_epu32_mask(_mm512_and_si512(bits, _mm512_set1_epi32(0x7fffffff)),
                                                  _mm512_set1_epi32(0x7f800000));
    return _mm512_cvtepi32_epi16(_mm512_mask_blend_epi32(nan, rounded, quiet));
  }
  CANOPY_AVX512 static void Store(Element* p, __m512 v) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), Round(v));
  }
  CANOPY_AVX512 static void Store(Element* p, __m512 v, __mmask16 m) { _mm256_mask_storeu_epi16(p, m, Round(v)); }
};

CANOPY_AVX512 __mmask16 TailMask(int64_t left) { return static_cast<__mmask16>((1u << left) - 1); }

// Full groups of 16, then one masked tail.
template <typename From, typename To>
__attribute__((target("avx512f,avx512bw,avx512vl,fma"))) void Convert(const void* src, void* dst, int64_t n) {
  const auto* s = static_cast<const typename From::Element*>(src);
  auto* d = static_cast<typename To::Element*>(dst);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) To::Store(d + i, From::Load(s + i));
  if (i < n) {
    const __mmask16 m = TailMask(n - i);
    To::Store(d + i, From::Load(s + i, m), m);
  }
}

template <typename S, typename Op>
CANOPY_AVX512 void BinaryLoop(const void* a_data, const void* b_data, float b_scalar, void* out_data, int64_t n,
                              Op op) {
  using E = typename S::Element;
  const auto* a = static_cast<const E*>(a_data);
  const auto* b = static_cast<const E*>(b_data);
  auto* out = static_cast<E*>(out_data);
  int64_t i = 0;
  if (b == nullptr) {
    const __m512 bv = _mm512_set1_ps(b_scalar);
    for (; i + 16 <= n; i += 16) S::Store(out + i, op(S::Load(a + i), bv));
    if (i < n) {
      const __mmask16 m = TailMask(n - i);
      S::Store(out + i, op(S::Load(a + i, m), bv), m);
    }
    return;
  }
  for (; i + 16 <= n; i += 16) S::Store(out + i, op(S::Load(a + i), S::Load(b + i)));
  if (i < n) {
    const __mmask16 m = TailMask(n - i);
    // Masked-off lanes load 0; their quotient is never stored.
    S::Store(out + i, op(S::Load(a + i, m), S::Load(b + i, m)), m);
  }
}

// The arithmetic, as functors: lambdas would not inherit the target attribute.
struct AddOp {
  CANOPY_AVX512 __m512 operator()(__m512 x, __m512 y) const { return _mm512_add_ps(x, y); }
};
struct AddScaledOp {
  __m512 alpha;
  CANOPY_AVX512 __m512 operator()(__m512 x, __m512 y) const { return _mm512_fmadd_ps(alpha, y, x); }
};
struct SubOp {
  CANOPY_AVX512 __m512 operator()(__m512 x, __m512 y) const { return _mm512_sub_ps(x, y); }
};
struct SubScaledOp {
  __m512 alpha;
  CANOPY_AVX512 __m512 operator()(__m512 x, __m512 y) const { return _mm512_fnmadd_ps(alpha, y, x); }
};
struct MulOp {
  CANOPY_AVX512 __m512 operator()(__m512 x, __m512 y) const { return _mm512_mul_ps(x, y); }
};
struct DivOp {
  CANOPY_AVX512 __m512 operator()(__m512 x, __m512 y) const { return _mm512_div_ps(x, y); }
};

template <typename S>
__attribute__((target("avx512f,avx512bw,avx512vl,fma"))) void Binary(FusedBinaryOp op, const void* a, const void* b,
                                                                       float b_scalar, void* out, int64_t n,
                                                                       float alpha) {
  switch (op) {
    case FusedBinaryOp::kAdd:
      if (alpha == 1.0f) return BinaryLoop<S>(a, b, b_scalar, out, n, AddOp{});
      return BinaryLoop<S>(a, b, b_scalar, out, n, AddScaledOp{_mm512_set1_ps(alpha)});
    case FusedBinaryOp::kSub:
      if (alpha == 1.0f) return BinaryLoop<S>(a, b, b_scalar, out, n, SubOp{});
      return BinaryLoop<S>(a, b, b_scalar, out, n, SubScaledOp{_mm512_set1_ps(alpha)});
    case FusedBinaryOp::kMul:
      return BinaryLoop<S>(a, b, b_scalar, out, n, MulOp{});
    case FusedBinaryOp::kDiv:
      return BinaryLoop<S>(a, b, b_scalar, out, n, DivOp{});
  }
}

template <typename From>
void ConvertFrom(const void* src, aclDataType to, void* dst, int64_t n) {
  switch (to) {
    case ACL_FLOAT16:
      return Convert<From, F16>(src, dst, n);
    case ACL_BF16:
      return Convert<From, Bf16>(src, dst, n);
    default:
      return Convert<From, F32>(src, dst, n);
  }
}

}  // namespace

bool FusedFloatAvailable() {
  static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("fma");
  return has;
}

void FusedConvert(aclDataType from, const void* src, aclDataType to, void* dst, int64_t n) {
  switch (from) {
    case ACL_FLOAT16:
      return ConvertFrom<F16>(src, to, dst, n);
    case ACL_BF16:
      return ConvertFrom<Bf16>(src, to, dst, n);
    default:
      if (to == ACL_FLOAT) {
        std::memmove(dst, src, sizeof(float) * n);
        return;
      }
      return ConvertFrom<F32>(src, to, dst, n);
  }
}

void FusedBinary(FusedBinaryOp op, aclDataType storage, const void* a, const void* b, float b_scalar, void* out,
                 int64_t n, float alpha) {
  switch (storage) {
    case ACL_FLOAT16:
      return Binary<F16>(op, a, b, b_scalar, out, n, alpha);
    case ACL_BF16:
      return Binary<Bf16>(op, a, b, b_scalar, out, n, alpha);
    default:
      return Binary<F32>(op, a, b, b_scalar, out, n, alpha);
  }
}

}  // namespace canopy::kernels
