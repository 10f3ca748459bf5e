// RReluWithNoise and InplaceRReluWithNoise through the public API: evaluation
// against the leaky ReLU of slope (lower + upper) / 2 (noise untouched);
// training: noise in [lower, upper] where self < 0 and exactly 1 elsewhere
// (0 included), out = self * noise, the same draws for the same (seed,
// offset) and others for another offset, a larger noise's tail kept, every
// A2 dtype, strided views, empty tensors, CANN's example and the rejections.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "aclnnop/aclnn_rrelu_with_noise.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

const std::vector<aclDataType> kDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr double kLower = 0.1, kUpper = 0.3;

OpRun RunRRelu(const DeviceTensor& self, const DeviceTensor& noise, bool training, int64_t offset,
               const DeviceTensor* out) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        aclScalar* lower = a.Scalar(ACL_FLOAT, kLower);
        aclScalar* upper = a.Scalar(ACL_DOUBLE, kUpper);
        return out != nullptr ? aclnnRReluWithNoiseGetWorkspaceSize(a.Tensor(self), a.Tensor(noise), lower, upper,
                                                                    training, 7, offset, a.Tensor(*out), w, e)
                              : aclnnInplaceRReluWithNoiseGetWorkspaceSize(a.Tensor(self), a.Tensor(noise), lower,
                                                                           upper, training, 7, offset, w, e);
      },
      out != nullptr ? aclnnRReluWithNoise : aclnnInplaceRReluWithNoise);
}

TEST(RReluWithNoise, EvaluationIsALeakyRelu) {
  for (aclDataType dtype : kDtypes) {
    for (const bool inPlace : {false, true}) {
      SCOPED_TRACE(std::string(Name(dtype)) + (inPlace ? " in place" : ""));
      Rng rng = Rng::ForCurrentTest();
      DeviceTensor self(dtype, {3, 5}, View::kTransposed), noise(dtype, {3, 5}), out(dtype, {3, 5}, View::kStepped);
      const Values x = self.FillRandom(rng, Range{-4, 4, 0, 4});
      noise.FillRandom(rng, Range{});
      const std::vector<uint8_t> noiseBefore = noise.DownloadBytes();
      const OpRun run = RunRRelu(self, noise, false, 0, inPlace ? nullptr : &out);
      ASSERT_TRUE(run.ok()) << Describe(run);
      Expected want;
      for (const Value& v : x) {
        const double y = v.real() < 0 ? v.real() * (kLower + kUpper) / 2 : v.real();
        want.values.emplace_back(y);
        want.tolerance.push_back(2 * UnitRoundoff(dtype) * std::abs(y));
      }
      ExpectNear(inPlace ? self.ReadView() : out.ReadView(), want, "evaluation");
      EXPECT_EQ(noise.DownloadBytes(), noiseBefore) << "evaluation leaves noise alone";
    }
  }
}

TEST(RReluWithNoise, TrainingDrawsSlopesForNegativesOnly) {
  for (aclDataType dtype : kDtypes) {
    for (const bool inPlace : {false, true}) {
      SCOPED_TRACE(std::string(Name(dtype)) + (inPlace ? " in place" : ""));
      Rng rng = Rng::ForCurrentTest();
      DeviceTensor self(dtype, {16, 33}, View::kStepped), noise(dtype, {16, 33}, View::kTransposed);
      DeviceTensor out(dtype, {16, 33});
      const Values x = self.FillRandom(rng, Range{-4, 4, 0, 5});  // every fifth exactly 0
      noise.FillRandom(rng, Range{});
      const OpRun run = RunRRelu(self, noise, true, 3, inPlace ? nullptr : &out);
      ASSERT_TRUE(run.ok()) << Describe(run);
      const Values slopes = noise.ReadView(), y = inPlace ? self.ReadView() : out.ReadView();
      double sum = 0;
      int negatives = 0;
      for (size_t i = 0; i < x.size(); ++i) {
        const double v = x[i].real(), s = slopes[i].real();
        if (v < 0) {
          ASSERT_GE(s, ConvertValue(kLower, dtype).real() - 1e-3) << i;
          ASSERT_LE(s, ConvertValue(kUpper, dtype).real() + 1e-3) << i;
          sum += s;
          ++negatives;
        } else {
          ASSERT_EQ(s, 1.0) << i;
        }
        ASSERT_NEAR(y[i].real(), v * s, 3 * UnitRoundoff(dtype) * std::abs(v * s) + 1e-30) << i;
      }
      ASSERT_GT(negatives, 100);
      EXPECT_NEAR(sum / negatives, (kLower + kUpper) / 2, 0.02) << "the slopes' mean";
    }
  }
}

TEST(RReluWithNoise, SameSeedAndOffsetSameDraws) {
  DeviceTensor self(ACL_FLOAT, {64});
  Values x(64, Value(-1.0));
  self.WriteView(x);
  std::vector<Values> draws;
  for (const int64_t offset : {0, 0, 4}) {
    DeviceTensor noise(ACL_FLOAT, {64}), out(ACL_FLOAT, {64});
    ASSERT_TRUE(RunRRelu(self, noise, true, offset, &out).ok());
    draws.push_back(noise.ReadView());
  }
  EXPECT_EQ(draws[0], draws[1]);
  EXPECT_NE(draws[0], draws[2]);
}

// A noise larger than self: its first numel(self) elements are written, the rest kept.
TEST(RReluWithNoise, LargerNoiseKeepsItsTail) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor self(ACL_FLOAT, {2, 3}), noise(ACL_FLOAT, {3, 4}, View::kTransposed), out(ACL_FLOAT, {2, 3});
  const Values x = self.FillRandom(rng, Range{-2, 2});
  const Values before = noise.FillRandom(rng, Range{5, 9});
  ASSERT_TRUE(RunRRelu(self, noise, true, 0, &out).ok());
  const Values after = noise.ReadView();
  for (size_t i = 0; i < after.size(); ++i) {
    if (i >= x.size()) {
      EXPECT_EQ(after[i], before[i]) << i;
    } else {
      EXPECT_TRUE(x[i].real() < 0 ? after[i].real() < 1 : after[i].real() == 1) << i;
    }
  }
}

// CANN's example: all positive, evaluation, then in place: nothing changes.
TEST(RReluWithNoise, CannExample) {
  const auto self = Upload(ACL_FLOAT, {2, 2}, {1, 2, 3, 4});
  const auto noise = Upload(ACL_FLOAT, {2, 2}, {4, 3, 2, 1});
  DeviceTensor out(ACL_FLOAT, {2, 2});
  ASSERT_TRUE(RunRRelu(*self, *noise, false, 0, &out).ok());
  ExpectExact(out.ReadView(), {1, 2, 3, 4}, "out");
  ASSERT_TRUE(RunRRelu(*self, *noise, false, 0, nullptr).ok());
  ExpectExact(self->ReadView(), {1, 2, 3, 4}, "self in place");
  ExpectExact(noise->ReadView(), {4, 3, 2, 1}, "noise");
}

TEST(RReluWithNoise, EmptyTensors) {
  DeviceTensor self(ACL_FLOAT, {0, 3}), noise(ACL_FLOAT, {0, 3}), out(ACL_FLOAT, {0, 3});
  EXPECT_TRUE(RunRRelu(self, noise, true, 0, &out).ok());
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> Rejections() {
  auto call = [](aclDataType self, Shape selfShape, aclDataType noise, Shape noiseShape, aclDataType bound,
                 aclDataType out, Shape outShape, bool training) {
    return [=](A& a, W w, E e) {
      return aclnnRReluWithNoiseGetWorkspaceSize(a.NewTensor(self, selfShape), a.NewTensor(noise, noiseShape),
                                                 a.Scalar(bound, 0.1), a.Scalar(ACL_FLOAT, 0.3), training, 0, 0,
                                                 a.NewTensor(out, outShape), w, e);
    };
  };
  const aclDataType f = ACL_FLOAT;
  const Shape m = {2, 3};
  return {
      {"double_self", call(ACL_DOUBLE, m, ACL_DOUBLE, m, f, ACL_DOUBLE, m, true), aclnnRReluWithNoise, "'self'"},
      {"int_lower", call(f, m, f, m, ACL_INT32, f, m, true), aclnnRReluWithNoise, "'lower'"},
      {"out_dtype", call(f, m, f, m, f, ACL_FLOAT16, m, true), aclnnRReluWithNoise, "'out'"},
      {"noise_dtype", call(f, m, ACL_FLOAT16, m, f, f, m, true), aclnnRReluWithNoise, "'noise'"},
      {"out_shape", call(f, m, f, m, f, f, {3, 2}, true), aclnnRReluWithNoise, "'out'"},
      {"noise_smaller_in_training", call(f, m, f, {5}, f, f, m, true), aclnnRReluWithNoise, "'noise'"},
  };
}

class RReluRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(RReluRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, RReluRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

// In evaluation a smaller noise is not read, so it is accepted.
TEST(RReluWithNoise, EvaluationTakesAnyNoiseSize) {
  DeviceTensor self(ACL_FLOAT, {2, 3}), noise(ACL_FLOAT, {1}), out(ACL_FLOAT, {2, 3});
  Rng rng = Rng::ForCurrentTest();
  self.FillRandom(rng, Range{});
  EXPECT_TRUE(RunRRelu(self, noise, false, 0, &out).ok());
}

}  // namespace
}  // namespace canopy_test
