// INT4 and INT8 products on AMX, for a weight stored K-contiguous (ggml's
// layout). The vector kernels spend one bf16 dot product (vdpbf16ps) per 32
// weights per row of x, so eight rows of x cost eight times one row and the
// product stops at the CPU's arithmetic long before the memory: AMX multiplies
// a 16 x 32 tile of weights with up to 16 columns of x in one tdpbf16ps, and
// what is left per weight is unpacking it. A few rows (decode) unpack as they
// go (StreamedBlock); many rows (prefill) unpack each block of columns once
// into a panel that every block of rows multiplies (PanelBlock).
//
// Tiles (per thread, configured per block of rows of x):
//   A (tmm0, tmm5 on odd steps): 16 columns of the weight x 32 elements of K, bf16, one row per
//             column. INT4: unpacked from the column's 16 bytes by one
//             broadcast load, vpmultishiftqb (each word's low byte gets one
//             nibble) and vpermw through a table of the 16 signed INT4 values
//             in bf16 (twice: the index's fifth bit is the next nibble's).
//             INT8: its 32 bytes widened to f32 and rounded to bf16, which
//             holds every INT8 value exactly.
//   B (tmm1, tmm6 on odd steps): x for the same 32 elements, as tdpbf16ps pairs them: row kp holds
//             for each column mc of the block (a row of x and one of its bf16
//             terms, see bf16_terms.h) the two elements row kp of A pairs with.
//   C (tmm2..tmm4, a group each in turn): 16 columns x the block's columns
//             of x, f32; stored and scaled by the group's scale into
//             registers two groups after it ends.
// The INT4 unpacking puts the 32 elements of a step in a fixed order
// (StepElement); x is written once per call in that order (PrepareAmxQuantX),
// so the product is exact per group as the vector kernels' is: every weight
// and every term is exact in bf16, each product exact in f32.
//
// GCC 12 reports the undefined pass-through vector inside its own AVX-512
// intrinsics as uninitialised once they are inlined (as in the other
// quant_matmul_* kernels): a false positive, silenced for this file only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <immintrin.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <vector>

#define CANOPY_QMM_ISA amx_isa
#include "bf16_terms.h"
#include "cpu_features.h"
#include "quant_matmul_impl.h"
#include "quant_matmul_isa.h"

namespace canopy::kernels {
namespace {

constexpr int kTileRows = 16;
constexpr int64_t kStepK = kAmxQuantStepK;  // elements of K in one row of A
constexpr int kRing = 4;                    // unpacked steps kept (see StreamedBlock)
constexpr int kLookahead = 3;               // steps unpacked ahead of the one multiplied
constexpr int kSlots = 3;                   // C tiles (tmm2..tmm4): group g sums into slot g % kSlots
// x of the row blocks that share one unpacked panel of weights (see AmxQuantColumns).
constexpr int64_t kPanelXBytes = int64_t{1} << 20;

// The element of K (within a step) that element e of a row of A holds for
// INT4 weights (INT8 ones keep K's order): the
// row's 128-bit lane l = e / 8 takes nibbles 4l..4l+3 of each of the step's
// two 8-byte words, word q = (e / 4) % 2 of the lane the word q's.
constexpr int64_t StepElement(int e) {
  const int lane = e / 8, word = (e / 4) % 2, nibble = 4 * lane + e % 4;
  return 16 * word + nibble;
}

// vpmultishiftqb's control: the low byte of element e's word starts at bit
// 4 * nibble of its 64-bit word (its high byte is unused, so 0).
std::array<uint8_t, 64> MultishiftControl() {
  std::array<uint8_t, 64> control{};
  for (int e = 0; e < 32; ++e) control[2 * e] = static_cast<uint8_t>(4 * (StepElement(e) % 16));
  return control;
}

// bf16 of the signed INT4 value of a nibble, for vpermw's 5-bit index (so twice).
std::array<uint16_t, 32> NibbleValues() {
  std::array<uint16_t, 32> values{};
  for (int i = 0; i < 32; ++i) {
    const int nibble = i % 16;
    values[i] = FloatToBf16(static_cast<float>(nibble < 8 ? nibble : nibble - 16));
  }
  return values;
}

// GCC's tile intrinsics are asm statements that do not say that tileloadd and
// ldtilecfg read memory, so the stores filling a tile's buffer could be moved
// past the load or dropped as dead: these say so.
#define CANOPY_TILE_LOAD(tile, base, stride) \
  __asm__ volatile("tileloadd (%0,%1,1), %%tmm" #tile ::"r"(base), "r"(static_cast<long>(stride)) : "memory")
inline void MemoryBarrier() { __asm__ volatile("" ::: "memory"); }

struct alignas(64) TileConfig {
  uint8_t palette = 1;
  uint8_t start_row = 0;
  uint8_t reserved[14] = {};
  uint16_t colsb[16] = {};
  uint8_t rows[16] = {};
};

// Tiles for a block of `columns` columns of x (rows x terms, at most 16).
void ConfigureTiles(int columns) {
  TileConfig config;
  for (const int a : {0, 5}) {
    config.rows[a] = kTileRows;
    config.colsb[a] = 64;
  }
  for (const int b : {1, 6}) {
    config.rows[b] = kTileRows;
    config.colsb[b] = static_cast<uint16_t>(4 * columns);
  }
  for (int slot = 2; slot < 2 + kSlots; ++slot) {
    config.rows[slot] = kTileRows;
    config.colsb[slot] = static_cast<uint16_t>(4 * columns);
  }
  MemoryBarrier();
  _tile_loadconfig(&config);
}

// Linux hands a process AMX's tile data only once it asks (arch_prctl).
bool TileDataGranted() {
  static const bool granted = [] {
    constexpr int kArchReqXcompPerm = 0x1023;
    constexpr int kXfeatureXtiledata = 18;
    return syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) == 0;
  }();
  return granted;
}

void ZeroSlot(int slot) {
  switch (slot) {
    case 0:
      _tile_zero(2);
      break;
    case 1:
      _tile_zero(3);
      break;
    default:
      _tile_zero(4);
      break;
  }
}

// Steps alternate between two pairs of A and B tiles (tmm0 / tmm1 and tmm5 /
// tmm6): tiles are not renamed, so a step's loads into the tiles the previous
// step multiplies would wait for that product.
// (GCC's _tile_dpbf16ps names its tiles by text, hence one function per pair.)
#define CANOPY_MULTIPLY_INTO(name, a, b) \
  void name(int slot) {                  \
    switch (slot) {                      \
      case 0:                            \
        _tile_dpbf16ps(2, a, b);         \
        break;                           \
      case 1:                            \
        _tile_dpbf16ps(3, a, b);         \
        break;                           \
      default:                           \
        _tile_dpbf16ps(4, a, b);         \
        break;                           \
    }                                    \
  }
CANOPY_MULTIPLY_INTO(MultiplyEvenStep, 0, 1)
CANOPY_MULTIPLY_INTO(MultiplyOddStep, 5, 6)
#undef CANOPY_MULTIPLY_INTO

void StoreAndZeroSlot(int slot, float* out) {
  switch (slot) {
    case 0:
      _tile_stored(2, out, 64);
      break;
    case 1:
      _tile_stored(3, out, 64);
      break;
    default:
      _tile_stored(4, out, 64);
      break;
  }
  ZeroSlot(slot);
}

struct AmxArgs {
  const QuantMatmulDesc* d;
  int terms;
  int block_rows;  // rows of x per block: AmxQuantBlockRows(terms)
  const uint32_t* xb;
  const char* wbase;
  const float* zero_scales;  // a group's worth of zeros per group
};

// The weights of a block of 16 columns [c, c + live) and what they are
// scaled by: each column's first byte and its scales group by group (the
// columns past `live` get zero scales).
struct ColumnSet {
  const uint8_t* column[kTileRows];
  const float* scales[kTileRows];
  int live;
};

ColumnSet ColumnsOf(const AmxArgs& a, const float* scale, int64_t c0, int64_t c, int live) {
  const QuantWeight& w = a.d->w;
  const int64_t groups = w.Groups();
  ColumnSet set{};
  set.live = live;
  for (int j = 0; j < live; ++j) {
    set.column[j] = reinterpret_cast<const uint8_t*>(a.wbase) + (c + j) * (w.dtype == ACL_INT4 ? w.ld / 2 : w.ld);
    set.scales[j] = scale + (c - c0 + j) * groups;
  }
  for (int j = live; j < kTileRows; ++j) set.scales[j] = a.zero_scales;
  return set;
}

// Unpacks step s (32 elements of K) of the set's columns into `out`, one row
// of 32 bf16 weights a column (rows past `live` are left as they are).
template <bool kInt4>
class StepUnpacker {
 public:
  StepUnpacker(const ColumnSet& set, int64_t k)
      : set_(set), bytes_(kInt4 ? (k + 1) / 2 : k), control_(Load(Control())), values_(Load(Values())) {}

  void operator()(int64_t s, uint16_t (*out)[32]) const {
    constexpr int64_t kStepBytes = kInt4 ? kStepK / 2 : kStepK;
    const int64_t at = s * kStepBytes;
    const bool whole = bytes_ - at >= kStepBytes;
    if constexpr (!kInt4) {
      const auto mask = whole ? ~__mmask32{0} : static_cast<__mmask32>((uint64_t{1} << (bytes_ - at)) - 1);
      for (int j = 0; j < set_.live; ++j) {
        const __m256i bytes32 = whole ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(set_.column[j] + at))
                                      : _mm256_maskz_loadu_epi8(mask, set_.column[j] + at);
        const __m512 low = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm256_castsi256_si128(bytes32)));
        const __m512 high = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm256_extracti128_si256(bytes32, 1)));
        _mm512_store_si512(out[j], std::bit_cast<__m512i>(_mm512_cvtne2ps_pbh(high, low)));
      }
    } else {
      const auto mask = static_cast<__mmask16>(whole ? 0xFFFFu : (1u << (bytes_ - at)) - 1);
      for (int j = 0; j < set_.live; ++j) {
        // A whole step is one broadcast load; the last, partial one a masked load and a shuffle.
        const __m128i bytes16 = whole ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(set_.column[j] + at))
                                      : _mm_maskz_loadu_epi8(mask, set_.column[j] + at);
        const __m512i index = _mm512_multishift_epi64_epi8(control_, _mm512_broadcast_i32x4(bytes16));
        _mm512_store_si512(out[j], _mm512_permutexvar_epi16(index, values_));
      }
    }
  }

 private:
  static const std::array<uint8_t, 64>& Control() {
    static const std::array<uint8_t, 64> control = MultishiftControl();
    return control;
  }
  static const std::array<uint16_t, 32>& Values() {
    static const std::array<uint16_t, 32> values = NibbleValues();
    return values;
  }
  template <typename T>
  static __m512i Load(const T& table) {
    return _mm512_loadu_si512(table.data());
  }

  const ColumnSet& set_;
  int64_t bytes_;
  __m512i control_;
  __m512i values_;
};

// y[rows of row block rb) x [c, c + live) from the tiles: unpacked(s) gives
// step s's unpacked weights, and before_step(s) runs before step s's tile
// loads (where a streaming caller unpacks a later step). The tiles must be
// configured for the block's columns of x.
template <typename Unpacked, typename BeforeStep>
void RowBlockProducts(const AmxArgs& a, const ColumnSet& set, const float* scale, const float* offset,
                      const float* sums, float* y, int64_t rb, int rows, int64_t c0, int64_t c,
                      const Unpacked& unpacked, const BeforeStep& before_step) {
  const QuantWeight& w = a.d->w;
  const int64_t n = w.n, groups = w.Groups(), steps = AmxQuantSteps(w.k);
  // Lanes past the block's columns of x are never written by the tile
  // stores; zeroed, they add nothing to lanes nobody reads.
  alignas(64) float products[2][kTileRows][16] = {};
  __m512 total[kTileRows];
  for (auto& t : total) t = _mm512_setzero_ps();
  const uint32_t* xblock = a.xb + rb * steps * kTileRows * 16;
  // Steps per group: a group is a whole number of steps (or the one group).
  const int64_t group_steps = groups == 1 ? steps : w.group_size / kStepK;
  const auto scale_group = [&](int64_t g) {
    const float* part = products[g % 2][0];
    for (int j = 0; j < kTileRows; ++j) {
      total[j] = _mm512_fmadd_ps(_mm512_load_ps(part + 16 * j), _mm512_set1_ps(set.scales[j][g]), total[j]);
    }
  };
  for (int slot = 0; slot < kSlots; ++slot) ZeroSlot(slot);
  for (int64_t s = 0, g = 0; s < steps; ++s) {
    before_step(s);
    if (s % 2 == 0) {
      CANOPY_TILE_LOAD(0, unpacked(s), 64);
      CANOPY_TILE_LOAD(1, xblock + s * kTileRows * 16, 64);
      MultiplyEvenStep(static_cast<int>(g % kSlots));
    } else {
      CANOPY_TILE_LOAD(5, unpacked(s), 64);
      CANOPY_TILE_LOAD(6, xblock + s * kTileRows * 16, 64);
      MultiplyOddStep(static_cast<int>(g % kSlots));
    }
    if ((s + 1) % group_steps == 0 || s + 1 == steps) {
      // Group g is complete. Its sums are read two groups later: the tile
      // store of group g - 1 and the loads of group g - 2 then find their
      // data long done instead of stalling the next products.
      if (g >= 2) scale_group(g - 2);
      if (g >= 1) StoreAndZeroSlot(static_cast<int>((g - 1) % kSlots), products[(g - 1) % 2][0]);
      ++g;
    }
  }
  const int64_t last = (steps + group_steps - 1) / group_steps - 1;
  if (last >= 1) scale_group(last - 1);
  StoreAndZeroSlot(static_cast<int>(last % kSlots), products[last % 2][0]);
  scale_group(last);
  alignas(64) float lanes_out[16];
  for (int j = 0; j < set.live; ++j) {
    _mm512_store_ps(lanes_out, total[j]);
    const int64_t at = (c - c0 + j) * groups;
    for (int r = 0; r < rows; ++r) {
      const int64_t row = rb * a.block_rows + r;
      float sum = 0.0f;
      for (int t = 0; t < a.terms; ++t) sum += lanes_out[r * a.terms + t];
      const float extra =
          w.has_offset ? amx_isa::OffsetTerm(scale + at, offset + at, sums + row * groups, groups) : 0.0f;
      y[row * n + c + j] = extra + sum;
    }
  }
}

// One block of rows of x against 16 columns, unpacking as it goes: a ring of
// unpacked steps, each unpacked kLookahead steps before its tile load reads
// it, so the load does not wait for the stores that wrote it (loading the
// step just written ran at two thirds of this speed).
template <bool kInt4>
void StreamedBlock(const AmxArgs& a, const float* scale, const float* offset, const float* sums, float* y, int64_t rb,
                   int rows, int64_t c0, int64_t c, int live) {
  const ColumnSet set = ColumnsOf(a, scale, c0, c, live);
  const StepUnpacker<kInt4> unpack(set, a.d->w.k);
  const int64_t steps = AmxQuantSteps(a.d->w.k);
  alignas(64) uint16_t ring[kRing][kTileRows][32];
  if (live < kTileRows) std::memset(ring, 0, sizeof(ring));
  for (int64_t s = 0; s < std::min<int64_t>(kLookahead, steps); ++s) unpack(s, ring[s % kRing]);
  RowBlockProducts(
      a, set, scale, offset, sums, y, rb, rows, c0, c, [&](int64_t s) { return ring[s % kRing]; },
      [&](int64_t s) {
        if (s + kLookahead < steps) unpack(s + kLookahead, ring[(s + kLookahead) % kRing]);
      });
}

// Row blocks [rb0, rb1) against 16 columns, the columns unpacked once into
// `panel` (steps x 16 x 32 words) and read back by every row block.
template <bool kInt4>
void PanelBlock(const AmxArgs& a, const float* scale, const float* offset, const float* sums, float* y, int64_t rb0,
                int64_t rb1, int64_t c0, int64_t c, int live, uint16_t* panel) {
  const ColumnSet set = ColumnsOf(a, scale, c0, c, live);
  const StepUnpacker<kInt4> unpack(set, a.d->w.k);
  const int64_t steps = AmxQuantSteps(a.d->w.k);
  auto* rows_of = reinterpret_cast<uint16_t(*)[kTileRows][32]>(panel);
  if (live < kTileRows) std::memset(panel, 0, static_cast<size_t>(steps) * sizeof(rows_of[0]));
  for (int64_t s = 0; s < steps; ++s) unpack(s, rows_of[s]);
  int configured = -1;
  for (int64_t rb = rb0; rb < rb1; ++rb) {
    const int rows = static_cast<int>(std::min<int64_t>(a.block_rows, a.d->m - rb * a.block_rows));
    if (rows * a.terms != configured) {
      configured = rows * a.terms;
      ConfigureTiles(configured);
    }
    RowBlockProducts(
        a, set, scale, offset, sums, y, rb, rows, c0, c, [&](int64_t s) { return rows_of[s]; }, [](int64_t) {});
  }
}

}  // namespace

bool AmxQuantUsable() {
  return Cpu().amx && Cpu().avx512vbmi && Cpu().Avx512() && Cpu().avx512bf16 && TileDataGranted();
}

bool PrepareAmxQuantX(const float* x, int64_t m, int64_t k, int terms, bool int4, uint32_t* xb, int64_t block0,
                      int64_t block1) {
  const int block_rows = AmxQuantBlockRows(terms);
  const int64_t steps = AmxQuantSteps(k), block_words = steps * kTileRows * 16;
  std::memset(xb + block0 * block_words, 0, static_cast<size_t>((block1 - block0) * block_words) * sizeof(uint32_t));
  bool exact = true;
  uint16_t split[2][3];
  for (int64_t r = block0 * block_rows; r < std::min(m, block1 * block_rows); ++r) {
    const int64_t rb = r / block_rows;
    const int column_base = static_cast<int>(r % block_rows) * terms;
    for (int64_t s = 0; s < steps; ++s) {
      uint32_t* step = xb + rb * block_words + s * kTileRows * 16;
      for (int kp = 0; kp < kTileRows; ++kp) {
        for (int h = 0; h < 2; ++h) {
          const int64_t e = s * kStepK + (int4 ? StepElement(2 * kp + h) : 2 * kp + h);
          const float value = e < k ? x[r * k + e] : 0.0f;
          exact = SplitTerms(value, terms, &split[h][0], 1) && exact;
        }
        for (int t = 0; t < terms; ++t) {
          step[kp * 16 + column_base + t] = uint32_t{split[0][t]} | (uint32_t{split[1][t]} << 16);
        }
      }
    }
  }
  return exact;
}

void AmxQuantColumns(const QuantMatmulDesc& d, int terms, const uint32_t* xb, const float* sums, const char* wbase,
                     const void* scale, const void* offset, const float* bias, float* y, int64_t c0, int64_t c1) {
  const QuantWeight& w = d.w;
  const int block_rows = AmxQuantBlockRows(terms);
  const std::vector<float> zero_scales(static_cast<size_t>(w.Groups()), 0.0f);
  const AmxArgs args{&d, terms, block_rows, xb, wbase, zero_scales.data()};
  const int64_t chunk = amx_isa::ColumnChunk(w);
  const int64_t steps = AmxQuantSteps(w.k), row_blocks = AmxQuantRowBlocks(d.m, terms);
  const bool int4 = w.dtype == ACL_INT4;
  // Row blocks that share one unpacking of a column block: as many as keep
  // their x (1 KiB a step each) within kPanelXBytes, so that it stays in L2.
  const int64_t group = std::max<int64_t>(1, kPanelXBytes / (steps * 1024));
  // The panel's rows are 64-byte vectors: over-allocated and aligned by hand.
  std::vector<uint16_t> panel_words(row_blocks > 1 ? static_cast<size_t>(steps * kTileRows * 32 + 32) : 0);
  uint16_t* panel =
      panel_words.empty()
          ? nullptr
          : reinterpret_cast<uint16_t*>((reinterpret_cast<uintptr_t>(panel_words.data()) + 63) & ~uintptr_t{63});
  std::vector<float> scale_chunk, offset_chunk;
  for (int64_t cc = c0; cc < c1; cc += chunk) {
    const int64_t ce = std::min(c1, cc + chunk);
    const float* s = amx_isa::ChunkScales(w, scale, cc, ce, scale_chunk);
    const float* o = w.has_offset ? amx_isa::ChunkScales(w, offset, cc, ce, offset_chunk) : nullptr;
    if (row_blocks == 1) {
      ConfigureTiles(static_cast<int>(d.m) * terms);
      for (int64_t c = cc; c < ce; c += kTileRows) {
        const int live = static_cast<int>(std::min<int64_t>(kTileRows, ce - c));
        if (int4) {
          StreamedBlock<true>(args, s, o, sums, y, 0, static_cast<int>(d.m), cc, c, live);
        } else {
          StreamedBlock<false>(args, s, o, sums, y, 0, static_cast<int>(d.m), cc, c, live);
        }
      }
      continue;
    }
    // Many rows: the row blocks whose x (one tile's worth a step each) fits
    // in kPanelXBytes go past each column block's unpacked panel together.
    for (int64_t rb0 = 0; rb0 < row_blocks; rb0 += group) {
      const int64_t rb1 = std::min(row_blocks, rb0 + group);
      for (int64_t c = cc; c < ce; c += kTileRows) {
        const int live = static_cast<int>(std::min<int64_t>(kTileRows, ce - c));
        if (int4) {
          PanelBlock<true>(args, s, o, sums, y, rb0, rb1, cc, c, live, panel);
        } else {
          PanelBlock<false>(args, s, o, sums, y, rb0, rb1, cc, c, live, panel);
        }
      }
    }
  }
  _tile_release();
  if (bias != nullptr) {
    for (int64_t r = 0; r < d.m; ++r) {
      for (int64_t c = c0; c < c1; ++c) y[r * w.n + c] += bias[c];
    }
  }
}

}  // namespace canopy::kernels
