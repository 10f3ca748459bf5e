// The attention kernel's inner loops built for AVX512 (see attention_loops.h),
// the softmax's exponentials through SLEEF's 16-lane expf.
//
// GCC 12 reports the undefined pass-through vector inside its own AVX-512
// shuffle intrinsics as uninitialised once they are inlined: a false positive,
// silenced for this file only (as in quant_matmul_avx512.cpp).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#define CANOPY_ATTENTION_ISA avx512_isa
#include "attention_isa.h"
#include "attention_loops.h"
#include "avx512_lanes.h"
#include "simd_lanes.h"

#include <bit>
#include <cstring>

namespace canopy::kernels {
namespace {

// Sixteen keys' lane vectors (KeyDots' lanes, one vector a key) summed as
// KeyDots' tree, all at once: each step adds the halves the tree pairs (lanes
// l and l + 8, then l and l + 4 of that half, then (0 + 2) + (1 + 3)) for two
// vectors, so the dots come out bit for bit as KeyDots' (in a shuffled order,
// which kDotOrder undoes).
inline __m512 SixteenTrees(__m512 (&v)[16]) {
  __m512 half[8], quarter[4], pairs[2];
  for (int i = 0; i < 8; ++i) {
    half[i] = _mm512_add_ps(_mm512_shuffle_f32x4(v[2 * i], v[2 * i + 1], 0x44),
                            _mm512_shuffle_f32x4(v[2 * i], v[2 * i + 1], 0xEE));
  }
  for (int i = 0; i < 4; ++i) {
    quarter[i] = _mm512_add_ps(_mm512_shuffle_f32x4(half[2 * i], half[2 * i + 1], 0x88),
                               _mm512_shuffle_f32x4(half[2 * i], half[2 * i + 1], 0xDD));
  }
  for (int i = 0; i < 2; ++i) {
    pairs[i] = _mm512_add_ps(_mm512_shuffle_ps(quarter[2 * i], quarter[2 * i + 1], 0x44),
                             _mm512_shuffle_ps(quarter[2 * i], quarter[2 * i + 1], 0xEE));
  }
  return _mm512_add_ps(_mm512_shuffle_ps(pairs[0], pairs[1], 0x88), _mm512_shuffle_ps(pairs[0], pairs[1], 0xDD));
}

// Lane i of SixteenTrees' result holds key kDotOrder[i]'s dot: found once by
// running the network on vectors whose lanes all hold their key's number.
const __m512i& DotOrder() {
  static const __m512i order = [] {
    __m512 v[16];
    for (int t = 0; t < 16; ++t) v[t] = _mm512_set1_ps(static_cast<float>(t));
    alignas(64) float sums[16];
    _mm512_store_ps(sums, SixteenTrees(v));
    alignas(64) int32_t position[16];  // where key t's dot landed
    for (int i = 0; i < 16; ++i) position[static_cast<int>(sums[i] / 16.0f)] = i;
    return _mm512_load_si512(position);
  }();
  return order;
}

// Sixteen keys' dots with one row of q (head dims a multiple of 16): the key
// rows (dims e.. of key t from load(t, e), sixteen f32 lanes) stream past one
// loaded vector of q into sixteen lane vectors, reduced together; lane t holds
// key t's dot, bit for bit KeyDots'.
template <typename KeyLanes>
inline __m512 SixteenDots(const float* qr, int64_t d, const __m512i& order, const KeyLanes& load) {
  __m512 acc[16];
  for (auto& a : acc) a = _mm512_setzero_ps();
  for (int64_t e = 0; e < d; e += 16) {
    const __m512 qv = _mm512_loadu_ps(qr + e);
    for (int t = 0; t < 16; ++t) acc[t] = _mm512_fmadd_ps(qv, load(t, e), acc[t]);
  }
  return _mm512_permutexvar_ps(order, SixteenTrees(acc));
}

// KeyDots, sixteen keys at a time per row of q (head dims a multiple of 16),
// the other keys as KeyDots.
void KeyDotsAvx512(const float* q, int64_t rows, const float* keys, int64_t d, int64_t keys_count, float* dots,
                   int64_t dots_stride) {
  if (d % avx512_isa::kDotLanes != 0) return avx512_isa::KeyDots(q, rows, keys, d, keys_count, dots, dots_stride);
  const __m512i order = DotOrder();
  int64_t t0 = 0;
  for (; t0 + 16 <= keys_count; t0 += 16) {
    const float* k = keys + t0 * d;
    for (int64_t r = 0; r < rows; ++r) {
      const auto lanes = [&](int t, int64_t e) { return _mm512_loadu_ps(k + t * d + e); };
      _mm512_storeu_ps(dots + r * dots_stride + t0, SixteenDots(q + r * d, d, order, lanes));
    }
  }
  if (t0 < keys_count) avx512_isa::KeyDots(q, rows, keys + t0 * d, d, keys_count - t0, dots + t0, dots_stride);
}

// count fp16 rows of n elements, `stride` apart, widened exactly into dst as [row][n].
// HalfToFloatN's loop, inlined: calling it per row cost GQA-4 decode 10 %.
void WidenF16Rows(const uint16_t* src, int64_t stride, int64_t count, int64_t n, float* dst) {
  for (int64_t t = 0; t < count; ++t) {
    const uint16_t* row = src + t * stride;
    float* out = dst + t * n;
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
      _mm512_storeu_ps(out + i, _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(row + i))));
    }
    if (i < n) {
      const __mmask16 m = avx512::LanesBelow(n - i);
      _mm512_mask_storeu_ps(out + i, m, _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, row + i)));
    }
  }
}

// KeyDots on fp16 key rows as stored (key_stride elements apart), each dim
// widened exactly to f32 as the keys are read: the same products and sums as
// KeyDotsAvx512 on the rows loaded into f32, without that copy. One query row
// widens the keys in registers; several widen each group of sixteen keys once
// into `scratch` (16 d floats), which also takes the last keys, for KeyDots.
void KeyDotsF16Avx512(const float* q, int64_t rows, const uint16_t* keys, int64_t key_stride, int64_t d,
                      int64_t keys_count, float* dots, int64_t dots_stride, float* scratch) {
  const __m512i order = DotOrder();
  // Other head dims: KeyDots for every key.
  const int64_t whole = d % avx512_isa::kDotLanes == 0 ? keys_count / 16 * 16 : 0;
  int64_t t0 = 0;
  for (; t0 < whole; t0 += 16) {
    const uint16_t* k = keys + t0 * key_stride;
    if (rows == 1) {
      const auto lanes = [&](int t, int64_t e) {
        return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(k + t * key_stride + e)));
      };
      _mm512_storeu_ps(dots + t0, SixteenDots(q, d, order, lanes));
      continue;
    }
    WidenF16Rows(k, key_stride, 16, d, scratch);
    for (int64_t r = 0; r < rows; ++r) {
      const auto lanes = [&](int t, int64_t e) { return _mm512_loadu_ps(scratch + t * d + e); };
      _mm512_storeu_ps(dots + r * dots_stride + t0, SixteenDots(q + r * d, d, order, lanes));
    }
  }
  // The last keys (or every key, for other head dims) sixteen at most at a time.
  for (int64_t first = t0; first < keys_count; first += 16) {
    const int64_t count = std::min<int64_t>(16, keys_count - first);
    WidenF16Rows(keys + first * key_stride, key_stride, count, d, scratch);
    avx512_isa::KeyDots(q, rows, scratch, d, count, dots + first, dots_stride);
  }
}

// Sixteen lanes of a value row as f32: f32 rows as they are, fp16 rows widened (exact).
inline __m512 ValueLanes(const float* v) { return _mm512_loadu_ps(v); }
inline __m512 ValueLanes(const uint16_t* v) {
  return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(v)));
}

// AccumulateValues (attention_loops.h) for value dims in 64s, with the
// registers explicit: V vectors of 16 dims for NR rows, each weight tested
// once per key and row (the compiler's if-converted form of the portable loop
// spent more on masks than on the products), each value vector loaded once
// for four rows (two rows of 128 dims were bound by the loads). The same
// operations in the same order per row and dim. Value rows of E (f32, or
// fp16 widened as read), value_stride elements apart.
template <int NR, int V, typename E>
void ValueTileAvx512(const float* p, int64_t p_stride, const E* values, int64_t value_stride, int64_t keys, int64_t dv,
                     const float* rescale, float* acc) {
  __m512 a[NR][V];
  for (int r = 0; r < NR; ++r) {
    const __m512 s = _mm512_set1_ps(rescale[r]);
    for (int l = 0; l < V; ++l) a[r][l] = _mm512_mul_ps(_mm512_loadu_ps(acc + r * dv + 16 * l), s);
  }
  for (int64_t t = 0; t < keys; ++t) {
    const E* vt = values + t * value_stride;
    __m512 v[V];
    for (int l = 0; l < V; ++l) v[l] = ValueLanes(vt + 16 * l);
    for (int r = 0; r < NR; ++r) {
      const float pt = p[r * p_stride + t];
      if (pt == 0.0f) continue;
      const __m512 pv = _mm512_set1_ps(pt);
      for (int l = 0; l < V; ++l) a[r][l] = _mm512_fmadd_ps(pv, v[l], a[r][l]);
    }
  }
  for (int r = 0; r < NR; ++r) {
    for (int l = 0; l < V; ++l) _mm512_storeu_ps(acc + r * dv + 16 * l, a[r][l]);
  }
}

template <int NR, int V, typename E>
void ValueRowsAvx512(const float* p, int64_t p_stride, int64_t rows, const E* values, int64_t value_stride,
                     int64_t keys, int64_t dv, const float* rescale, float* acc) {
  for (int64_t e0 = 0; e0 < dv; e0 += 16 * V) {
    int64_t r = 0;
    for (; r + NR <= rows; r += NR) {
      ValueTileAvx512<NR, V>(p + r * p_stride, p_stride, values + e0, value_stride, keys, dv, rescale + r,
                             acc + r * dv + e0);
    }
    for (; r < rows; ++r) {
      ValueTileAvx512<1, V>(p + r * p_stride, p_stride, values + e0, value_stride, keys, dv, rescale + r,
                            acc + r * dv + e0);
    }
  }
}

void AccumulateValuesAvx512(const float* p, int64_t p_stride, int64_t rows, const float* values, int64_t keys,
                            int64_t dv, const float* rescale, float* acc) {
  if (dv % 64 == 0) return ValueRowsAvx512<4, 4>(p, p_stride, rows, values, dv, keys, dv, rescale, acc);
  avx512_isa::AccumulateValues(p, p_stride, rows, values, keys, dv, rescale, acc);
}

// AccumulateValues on fp16 value rows as stored (value_stride elements
// apart), widened as read: the same sums as on the rows loaded into f32.
// Value dims not a multiple of 64 widen the rows into `scratch` (keys dv
// floats) for AccumulateValues.
void AccumulateValuesF16Avx512(const float* p, int64_t p_stride, int64_t rows, const uint16_t* values,
                               int64_t value_stride, int64_t keys, int64_t dv, const float* rescale, float* acc,
                               float* scratch) {
  if (dv % 64 == 0) return ValueRowsAvx512<4, 4>(p, p_stride, rows, values, value_stride, keys, dv, rescale, acc);
  WidenF16Rows(values, value_stride, keys, dv, scratch);
  avx512_isa::AccumulateValues(p, p_stride, rows, scratch, keys, dv, rescale, acc);
}

// KeyDots for bf16 queries and keys as stored (queries are exact in bf16 when
// the attention's dtype is bf16): vdpbf16ps takes 32 dims of q . k an
// instruction, each product exact in f32, with no conversion or copy of the
// key rows (key_stride elements apart; head dims a multiple of 32). Sixteen keys at a time as KeyDotsAvx512, the
// other keys one by one. vdpbf16ps treats values below 2^-126 as zero, which
// no dot of activations notices.
__attribute__((target("avx512bf16"))) void KeyDotsBf16Avx512(const uint16_t* q, int64_t rows, const uint16_t* keys,
                                                             int64_t key_stride, int64_t d, int64_t keys_count,
                                                             float* dots, int64_t dots_stride) {
  const __m512i order = DotOrder();
  const auto pairs = [](const uint16_t* p) { return std::bit_cast<__m512bh>(_mm512_loadu_si512(p)); };
  int64_t t0 = 0;
  for (; t0 + 16 <= keys_count; t0 += 16) {
    const uint16_t* k = keys + t0 * key_stride;
    for (int64_t r = 0; r < rows; ++r) {
      const uint16_t* qr = q + r * d;
      __m512 acc[16];
      for (auto& a : acc) a = _mm512_setzero_ps();
      for (int64_t e = 0; e < d; e += 32) {
        const __m512bh qv = pairs(qr + e);
        for (int t = 0; t < 16; ++t) acc[t] = _mm512_dpbf16_ps(acc[t], qv, pairs(k + t * key_stride + e));
      }
      _mm512_storeu_ps(dots + r * dots_stride + t0, _mm512_permutexvar_ps(order, SixteenTrees(acc)));
    }
  }
  for (; t0 < keys_count; ++t0) {
    for (int64_t r = 0; r < rows; ++r) {
      __m512 acc = _mm512_setzero_ps();
      for (int64_t e = 0; e < d; e += 32)
        acc = _mm512_dpbf16_ps(acc, pairs(q + r * d + e), pairs(keys + t0 * key_stride + e));
      dots[r * dots_stride + t0] = _mm512_reduce_add_ps(acc);
    }
  }
}

// BlockDots for bf16 queries and keys (queries exact in bf16 when the
// attention's dtype is bf16), on AVX-512 BF16: key_pairs holds a block of 64
// keys as [d / 2][64 keys][2] (each key's dims 2p and 2p + 1 side by side), so
// one vdpbf16ps adds two dims of q . k for 16 keys, each product exact in f32;
// four rows' 64 sums stay in registers while the block streams past.
template <int NR>
__attribute__((target("avx512bf16"))) void BlockDotsBf16Rows(const uint16_t* q, const uint16_t* key_pairs, int64_t d,
                                                             float* dots, int64_t dots_stride) {
  constexpr int kVectors = kBlockPairKeys / 16;
  __m512 acc[NR][kVectors];
  for (int r = 0; r < NR; ++r) {
    for (int j = 0; j < kVectors; ++j) acc[r][j] = _mm512_setzero_ps();
  }
  for (int64_t p = 0; p < d / 2; ++p) {
    const uint16_t* block = key_pairs + p * 2 * kBlockPairKeys;
    __m512bh k[kVectors];
    for (int j = 0; j < kVectors; ++j) k[j] = std::bit_cast<__m512bh>(_mm512_loadu_si512(block + 32 * j));
    for (int r = 0; r < NR; ++r) {
      int32_t pair;  // q's dims 2p and 2p + 1
      std::memcpy(&pair, q + r * d + 2 * p, sizeof(pair));
      const auto qv = std::bit_cast<__m512bh>(_mm512_set1_epi32(pair));
      for (int j = 0; j < kVectors; ++j) acc[r][j] = _mm512_dpbf16_ps(acc[r][j], k[j], qv);
    }
  }
  for (int r = 0; r < NR; ++r) {
    for (int j = 0; j < kVectors; ++j) _mm512_storeu_ps(dots + r * dots_stride + 16 * j, acc[r][j]);
  }
}

void BlockDotsBf16Avx512(const uint16_t* q, int64_t rows, const uint16_t* key_pairs, int64_t d, float* dots,
                         int64_t dots_stride) {
  int64_t r = 0;
  for (; r + 4 <= rows; r += 4) BlockDotsBf16Rows<4>(q + r * d, key_pairs, d, dots + r * dots_stride, dots_stride);
  for (; r < rows; ++r) BlockDotsBf16Rows<1>(q + r * d, key_pairs, d, dots + r * dots_stride, dots_stride);
}

// AccumulateValues for bf16 values as stored (value rows value_stride
// elements apart, value dims a multiple of 32), on AVX-512 BF16: the weights
// rounded to bf16, as CANN's kernel rounds them to the inputs' dtype before
// its second product, and vdpbf16ps multiplies two keys' weights by their
// value rows an instruction (rows interleaved dim by dim), each product exact
// in f32. A key that weighs 0 for every row (masked, outside the band) is
// never read: its value row may hold anything, inf and NaN included. A
// block's sums start from zero; acc = acc * rescale + the block's sums.
constexpr int64_t kValueKeys = 64;  // keys a call takes at most (the kernel's key block)

// A pair of keys' value rows for vdpbf16ps, 32 dims at a time: the two rows
// interleaved dim by dim (unpacklo: dims 8L + 0..3 of 128-bit lane L, unpackhi:
// 8L + 4..7). A null row reads as zeros (a key no row weighs).
struct ValuePair {
  const uint16_t* first;
  const uint16_t* second;
};

__attribute__((target("avx512bf16"))) inline void InterleavePair(const ValuePair& pair, int64_t e, __m512bh& lo,
                                                                 __m512bh& hi) {
  const __m512i a = pair.first != nullptr ? _mm512_loadu_si512(pair.first + e) : _mm512_setzero_si512();
  const __m512i b = pair.second != nullptr ? _mm512_loadu_si512(pair.second + e) : _mm512_setzero_si512();
  lo = std::bit_cast<__m512bh>(_mm512_unpacklo_epi16(a, b));
  hi = std::bit_cast<__m512bh>(_mm512_unpackhi_epi16(a, b));
}

// kPacked: pairs[t].first points at the pair's rows interleaved beforehand,
// [dv / 32][unpacklo 32, unpackhi 32] (PackValuePairs); else at the rows.
template <int NR, int C, bool kPacked>
__attribute__((target("avx512bf16"))) void ValueTileBf16Avx512(const uint16_t (*weights)[kValueKeys],
                                                               const ValuePair* pairs, int64_t pair_count, int64_t e0,
                                                               const float* rescale, float* acc, int64_t dv) {
  __m512 lo[NR][C], hi[NR][C];
  for (int r = 0; r < NR; ++r) {
    for (int c = 0; c < C; ++c) lo[r][c] = hi[r][c] = _mm512_setzero_ps();
  }
  for (int64_t t = 0; t < pair_count; ++t) {
    const ValuePair& pair = pairs[t];
    if (pair.first == nullptr && pair.second == nullptr) continue;  // neither key weighs anything
    __m512bh lo_v[C], hi_v[C];
    for (int c = 0; c < C; ++c) {
      if constexpr (kPacked) {
        const uint16_t* packed = pair.first + 2 * (e0 + 32 * c);
        lo_v[c] = std::bit_cast<__m512bh>(_mm512_loadu_si512(packed));
        hi_v[c] = std::bit_cast<__m512bh>(_mm512_loadu_si512(packed + 32));
      } else {
        InterleavePair(pair, e0 + 32 * c, lo_v[c], hi_v[c]);
      }
    }
    for (int r = 0; r < NR; ++r) {
      int32_t weight_pair;  // keys 2t (low half) and 2t + 1
      std::memcpy(&weight_pair, weights[r] + 2 * t, sizeof(weight_pair));
      const auto w = std::bit_cast<__m512bh>(_mm512_set1_epi32(weight_pair));
      for (int c = 0; c < C; ++c) {
        lo[r][c] = _mm512_dpbf16_ps(lo[r][c], lo_v[c], w);
        hi[r][c] = _mm512_dpbf16_ps(hi[r][c], hi_v[c], w);
      }
    }
  }
  const __m512i first_half = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
  const __m512i second_half = _mm512_setr_epi32(8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
  for (int r = 0; r < NR; ++r) {
    const __m512 s = _mm512_set1_ps(rescale[r]);
    for (int c = 0; c < C; ++c) {
      float* out = acc + r * dv + e0 + 32 * c;
      const __m512 sums[2] = {_mm512_permutex2var_ps(lo[r][c], first_half, hi[r][c]),
                              _mm512_permutex2var_ps(lo[r][c], second_half, hi[r][c])};
      for (int h = 0; h < 2; ++h) {
        _mm512_storeu_ps(out + 16 * h, _mm512_fmadd_ps(_mm512_loadu_ps(out + 16 * h), s, sums[h]));
      }
    }
  }
}

// Every row's sums for the value dims [e0, e0 + 32 C): four rows a tile, then one by one.
template <int C, bool kPacked>
void ValueColumnsBf16Avx512(const uint16_t (*weights)[kValueKeys], const ValuePair* pairs, int64_t pair_count,
                            int64_t rows, int64_t e0, const float* rescale, float* acc, int64_t dv) {
  int64_t r = 0;
  for (; r + 4 <= rows; r += 4) {
    ValueTileBf16Avx512<4, C, kPacked>(weights + r, pairs, pair_count, e0, rescale + r, acc + r * dv, dv);
  }
  for (; r < rows; ++r) {
    ValueTileBf16Avx512<1, C, kPacked>(weights + r, pairs, pair_count, e0, rescale + r, acc + r * dv, dv);
  }
}

template <bool kPacked>
void ValueRowsBf16Avx512(const uint16_t (*weights)[kValueKeys], const ValuePair* pairs, int64_t pair_count,
                         int64_t rows, const float* rescale, float* acc, int64_t dv) {
  for (int64_t e0 = 0; e0 < dv; e0 += 64) {
    if (dv - e0 >= 64) {
      ValueColumnsBf16Avx512<2, kPacked>(weights, pairs, pair_count, rows, e0, rescale, acc, dv);
    } else {
      ValueColumnsBf16Avx512<1, kPacked>(weights, pairs, pair_count, rows, e0, rescale, acc, dv);
    }
  }
}

// Each used pair's rows interleaved once into `packed` (2 * dv elements a
// pair), where many row tiles read them: no shuffles per tile, and the rows,
// a token apart in the cache (often a multiple of 4 KB), no longer compete
// for the same few L1 sets.
__attribute__((target("avx512bf16"))) void PackValuePairs(ValuePair* pairs, int64_t pair_count, int64_t dv,
                                                          uint16_t* packed) {
  for (int64_t t = 0; t < pair_count; ++t) {
    ValuePair& pair = pairs[t];
    if (pair.first == nullptr && pair.second == nullptr) continue;
    uint16_t* out = packed + t * 2 * dv;
    for (int64_t e = 0; e < dv; e += 32) {
      __m512bh lo, hi;
      InterleavePair(pair, e, lo, hi);
      _mm512_storeu_si512(out + 2 * e, std::bit_cast<__m512i>(lo));
      _mm512_storeu_si512(out + 2 * e + 32, std::bit_cast<__m512i>(hi));
    }
    pair = {out, out};
  }
}

void AccumulateValuesBf16Avx512(const float* p, int64_t p_stride, int64_t rows, const uint16_t* values,
                                int64_t value_stride, int64_t keys, int64_t dv, const float* rescale, float* acc,
                                uint16_t* weight_scratch, uint16_t* pair_scratch) {
  const int64_t pair_count = (keys + 1) / 2;
  auto* weights = reinterpret_cast<uint16_t(*)[kValueKeys]>(weight_scratch);
  uint64_t used = 0;  // bit t: key t weighs something for some row
  for (int64_t r = 0; r < rows; ++r) {
    uint16_t* rounded = weights[r];
    const float* pr = p + r * p_stride;
    for (int64_t t = 0; t < keys; t += 16) {
      const __mmask16 m = avx512::LanesBelow(keys - t);
      const __m512 w = _mm512_maskz_loadu_ps(m, pr + t);
      _mm256_mask_storeu_epi16(rounded + t, m, avx512::Bf16::Round(w));
      used |= static_cast<uint64_t>(_mm512_mask_cmp_ps_mask(m, w, _mm512_setzero_ps(), _CMP_NEQ_UQ)) << t;
    }
    if (keys % 2 != 0) rounded[keys] = 0;
  }
  // Each pair's value rows; a key no row weighs is never read (zeros instead).
  ValuePair pairs[kValueKeys / 2];
  for (int64_t t = 0; t < pair_count; ++t) {
    const bool use_a = (used >> (2 * t) & 1) != 0, use_b = (used >> (2 * t + 1) & 1) != 0;
    pairs[t] = {use_a ? values + 2 * t * value_stride : nullptr, use_b ? values + (2 * t + 1) * value_stride : nullptr};
  }
  if (rows > 4) {  // more than one tile of rows reads each pair
    PackValuePairs(pairs, pair_count, dv, pair_scratch);
    ValueRowsBf16Avx512<true>(weights, pairs, pair_count, rows, rescale, acc, dv);
  } else {
    ValueRowsBf16Avx512<false>(weights, pairs, pair_count, rows, rescale, acc, dv);
  }
}

// ScaledScores 16 keys at a time; vmaxps returns its second operand where
// the first is NaN, which leaves NaN scores out of the max as std::max does.
float ScaledScoresAvx512(const float* dots, int64_t first, int64_t last, int64_t keys, float scale, float* scores) {
  const __m512 factor = _mm512_set1_ps(scale), lowest = _mm512_set1_ps(-INFINITY);
  __m512 max = lowest;
  for (int64_t t = 0; t < keys; t += 16) {
    const __mmask16 seen = avx512::LanesBelow(last - t) & ~avx512::LanesBelow(first - t);
    const __m512 v = _mm512_mask_mul_ps(lowest, seen, _mm512_maskz_loadu_ps(seen, dots + t), factor);
    _mm512_mask_storeu_ps(scores + t, avx512::LanesBelow(keys - t), v);
    max = _mm512_max_ps(v, max);
  }
  return _mm512_reduce_max_ps(max);
}

float SoftmaxWeightsAvx512(const float* scores, int64_t keys, float max, float* weights) {
  return avx512_isa::SoftmaxWeightsWith(scores, keys, max, weights, [](const float* in, float m, float* out) {
    _mm512_storeu_ps(out, Exp(Sub(V16{_mm512_loadu_ps(in)}, V16::Set(m))).v);
  });
}

}  // namespace

const AttentionBf16Loops kAttentionBf16LoopsAvx512 = {KeyDotsBf16Avx512, BlockDotsBf16Avx512,
                                                      AccumulateValuesBf16Avx512};

const AttentionF16Loops kAttentionF16LoopsAvx512 = {KeyDotsF16Avx512, AccumulateValuesF16Avx512};

const AttentionLoops kAttentionLoopsAvx512 = {avx512_isa::BlockDots, KeyDotsAvx512,          ScaledScoresAvx512,
                                              SoftmaxWeightsAvx512,  AccumulateValuesAvx512, avx512_isa::DequantRow};
}  // namespace canopy::kernels
