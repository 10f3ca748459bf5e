// The unary functors' AVX-512 kernels (this file is compiled with AVX-512
// F/BW/VL, FMA and F16C enabled; unary.cpp calls it only when Cpu().Avx512()).
// One register pass: widen from the source storage, compute in f32, round to
// the destination storage (as fused_float.cpp does); 16 elements a step, and
// 32-element blocks where source and destination are the same 16-bit dtype
// (unary_avx512_loops.h; bf16 rounds with AVX512-BF16's instruction where the
// CPU has it, unary_avx512_bf16.cpp).
#define CANOPY_SIMD_LANES 1
#include "unary_functors.h"

#include "avx512_lanes.h"
#include "cpu_features.h"
#include "pointwise_pow.h"
#include "stream_prefetch.h"
#include "unary_avx512_loops.h"

namespace canopy::kernels {
namespace {

__mmask16 Tail(int64_t left) { return static_cast<__mmask16>((1u << left) - 1); }

template <typename In, typename Out, typename Fn>
void Loop(const Fn& fn, const void* src, void* dst, int64_t n) {
  const auto* s = static_cast<const typename In::Element*>(src);
  auto* d = static_cast<typename Out::Element*>(dst);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    PrefetchRead(s + i);  // a line or half of one each
    PrefetchWrite(d + i);
    Out::Store(d + i, fn.Vector(V16{In::Load(s + i)}).v);
  }
  if (i < n) {
    const __mmask16 m = Tail(n - i);
    // Masked-off lanes read 0 and are never stored.
    Out::Store(d + i, fn.Vector(V16{In::Load(s + i, m)}).v, m);
  }
}

template <typename In, typename Fn>
void ToStorage(const Fn& fn, const void* src, aclDataType dst_dtype, void* dst, int64_t n) {
  switch (dst_dtype) {
    case ACL_FLOAT16:
      return Loop<In, avx512::F16>(fn, src, dst, n);
    case ACL_BF16:
      return Loop<In, avx512::Bf16>(fn, src, dst, n);
    default:
      return Loop<In, avx512::F32>(fn, src, dst, n);
  }
}

// op: Fn's row of the table.
template <typename Fn>
void Run(UnaryOp op, const UnaryParams& params, aclDataType src_dtype, const void* src, aclDataType dst_dtype,
         void* dst, int64_t n) {
  if (src_dtype == dst_dtype && src_dtype == ACL_FLOAT16) {
    return SixteenBitLoop<avx512::F16Block, Fn>(params, src, dst, n);
  }
  if (src_dtype == dst_dtype && src_dtype == ACL_BF16) {
    if (Cpu().avx512bf16) return UnaryAvx512Bf16(op, params, src, dst, n);
    return SixteenBitLoop<avx512::Bf16Block, Fn>(params, src, dst, n);
  }
  const Fn fn(params);
  switch (src_dtype) {
    case ACL_FLOAT16:
      return ToStorage<avx512::F16>(fn, src, dst_dtype, dst, n);
    case ACL_BF16:
      return ToStorage<avx512::Bf16>(fn, src, dst_dtype, dst, n);
    default:
      return ToStorage<avx512::F32>(fn, src, dst_dtype, dst, n);
  }
}

}  // namespace

void UnaryAvx512(UnaryOp op, const UnaryParams& params, aclDataType src_dtype, const void* src, aclDataType dst_dtype,
                 void* dst, int64_t n) {
  switch (op) {
#define CANOPY_UNARY_CASE(name, fn) \
  case UnaryOp::name:               \
    return Run<fn>(op, params, src_dtype, src, dst_dtype, dst, n);
    CANOPY_UNARY_OPS(CANOPY_UNARY_CASE)
#undef CANOPY_UNARY_CASE
  }
}

void PowF32Avx512(const float* base, const float* exponent, float* out, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    PrefetchRead(base + i);
    PrefetchRead(exponent + i);
    PrefetchWrite(out + i);
    _mm512_storeu_ps(out + i, Pow(V16{_mm512_loadu_ps(base + i)}, V16{_mm512_loadu_ps(exponent + i)}).v);
  }
  if (i < n) {
    const __mmask16 m = Tail(n - i);
    const V16 x{_mm512_maskz_loadu_ps(m, base + i)}, y{_mm512_maskz_loadu_ps(m, exponent + i)};
    _mm512_mask_storeu_ps(out + i, m, Pow(x, y).v);
  }
}

}  // namespace canopy::kernels
