// INT4 and INT8 products with few rows of x (decode) on AVX-512 BF16, for a
// weight stored K-contiguous (ggml's layout). Every INT4 and INT8 value is
// exact in bf16, so vdpbf16ps multiplies 32 weights with x per instruction,
// each product exact in f32. A word permutation turns nibbles into bf16
// weights (vpermw looks each 16-bit word's low nibble up in a table of
// bf16(-8..7); three shifts and four lookups give a 64-byte block's 128
// weights in four vectors, where the byte shuffles this file used first took
// eleven instructions: docs/perf.md, "Quantised decode and row gathers");
// INT8 is widened through f32.
//
// Each block's weights come in a fixed order (Int4Block, Int8Block); x is
// written once per call in that order (PreparePairsX),
// as one, two or three bf16 terms whose sum is exactly x's value: one for
// bf16 activations, two for f16, three for f32. The product is then as exact as
// the f32 loop's, but vdpbf16ps treats denormal inputs and sums as zero,
// whatever MXCSR says: x whose terms come near that range (below 2^-119, where
// two products could cancel to a sum below 2^-126) is left to the f32 loops.
//
// Each 32-bit lane of a block's vectors holds elements of one run of 32 along
// K (Int4Block, Int8Block), so one scale serves a lane when the group size is
// a multiple of 32 (or the weight has one group): the lanes' partial sums are
// scaled per block by a vector holding each lane's group scale, read from the
// client's f16 / bf16 scales and widened in registers (a pass widening them
// first read them from memory apart from the weights, about 14 % of the
// product's time at one row).
//
// GCC 12 reports the undefined pass-through vector inside its own AVX-512
// intrinsics as uninitialised once they are inlined (as in
// quant_matmul_avx512.cpp): a false positive, silenced for this file only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <immintrin.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

#define CANOPY_QMM_ISA avx512_bf16_isa
#include "bf16_terms.h"
#include "quant_dequantize_avx512.h"
#include "quant_matmul_impl.h"
#include "quant_matmul_isa.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kBlockBytes = 64;  // of a column, one load a block
constexpr int64_t kPrefetchColumns = 8;
// bf16 words of x (all rows and terms of a row block) one slice of K holds.
constexpr int64_t kSliceWords = 8192;

// bf16(n) for each nibble n read as a signed INT4 value (8..15 are -8..-1),
// twice: vpermw indexes its 32 words by the low five bits of each index word,
// whose fifth bit belongs to the next nibble.
struct NibbleTable {
  alignas(64) uint16_t words[32];
  NibbleTable() : words() {
    for (int i = 0; i < 32; ++i) words[i] = FloatToBf16(static_cast<float>((i & 15) < 8 ? (i & 15) : (i & 15) - 16));
  }
};

const NibbleTable& Table() {
  static const NibbleTable table;
  return table;
}

// How a block of a column's 64 bytes becomes bf16 vectors, per weight dtype.
// Element(v, p): the element of the block in word p of vector v (x is written
// in that order). Each 32-bit lane of every vector holds elements of one run
// of 32 along K (LaneElement: its first), so one scale serves it when the
// group size is a multiple of 32.
//
// INT4: 128 elements; vector v takes nibble v of every 16-bit word of the
// block (word p holds elements 4p .. 4p + 3), looked up by vpermw.
struct Int4Block {
  static constexpr int64_t kElements = PairsBlockElements(ACL_INT4);  // PairsXWords' blocks
  static_assert(kElements == 2 * kBlockBytes);
  static constexpr int kVectors = 4;
  static constexpr int kMaxTerms = 3;
  static int64_t Element(int v, int p) { return 4 * p + v; }
  static int64_t LaneElement(int l) { return 32 * (l / 4); }
  static int64_t LaneFirst(int l) { return 8 * l; }  // its smallest element
  static int64_t ColumnBytes(int64_t elements) { return (elements + 1) / 2; }
  static __m512i Constant() { return _mm512_load_si512(Table().words); }
  [[gnu::always_inline]] static void Make(const uint8_t* at, __mmask64 mask, __m512i table, __m512bh (&out)[kVectors]) {
    const __m512i packed = _mm512_maskz_loadu_epi8(mask, at);
    for (int v = 0; v < kVectors; ++v) {
      const __m512i nibbles = v == 0 ? packed : _mm512_srli_epi16(packed, 4 * v);
      out[v] = std::bit_cast<__m512bh>(_mm512_permutexvar_epi16(nibbles, table));
    }
  }
};

// INT8: 64 elements, widened to f32 and rounded to bf16 (exact: eight bits)
// 16 at a time; vector v holds elements 16v .. 16v + 15 in words 0..15 and
// 32 + 16v .. 47 + 16v in words 16..31, so lanes 0-7 cover the block's first
// 32 elements and lanes 8-15 its second.
struct Int8Block {
  static constexpr int64_t kElements = PairsBlockElements(ACL_INT8);
  static_assert(kElements == kBlockBytes);
  static constexpr int kVectors = 2;
  static constexpr int kMaxTerms = 1;  // PairsFit
  static int64_t Element(int v, int p) { return p < 16 ? 16 * v + p : 16 + 16 * v + p; }
  static int64_t LaneElement(int l) { return l < 8 ? 0 : 32; }
  static int64_t LaneFirst(int l) { return l < 8 ? 2 * l : 16 + 2 * l; }
  static int64_t ColumnBytes(int64_t elements) { return elements; }
  static __m512i Constant() { return _mm512_setzero_si512(); }
  // (A whole block's loads unmasked, so that each folds into its widening.)
  [[gnu::always_inline]] static __m512 Widen(const uint8_t* at, __mmask64 mask, int byte) {
    const __m128i bytes = mask == ~__mmask64{0} ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(at + byte))
                                                : _mm_maskz_loadu_epi8(static_cast<__mmask16>(mask >> byte), at + byte);
    return _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(bytes));
  }
  [[gnu::always_inline]] static void Make(const uint8_t* at, __mmask64 mask, __m512i, __m512bh (&out)[kVectors]) {
    for (int v = 0; v < kVectors; ++v) {
      out[v] = _mm512_cvtne2ps_pbh(Widen(at, mask, 32 + 16 * v), Widen(at, mask, 16 * v));
    }
  }
};

template <class Block>
int64_t BlocksOf(int64_t k) {
  return (k + Block::kElements - 1) / Block::kElements;
}

// A weight's scales as the loops read them: the f32 ones ChunkScales widened
// (data at column first_column), or the stored ones (any dtype, data at column
// 0), widened a block at a time in registers instead of in a pass of their own.
struct ScaleSource {
  const void* data;
  aclDataType dtype;
  int64_t first_column;
};

inline int ScaleBytes(const ScaleSource& s) { return s.dtype == ACL_FLOAT ? 4 : 2; }

// Up to four scales from element `at` (the lanes in `present`), as f32.
[[gnu::always_inline]] inline __m128 LoadScales(const ScaleSource& s, int64_t at, __mmask8 present) {
  switch (s.dtype) {
    case ACL_BF16:
      return _mm_castsi128_ps(_mm_slli_epi32(
          _mm_cvtepu16_epi32(_mm_maskz_loadu_epi16(present, static_cast<const uint16_t*>(s.data) + at)), 16));
    case ACL_FLOAT16:
      return _mm_cvtph_ps(_mm_maskz_loadu_epi16(present, static_cast<const uint16_t*>(s.data) + at));
    default:
      return _mm_maskz_loadu_ps(present, static_cast<const float*>(s.data) + at);
  }
}

struct PairsArgs {
  const QuantMatmulDesc* d;
  int terms;
  const uint16_t* xp;
  const float* sums;
  const char* wbase;
  // Per block: the first group its lanes use, each f32 lane's group index
  // relative to it, and the lanes holding an element of K (the others, past
  // K, take a scale of 0: their sums are 0, and 0 times an infinite scale
  // would be NaN where the formula has no such term).
  const int64_t* first_group;
  const int32_t* lane_groups;  // 16 a block
  const __mmask16* live_lanes;
};

// part[r][j] += x's block b (R rows from r0, T terms) times columns [j0, j1)
// of the block's weights (weights[0] when only one column is live).
template <class Block, int R, int C, int T, int kA, int kLive>
[[gnu::always_inline]] inline void Accumulate(const PairsArgs& a, int64_t r0, int64_t b, int64_t row_words,
                                              int64_t blocks, const __m512bh (&weights)[kLive][Block::kVectors],
                                              __m512 (&part)[R][C][kA], int j0, int j1) {
  for (int r = 0; r < R; ++r) {
    for (int j = j0; j < j1; ++j) {
      for (int h = 0; h < kA; ++h) part[r][j][h] = _mm512_setzero_ps();
    }
    for (int t = 0; t < T; ++t) {
      const uint16_t* xb = a.xp + (r0 + r) * row_words + (t * blocks + b) * Block::kElements;
      for (int v = 0; v < Block::kVectors; ++v) {
        const auto xv = std::bit_cast<__m512bh>(_mm512_loadu_si512(xb + 32 * v));
        for (int j = j0; j < j1; ++j) {
          part[r][j][v % kA] = _mm512_dpbf16_ps(part[r][j][v % kA], xv, weights[kLive == 1 ? 0 : j][v]);
        }
      }
    }
  }
}

// y[r0 .. r0 + R, c .. c + C) from the columns' blocks, x in T terms; the
// offsets (and the scales, when widened) start at column c0. With few outputs
// each keeps two partial sums a block (even and odd vectors), so that no chain
// of dependent vdpbf16ps is longer than 2T; with many, the outputs' chains
// overlap one another.
template <class Block, int R, int C, int T>
void PairsBlock(const PairsArgs& a, const ScaleSource& scale, const float* offset, float* y, int64_t r0, int64_t c0,
                int64_t c, int64_t b0, int64_t b1) {
  constexpr int kV = Block::kVectors;
  const QuantWeight& w = a.d->w;
  const int64_t k = w.k, n = w.n, groups = w.Groups(), blocks = BlocksOf<Block>(k);
  const int64_t bytes = Block::ColumnBytes(k), stride = Block::ColumnBytes(w.ld);
  const __m512i constant = Block::Constant();
  const int scale_bytes = ScaleBytes(scale);
  const int64_t row_words = T * blocks * Block::kElements;  // one row of x, all its terms
  // The columns lie side by side: prefetch the same block (and its scales)
  // kPrefetchColumns columns on, which this loop reaches that much later.
  const int64_t ahead = kPrefetchColumns * stride;
  const uint8_t* column[C];
  for (int j = 0; j < C; ++j) column[j] = reinterpret_cast<const uint8_t*>(a.wbase) + (c + j) * stride;
  __m512 total[R][C];
  for (int r = 0; r < R; ++r) {
    for (int j = 0; j < C; ++j) total[r][j] = _mm512_setzero_ps();
  }
  for (int64_t b = b0; b < b1; ++b) {
    const int64_t at = b * kBlockBytes, g0 = a.first_group[b];
    const __mmask64 mask = bytes - at >= kBlockBytes ? ~__mmask64{0} : (__mmask64{1} << (bytes - at)) - 1;
    // Two partial sums an output where registers allow (fewer outputs than 8).
    constexpr int kA = R * C < 8 ? 2 : 1;
    __m512 part[R][C][kA];
    // One row of x: each column's weights go into its sums as they are made,
    // so that one column's weight vectors are live at a time (four columns'
    // spilled). More rows: every column's weights are made first, so that each
    // vector of x is loaded once.
    constexpr int kLive = R > 1 ? C : 1;  // NOLINT(bugprone-branch-clone): C is 1 in some instances
    __m512bh weights[kLive][kV];
    for (int j = 0; j < C; ++j) {
      _mm_prefetch(reinterpret_cast<const char*>(column[j] + at + ahead), _MM_HINT_T0);
      _mm_prefetch(static_cast<const char*>(scale.data) +
                       ((c + j + kPrefetchColumns - scale.first_column) * groups + g0) * scale_bytes,
                   _MM_HINT_T0);
      Block::Make(column[j] + at, mask, constant, weights[R == 1 ? 0 : j]);
      if constexpr (R == 1) Accumulate<Block, R, C, T, kA>(a, r0, b, row_words, blocks, weights, part, j, j + 1);
    }
    if constexpr (R > 1) Accumulate<Block, R, C, T, kA>(a, r0, b, row_words, blocks, weights, part, 0, C);
    const auto scale_lanes = static_cast<__mmask8>((1u << std::min<int64_t>(4, groups - g0)) - 1u);
    const __m512i lanes = _mm512_loadu_si512(a.lane_groups + 16 * b);
    for (int j = 0; j < C; ++j) {
      const __m512 s = _mm512_maskz_permutexvar_ps(
          a.live_lanes[b], lanes,
          _mm512_castps128_ps512(LoadScales(scale, (c - scale.first_column + j) * groups + g0, scale_lanes)));
      for (int r = 0; r < R; ++r) {
        const __m512 sum = kA == 2 ? _mm512_add_ps(part[r][j][0], part[r][j][kA - 1]) : part[r][j][0];
        total[r][j] = _mm512_fmadd_ps(sum, s, total[r][j]);
      }
    }
  }
  for (int j = 0; j < C; ++j) {
    for (int r = 0; r < R; ++r) {
      // With an offset the scales are ChunkScales' f32 ones (PairsColumns).
      const int64_t at = (c - c0 + j) * groups;
      const float extra = w.has_offset && b0 == 0
                              ? avx512_bf16_isa::OffsetTerm(static_cast<const float*>(scale.data) + at, offset + at,
                                                            a.sums + (r0 + r) * groups, groups)
                              : 0.0f;
      float& out = y[(r0 + r) * n + c + j];
      out = (b0 == 0 ? extra : out) + _mm512_reduce_add_ps(total[r][j]);
    }
  }
}

// Columns four (one row of x) or two (more rows) at a time: each block of x
// loaded serves them all.
// Blocks are taken a slice at a time for all the columns, so that the slice
// of x (R rows, T terms) stays in L1 while the columns stream past it; each
// slice adds its sums to y (the first one writes it).
template <class Block, int R, int T>
void PairsRows(const PairsArgs& a, const ScaleSource& scale, const float* offset, float* y, int64_t r0, int64_t c0,
               int64_t c1) {
  constexpr int kC = R == 1 ? 4 : 2;
  constexpr int64_t kSlice = std::max<int64_t>(1, kSliceWords / (R * T * Block::kElements));
  const int64_t blocks = BlocksOf<Block>(a.d->w.k);
  for (int64_t b0 = 0; b0 < blocks; b0 += kSlice) {
    const int64_t b1 = std::min(blocks, b0 + kSlice);
    int64_t c = c0;
    for (; c + kC <= c1; c += kC) PairsBlock<Block, R, kC, T>(a, scale, offset, y, r0, c0, c, b0, b1);
    for (; c < c1; ++c) PairsBlock<Block, R, 1, T>(a, scale, offset, y, r0, c0, c, b0, b1);
  }
}

template <class Block, int R>
void PairsRowsOfTerms(const PairsArgs& a, const ScaleSource& scale, const float* offset, float* y, int64_t r0,
                      int64_t c0, int64_t c1) {
  if constexpr (Block::kMaxTerms > 1) {
    if (a.terms == 2) return PairsRows<Block, R, 2>(a, scale, offset, y, r0, c0, c1);
    if (a.terms == 3) return PairsRows<Block, R, 3>(a, scale, offset, y, r0, c0, c1);
  }
  PairsRows<Block, R, 1>(a, scale, offset, y, r0, c0, c1);
}

template <class Block>
bool PrepareX(const float* x, int64_t m, int64_t k, int terms, uint16_t* xp) {
  constexpr int64_t kElements = Block::kElements;
  const int64_t blocks = BlocksOf<Block>(k);
  bool exact = true;
  for (int64_t r = 0; r < m; ++r) {
    uint16_t* row = xp + r * terms * blocks * kElements;
    for (int64_t b = 0; b < blocks; ++b) {
      for (int v = 0; v < Block::kVectors; ++v) {
        for (int p = 0; p < 32; ++p) {
          const int64_t e = b * kElements + Block::Element(v, p);
          const float value = e < k ? x[r * k + e] : 0.0f;
          exact = SplitTerms(value, terms, row + b * kElements + 32 * v + p, blocks * kElements) && exact;
        }
      }
    }
  }
  return exact;
}

template <class Block>
void Columns(const QuantMatmulDesc& d, int terms, const uint16_t* xp, const float* sums, const char* wbase,
             const void* scale, const void* offset, const float* bias, float* y, int64_t c0, int64_t c1) {
  const QuantWeight& w = d.w;
  const int64_t blocks = BlocksOf<Block>(w.k), groups = w.Groups();
  std::vector<int64_t> first_group(static_cast<size_t>(blocks));
  std::vector<int32_t> lane_groups(static_cast<size_t>(16 * blocks));
  std::vector<__mmask16> live_lanes(static_cast<size_t>(blocks));
  for (int64_t b = 0; b < blocks; ++b) {
    const int64_t kb = b * Block::kElements;
    first_group[b] = std::min(groups - 1, kb / w.group_size);
    unsigned live = 0;
    for (int l = 0; l < 16; ++l) {
      const int64_t g = std::min(groups - 1, (kb + Block::LaneElement(l)) / w.group_size);
      lane_groups[16 * b + l] = static_cast<int32_t>(g - first_group[b]);
      if (kb + Block::LaneFirst(l) < w.k) live |= 1u << l;
    }
    live_lanes[b] = static_cast<__mmask16>(live);
  }
  const PairsArgs args{&d, terms, xp, sums, wbase, first_group.data(), lane_groups.data(), live_lanes.data()};
  // The offset term wants f32 scales beside the offsets: widened per chunk
  // then; otherwise the loops read the stored scales.
  const bool widen = w.has_offset;
  avx512_bf16_isa::QuantColumnsWith(
      d, nullptr, sums, wbase, scale, offset, bias, y, c0, c1,
      [&](auto r, const float* s, const float* o, int64_t r0, int64_t cc, int64_t ce) {
        const ScaleSource source = widen ? ScaleSource{s, ACL_FLOAT, cc} : ScaleSource{scale, w.scale_dtype, 0};
        PairsRowsOfTerms<Block, decltype(r)::value>(args, source, o, y, r0, cc, ce);
      },
      widen);
}

}  // namespace

bool PreparePairsX(const QuantWeight& w, const float* x, int64_t m, int terms, uint16_t* xp) {
  return w.dtype == ACL_INT4 ? PrepareX<Int4Block>(x, m, w.k, terms, xp) : PrepareX<Int8Block>(x, m, w.k, terms, xp);
}

void PairsColumns(const QuantMatmulDesc& d, int terms, const uint16_t* xp, const float* sums, const char* wbase,
                  const void* scale, const void* offset, const float* bias, float* y, int64_t c0, int64_t c1) {
  if (d.w.dtype == ACL_INT4) return Columns<Int4Block>(d, terms, xp, sums, wbase, scale, offset, bias, y, c0, c1);
  Columns<Int8Block>(d, terms, xp, sums, wbase, scale, offset, bias, y, c0, c1);
}

void DequantizeBf16Ne(const QuantWeight& w, const char* wbase, const float* scale, const float* offset, uint16_t* out,
                      int64_t row0, int64_t row1) {
  avx512_bf16_isa::DequantizeVectors<avx512::Bf16Ne>(w, wbase, scale, offset, out, row0, row1);
}

}  // namespace canopy::kernels
