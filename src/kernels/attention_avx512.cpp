// The attention kernel's inner loops built for AVX512 (see attention_loops.h).
#define CANOPY_ATTENTION_ISA avx512_isa
#include "attention_isa.h"
#include "attention_loops.h"

namespace canopy::kernels {
const AttentionLoops kAttentionLoopsAvx512 = {avx512_isa::BlockDots, avx512_isa::KeyDots, avx512_isa::AccumulateValues};
}  // namespace canopy::kernels
