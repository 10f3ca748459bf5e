// f32 and fp16 values written as two bf16 pieces whose sum is the value, so a
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
// finite hi (FiniteBf16Plane: 0 for non-finite x): the pairs hi*hi +
// lo*finite_hi + finite_hi*lo give inf * y's hi for an infinite x, as f32 does
// (NaN where y is 0, as f32).
#pragma once

#include <cstdint>

#include "acl/acl_base.h"

namespace canopy::kernels {

enum class Bf16Piece : uint8_t { kHigh, kLow };

// One value's piece (bf16 bits).
uint16_t Bf16PieceOf(float x, Bf16Piece piece);

// The high and low pieces of `count` consecutive f32 or fp16 values into two
// planes, on the calling engine's team; true when a value is inf or NaN (whose
// products then need the finite high piece).
bool SplitIntoBf16Planes(const void* src, aclDataType src_dtype, int64_t count, uint16_t* hi, uint16_t* lo);
// `finite_hi` = `hi` with its infinities and NaNs made 0 (in place allowed).
void FiniteBf16Plane(const uint16_t* hi, uint16_t* finite_hi, int64_t count);

// Whether products run as bf16 pieces: where the CPU has AMX (bf16 products at
// 4-5x the f32 rate; elsewhere the pieces cost more than f32 saves).
// CANOPY_BF16_SPLIT=0 turns them off; any other value forces them on wherever
// oneDNN multiplies bf16, for any size (Bf16SplitForced), so that tests run
// them on every CPU.
bool Bf16SplitEnabled();
bool Bf16SplitForced();

}  // namespace canopy::kernels
