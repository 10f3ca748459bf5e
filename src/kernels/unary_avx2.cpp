// The unary functors' AVX2 kernels on f32 (this file is compiled with AVX2,
// FMA and F16C enabled; unary.cpp calls it only when Cpu().Avx2()). Other
// storages reach it through unary.cpp's f32 chunk buffers.
#define CANOPY_SIMD_LANES 1
#include <cstring>

#include "pointwise_pow.h"
#include "unary_functors.h"

namespace canopy::kernels {
namespace {

template <typename Fn>
void Run(const UnaryParams& params, const float* src, float* dst, int64_t n) {
  const Fn fn(params);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(dst + i, fn.Vector(V8{_mm256_loadu_ps(src + i)}).v);
  if (i < n) {  // the tail through a full register, padded with zeros
    float lanes[8] = {};
    std::memcpy(lanes, src + i, sizeof(float) * (n - i));
    _mm256_storeu_ps(lanes, fn.Vector(V8{_mm256_loadu_ps(lanes)}).v);
    std::memcpy(dst + i, lanes, sizeof(float) * (n - i));
  }
}

}  // namespace

void UnaryAvx2(UnaryOp op, const UnaryParams& params, const float* src, float* dst, int64_t n) {
  switch (op) {
#define CANOPY_UNARY_CASE(name, fn) \
  case UnaryOp::name:               \
    return Run<fn>(params, src, dst, n);
    CANOPY_UNARY_OPS(CANOPY_UNARY_CASE)
#undef CANOPY_UNARY_CASE
  }
}

void PowF32Avx2(const float* base, const float* exponent, float* out, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    _mm256_storeu_ps(out + i, Pow(V8{_mm256_loadu_ps(base + i)}, V8{_mm256_loadu_ps(exponent + i)}).v);
  }
  if (i < n) {  // the tail through full registers (padding lanes compute 0 ^ 0)
    float x[8] = {}, y[8] = {};
    std::memcpy(x, base + i, sizeof(float) * (n - i));
    std::memcpy(y, exponent + i, sizeof(float) * (n - i));
    _mm256_storeu_ps(x, Pow(V8{_mm256_loadu_ps(x)}, V8{_mm256_loadu_ps(y)}).v);
    std::memcpy(out + i, x, sizeof(float) * (n - i));
  }
}

}  // namespace canopy::kernels
