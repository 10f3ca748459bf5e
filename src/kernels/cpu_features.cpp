#include "cpu_features.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace canopy::kernels {
namespace {

#if defined(__x86_64__)
// XCR0: which register state the OS saves on a context switch. A feature whose
// registers the OS does not save must not be used even if CPUID lists it.
uint64_t ReadXcr0() {
  uint32_t eax = 0, edx = 0;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return (uint64_t{edx} << 32) | eax;
}

bool Bit(unsigned value, int bit) { return ((value >> bit) & 1u) != 0; }
#endif

// The flag of `features` called `name` (names as in the header), or null.
bool* Field(CpuFeatures& features, std::string_view name) {
  if (name == "avx2") return &features.avx2;
  if (name == "fma") return &features.fma;
  if (name == "f16c") return &features.f16c;
  if (name == "avx512f") return &features.avx512f;
  if (name == "avx512bw") return &features.avx512bw;
  if (name == "avx512vl") return &features.avx512vl;
  if (name == "avx512vbmi") return &features.avx512vbmi;
  if (name == "avx512bf16") return &features.avx512bf16;
  if (name == "avx512fp16") return &features.avx512fp16;
  if (name == "amx") return &features.amx;
  return nullptr;
}

}  // namespace

CpuFeatures DetectCpuFeatures() {
  CpuFeatures f;
#if !defined(__x86_64__)
  return f;  // every feature here is an x86 one: elsewhere (aarch64) all kernels take their portable paths
#else
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0) return f;
  const bool osxsave = Bit(ecx, 27), avx = Bit(ecx, 28);
  if (!osxsave || !avx) return f;
  const uint64_t xcr0 = ReadXcr0();
  const bool ymm_state = (xcr0 & 0x6) == 0x6;           // SSE and AVX state
  const bool zmm_state = (xcr0 & 0xe6) == 0xe6;         // plus opmask and the upper ZMM halves
  const bool tile_state = (xcr0 & 0x60000) == 0x60000;  // AMX tile config and data
  if (!ymm_state) return f;
  f.fma = Bit(ecx, 12);
  f.f16c = Bit(ecx, 29);
  unsigned max_leaf = 0;
  __get_cpuid(0, &max_leaf, &ebx, &ecx, &edx);
  if (max_leaf < 7) return f;
  __cpuid_count(7, 0, eax, ebx, ecx, edx);
  const unsigned leaf7_ebx = ebx, leaf7_ecx = ecx, leaf7_edx = edx, leaf7_max_sub = eax;
  f.avx2 = Bit(leaf7_ebx, 5);
  if (zmm_state) {
    f.avx512f = Bit(leaf7_ebx, 16);
    f.avx512bw = Bit(leaf7_ebx, 30);
    f.avx512vl = Bit(leaf7_ebx, 31);
    f.avx512vbmi = Bit(leaf7_ecx, 1);
    f.avx512fp16 = Bit(leaf7_edx, 23);
    if (leaf7_max_sub >= 1) {
      __cpuid_count(7, 1, eax, ebx, ecx, edx);
      f.avx512bf16 = Bit(eax, 5);
    }
  }
  f.amx = tile_state && Bit(leaf7_edx, 22) && Bit(leaf7_edx, 24) && Bit(leaf7_edx, 25);
  return f;
#endif
}

CpuFeatures RestrictCpuFeatures(CpuFeatures detected, const char* allowed) {
  if (allowed == nullptr || *allowed == '\0') return detected;
  CpuFeatures kept;  // all false: only listed features that were detected come back
  std::string_view list(allowed);
  while (!list.empty()) {
    const size_t comma = list.find(',');
    const std::string_view name = list.substr(0, comma);
    if (bool* field = Field(kept, name); field != nullptr) *field = *Field(detected, name);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  return kept;  // "none" (or any unknown name) names nothing and keeps nothing
}

CpuFeatures CapCpuFeatures(CpuFeatures detected, const char* max_isa) {
  if (max_isa == nullptr || *max_isa == '\0') return detected;
  const std::string_view name(max_isa);
  IsaLevel cap = IsaLevel::kPortable;  // an unknown name keeps nothing, as CANOPY_CPU_FEATURES does
  if (name == "avx2") cap = IsaLevel::kAvx2;
  if (name == "avx512") cap = IsaLevel::kAvx512;
  if (name == "avx512_bf16") cap = IsaLevel::kAvx512Bf16;
  if (name == "avx512_fp16") cap = IsaLevel::kAvx512Fp16;
  if (name == "amx") cap = IsaLevel::kAmx;
  CpuFeatures kept = detected;
  const auto below = [cap](IsaLevel level) { return cap < level; };
  if (below(IsaLevel::kAvx2)) kept.avx2 = kept.fma = kept.f16c = false;
  if (below(IsaLevel::kAvx512)) kept.avx512f = kept.avx512bw = kept.avx512vl = kept.avx512vbmi = false;
  if (below(IsaLevel::kAvx512Bf16)) kept.avx512bf16 = false;
  if (below(IsaLevel::kAvx512Fp16)) kept.avx512fp16 = false;
  if (below(IsaLevel::kAmx)) kept.amx = false;
  return kept;
}

IsaLevel HighestIsaLevel(const CpuFeatures& f) {
  if (!f.Avx2()) return IsaLevel::kPortable;
  if (!f.Avx512()) return IsaLevel::kAvx2;
  if (!f.avx512bf16) return IsaLevel::kAvx512;
  if (!f.avx512fp16) return IsaLevel::kAvx512Bf16;
  if (!f.amx) return IsaLevel::kAvx512Fp16;
  return IsaLevel::kAmx;
}

const CpuFeatures& Cpu() {
  static const CpuFeatures features = CapCpuFeatures(
      RestrictCpuFeatures(DetectCpuFeatures(), std::getenv("CANOPY_CPU_FEATURES")), std::getenv("CANOPY_MAX_ISA"));
  return features;
}

}  // namespace canopy::kernels
