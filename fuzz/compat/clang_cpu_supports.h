// Force-included into canopy_common by fuzz/CMakeLists.txt when the compiler
// rejects __builtin_cpu_supports("f16c") (clang 14 does: "invalid cpu feature
// string for builtin", a hard error). Answers the same question with CPUID so
// src/common/half.cpp builds unchanged. Remove once src no longer needs it.
#pragma once

#include <cpuid.h>
#include <string.h>

static inline int canopy_compat_cpu_supports(const char* feature) {
  if (strcmp(feature, "f16c") == 0) {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C) != 0;
  }
  if (strcmp(feature, "avx") == 0) return __builtin_cpu_supports("avx");
  if (strcmp(feature, "avx2") == 0) return __builtin_cpu_supports("avx2");
  if (strcmp(feature, "avx512f") == 0) return __builtin_cpu_supports("avx512f");
  if (strcmp(feature, "avx512bw") == 0) return __builtin_cpu_supports("avx512bw");
  if (strcmp(feature, "avx512vl") == 0) return __builtin_cpu_supports("avx512vl");
  return 0;  // a feature this shim does not know: take the portable path
}

#define __builtin_cpu_supports(feature) canopy_compat_cpu_supports(feature)
