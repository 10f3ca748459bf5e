// CANOPY_CPU_FEATURES and CANOPY_MAX_ISA only take features away: every
// fast path's fallback can be forced on any machine, and a cap never turns on
// what the CPU lacks.
#include "kernels/cpu_features.h"

#include <gtest/gtest.h>

namespace {

using canopy::kernels::CapCpuFeatures;
using canopy::kernels::CpuFeatures;
using canopy::kernels::HighestIsaLevel;
using canopy::kernels::IsaLevel;
using canopy::kernels::RestrictCpuFeatures;

CpuFeatures Everything() {
  CpuFeatures f;
  f.avx2 = f.fma = f.f16c = true;
  f.avx512f = f.avx512bw = f.avx512vl = f.avx512vbmi = true;
  f.avx512bf16 = f.avx512fp16 = f.amx = true;
  return f;
}

TEST(CpuFeatures, MaxIsaUnsetOrEmptyKeepsAll) {
  EXPECT_EQ(HighestIsaLevel(CapCpuFeatures(Everything(), nullptr)), IsaLevel::kAmx);
  EXPECT_EQ(HighestIsaLevel(CapCpuFeatures(Everything(), "")), IsaLevel::kAmx);
}

TEST(CpuFeatures, EachMaxIsaLevelKeepsExactlyTheLevelsBelowIt) {
  const struct {
    const char* name;
    IsaLevel level;
  } kLevels[] = {{"portable", IsaLevel::kPortable},      {"avx2", IsaLevel::kAvx2},
                 {"avx512", IsaLevel::kAvx512},          {"avx512_bf16", IsaLevel::kAvx512Bf16},
                 {"avx512_fp16", IsaLevel::kAvx512Fp16}, {"amx", IsaLevel::kAmx}};
  for (const auto& entry : kLevels) {
    SCOPED_TRACE(entry.name);
    const CpuFeatures capped = CapCpuFeatures(Everything(), entry.name);
    EXPECT_EQ(HighestIsaLevel(capped), entry.level);
    EXPECT_EQ(capped.Avx2(), entry.level >= IsaLevel::kAvx2);
    EXPECT_EQ(capped.Avx512(), entry.level >= IsaLevel::kAvx512);
    EXPECT_EQ(capped.avx512vbmi, entry.level >= IsaLevel::kAvx512);
    EXPECT_EQ(capped.avx512bf16, entry.level >= IsaLevel::kAvx512Bf16);
    EXPECT_EQ(capped.avx512fp16, entry.level >= IsaLevel::kAvx512Fp16);
    EXPECT_EQ(capped.amx, entry.level >= IsaLevel::kAmx);
  }
}

TEST(CpuFeatures, AnUnknownMaxIsaKeepsNothing) {
  EXPECT_EQ(HighestIsaLevel(CapCpuFeatures(Everything(), "avx1024")), IsaLevel::kPortable);
}

TEST(CpuFeatures, ACapNeverAddsWhatTheCpuLacks) {
  CpuFeatures avx2_only;
  avx2_only.avx2 = avx2_only.fma = avx2_only.f16c = true;
  const CpuFeatures capped = CapCpuFeatures(avx2_only, "amx");
  EXPECT_EQ(HighestIsaLevel(capped), IsaLevel::kAvx2);
  EXPECT_FALSE(capped.avx512f);
  EXPECT_FALSE(capped.amx);
}

TEST(CpuFeatures, AMissingFeatureInsideALevelLowersTheLevel) {
  CpuFeatures f = Everything();
  f.avx512bf16 = false;  // AVX-512 and AMX but no BF16: the BF16 level and above are out
  EXPECT_EQ(HighestIsaLevel(f), IsaLevel::kAvx512);
  f = Everything();
  f.f16c = false;
  EXPECT_EQ(HighestIsaLevel(f), IsaLevel::kPortable);
}

TEST(CpuFeatures, FeatureListAndLevelCombine) {
  const CpuFeatures listed = RestrictCpuFeatures(Everything(), "avx2,fma,f16c,avx512f,avx512bw,avx512vl");
  EXPECT_EQ(HighestIsaLevel(listed), IsaLevel::kAvx512);
  EXPECT_EQ(HighestIsaLevel(CapCpuFeatures(listed, "avx2")), IsaLevel::kAvx2);
  EXPECT_EQ(HighestIsaLevel(RestrictCpuFeatures(Everything(), "none")), IsaLevel::kPortable);
}

#if !defined(__x86_64__)
// Off x86-64 (aarch64) the x86 kernels are not built: nothing may claim them.
TEST(CpuFeatures, NoX86FeatureIsDetectedOffX86) {
  EXPECT_EQ(HighestIsaLevel(canopy::kernels::DetectCpuFeatures()), IsaLevel::kPortable);
  EXPECT_FALSE(canopy::kernels::Cpu().avx2);
  EXPECT_FALSE(canopy::kernels::Cpu().f16c);
  EXPECT_FALSE(canopy::kernels::Cpu().avx512f);
  EXPECT_FALSE(canopy::kernels::Cpu().amx);
}
#endif

}  // namespace
