// The attention kernel's inner loops built for AVX2 (see attention_loops.h),
// the softmax's exponentials through SLEEF's 8-lane expf.
#define CANOPY_ATTENTION_ISA avx2_isa
#include "attention_isa.h"
#include "attention_loops.h"
#include "simd_lanes.h"

namespace canopy::kernels {
namespace {

float SoftmaxWeightsAvx2(const float* scores, int64_t keys, float max, float* weights) {
  return avx2_isa::SoftmaxWeightsWith(scores, keys, max, weights, [](const float* in, float m, float* out) {
    for (int half = 0; half < 2; ++half) {
      _mm256_storeu_ps(out + 8 * half, Exp(Sub(V8{_mm256_loadu_ps(in + 8 * half)}, V8::Set(m))).v);
    }
  });
}

}  // namespace

const AttentionLoops kAttentionLoopsAvx2 = {avx2_isa::BlockDots, avx2_isa::KeyDots,          avx2_isa::ScaledScores,
                                            SoftmaxWeightsAvx2,  avx2_isa::AccumulateValues, avx2_isa::DequantRow};
}  // namespace canopy::kernels
