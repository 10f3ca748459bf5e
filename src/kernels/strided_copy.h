// Copies between strided views of one dtype: the bytes move as they are (no
// conversion, NaN payloads kept), on the calling engine's OpenMP team. The
// walk of elementwise.h (dimensions ordered by the output's strides, then
// merged) picks one of three loops:
// * rows: both views contiguous along the inner dimension, one memmove per run;
// * transpose: the output contiguous along the inner dimension and the input
//   along another one (Permute of the two inner dims, a transposed
//   Contiguous): tiles of 64-byte lines on both sides, transposed in
//   registers for 1-, 2-, 4-, 8- and 16-byte elements where the CPU has
//   AVX-512 (several tiles of rows at once where the tile is short), with
//   streaming stores once the output outgrows the L2 caches;
// * any other layout: element by element.
#pragma once

#include <memory>
#include <vector>

#include "elementwise.h"

namespace canopy::kernels {

// Whether a copy step of `desc` (one input) moves bits: the same dtype on both
// sides, other than bool (whose copies keep normalising to 0 / 1).
bool IsBitCopy(const ElementwiseDesc& desc);

// The step for a bit copy (IsBitCopy(desc)); it walks OrderAndCoalesce(desc).
std::unique_ptr<Step> MakeBitCopyStep(const ElementwiseDesc& desc);
// One step for several bit copies into disjoint outputs (Cat's members), run
// in a single fork of the team with no barrier between them. Not empty.
std::unique_ptr<Step> MakeBitCopyStep(const std::vector<ElementwiseDesc>& copies);

}  // namespace canopy::kernels
