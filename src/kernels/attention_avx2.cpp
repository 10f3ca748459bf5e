// The attention kernel's inner loops built for AVX2 (see attention_loops.h).
#define CANOPY_ATTENTION_ISA avx2_isa
#include "attention_isa.h"
#include "attention_loops.h"

namespace canopy::kernels {
const AttentionLoops kAttentionLoopsAvx2 = {avx2_isa::BlockDots, avx2_isa::KeyDots, avx2_isa::AccumulateValues};
}  // namespace canopy::kernels
