// AVX-512 tile transposes for strided_copy.cpp: a 4 x 4 tile of 16-byte
// elements, 8 x 8 of 8-byte, 16 x 16 of 4-byte, 32 x 32 of 2-byte or 64 x 64
// of 1-byte ones is one 64-byte line per row on both sides, transposed in
// registers (unpacks within 128-bit lanes, then lane shuffles).
#include "x86_intrinsics.h"

#include "strided_copy_isa.h"

namespace canopy::kernels {
namespace {

constexpr int kLineBytes = 64;
constexpr int kRows16 = 4;    // 16-byte elements per line
constexpr int kRows8 = 8;     // 8-byte elements per line
constexpr int kRows4 = 16;    // 4-byte elements per line
constexpr int kRows2 = 32;    // 2-byte elements per line
constexpr int kLaneRows = 8;  // 2-byte elements per 128-bit lane
constexpr int kGroups = kRows2 / kLaneRows;
constexpr int kRows1 = 64;         // bytes per line
constexpr int kByteLaneRows = 16;  // bytes per 128-bit lane
constexpr int kByteGroups = kRows1 / kByteLaneRows;
// _mm512_shuffle_i32x4 selectors: lanes (0, 1 | 0, 1), (2, 3 | 2, 3), (0, 2 | 0, 2), (1, 3 | 1, 3).
constexpr int kLowHalves = 0x44;
constexpr int kHighHalves = 0xee;
constexpr int kEvenLanes = 0x88;
constexpr int kOddLanes = 0xdd;

inline void StoreLine(char* at, __m512i line, bool stream) {
  if (stream) {
    _mm512_stream_si512(reinterpret_cast<__m512i*>(at), line);
  } else {
    _mm512_storeu_si512(at, line);
  }
}

// 16 rows of 16 4-byte elements: pairs interleaved (unpack 32-bit, then
// 64-bit: 4 x 4 transposes within each lane), then the lanes of the four
// 4-row groups transposed.
inline void Transpose4(const char* in, int64_t in_step, char* out, int64_t out_step, bool stream) {
  __m512i r[kRows4];
  __m512i t[kRows4];
  for (int i = 0; i < kRows4; ++i) r[i] = _mm512_loadu_si512(in + i * in_step);
  for (int i = 0; i < kRows4 / 2; ++i) {
    t[2 * i] = _mm512_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
  }
  for (int i = 0; i < kRows4 / 4; ++i) {
    r[4 * i] = _mm512_unpacklo_epi64(t[4 * i], t[4 * i + 2]);
    r[4 * i + 1] = _mm512_unpackhi_epi64(t[4 * i], t[4 * i + 2]);
    r[4 * i + 2] = _mm512_unpacklo_epi64(t[4 * i + 1], t[4 * i + 3]);
    r[4 * i + 3] = _mm512_unpackhi_epi64(t[4 * i + 1], t[4 * i + 3]);
  }
  // r[4g + k], lane L: column 4L + k of rows 4g .. 4g + 3.
  for (int k = 0; k < 4; ++k) {
    const __m512i e0 = _mm512_shuffle_i32x4(r[k], r[4 + k], kLowHalves);
    const __m512i e1 = _mm512_shuffle_i32x4(r[k], r[4 + k], kHighHalves);
    const __m512i e2 = _mm512_shuffle_i32x4(r[8 + k], r[12 + k], kLowHalves);
    const __m512i e3 = _mm512_shuffle_i32x4(r[8 + k], r[12 + k], kHighHalves);
    t[k] = _mm512_shuffle_i32x4(e0, e2, kEvenLanes);
    t[4 + k] = _mm512_shuffle_i32x4(e0, e2, kOddLanes);
    t[8 + k] = _mm512_shuffle_i32x4(e1, e3, kEvenLanes);
    t[12 + k] = _mm512_shuffle_i32x4(e1, e3, kOddLanes);
  }
  for (int c = 0; c < kRows4; ++c) StoreLine(out + c * out_step, t[c], stream);
}

// 4 rows of 4 16-byte elements: the 128-bit lanes themselves transposed.
inline void Transpose16(const char* in, int64_t in_step, char* out, int64_t out_step, bool stream) {
  __m512i r[kRows16];
  for (int i = 0; i < kRows16; ++i) r[i] = _mm512_loadu_si512(in + i * in_step);
  const __m512i e0 = _mm512_shuffle_i64x2(r[0], r[1], kLowHalves);   // r0[0], r0[1], r1[0], r1[1]
  const __m512i e1 = _mm512_shuffle_i64x2(r[0], r[1], kHighHalves);  // r0[2], r0[3], r1[2], r1[3]
  const __m512i e2 = _mm512_shuffle_i64x2(r[2], r[3], kLowHalves);
  const __m512i e3 = _mm512_shuffle_i64x2(r[2], r[3], kHighHalves);
  StoreLine(out, _mm512_shuffle_i64x2(e0, e2, kEvenLanes), stream);
  StoreLine(out + out_step, _mm512_shuffle_i64x2(e0, e2, kOddLanes), stream);
  StoreLine(out + 2 * out_step, _mm512_shuffle_i64x2(e1, e3, kEvenLanes), stream);
  StoreLine(out + 3 * out_step, _mm512_shuffle_i64x2(e1, e3, kOddLanes), stream);
}

// 8 rows of 8 8-byte elements: pairs of rows interleaved within the lanes
// (unpack 64-bit), then the lanes of the four pairs transposed.
inline void Transpose8(const char* in, int64_t in_step, char* out, int64_t out_step, bool stream) {
  __m512i r[kRows8];
  __m512i t[kRows8];
  for (int i = 0; i < kRows8; ++i) r[i] = _mm512_loadu_si512(in + i * in_step);
  for (int i = 0; i < kRows8 / 2; ++i) {
    t[2 * i] = _mm512_unpacklo_epi64(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_epi64(r[2 * i], r[2 * i + 1]);
  }
  // t[2g + k], lane L: column 2L + k of rows 2g, 2g + 1.
  for (int k = 0; k < 2; ++k) {
    const __m512i e0 = _mm512_shuffle_i64x2(t[k], t[2 + k], kLowHalves);
    const __m512i e1 = _mm512_shuffle_i64x2(t[k], t[2 + k], kHighHalves);
    const __m512i e2 = _mm512_shuffle_i64x2(t[4 + k], t[6 + k], kLowHalves);
    const __m512i e3 = _mm512_shuffle_i64x2(t[4 + k], t[6 + k], kHighHalves);
    StoreLine(out + k * out_step, _mm512_shuffle_i64x2(e0, e2, kEvenLanes), stream);
    StoreLine(out + (2 + k) * out_step, _mm512_shuffle_i64x2(e0, e2, kOddLanes), stream);
    StoreLine(out + (4 + k) * out_step, _mm512_shuffle_i64x2(e1, e3, kEvenLanes), stream);
    StoreLine(out + (6 + k) * out_step, _mm512_shuffle_i64x2(e1, e3, kOddLanes), stream);
  }
}

// 32 rows of 32 2-byte elements: each group of 8 rows transposed within the
// lanes (unpack 16-, 32-, 64-bit), then the lanes of the four groups.
inline void Transpose2(const char* in, int64_t in_step, char* out, int64_t out_step, bool stream) {
  __m512i d[kGroups][kLaneRows];  // d[g][k], lane L: column 8L + k of rows 8g .. 8g + 7
  for (int g = 0; g < kGroups; ++g) {
    __m512i a[kLaneRows];
    __m512i b[kLaneRows];
    for (int i = 0; i < kLaneRows; ++i) a[i] = _mm512_loadu_si512(in + (g * kLaneRows + i) * in_step);
    for (int i = 0; i < kLaneRows / 2; ++i) {
      b[2 * i] = _mm512_unpacklo_epi16(a[2 * i], a[2 * i + 1]);
      b[2 * i + 1] = _mm512_unpackhi_epi16(a[2 * i], a[2 * i + 1]);
    }
    for (int h = 0; h < 2; ++h) {  // rows 0-3, then 4-7
      a[4 * h] = _mm512_unpacklo_epi32(b[4 * h], b[4 * h + 2]);
      a[4 * h + 1] = _mm512_unpackhi_epi32(b[4 * h], b[4 * h + 2]);
      a[4 * h + 2] = _mm512_unpacklo_epi32(b[4 * h + 1], b[4 * h + 3]);
      a[4 * h + 3] = _mm512_unpackhi_epi32(b[4 * h + 1], b[4 * h + 3]);
    }
    for (int k = 0; k < 4; ++k) {
      d[g][2 * k] = _mm512_unpacklo_epi64(a[k], a[4 + k]);
      d[g][2 * k + 1] = _mm512_unpackhi_epi64(a[k], a[4 + k]);
    }
  }
  for (int k = 0; k < kLaneRows; ++k) {
    const __m512i e0 = _mm512_shuffle_i32x4(d[0][k], d[1][k], kLowHalves);
    const __m512i e1 = _mm512_shuffle_i32x4(d[0][k], d[1][k], kHighHalves);
    const __m512i e2 = _mm512_shuffle_i32x4(d[2][k], d[3][k], kLowHalves);
    const __m512i e3 = _mm512_shuffle_i32x4(d[2][k], d[3][k], kHighHalves);
    StoreLine(out + k * out_step, _mm512_shuffle_i32x4(e0, e2, kEvenLanes), stream);
    StoreLine(out + (kLaneRows + k) * out_step, _mm512_shuffle_i32x4(e0, e2, kOddLanes), stream);
    StoreLine(out + (2 * kLaneRows + k) * out_step, _mm512_shuffle_i32x4(e1, e3, kEvenLanes), stream);
    StoreLine(out + (3 * kLaneRows + k) * out_step, _mm512_shuffle_i32x4(e1, e3, kOddLanes), stream);
  }
}

// 64 rows of 64 bytes: each group of 16 rows transposed within the lanes
// (unpack 8-, 16-, 32-, 64-bit), then the lanes of the four groups.
inline void Transpose1(const char* in, int64_t in_step, char* out, int64_t out_step, bool stream) {
  __m512i e[kByteGroups][kByteLaneRows];  // e[g][k], lane L: column 16L + k of rows 16g .. 16g + 15
  for (int g = 0; g < kByteGroups; ++g) {
    __m512i a[kByteLaneRows];
    __m512i b[kByteLaneRows];
    for (int i = 0; i < kByteLaneRows; ++i) a[i] = _mm512_loadu_si512(in + (g * kByteLaneRows + i) * in_step);
    for (int i = 0; i < kByteLaneRows / 2; ++i) {  // b[2i], b[2i + 1]: columns 0-7, 8-15 of rows 2i, 2i + 1
      b[2 * i] = _mm512_unpacklo_epi8(a[2 * i], a[2 * i + 1]);
      b[2 * i + 1] = _mm512_unpackhi_epi8(a[2 * i], a[2 * i + 1]);
    }
    for (int h = 0; h < 4; ++h) {  // a[4h + m]: columns 4m .. 4m + 3 of rows 4h .. 4h + 3
      a[4 * h] = _mm512_unpacklo_epi16(b[4 * h], b[4 * h + 2]);
      a[4 * h + 1] = _mm512_unpackhi_epi16(b[4 * h], b[4 * h + 2]);
      a[4 * h + 2] = _mm512_unpacklo_epi16(b[4 * h + 1], b[4 * h + 3]);
      a[4 * h + 3] = _mm512_unpackhi_epi16(b[4 * h + 1], b[4 * h + 3]);
    }
    for (int q = 0; q < 2; ++q) {  // b[8q + j]: columns 2j, 2j + 1 of rows 8q .. 8q + 7
      for (int m = 0; m < 4; ++m) {
        b[8 * q + 2 * m] = _mm512_unpacklo_epi32(a[8 * q + m], a[8 * q + 4 + m]);
        b[8 * q + 2 * m + 1] = _mm512_unpackhi_epi32(a[8 * q + m], a[8 * q + 4 + m]);
      }
    }
    for (int j = 0; j < kByteLaneRows / 2; ++j) {
      e[g][2 * j] = _mm512_unpacklo_epi64(b[j], b[8 + j]);
      e[g][2 * j + 1] = _mm512_unpackhi_epi64(b[j], b[8 + j]);
    }
  }
  for (int k = 0; k < kByteLaneRows; ++k) {
    const __m512i e0 = _mm512_shuffle_i32x4(e[0][k], e[1][k], kLowHalves);
    const __m512i e1 = _mm512_shuffle_i32x4(e[0][k], e[1][k], kHighHalves);
    const __m512i e2 = _mm512_shuffle_i32x4(e[2][k], e[3][k], kLowHalves);
    const __m512i e3 = _mm512_shuffle_i32x4(e[2][k], e[3][k], kHighHalves);
    StoreLine(out + k * out_step, _mm512_shuffle_i32x4(e0, e2, kEvenLanes), stream);
    StoreLine(out + (kByteLaneRows + k) * out_step, _mm512_shuffle_i32x4(e0, e2, kOddLanes), stream);
    StoreLine(out + (2 * kByteLaneRows + k) * out_step, _mm512_shuffle_i32x4(e1, e3, kEvenLanes), stream);
    StoreLine(out + (3 * kByteLaneRows + k) * out_step, _mm512_shuffle_i32x4(e1, e3, kOddLanes), stream);
  }
}

}  // namespace

int64_t TransposeStripAvx512(int element_bytes, const char* in, int64_t in_step, char* out, int64_t out_step,
                             int64_t columns, int strips, bool stream) {
  const int64_t tile = kLineBytes / element_bytes;
  const int64_t whole = columns / tile * tile;
  const int64_t strip_step = tile * in_step;  // between stacked strips of the input
  for (int64_t c = 0; c < whole; c += tile) {
    for (int s = 0; s < strips; ++s) {  // each output row's `strips` lines, one after another
      const char* from = in + s * strip_step + c * element_bytes;
      char* to = out + c * out_step + static_cast<int64_t>(s) * kLineBytes;
      switch (element_bytes) {
        case 1:
          Transpose1(from, in_step, to, out_step, stream);
          break;
        case 2:
          Transpose2(from, in_step, to, out_step, stream);
          break;
        case 4:
          Transpose4(from, in_step, to, out_step, stream);
          break;
        case 8:
          Transpose8(from, in_step, to, out_step, stream);
          break;
        default:
          Transpose16(from, in_step, to, out_step, stream);
          break;
      }
    }
  }
  return whole;
}

}  // namespace canopy::kernels
