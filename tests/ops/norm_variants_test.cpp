// The normalisation variants on the row-norm and reduction engines:
// GemmaRmsNorm (1 + gamma), InplaceAddRmsNorm (results into x1Ref and x2Ref),
// GroupNormSilu / V2 / GroupNormSwish (the swish fused into the last pass),
// LinalgVectorNorm (every ord, the dtype argument, empty inputs), Renorm and
// InplaceRenorm; each against a float64 reference on random data in f32, f16
// and bf16 with strided views, and their rejections with CANN's codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_gemma_rms_norm.h"
#include "aclnnop/aclnn_group_norm_silu.h"
#include "aclnnop/aclnn_group_norm_swish.h"
#include "aclnnop/aclnn_inplace_add_rms_norm.h"
#include "aclnnop/aclnn_linalg_vector_norm.h"
#include "aclnnop/aclnn_renorm.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

const std::vector<aclDataType> kDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// Tolerance: a few units of the dtype's roundoff relative to `scale` (the terms' magnitude).
Expected Within(const std::vector<double>& values, const std::vector<double>& scale, aclDataType dtype, double ulps) {
  Expected want;
  const double u = std::max(UnitRoundoff(dtype), 0x1p-24);
  for (size_t i = 0; i < values.size(); ++i) {
    want.values.push_back(ConvertValue(values[i], dtype));
    want.tolerance.push_back(ulps * u * (std::abs(values[i]) + scale[i]) + 1e-6);
  }
  return want;
}

// RMS normalisation of rows of `length`: y = v * rstd * gain(j), rstd per row.
void RmsRows(const std::vector<double>& v, int64_t length, double eps, const std::function<double(int64_t)>& gain,
             std::vector<double>& y, std::vector<double>& rstd) {
  const int64_t rows = static_cast<int64_t>(v.size()) / length;
  y.assign(v.size(), 0);
  rstd.clear();
  for (int64_t r = 0; r < rows; ++r) {
    double sq = 0;
    for (int64_t j = 0; j < length; ++j)
      sq += v[static_cast<size_t>(r * length + j)] * v[static_cast<size_t>(r * length + j)];
    const double s = 1 / std::sqrt(sq / static_cast<double>(length) + eps);
    rstd.push_back(s);
    for (int64_t j = 0; j < length; ++j)
      y[static_cast<size_t>(r * length + j)] = v[static_cast<size_t>(r * length + j)] * s * gain(j);
  }
}

std::vector<double> Reals(const Values& v) {
  std::vector<double> out;
  for (Value x : v) out.push_back(x.real());
  return out;
}

TEST(GemmaRmsNorm, ScalesByOnePlusGamma) {
  for (aclDataType dtype : kDtypes) {
    Rng rng = Rng::ForCurrentTest();
    DeviceTensor x(dtype, {5, 3, 8}, View::kTransposed), gamma(dtype, {3, 8}), y(dtype, {5, 3, 8}),
        rstd(ACL_FLOAT, {5, 1, 1});
    const std::vector<double> xv = Reals(x.FillRandom(rng, Range{-2, 2}));
    const std::vector<double> gv = Reals(gamma.FillRandom(rng, Range{-1, 1}));
    ExpectRuns(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnGemmaRmsNormGetWorkspaceSize(a.Tensor(x), a.Tensor(gamma), 1e-6, a.Tensor(y), a.Tensor(rstd), w,
                                                   e);
        },
        aclnnGemmaRmsNorm);
    std::vector<double> want, rows;
    RmsRows(
        xv, 24, 1e-6, [&](int64_t j) { return 1 + gv[static_cast<size_t>(j)]; }, want, rows);
    ExpectNear(y.ReadView(), Within(want, std::vector<double>(want.size(), 2.0), dtype, 8), Name(dtype));
    ExpectNear(rstd.ReadView(), Within(rows, std::vector<double>(rows.size(), 0.0), ACL_FLOAT, 8), "rstd");
  }
}

TEST(InplaceAddRmsNorm, NormalisedSumIntoX1AndSumIntoX2) {
  for (aclDataType dtype : kDtypes) {
    Rng rng = Rng::ForCurrentTest();
    DeviceTensor x1(dtype, {4, 16}), x2(dtype, {4, 16}), gamma(dtype, {16}), rstd(ACL_FLOAT, {4, 1});
    const std::vector<double> a = Reals(x1.FillRandom(rng, Range{-2, 2}));
    const std::vector<double> b = Reals(x2.FillRandom(rng, Range{-2, 2}));
    const std::vector<double> g = Reals(gamma.FillRandom(rng, Range{-1, 1}));
    ExpectRuns(
        [&](OpArgs& args, uint64_t* w, aclOpExecutor** e) {
          return aclnnInplaceAddRmsNormGetWorkspaceSize(args.Tensor(x1), args.Tensor(x2), args.Tensor(gamma), 1e-5,
                                                        args.Tensor(rstd), w, e);
        },
        aclnnInplaceAddRmsNorm);
    std::vector<double> sum(a.size()), want, rows;
    for (size_t i = 0; i < a.size(); ++i) sum[i] = a[i] + b[i];
    RmsRows(
        sum, 16, 1e-5, [&](int64_t j) { return g[static_cast<size_t>(j)]; }, want, rows);
    ExpectNear(x1.ReadView(), Within(want, std::vector<double>(want.size(), 2.0), dtype, 8), "x1Ref");
    ExpectNear(x2.ReadView(), Within(sum, std::vector<double>(sum.size(), 4.0), dtype, 2), "x2Ref");
  }
}

// Group normalisation of self [N, C, HxW] in `group` groups, then swish of `scale` (0: none).
std::vector<double> GroupNormRef(const std::vector<double>& x, int64_t n, int64_t c, int64_t hxw, int64_t group,
                                 const std::vector<double>& gamma, const std::vector<double>& beta, double eps,
                                 double scale, std::vector<double>& mean, std::vector<double>& rstd) {
  std::vector<double> y(x.size());
  const int64_t per = c / group * hxw;
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t g = 0; g < group; ++g) {
      const int64_t base = (b * c + g * (c / group)) * hxw;
      double m = 0, var = 0;
      for (int64_t i = 0; i < per; ++i) m += x[static_cast<size_t>(base + i)];
      m /= static_cast<double>(per);
      for (int64_t i = 0; i < per; ++i)
        var += (x[static_cast<size_t>(base + i)] - m) * (x[static_cast<size_t>(base + i)] - m);
      const double s = 1 / std::sqrt(var / static_cast<double>(per) + eps);
      mean.push_back(m);
      rstd.push_back(s);
      for (int64_t i = 0; i < per; ++i) {
        const int64_t channel = g * (c / group) + i / hxw;
        double v = (x[static_cast<size_t>(base + i)] - m) * s * gamma[static_cast<size_t>(channel)] +
                   beta[static_cast<size_t>(channel)];
        if (scale > 0) v = v / (1 + std::exp(-scale * v));
        y[static_cast<size_t>(base + i)] = v;
      }
    }
  }
  return y;
}

TEST(GroupNormSilu, AllThreeFormsAgainstTheReference) {
  for (aclDataType dtype : kDtypes) {
    for (int form = 0; form < 4; ++form) {  // Silu, V2 on, V2 off, Swish of scale 0.7
      Rng rng = Rng::ForCurrentTest();
      const int64_t n = 2, c = 6, group = 3;
      DeviceTensor x(dtype, {n, c, 2, 3}), gamma(dtype, {c}), beta(dtype, {c}), y(dtype, {n, c, 2, 3}),
          mean(dtype, {n, group}), rstd(dtype, {n, group});
      const std::vector<double> xv = Reals(x.FillRandom(rng, Range{-3, 3}));
      const std::vector<double> gv = Reals(gamma.FillRandom(rng, Range{-1, 1}));
      const std::vector<double> bv = Reals(beta.FillRandom(rng, Range{-1, 1}));
      const double eps = 1e-5;
      double scale = 1;
      if (form == 0) {
        ExpectRuns(
            [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
              return aclnnGroupNormSiluGetWorkspaceSize(a.Tensor(x), a.Tensor(gamma), a.Tensor(beta), group, eps,
                                                        a.Tensor(y), a.Tensor(mean), a.Tensor(rstd), w, e);
            },
            aclnnGroupNormSilu);
      } else if (form < 3) {
        scale = form == 1 ? 1 : 0;
        ExpectRuns(
            [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
              return aclnnGroupNormSiluV2GetWorkspaceSize(a.Tensor(x), a.Tensor(gamma), a.Tensor(beta), group, eps,
                                                          form == 1, a.Tensor(y), a.Tensor(mean), a.Tensor(rstd), w, e);
            },
            aclnnGroupNormSiluV2);
      } else {
        scale = 0.7;
        char format[] = "NCHW";
        ExpectRuns(
            [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
              return aclnnGroupNormSwishGetWorkspaceSize(a.Tensor(x), a.Tensor(gamma), a.Tensor(beta), group, format,
                                                         eps, true, 0.7, a.Tensor(y), a.Tensor(mean), a.Tensor(rstd), w,
                                                         e);
            },
            aclnnGroupNormSwish);
      }
      std::vector<double> m, s;
      const std::vector<double> want = GroupNormRef(xv, n, c, 6, group, gv, bv, eps, scale, m, s);
      const std::string what = std::string(Name(dtype)) + " form " + std::to_string(form);
      ExpectNear(y.ReadView(), Within(want, std::vector<double>(want.size(), 4.0), dtype, 8), what);
      ExpectNear(mean.ReadView(), Within(m, std::vector<double>(m.size(), 3.0), dtype, 4), what + " mean");
      ExpectNear(rstd.ReadView(), Within(s, std::vector<double>(s.size(), 0.0), dtype, 8), what + " rstd");
    }
  }
}

TEST(LinalgVectorNorm, EveryOrdAndDtype) {
  const double inf = std::numeric_limits<double>::infinity();
  for (aclDataType dtype : kDtypes) {
    for (double ord : {2.0, 1.0, 0.0, 3.0, inf, -inf, 0.5}) {
      Rng rng = Rng::ForCurrentTest();
      DeviceTensor self(dtype, {4, 6}, View::kStepped), out(ACL_FLOAT, {4, 1});
      Values v = self.FillRandom(rng, Range{-2, 2, 0, 5});
      ExpectRuns(
          [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            return aclnnLinalgVectorNormGetWorkspaceSize(a.Tensor(self), a.Scalar(ACL_FLOAT, ord), a.IntArray({1}),
                                                         true, ACL_FLOAT, a.Tensor(out), w, e);
          },
          aclnnLinalgVectorNorm);
      std::vector<double> want, scale;
      for (size_t r = 0; r < 4; ++r) {
        double acc = ord == -inf ? inf : 0;
        for (size_t j = 0; j < 6; ++j) {
          const double x = std::abs(v[r * 6 + j].real());
          if (ord == inf)
            acc = std::max(acc, x);
          else if (ord == -inf)
            acc = std::min(acc, x);
          else if (ord == 0)
            acc += x != 0 ? 1 : 0;
          else
            acc += std::pow(x, ord);
        }
        want.push_back(ord == 0 || std::isinf(ord) ? acc : std::pow(acc, 1 / ord));
        scale.push_back(want.back());
      }
      ExpectNear(out.ReadView(), Within(want, scale, ACL_FLOAT, 16),
                 std::string(Name(dtype)) + " ord " + std::to_string(ord));
    }
  }
  // An empty self fills out with 0.
  DeviceTensor empty(ACL_FLOAT, {0, 3}), zeros(ACL_FLOAT, {3});
  zeros.Poison();
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnLinalgVectorNormGetWorkspaceSize(a.Tensor(empty), a.Scalar(ACL_FLOAT, 2.0), a.IntArray({0}), false,
                                                     ACL_FLOAT, a.Tensor(zeros), w, e);
      },
      aclnnLinalgVectorNorm);
  ExpectExact(zeros.ReadView(), {0, 0, 0}, "LinalgVectorNorm of nothing");
}

TEST(Renorm, ScalesSlicesAboveMaxNormOnly) {
  // CANN's document example: rows of norm 3, 6, 9 (p 1) against maxNorm 5.
  DeviceTensor self(ACL_FLOAT, {3, 3}), out(ACL_FLOAT, {3, 3});
  self.WriteView({1, 1, 1, 2, 2, 2, 3, 3, 3});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnRenormGetWorkspaceSize(a.Tensor(self), a.Scalar(ACL_FLOAT, 1.0), 0, a.Scalar(ACL_FLOAT, 5.0),
                                           a.Tensor(out), w, e);
      },
      aclnnRenorm);
  const double f2 = 2 * 5 / (6 + 1e-7), f3 = 3 * 5 / (9 + 1e-7);
  ExpectNear(out.ReadView(), {{1, 1, 1, f2, f2, f2, f3, f3, f3}, std::vector<double>(9, 1e-6)}, "Renorm p 1");
  // p 2 along dim 1 of a random f16 tensor, in place.
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor t(ACL_FLOAT16, {4, 5});
  const std::vector<double> v = Reals(t.FillRandom(rng, Range{-2, 2}));
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnInplaceRenormGetWorkspaceSize(a.Tensor(t), a.Scalar(ACL_FLOAT, 2.0), 1, a.Scalar(ACL_FLOAT, 1.5), w,
                                                  e);
      },
      aclnnInplaceRenorm);
  std::vector<double> want(v.size());
  for (size_t j = 0; j < 5; ++j) {
    double sq = 0;
    for (size_t i = 0; i < 4; ++i) sq += v[i * 5 + j] * v[i * 5 + j];
    const double norm = std::sqrt(sq), factor = norm > 1.5 ? 1.5 / (norm + 1e-7) : 1;
    for (size_t i = 0; i < 4; ++i) want[i * 5 + j] = v[i * 5 + j] * factor;
  }
  ExpectNear(t.ReadView(), Within(want, std::vector<double>(want.size(), 1.0), ACL_FLOAT16, 4), "InplaceRenorm f16");
}

// ---- rejections ----------------------------------------------------------------------------------

using Rejection = RejectionCase;

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;
constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;

std::vector<Rejection> Rejections() {
  auto t = [](A& a, aclDataType dtype, const Shape& s) { return a.NewTensor(dtype, s); };
  return {
      {"GemmaRmsNorm_gamma_f32_with_f16_x",
       [=](A& a, W w, E e) {
         return aclnnGemmaRmsNormGetWorkspaceSize(t(a, ACL_FLOAT16, {2, 3}), t(a, ACL_FLOAT, {3}), 1e-6,
                                                  t(a, ACL_FLOAT16, {2, 3}), t(a, ACL_FLOAT, {2, 1}), w, e);
       },
       aclnnGemmaRmsNorm, "gamma", kInvalid},
      {"GemmaRmsNorm_negative_epsilon",
       [=](A& a, W w, E e) {
         return aclnnGemmaRmsNormGetWorkspaceSize(t(a, ACL_FLOAT, {2, 3}), t(a, ACL_FLOAT, {3}), -1.0,
                                                  t(a, ACL_FLOAT, {2, 3}), t(a, ACL_FLOAT, {2, 1}), w, e);
       },
       aclnnGemmaRmsNorm, "epsilon", kTiling},
      {"InplaceAddRmsNorm_x2_shape",
       [=](A& a, W w, E e) {
         return aclnnInplaceAddRmsNormGetWorkspaceSize(t(a, ACL_FLOAT, {2, 3}), t(a, ACL_FLOAT, {3, 3}),
                                                       t(a, ACL_FLOAT, {3}), 1e-6, t(a, ACL_FLOAT, {2, 1}), w, e);
       },
       aclnnInplaceAddRmsNorm, "x2Ref", kTiling},
      {"GroupNormSilu_group_does_not_divide_C",
       [=](A& a, W w, E e) {
         return aclnnGroupNormSiluGetWorkspaceSize(t(a, ACL_FLOAT, {2, 6, 4}), nullptr, nullptr, 4, 1e-5,
                                                   t(a, ACL_FLOAT, {2, 6, 4}), t(a, ACL_FLOAT, {2, 4}),
                                                   t(a, ACL_FLOAT, {2, 4}), w, e);
       },
       aclnnGroupNormSilu, "group", kInvalid},
      {"GroupNormSilu_mean_f32_for_f16_self",
       [=](A& a, W w, E e) {
         return aclnnGroupNormSiluGetWorkspaceSize(t(a, ACL_FLOAT16, {2, 6, 4}), nullptr, nullptr, 3, 1e-5,
                                                   t(a, ACL_FLOAT16, {2, 6, 4}), t(a, ACL_FLOAT, {2, 3}),
                                                   t(a, ACL_FLOAT16, {2, 3}), w, e);
       },
       aclnnGroupNormSilu, "meanOut", kInvalid},
      {"GroupNormSwish_group_zero",
       [=](A& a, W w, E e) {
         return aclnnGroupNormSwishGetWorkspaceSize(
             t(a, ACL_FLOAT, {2, 6, 4}), t(a, ACL_FLOAT, {6}), t(a, ACL_FLOAT, {6}), 0, nullptr, 1e-5, true, 1.0,
             t(a, ACL_FLOAT, {2, 6, 4}), t(a, ACL_FLOAT, {2, 0}), t(a, ACL_FLOAT, {2, 0}), w, e);
       },
       aclnnGroupNormSwish, "numGroups", kTiling},
      {"LinalgVectorNorm_out_not_dtype",
       [=](A& a, W w, E e) {
         return aclnnLinalgVectorNormGetWorkspaceSize(t(a, ACL_FLOAT, {2, 3}), a.Scalar(ACL_FLOAT, 2.0),
                                                      a.IntArray({1}), false, ACL_FLOAT16, t(a, ACL_FLOAT, {2}), w, e);
       },
       aclnnLinalgVectorNorm, "out", kInvalid},
      {"LinalgVectorNorm_repeated_dim",
       [=](A& a, W w, E e) {
         return aclnnLinalgVectorNormGetWorkspaceSize(t(a, ACL_FLOAT, {2, 3}), a.Scalar(ACL_FLOAT, 2.0),
                                                      a.IntArray({1, -1}), false, ACL_FLOAT, t(a, ACL_FLOAT, {2}), w,
                                                      e);
       },
       aclnnLinalgVectorNorm, "dims", kInvalid},
      {"Renorm_rank1",
       [=](A& a, W w, E e) {
         return aclnnRenormGetWorkspaceSize(t(a, ACL_FLOAT, {4}), a.Scalar(ACL_FLOAT, 2.0), 0, a.Scalar(ACL_FLOAT, 1.0),
                                            t(a, ACL_FLOAT, {4}), w, e);
       },
       aclnnRenorm, "self", kInvalid},
      {"Renorm_negative_p",
       [=](A& a, W w, E e) {
         return aclnnRenormGetWorkspaceSize(t(a, ACL_FLOAT, {2, 4}), a.Scalar(ACL_FLOAT, -1.0), 0,
                                            a.Scalar(ACL_FLOAT, 1.0), t(a, ACL_FLOAT, {2, 4}), w, e);
       },
       aclnnRenorm, "'p'", kInvalid},
      {"Renorm_negative_maxNorm",
       [=](A& a, W w, E e) {
         return aclnnRenormGetWorkspaceSize(t(a, ACL_FLOAT, {2, 4}), a.Scalar(ACL_FLOAT, 2.0), 0,
                                            a.Scalar(ACL_FLOAT, -1.0), t(a, ACL_FLOAT, {2, 4}), w, e);
       },
       aclnnRenorm, "maxNorm", kInvalid},
  };
}

class NormVariantRejects : public ::testing::TestWithParam<Rejection> {};

TEST_P(NormVariantRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Cases, NormVariantRejects, ::testing::ValuesIn(Rejections()),
                         [](const ::testing::TestParamInfo<Rejection>& info) { return info.param.name; });

}  // namespace
}  // namespace canopy_test
