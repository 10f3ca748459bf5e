// aclnn/opdev/fp16_t.h: the host binary16 type CANN's example programs fill
// FLOAT16 tensors with (aclnnFusedInferAttentionScoreV2's doc example builds
// std::vector<op::fp16_t> buffers and prints static_cast<float>(value)).
// Checked against a float64 reference: every one of the 65 536 bit patterns
// decodes to the binary16 formula, floats round to the nearest binary16 (ties
// to even) found in the sorted table of all finite values, and a buffer of
// fp16_t is a FLOAT16 tensor the ops read and write.
#include "aclnn/opdev/fp16_t.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "aclnnop/aclnn_cast.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

// (-1)^s * 2^(e-15) * 1.m for normals, 2^-14 * 0.m for subnormals.
double ReferenceDecode(uint16_t bits) {
  const int sign = (bits >> 15) & 1;
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  double magnitude;
  if (exponent == 0x1f) {
    magnitude = mantissa == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  } else if (exponent == 0) {
    magnitude = std::ldexp(static_cast<double>(mantissa), -24);
  } else {
    magnitude = std::ldexp(1.0 + mantissa / 1024.0, exponent - 15);
  }
  return sign ? -magnitude : magnitude;
}

// The nearest binary16 to x, ties to the even pattern, beyond the largest
// finite value by half an ulp (65520) infinity.
uint16_t ReferenceEncode(double x) {
  if (std::isnan(x)) return 0x7e00;
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const double a = std::fabs(x);
  if (a >= 65520.0) return static_cast<uint16_t>(sign | 0x7c00);
  // Non-negative finite patterns 0x0000..0x7bff increase with their value.
  uint16_t lo = 0;
  uint16_t hi = 0x7bff;
  while (hi - lo > 1) {  // keep decode(lo) <= a <= decode(hi)
    const auto mid = static_cast<uint16_t>((lo + hi) / 2);
    if (ReferenceDecode(mid) <= a) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  if (ReferenceDecode(hi) <= a) lo = hi;
  uint16_t best = lo;
  if (lo < 0x7bff) {
    const double below = a - ReferenceDecode(lo);
    const double above = ReferenceDecode(static_cast<uint16_t>(lo + 1)) - a;
    if (above < below || (above == below && (lo & 1))) best = static_cast<uint16_t>(lo + 1);
  }
  return static_cast<uint16_t>(sign | best);
}

TEST(OpdevFp16, IsABinary16Buffer) {
  EXPECT_EQ(sizeof(op::fp16_t), 2u);
  EXPECT_TRUE(std::is_trivially_copyable<op::fp16_t>::value);
  EXPECT_EQ(op::fp16_t().val, 0u);
}

TEST(OpdevFp16, EveryPatternDecodesToTheBinary16Value) {
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const op::fp16_t h = op::fp16_t::FromBits(static_cast<uint16_t>(bits));
    const double want = ReferenceDecode(static_cast<uint16_t>(bits));
    const float got = static_cast<float>(h);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got)) << std::hex << bits;
      continue;
    }
    ASSERT_EQ(static_cast<double>(got), want) << std::hex << bits;
    ASSERT_EQ(std::signbit(got), std::signbit(want)) << std::hex << bits;
    // A finite value converts back to its own pattern.
    if (!std::isinf(want)) {
      ASSERT_EQ(op::fp16_t(got).val, bits) << std::hex << bits;
    }
  }
}

TEST(OpdevFp16, FloatsRoundToTheNearestEven) {
  std::vector<float> xs = {0.0f,
                           -0.0f,
                           1.0f,
                           -1.0f,
                           0.1f,
                           1.0f / 3,
                           65504.0f,
                           65519.0f,
                           65520.0f,
                           1e9f,
                           -1e9f,
                           6.1e-5f,
                           5.96e-8f,
                           2.98e-8f,
                           2.99e-8f,
                           1e-10f,
                           std::ldexp(1.0f, -24),
                           std::ldexp(1.0f, -25),
                           std::ldexp(3.0f, -26),
                           std::ldexp(1.0f, -14),
                           std::ldexp(1023.5f, -24),
                           2049.0f,
                           2051.0f,
                           std::numeric_limits<float>::infinity(),
                           -std::numeric_limits<float>::infinity()};
  Rng rng = Rng::ForCurrentTest();
  for (int i = 0; i < 20000; ++i) {
    // magnitudes across the subnormal, normal and overflow ranges
    const double exponent = rng.Uniform(-27, 17);
    const double sign = rng.Uniform(0, 1) < 0.5 ? -1 : 1;
    xs.push_back(static_cast<float>(sign * std::exp2(exponent)));
  }
  for (float x : xs) {
    ASSERT_EQ(op::fp16_t(x).val, ReferenceEncode(x)) << x;
    ASSERT_EQ(op::fp16_t(static_cast<double>(x)).val, ReferenceEncode(x)) << x;
  }
  EXPECT_TRUE(std::isnan(static_cast<float>(op::fp16_t(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_EQ(op::fp16_t(3).val, ReferenceEncode(3.0));
  EXPECT_EQ(op::fp16_t(int64_t{-70000}).val, 0xfc00u);
  EXPECT_EQ(static_cast<int32_t>(op::fp16_t(-7.75)), -7);
}

// The example's use: host vectors of fp16_t copied into FLOAT16 tensors, an op
// run on them, the result read back as fp16_t and printed as float.
TEST(OpdevFp16, HostBufferIsAFloat16Tensor) {
  Rng rng = Rng::ForCurrentTest();
  const Shape shape = {3, 5};
  std::vector<op::fp16_t> host(15, 1.0);
  for (op::fp16_t& h : host) h = op::fp16_t(rng.Uniform(-100, 100));
  DeviceTensor src(ACL_FLOAT16, shape);
  std::vector<uint8_t> bytes(host.size() * sizeof(op::fp16_t));
  std::memcpy(bytes.data(), host.data(), bytes.size());
  src.UploadBytes(bytes);
  DeviceTensor dst(ACL_FLOAT, shape);
  const OpRun toFloat = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnCastGetWorkspaceSize(args.Tensor(src), ACL_FLOAT, args.Tensor(dst), workspaceSize, executor);
      },
      aclnnCast);
  ASSERT_TRUE(toFloat.ok()) << Describe(toFloat);
  Values want;
  for (const op::fp16_t& h : host) want.push_back(ReferenceDecode(h.val));
  ExpectExact(dst.ReadView(), want, "FLOAT16 tensor filled from fp16_t");

  // And back: a FLOAT16 out read into fp16_t values.
  DeviceTensor back(ACL_FLOAT16, shape);
  const OpRun toHalf = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnCastGetWorkspaceSize(args.Tensor(dst), ACL_FLOAT16, args.Tensor(back), workspaceSize, executor);
      },
      aclnnCast);
  ASSERT_TRUE(toHalf.ok()) << Describe(toHalf);
  const std::vector<uint8_t> out = back.DownloadBytes();
  std::vector<op::fp16_t> result(15, 0);
  std::memcpy(result.data(), out.data(), result.size() * sizeof(op::fp16_t));
  for (size_t i = 0; i < result.size(); ++i) EXPECT_EQ(static_cast<float>(result[i]), static_cast<float>(host[i]));
}

}  // namespace
}  // namespace canopy_test
