// Rotary position embedding's rows on AVX-512 (this file is compiled with
// AVX-512 F/BW/VL and FMA; rope.cpp calls it only where Cpu().Avx512(), for
// rows whose elements are contiguous in x, cos, sin and y): the half mode
// (pairs i, i + D/2) for D a multiple of 32 and the interleave mode (pairs 2i,
// 2i + 1) for D a multiple of 16, sixteen lanes at a time, widened from and
// rounded to f32, fp16 or bf16 storage (avx512_lanes.h). The portable row
// loads each row, its rotation, cos and sin into f32 buffers first: about 2.5x
// the time for ggml's llama-shaped RoPE (512 tokens x 32 heads x 128).
#include "x86_intrinsics.h"

#include <climits>

#include "avx512_lanes.h"
#include "rope_isa.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kLanes = 16;

// y[i] = x[i] cos[i] - x[i + h] sin[i], y[i + h] = x[i + h] cos[i + h] + x[i] sin[i + h].
template <typename S>
void HalfRow(int64_t d, const typename S::Element* x, const typename S::Element* c, const typename S::Element* s,
             typename S::Element* y) {
  const int64_t h = d / 2;
  for (int64_t i = 0; i < h; i += kLanes) {
    const __m512 a = S::Load(x + i), b = S::Load(x + i + h);
    S::Store(y + i, _mm512_fnmadd_ps(b, S::Load(s + i), _mm512_mul_ps(a, S::Load(c + i))));
    S::Store(y + i + h, _mm512_fmadd_ps(a, S::Load(s + i + h), _mm512_mul_ps(b, S::Load(c + i + h))));
  }
}

// y[2i] = x[2i] cos[2i] - x[2i + 1] sin[2i], y[2i + 1] = x[2i + 1] cos[2i + 1] + x[2i] sin[2i + 1]:
// the rotation is the pair swapped within each 64-bit lane, the even lanes negated.
template <typename S>
void InterleaveRow(int64_t d, const typename S::Element* x, const typename S::Element* c, const typename S::Element* s,
                   typename S::Element* y) {
  const __m512i even_sign =
      _mm512_set_epi32(0, INT_MIN, 0, INT_MIN, 0, INT_MIN, 0, INT_MIN, 0, INT_MIN, 0, INT_MIN, 0, INT_MIN, 0, INT_MIN);
  for (int64_t i = 0; i < d; i += kLanes) {
    const __m512 v = S::Load(x + i);
    const __m512 rotated =
        _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(_mm512_permute_ps(v, 0xb1)), even_sign));
    S::Store(y + i, _mm512_fmadd_ps(rotated, S::Load(s + i), _mm512_mul_ps(v, S::Load(c + i))));
  }
}

template <typename S>
void Row(RopeMode mode, int64_t d, const void* x, const void* cos, const void* sin, void* y) {
  using E = typename S::Element;
  const auto* xe = static_cast<const E*>(x);
  const auto* ce = static_cast<const E*>(cos);
  const auto* se = static_cast<const E*>(sin);
  auto* ye = static_cast<E*>(y);
  if (mode == RopeMode::kHalf) return HalfRow<S>(d, xe, ce, se, ye);
  InterleaveRow<S>(d, xe, ce, se, ye);
}

}  // namespace

bool RopeRowAvx512Takes(RopeMode mode, int64_t d) {
  if (mode == RopeMode::kHalf) return d > 0 && d % (2 * kLanes) == 0;
  return mode == RopeMode::kInterleave && d > 0 && d % kLanes == 0;
}

void RopeRowAvx512(RopeMode mode, aclDataType dtype, int64_t d, const void* x, const void* cos, const void* sin,
                   void* y) {
  switch (dtype) {
    case ACL_FLOAT16:
      return Row<avx512::F16>(mode, d, x, cos, sin, y);
    case ACL_BF16:
      return Row<avx512::Bf16>(mode, d, x, cos, sin, y);
    default:
      return Row<avx512::F32>(mode, d, x, cos, sin, y);
  }
}

}  // namespace canopy::kernels
