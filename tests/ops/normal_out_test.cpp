// aclnnNormalTensorTensor, aclnnNormalTensorFloat, aclnnNormalFloatTensor and
// aclnnNormalFloatFloat: out = mean + std * z, z standard normal. The values
// are random, so the tests check moments over 10^5 draws with bounds far
// outside sampling noise (every out dtype), that mean and std broadcast as
// tensors (a row of means over columns of stds, each draw independent of the
// others), strided views, std 0 giving mean exactly, reproducibility (the
// same seed and offset give the same bytes, another seed or offset others),
// empty tensors, and every rejection with CANN's code.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "aclnnop/aclnn_normal_out.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;
constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr int64_t kDraws = 100000;

struct Moments {
  double mean = 0, variance = 0;
};

// The moments of (x[i] - mean[i]) / std[i]: a standard normal sample's are 0 and 1.
Moments Standardised(const Values& x, const std::function<double(size_t)>& mean,
                     const std::function<double(size_t)>& std) {
  Moments m;
  std::vector<double> z(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    z[i] = (x[i].real() - mean(i)) / std(i);
    m.mean += z[i];
  }
  m.mean /= static_cast<double>(z.size());
  for (double v : z) m.variance += (v - m.mean) * (v - m.mean);
  m.variance /= static_cast<double>(z.size() - 1);
  return m;
}

// 10^5 draws: the mean of z within 0.02 (4.5 standard errors), its variance within 0.03.
void ExpectStandardNormal(const Moments& m, const std::string& what) {
  EXPECT_NEAR(m.mean, 0, 0.02) << what;
  EXPECT_NEAR(m.variance, 1, 0.03) << what;
}

Values FloatFloat(aclDataType dtype, float mean, float std, int64_t seed, int64_t offset, const Shape& shape,
                  View view = View::kContiguous) {
  DeviceTensor out(dtype, shape, view);
  out.Poison();
  ExpectRuns([&](A& a, W w,
                 E e) { return aclnnNormalFloatFloatGetWorkspaceSize(mean, std, seed, offset, a.Tensor(out), w, e); },
             aclnnNormalFloatFloat);
  return out.ReadView();
}

TEST(NormalOut, FloatFloatMomentsInEveryDtype) {
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}) {
    const Values v = FloatFloat(dtype, 1.5F, 2.0F, 21, 0, {kDraws});
    ExpectStandardNormal(Standardised(
                             v, [](size_t) { return 1.5; }, [](size_t) { return 2.0; }),
                         Name(dtype));
  }
}

TEST(NormalOut, TensorTensorBroadcastsARowOfMeansOverColumnsOfStds) {
  // mean [2, 1] (f16) over std [1, n] (f32): out [2, n] in f32, the promoted dtype.
  constexpr int64_t n = kDraws / 2;
  DeviceTensor mean(ACL_FLOAT16, {2, 1}), std(ACL_FLOAT, {1, n}), out(ACL_FLOAT, {2, n}, View::kStepped);
  mean.WriteView({-3.0, 5.0});
  Values stds;
  for (int64_t j = 0; j < n; ++j) stds.push_back(j % 2 == 0 ? 0.5 : 2.0);
  std.WriteView(stds);
  out.Poison();
  const std::vector<uint8_t> poisoned = out.DownloadBytes();
  ExpectRuns(
      [&](A& a, W w, E e) {
        return aclnnNormalTensorTensorGetWorkspaceSize(a.Tensor(mean), a.Tensor(std), 3, 9, a.Tensor(out), w, e);
      },
      aclnnNormalTensorTensor);
  ExpectOutsideViewUnchanged(out, poisoned, "NormalTensorTensor stepped out");
  const Values v = out.ReadView();
  auto meanOf = [](size_t i) { return static_cast<int64_t>(i) < n ? -3.0 : 5.0; };
  auto stdOf = [](size_t i) { return (static_cast<int64_t>(i) % n) % 2 == 0 ? 0.5 : 2.0; };
  ExpectStandardNormal(Standardised(v, meanOf, stdOf), "all");
  // Each quarter (row x std) alone, and the two rows independent although they share their stds.
  for (int row = 0; row < 2; ++row) {
    for (int parity = 0; parity < 2; ++parity) {
      Values part;
      for (int64_t j = parity; j < n; j += 2) part.push_back(v[static_cast<size_t>(row * n + j)]);
      const Moments m = Standardised(
          part, [&](size_t) { return row == 0 ? -3.0 : 5.0; }, [&](size_t) { return parity == 0 ? 0.5 : 2.0; });
      EXPECT_NEAR(m.mean, 0, 0.04) << row << parity;
      EXPECT_NEAR(m.variance, 1, 0.06) << row << parity;
    }
  }
  double correlation = 0;
  for (int64_t j = 0; j < n; ++j) {
    const auto jj = static_cast<size_t>(j);
    correlation += (v[jj].real() + 3.0) / stdOf(jj) * (v[jj + static_cast<size_t>(n)].real() - 5.0) / stdOf(jj);
  }
  EXPECT_NEAR(correlation / static_cast<double>(n), 0, 0.03);
}

TEST(NormalOut, TensorFloatOverStridedMeans) {
  // mean transposed (bf16) into a reversed f16 out: computed in f32, then rounded to f16.
  const Shape shape = {400, 250};
  DeviceTensor mean(ACL_BF16, shape, View::kTransposed), out(ACL_FLOAT16, shape, View::kReversed);
  Rng rng(17);
  const Values means = mean.FillRandom(rng, Range{-2, 2});
  out.Poison();
  ExpectRuns(
      [&](A& a, W w, E e) {
        return aclnnNormalTensorFloatGetWorkspaceSize(a.Tensor(mean), 0.25F, 5, 0, a.Tensor(out), w, e);
      },
      aclnnNormalTensorFloat);
  ExpectStandardNormal(Standardised(
                           out.ReadView(), [&](size_t i) { return means[i].real(); }, [](size_t) { return 0.25; }),
                       "f16 out");
}

TEST(NormalOut, FloatTensorWithZeroStdsGivesTheMean) {
  // std (f64) every 10th element 0: those elements are the mean exactly; out f64.
  DeviceTensor std(ACL_DOUBLE, {kDraws}, View::kStepped), out(ACL_DOUBLE, {kDraws});
  Values stds;
  for (int64_t i = 0; i < kDraws; ++i) stds.push_back(i % 10 == 0 ? 0.0 : 0.5 + static_cast<double>(i % 7));
  std.WriteView(stds);
  ExpectRuns(
      [&](A& a, W w, E e) {
        return aclnnNormalFloatTensorGetWorkspaceSize(-1.25F, a.Tensor(std), 8, 2, a.Tensor(out), w, e);
      },
      aclnnNormalFloatTensor);
  const Values v = out.ReadView();
  Values drawn;
  std::vector<double> drawnStd;
  for (size_t i = 0; i < v.size(); ++i) {
    if (stds[i].real() == 0) {
      ASSERT_EQ(v[i].real(), -1.25) << i;
    } else {
      drawn.push_back(v[i]);
      drawnStd.push_back(stds[i].real());
    }
  }
  ExpectStandardNormal(Standardised(
                           drawn, [](size_t) { return -1.25; }, [&](size_t i) { return drawnStd[i]; }),
                       "f64");
}

TEST(NormalOut, SameSeedAndOffsetGiveTheSameBits) {
  const Shape shape = {3, 1000};
  const Values first = FloatFloat(ACL_FLOAT, 0.0F, 1.0F, 42, 7, shape);
  EXPECT_EQ(FloatFloat(ACL_FLOAT, 0.0F, 1.0F, 42, 7, shape, View::kTransposed), first);  // the view does not matter
  const Values otherOffset = FloatFloat(ACL_FLOAT, 0.0F, 1.0F, 42, 8, shape);
  const Values otherSeed = FloatFloat(ACL_FLOAT, 0.0F, 1.0F, 43, 7, shape);
  int sameOffset = 0, sameSeed = 0;
  for (size_t i = 0; i < first.size(); ++i) {
    sameOffset += otherOffset[i] == first[i] ? 1 : 0;
    sameSeed += otherSeed[i] == first[i] ? 1 : 0;
  }
  EXPECT_LT(sameOffset, 5);
  EXPECT_LT(sameSeed, 5);
  // The tensor forms draw the same z: with mean 0 and std 1 tensors they give FloatFloat's values.
  DeviceTensor mean(ACL_FLOAT, {1}), std(ACL_FLOAT, shape), out(ACL_FLOAT, shape);
  mean.WriteView({0.0});
  std.WriteView(Values(static_cast<size_t>(NumElements(shape)), 1.0));
  ExpectRuns(
      [&](A& a, W w, E e) {
        return aclnnNormalTensorTensorGetWorkspaceSize(a.Tensor(mean), a.Tensor(std), 42, 7, a.Tensor(out), w, e);
      },
      aclnnNormalTensorTensor);
  EXPECT_EQ(out.ReadView(), first);
}

TEST(NormalOut, EmptyTensorsNeedNothing) {
  const Shape empty = {0, 3};
  std::vector<std::pair<std::string, Phase1>> calls = {
      {"TensorTensor",
       [&](A& a, W w, E e) {
         return aclnnNormalTensorTensorGetWorkspaceSize(a.NewTensor(ACL_FLOAT, empty), a.NewTensor(ACL_FLOAT, {3}), 0,
                                                        0, a.NewTensor(ACL_FLOAT, empty), w, e);
       }},
      {"TensorFloat",
       [&](A& a, W w, E e) {
         return aclnnNormalTensorFloatGetWorkspaceSize(a.NewTensor(ACL_FLOAT16, {1, 3}), 1.0F, 0, 0,
                                                       a.NewTensor(ACL_FLOAT16, empty), w, e);
       }},
      // A one-element std with an empty out of another shape passes CANN's shape check.
      {"FloatTensor",
       [&](A& a, W w, E e) {
         return aclnnNormalFloatTensorGetWorkspaceSize(0.0F, a.NewTensor(ACL_BF16, {1}), 0, 0,
                                                       a.NewTensor(ACL_BF16, empty), w, e);
       }},
      {"FloatFloat", [&](A& a, W w, E e) {
         return aclnnNormalFloatFloatGetWorkspaceSize(0.0F, 1.0F, 0, 0, a.NewTensor(ACL_DOUBLE, empty), w, e);
       }}};
  const std::vector<Phase2> phase2 = {aclnnNormalTensorTensor, aclnnNormalTensorFloat, aclnnNormalFloatTensor,
                                      aclnnNormalFloatFloat};
  for (size_t i = 0; i < calls.size(); ++i) {
    const OpRun run = RunOp(calls[i].second, phase2[i]);
    EXPECT_TRUE(run.ok()) << calls[i].first << ": " << Describe(run);
    EXPECT_EQ(run.workspaceSize, 0U) << calls[i].first;
  }
}

std::vector<RejectionCase> Rejections() {
  const Shape m = {2, 3};
  auto t = [m](A& a, aclDataType dtype) { return a.NewTensor(dtype, m); };
  return {
      {"TensorTensor_no_broadcast",
       [=](A& a, W w, E e) {
         return aclnnNormalTensorTensorGetWorkspaceSize(t(a, ACL_FLOAT), a.NewTensor(ACL_FLOAT, {4, 3}), 0, 0,
                                                        t(a, ACL_FLOAT), w, e);
       },
       aclnnNormalTensorTensor, "std", kInvalid},
      {"TensorTensor_out_shape",
       [=](A& a, W w, E e) {
         return aclnnNormalTensorTensorGetWorkspaceSize(t(a, ACL_FLOAT), a.NewTensor(ACL_FLOAT, {3}), 0, 0,
                                                        a.NewTensor(ACL_FLOAT, {3}), w, e);
       },
       aclnnNormalTensorTensor, "out", kInvalid},
      {"TensorTensor_mean_s32",
       [=](A& a, W w, E e) {
         return aclnnNormalTensorTensorGetWorkspaceSize(t(a, ACL_INT32), t(a, ACL_FLOAT), 0, 0, t(a, ACL_FLOAT), w, e);
       },
       aclnnNormalTensorTensor, "mean", kInvalid},
      {"TensorTensor_std_s64",
       [=](A& a, W w, E e) {
         return aclnnNormalTensorTensorGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_INT64), 0, 0, t(a, ACL_FLOAT), w, e);
       },
       aclnnNormalTensorTensor, "std", kInvalid},
      {"TensorTensor_out_s32",
       [=](A& a, W w, E e) {
         return aclnnNormalTensorTensorGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_FLOAT), 0, 0, t(a, ACL_INT32), w, e);
       },
       aclnnNormalTensorTensor, "out", kInvalid},
      {"TensorFloat_no_broadcast",
       [=](A& a, W w, E e) {
         return aclnnNormalTensorFloatGetWorkspaceSize(t(a, ACL_FLOAT), 1.0F, 0, 0, a.NewTensor(ACL_FLOAT, {3, 3}), w,
                                                       e);
       },
       aclnnNormalTensorFloat, "mean", kInvalid},
      {"TensorFloat_out_smaller_than_mean",
       [=](A& a, W w, E e) {
         return aclnnNormalTensorFloatGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {1, 3}), 1.0F, 0, 0,
                                                       a.NewTensor(ACL_FLOAT, {2, 1}), w, e);
       },
       aclnnNormalTensorFloat, "out", kInvalid},
      {"TensorFloat_mean_f64_ok_out_bool",
       [=](A& a, W w, E e) {
         return aclnnNormalTensorFloatGetWorkspaceSize(t(a, ACL_DOUBLE), 1.0F, 0, 0, t(a, ACL_BOOL), w, e);
       },
       aclnnNormalTensorFloat, "out", kInvalid},
      {"TensorFloat_mean_u8",
       [=](A& a, W w, E e) {
         return aclnnNormalTensorFloatGetWorkspaceSize(t(a, ACL_UINT8), 1.0F, 0, 0, t(a, ACL_FLOAT), w, e);
       },
       aclnnNormalTensorFloat, "mean", kInvalid},
      {"FloatTensor_std_empty",
       [=](A& a, W w, E e) {
         return aclnnNormalFloatTensorGetWorkspaceSize(0.0F, a.NewTensor(ACL_FLOAT, {0}), 0, 0,
                                                       a.NewTensor(ACL_FLOAT, {0}), w, e);
       },
       aclnnNormalFloatTensor, "std", kInvalid},
      {"FloatTensor_out_shape",
       [=](A& a, W w, E e) {
         return aclnnNormalFloatTensorGetWorkspaceSize(0.0F, t(a, ACL_FLOAT), 0, 0, a.NewTensor(ACL_FLOAT, {3, 2}), w,
                                                       e);
       },
       aclnnNormalFloatTensor, "out", kInvalid},
      {"FloatTensor_std_does_not_broadcast",
       [=](A& a, W w, E e) {
         return aclnnNormalFloatTensorGetWorkspaceSize(0.0F, a.NewTensor(ACL_FLOAT, {1, 3}), 0, 0, t(a, ACL_FLOAT), w,
                                                       e);
       },
       aclnnNormalFloatTensor, "out", kInvalid},
      {"FloatTensor_std_s32",
       [=](A& a, W w, E e) {
         return aclnnNormalFloatTensorGetWorkspaceSize(0.0F, t(a, ACL_INT32), 0, 0, t(a, ACL_FLOAT), w, e);
       },
       aclnnNormalFloatTensor, "std", kInvalid},
      {"FloatTensor_out_s8",
       [=](A& a, W w, E e) {
         return aclnnNormalFloatTensorGetWorkspaceSize(0.0F, t(a, ACL_FLOAT), 0, 0, t(a, ACL_INT8), w, e);
       },
       aclnnNormalFloatTensor, "out", kInvalid},
      {"FloatFloat_out_s64",
       [=](A& a, W w, E e) { return aclnnNormalFloatFloatGetWorkspaceSize(0.0F, 1.0F, 0, 0, t(a, ACL_INT64), w, e); },
       aclnnNormalFloatFloat, "out", kInvalid},
      {"FloatFloat_out_c64",
       [=](A& a, W w, E e) {
         return aclnnNormalFloatFloatGetWorkspaceSize(0.0F, 1.0F, 0, 0, t(a, ACL_COMPLEX64), w, e);
       },
       aclnnNormalFloatFloat, "out", kInvalid},
  };
}

class NormalOutRejects : public ::testing::TestWithParam<RejectionCase> {};

TEST_P(NormalOutRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Cases, NormalOutRejects, ::testing::ValuesIn(Rejections()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) { return info.param.name; });

}  // namespace
}  // namespace canopy_test
