// An f32 or fp16 matrix written as bf16 pieces whose sum is the value, so a
// product that must keep f32 or fp16 accuracy can run on bf16 matrix units
// (AMX): x = hi + lo, hi = x rounded to bf16, lo = x - hi rounded to bf16.
//  - fp16: hi + lo is x exactly (11 significant bits: 8 in hi, the rest in lo),
//    so the four products hi*hi, hi*lo, lo*hi, lo*lo, each exact in f32, give
//    the fp16 product with f32 accumulation.
//  - f32: hi + lo is x to within 2^-17 |x|; hi*hi + hi*lo + lo*hi (lo*lo left
//    out, below 2^-16 of the product) is the "bf16x3" product, about 2^-15
//    relative per term: finer than HF32's 11-bit operands (2^-11), which is
//    what CANN's ALLOW_FP32_DOWN_PRECISION and USE_HF32 run on the NPU.
// Non-finite x gives hi = x, lo = 0 (inf stays inf, not inf - inf); a finite x
// that rounds to inf in bf16 keeps hi at bf16's largest value below it.
// Infinities need one more piece: in hi_x*lo_y an infinite x meets lo_y = 0
// whenever y is a bf16 value, and inf * 0 would make the sum NaN where the f32
// product is inf. So the hi that pairs with the other operand's lo is the
// finite hi (0 for non-finite x): the pairs hi*hi + lo*finite_hi + finite_hi*lo
// give inf * y's hi for an infinite x, as f32 does (NaN where y is 0, as f32).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "acl/acl_base.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

enum class Bf16Piece : uint8_t { kHigh, kFiniteHigh, kLow };

// src is dense [batch, rows, cols] (f32 or fp16). Piece p of element (b, r, c)
// goes to dst[b * batch_stride + r * row_stride + p * piece_stride + c]: the
// pieces are copies of the matrix laid side by side along its columns
// (piece_stride = cols, row_stride = pieces * cols) or stacked along its rows
// (piece_stride = rows * cols, row_stride = cols).
struct Bf16SplitDesc {
  BufferRef src;
  aclDataType src_dtype = ACL_FLOAT;
  int64_t batch = 0, rows = 0, cols = 0;
  BufferRef dst;  // bf16
  int64_t batch_stride = 0, row_stride = 0, piece_stride = 0;
  std::vector<Bf16Piece> pieces;
};

std::unique_ptr<Step> MakeBf16SplitStep(const Bf16SplitDesc& desc);

// The pieces of a product's two operands, in the order the blocks of K pair
// them: hi*hi, lo*finite_hi, finite_hi*lo, and lo*lo with four pieces (fp16).
std::vector<Bf16Piece> LeftBf16Pieces(int count);
std::vector<Bf16Piece> RightBf16Pieces(int count);

// Whether products run as bf16 pieces: where the CPU has AMX (bf16 products at
// 4x or more the f32 rate; elsewhere the pieces cost more than f32 saves).
// CANOPY_BF16_SPLIT=0 turns them off; any other value forces them on wherever
// oneDNN multiplies bf16, for any size (Bf16SplitForced), so that tests run
// them on every CPU.
bool Bf16SplitEnabled();
bool Bf16SplitForced();

// One element's piece as the step writes it (bf16 bits).
uint16_t Bf16PieceOf(float x, Bf16Piece piece);

}  // namespace canopy::kernels
