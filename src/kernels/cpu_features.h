// The one place that decides which kernel runs on which CPU. The features are
// detected once (CPUID, and XGETBV for the register state the OS saves); every
// fast path asks here and keeps a portable fallback. CANOPY_CPU_FEATURES can
// only take features away, so tests run the fallbacks on any machine:
//   CANOPY_CPU_FEATURES=none            every kernel takes its portable path
//   CANOPY_CPU_FEATURES=avx2,fma,f16c   at most these (here: no AVX-512)
// Names: avx2 fma f16c avx512f avx512bw avx512vl avx512vbmi avx512bf16 avx512fp16 amx.
// CANOPY_MAX_ISA caps by level instead, and oneDNN with it (its own ISA cap):
//   CANOPY_MAX_ISA=portable|avx2|avx512|avx512_bf16|avx512_fp16|amx
// Each level keeps the features of the levels below it; both variables may be
// set, and a feature must pass both. An unknown level keeps nothing (portable).
// Every feature is an x86 one. Off x86-64 (aarch64) none is detected, the x86
// kernel files are not built (src/ops/CMakeLists.txt) and the dispatchers
// compile their x86 branches out: the portable paths are all there is.
#pragma once

namespace canopy::kernels {

struct CpuFeatures {
  bool avx2 = false;
  bool fma = false;
  bool f16c = false;
  bool avx512f = false;
  bool avx512bw = false;
  bool avx512vl = false;
  bool avx512vbmi = false;  // byte permutes and vpmultishiftqb (the AMX INT4 kernel's nibble unpacking)
  bool avx512bf16 = false;
  bool avx512fp16 = false;
  bool amx = false;  // AMX tiles with BF16 and INT8 (OS state enabled; a user still requests it per process)

  // AVX-512 F/BW/VL with FMA: what the AVX-512 kernels (avx512_lanes.h) need.
  bool Avx512() const { return avx512f && avx512bw && avx512vl && fma; }
  // AVX2 with FMA and F16C: the 256-bit kernels.
  bool Avx2() const { return avx2 && fma && f16c; }
};

// The features of this CPU less those CANOPY_CPU_FEATURES leaves out; read once.
const CpuFeatures& Cpu();

// Detection and override, separately (for tests): what CPUID reports, and what
// remains of `detected` under an override list (nullptr or empty: all of it).
CpuFeatures DetectCpuFeatures();
CpuFeatures RestrictCpuFeatures(CpuFeatures detected, const char* allowed);
// What remains of `detected` under a CANOPY_MAX_ISA level (nullptr or empty: all).
CpuFeatures CapCpuFeatures(CpuFeatures detected, const char* max_isa);

// The instruction-set levels, lowest first, as CANOPY_MAX_ISA names them.
enum class IsaLevel { kPortable, kAvx2, kAvx512, kAvx512Bf16, kAvx512Fp16, kAmx };
// The highest level whose features `features` all has (what oneDNN is capped at).
IsaLevel HighestIsaLevel(const CpuFeatures& features);

}  // namespace canopy::kernels
