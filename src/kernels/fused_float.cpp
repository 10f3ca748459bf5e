#include "fused_float.h"

#include <cstring>
#include <type_traits>

#include "avx512_lanes.h"
#include "pointwise_avx512_blocks.h"
#include "stream_prefetch.h"

namespace canopy::kernels {
namespace {

using avx512::Bf16;
using avx512::F16;
using avx512::F32;
using avx512::LanesBelow;

// Full groups of 16, then one masked tail.
template <typename From, typename To>
CANOPY_AVX512_TARGET void Convert(const void* src, void* dst, int64_t n) {
  const auto* s = static_cast<const typename From::Element*>(src);
  auto* d = static_cast<typename To::Element*>(dst);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    PrefetchRead(s + i);
    PrefetchWrite(d + i);
    To::Store(d + i, From::Load(s + i));
  }
  if (i < n) {
    const __mmask16 m = LanesBelow(n - i);
    To::Store(d + i, From::Load(s + i, m), m);
  }
}

// The 16-bit storages' 32-element blocks (pointwise_avx512_blocks.h): whole
// lines, and bf16 widened and rounded in fewer instructions than S's lanes.
template <typename S>
struct BlockOf {
  using Type = void;
};
template <>
struct BlockOf<F16> {
  using Type = avx512::F16Block;
};
template <>
struct BlockOf<Bf16> {
  using Type = avx512::Bf16Block;
};

template <typename B, typename Op>
CANOPY_AVX512 void BlockBinaryLoop(const uint16_t* a, const uint16_t* b, float b_scalar, uint16_t* out, int64_t n,
                                   Op op) {
  int64_t i = 0;
  __m512 a0, a1, b0, b1;
  if (b == nullptr) {
    const __m512 bv = _mm512_set1_ps(b_scalar);
    for (; i + B::kElements <= n; i += B::kElements) {
      PrefetchRead(a + i);  // a block is one line of each
      PrefetchWrite(out + i);
      B::Load(a + i, a0, a1);
      B::Store(out + i, op(a0, bv), op(a1, bv));
    }
    if (i < n) {
      const __mmask32 m = avx512::BlockLanesBelow(n - i);
      B::Load(a + i, m, a0, a1);
      B::Store(out + i, m, op(a0, bv), op(a1, bv));
    }
    return;
  }
  for (; i + B::kElements <= n; i += B::kElements) {
    PrefetchRead(a + i);
    PrefetchRead(b + i);
    PrefetchWrite(out + i);
    B::Load(a + i, a0, a1);
    B::Load(b + i, b0, b1);
    B::Store(out + i, op(a0, b0), op(a1, b1));
  }
  if (i < n) {
    // Masked-off elements load 0; their quotient is never stored.
    const __mmask32 m = avx512::BlockLanesBelow(n - i);
    B::Load(a + i, m, a0, a1);
    B::Load(b + i, m, b0, b1);
    B::Store(out + i, m, op(a0, b0), op(a1, b1));
  }
}

template <typename S, typename Op>
CANOPY_AVX512 void BinaryLoop(const void* a_data, const void* b_data, float b_scalar, void* out_data, int64_t n,
                              Op op) {
  using E = typename S::Element;
  if constexpr (!std::is_void_v<typename BlockOf<S>::Type>) {
    return BlockBinaryLoop<typename BlockOf<S>::Type>(static_cast<const E*>(a_data), static_cast<const E*>(b_data),
                                                      b_scalar, static_cast<E*>(out_data), n, op);
  }
  const auto* a = static_cast<const E*>(a_data);
  const auto* b = static_cast<const E*>(b_data);
  auto* out = static_cast<E*>(out_data);
  int64_t i = 0;
  if (b == nullptr) {
    const __m512 bv = _mm512_set1_ps(b_scalar);
    for (; i + 16 <= n; i += 16) {
      PrefetchRead(a + i);
      PrefetchWrite(out + i);
      S::Store(out + i, op(S::Load(a + i), bv));
    }
    if (i < n) {
      const __mmask16 m = LanesBelow(n - i);
      S::Store(out + i, op(S::Load(a + i, m), bv), m);
    }
    return;
  }
  for (; i + 16 <= n; i += 16) {
    PrefetchRead(a + i);
    PrefetchRead(b + i);
    PrefetchWrite(out + i);
    S::Store(out + i, op(S::Load(a + i), S::Load(b + i)));
  }
  if (i < n) {
    const __mmask16 m = LanesBelow(n - i);
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
CANOPY_AVX512_TARGET void Binary(FusedBinaryOp op, const void* a, const void* b, float b_scalar, void* out, int64_t n,
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
