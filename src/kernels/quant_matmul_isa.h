// The quantised-product loops of one instruction set, as quant_matmul.cpp picks them.
#pragma once

#include "quant_matmul.h"

namespace canopy::kernels {

struct QuantLoops {
  // scale and offset of w.scale_dtype (see QuantWeight).
  void (*columns)(const QuantMatmulDesc& d, const float* x, const float* xe, const float* xo, const float* sums,
                  const char* wbase, const void* scale, const void* offset, const float* bias, float* y, int64_t c0,
                  int64_t c1);
  // Stored rows [row0, row1) into out, which points at row0's first element.
  void (*dequantize)(const QuantWeight& w, const char* wbase, const float* scale, const float* offset, float* out,
                     int64_t row0, int64_t row1);
  // The same rounded to out_dtype (ACL_BF16 or ACL_FLOAT16) as it is computed;
  // null where the instruction set has no such loop (the caller then rounds
  // dequantize's f32 rows).
  void (*dequantize16)(const QuantWeight& w, const char* wbase, const float* scale, const float* offset, uint16_t* out,
                       aclDataType out_dtype, int64_t row0, int64_t row1);
};

// Whether the AVX-512 dequantising loops (quant_dequantize_avx512.h) take w: a
// K-contiguous weight's groups must start on whole bytes (group sizes are
// multiples of 32 there, or one group).
inline bool DequantizeVectorsFit(const QuantWeight& w) {
  return !w.k_contiguous || w.Groups() == 1 || w.group_size % 32 == 0;
}
// dequantize16 into bf16 rounded by vcvtneps2bf16 (quant_matmul_avx512_bf16.cpp), on AVX-512 BF16.
void DequantizeBf16Ne(const QuantWeight& w, const char* wbase, const float* scale, const float* offset, uint16_t* out,
                      int64_t row0, int64_t row1);

extern const QuantLoops kQuantLoopsAvx512;
extern const QuantLoops kQuantLoopsAvx2;

// INT4 and INT8 weights stored K-contiguous, multiplied as bf16 pairs on
// AVX-512 BF16 (quant_matmul_avx512_bf16.cpp): for a group size that is a
// multiple of 32, or one group. x is first written in the kernel's order as
// `terms` bf16 terms (1 for values exact in bf16, 2 for f16's, 3 for any f32),
// PairsXWords words of scratch. PreparePairsX returns false when x holds
// values too small for vdpbf16ps (it treats denormal inputs and sums as
// zero): the f32 loops must then take the product. INT8 weights only with x
// in one term and three rows or more: widening INT8 to bf16 costs more than
// the nibble lookup, so the f32 loops (one FMA per 16 products) were as fast
// or faster with f16 x and with one or two bf16 rows. Alternating A/B on Zen
// 5, 4096x14336, ms: bf16 x, 1 / 2 / 3 / 4 / 8 rows: 1.25-1.33 / 1.75-1.80 /
// 2.03-2.17 / 2.26-2.56 / 4.4-5.3 here against 1.18-1.26 / 1.52-1.54 /
// 2.46-2.56 / 2.6-2.9 / 5.2-5.5 in the f32 loops; f16 x at 4 and 8 rows 0.35 /
// 0.14-0.17 of the weight's read against 0.40 / 0.20.
inline bool PairsFit(const QuantWeight& w, int64_t m, int terms) {
  constexpr int64_t kInt8MinRows = 3;
  return (w.dtype == ACL_INT4 || (w.dtype == ACL_INT8 && terms == 1 && m >= kInt8MinRows)) && w.k_contiguous &&
         (w.group_size % 32 == 0 || w.Groups() == 1);
}
// Elements of K in one block of the kernel (a column's 64 bytes).
constexpr int64_t PairsBlockElements(aclDataType weight) { return weight == ACL_INT4 ? 128 : 64; }
inline int64_t PairsXWords(const QuantWeight& w, int64_t m, int terms) {
  const int64_t elements = PairsBlockElements(w.dtype);
  return m * terms * ((w.k + elements - 1) / elements * elements);
}
bool PreparePairsX(const QuantWeight& w, const float* x, int64_t m, int terms, uint16_t* xp);
void PairsColumns(const QuantMatmulDesc& d, int terms, const uint16_t* xp, const float* sums, const char* wbase,
                  const void* scale, const void* offset, const float* bias, float* y, int64_t c0, int64_t c1);

// INT4 and INT8 weights stored K-contiguous multiplied on AMX tiles
// (quant_matmul_amx.cpp), for a group size that is a multiple of 32 or one
// group: 16 weight columns x 32 elements of K per tdpbf16ps against up to 16
// columns of x (a row of x and one of its `terms` bf16 terms each), so a few
// rows of x cost what one does. x is first written as the tiles take it,
// kAmxQuantStepK elements of K a step, by PrepareAmxQuantX, which returns
// false (as PreparePairsX) when x is too small for bf16 products.
inline constexpr int64_t kAmxQuantStepK = 32;
inline int64_t AmxQuantSteps(int64_t k) { return (k + kAmxQuantStepK - 1) / kAmxQuantStepK; }
inline bool AmxQuantFit(const QuantWeight& w) {
  return (w.dtype == ACL_INT4 || w.dtype == ACL_INT8) && w.k_contiguous && (w.group_size % 32 == 0 || w.Groups() == 1);
}
// Rows of x in one block of the tile layout (one B tile holds 16 columns of
// x: a row's terms side by side), and the blocks that hold m rows.
inline int AmxQuantBlockRows(int terms) { return 16 / terms; }
inline int64_t AmxQuantRowBlocks(int64_t m, int terms) {
  return (m + AmxQuantBlockRows(terms) - 1) / AmxQuantBlockRows(terms);
}
// 32-bit words of x's tile layout: 16 x 16 a step and row block.
inline int64_t AmxQuantXWords(int64_t m, int64_t k, int terms) {
  return AmxQuantRowBlocks(m, terms) * AmxQuantSteps(k) * 256;
}
// AMX with BF16, AVX-512 VBMI and BF16, and the tile data granted to this process.
bool AmxQuantUsable();
// Writes the row blocks [block0, block1) of x's layout (AmxQuantBlockRows rows each).
bool PrepareAmxQuantX(const float* x, int64_t m, int64_t k, int terms, bool int4, uint32_t* xb, int64_t block0,
                      int64_t block1);
void AmxQuantColumns(const QuantMatmulDesc& d, int terms, const uint32_t* xb, const float* sums, const char* wbase,
                     const void* scale, const void* offset, const float* bias, float* y, int64_t c0, int64_t c1);

}  // namespace canopy::kernels
