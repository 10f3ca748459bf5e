// The attention kernel's inner loops of one instruction set (attention_loops.h),
// as attention.cpp picks them.
#pragma once

#include <cstdint>

namespace canopy::kernels {

struct AttentionLoops {
  void (*block_dots)(const float* q, int64_t rows, const float* key_t, int64_t d, int64_t stride, int64_t keys,
                     float* dots, int64_t dots_stride);
  void (*key_dots)(const float* q, int64_t rows, const float* keys, int64_t d, int64_t keys_count, float* dots,
                   int64_t dots_stride);
  float (*scaled_scores)(const float* dots, int64_t first, int64_t last, int64_t keys, float scale, float* scores);
  float (*softmax_weights)(const float* scores, int64_t keys, float max, float* weights);
  void (*accumulate_values)(const float* p, int64_t p_stride, int64_t rows, const float* values, int64_t keys,
                            int64_t dv, const float* rescale, float* acc);
  void (*dequant_row)(const int8_t* q, int64_t n, const float* scale, const float* offset, float* out);
};

extern const AttentionLoops kAttentionLoopsAvx512;

// Decode dots on bf16 queries and key rows as stored (attention_avx512.cpp,
// AVX-512 BF16 only): head dims a multiple of 32.
using KeyDotsBf16Fn = void (*)(const uint16_t* q, int64_t rows, const uint16_t* keys, int64_t key_stride, int64_t d,
                               int64_t keys_count, float* dots, int64_t dots_stride);
// AccumulateValues on bf16 value rows as stored, the weights rounded to bf16
// (attention_avx512.cpp, AVX-512 BF16 only): value dims a multiple of 32, at
// most 64 keys; weight_scratch holds rows * 64 elements, pair_scratch 64 * dv.
using AccumulateValuesBf16Fn = void (*)(const float* p, int64_t p_stride, int64_t rows, const uint16_t* values,
                                        int64_t value_stride, int64_t keys, int64_t dv, const float* rescale,
                                        float* acc, uint16_t* weight_scratch, uint16_t* pair_scratch);
// BlockDots on bf16 queries ([rows][d]) and a block of kBlockPairKeys keys laid
// out as [d / 2][key][2] (attention_avx512.cpp, AVX-512 BF16 only): even head
// dims; dots of all kBlockPairKeys keys are written.
inline constexpr int64_t kBlockPairKeys = 64;
using BlockDotsBf16Fn = void (*)(const uint16_t* q, int64_t rows, const uint16_t* key_pairs, int64_t d, float* dots,
                                 int64_t dots_stride);
// The loops on bf16 data as stored, where the CPU has AVX-512 BF16.
struct AttentionBf16Loops {
  KeyDotsBf16Fn key_dots;
  BlockDotsBf16Fn block_dots;
  AccumulateValuesBf16Fn accumulate_values;
};
extern const AttentionBf16Loops kAttentionBf16LoopsAvx512;

// Decode's loops on fp16 key and value rows as stored (attention_avx512.cpp,
// AVX-512): KeyDots and AccumulateValues with each row widened to f32 as it
// is read, the same results as on rows loaded into f32 first. scratch: 16 d
// floats (key_dots), keys dv floats (accumulate_values).
struct AttentionF16Loops {
  void (*key_dots)(const float* q, int64_t rows, const uint16_t* keys, int64_t key_stride, int64_t d,
                   int64_t keys_count, float* dots, int64_t dots_stride, float* scratch);
  void (*accumulate_values)(const float* p, int64_t p_stride, int64_t rows, const uint16_t* values,
                            int64_t value_stride, int64_t keys, int64_t dv, const float* rescale, float* acc,
                            float* scratch);
};
extern const AttentionF16Loops kAttentionF16LoopsAvx512;
extern const AttentionLoops kAttentionLoopsAvx2;

}  // namespace canopy::kernels
