// aclnnGroupNormSiluQuant: GroupNorm of self [N, C, *] in `group` groups, times gamma plus beta per
// channel (1 and 0 when absent), silu, then quantised to INT8 by one or C quantScale values (times
// the reciprocal, through half, half to even, saturating), with meanOut and rstdOut in self's dtype;
// against a float64 reference in both A2 dtypes, with strided views, empty spatial dims (mean 0,
// rstd NaN), CANN's example shapes and rejections with CANN's codes.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_group_norm_silu_quant.h"
#include "norm_test_support.h"

namespace canopy_test {
namespace {

constexpr double kEps = 1e-5;

struct SiluQuantCase {
  std::string name;
  aclDataType dtype;
  Shape self;
  int64_t group;
  bool perChannelScale = false, affine = true;
  View selfView = View::kContiguous, outView = View::kContiguous;
};
void PrintTo(const SiluQuantCase& c, std::ostream* os) { *os << c.name; }

class GroupNormSiluQuantTest : public ::testing::TestWithParam<SiluQuantCase> {};

TEST_P(GroupNormSiluQuantTest, MatchesFloat64Reference) {
  const SiluQuantCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const int64_t n = c.self[0], channels = c.self[1], hxw = NumElements(c.self) / (n * channels);
  const Shape stats{n, c.group};
  DeviceTensor self(c.dtype, c.self, c.selfView), scale(ACL_FLOAT, {c.perChannelScale ? channels : 1}),
      out(ACL_INT8, c.self, c.outView), mean(c.dtype, stats, View::kStepped), rstd(c.dtype, stats);
  std::optional<DeviceTensor> gamma, beta;
  const std::vector<double> x = Reals(self.FillRandom(rng, Range{-3, 3}));
  std::vector<double> g(static_cast<size_t>(channels), 1.0), b(static_cast<size_t>(channels), 0.0);
  if (c.affine) {
    gamma.emplace(c.dtype, Shape{channels}, View::kStepped);
    beta.emplace(c.dtype, Shape{channels});
    g = Reals(gamma->FillRandom(rng, Range{-2, 2}));
    b = Reals(beta->FillRandom(rng, Range{-1, 1}));
  }
  // Scales that spread the silu over INT8's range and saturate a few values.
  const std::vector<double> s = Reals(scale.FillRandom(rng, Range{0.01, 0.03}));
  for (DeviceTensor* t : {&out, &mean, &rstd}) t->Poison();
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnGroupNormSiluQuantGetWorkspaceSize(a.Tensor(self), Or(a, gamma), Or(a, beta), a.Tensor(scale),
                                                       c.group, kEps, true, a.Tensor(out), a.Tensor(mean),
                                                       a.Tensor(rstd), w, e);
      },
      aclnnGroupNormSiluQuant);
  const int64_t perGroup = channels / c.group * hxw;
  std::vector<double> q(x.size()), means, rstds;
  for (int64_t row = 0; row < n * c.group; ++row) {
    const double* values = &x[static_cast<size_t>(row * perGroup)];
    double m = 0, var = 0;
    for (int64_t j = 0; j < perGroup; ++j) m += values[j];
    m /= static_cast<double>(perGroup);
    for (int64_t j = 0; j < perGroup; ++j) var += (values[j] - m) * (values[j] - m);
    const double r = 1 / std::sqrt(var / static_cast<double>(perGroup) + kEps);
    means.push_back(m);
    rstds.push_back(r);
    for (int64_t j = 0; j < perGroup; ++j) {
      const int64_t flat = row * perGroup + j, channel = flat / hxw % channels;
      const auto k = static_cast<size_t>(channel);
      const double y = (values[j] - m) * r * g[k] + b[k];
      const double silu = y / (1 + std::exp(-y));
      q[static_cast<size_t>(flat)] = silu * (1 / s[s.size() == 1 ? 0 : k]);
    }
  }
  ExpectNear(out.ReadView(), ThroughHalfQuant(q), c.name + " out");
  ExpectNear(mean.ReadView(), Within(means, 1.0, c.dtype, 2), c.name + " meanOut");
  ExpectNear(rstd.ReadView(), Within(rstds, 0.0, c.dtype, 4), c.name + " rstdOut");
}

std::vector<SiluQuantCase> SiluQuantCases() {
  std::vector<SiluQuantCase> cases;
  for (const aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    const std::string d = Name(dtype);
    cases.push_back({.name = "example_shapes_" + d, .dtype = dtype, .self = {1, 2, 4, 4}, .group = 2});
    cases.push_back({.name = "per_channel_scale_" + d,
                     .dtype = dtype,
                     .self = {2, 6, 5},
                     .group = 3,
                     .perChannelScale = true,
                     .selfView = View::kTransposed,
                     .outView = View::kStepped});
    cases.push_back({.name = "no_affine_" + d,
                     .dtype = dtype,
                     .self = {3, 4, 2, 3},
                     .group = 2,
                     .affine = false,
                     .selfView = View::kReversed,
                     .outView = View::kTransposed});
    cases.push_back({.name = "rank2_" + d, .dtype = dtype, .self = {4, 8}, .group = 4, .perChannelScale = true});
    cases.push_back({.name = "large_groups_" + d,
                     .dtype = dtype,
                     .self = {2, 4, 40, 30},
                     .group = 2,
                     .perChannelScale = true,
                     .selfView = View::kOffset});
  }
  return cases;
}
INSTANTIATE_TEST_SUITE_P(Cases, GroupNormSiluQuantTest, ::testing::ValuesIn(SiluQuantCases()),
                         [](const ::testing::TestParamInfo<SiluQuantCase>& info) { return info.param.name; });

TEST(GroupNormSiluQuant, EmptySpatialFillsStatistics) {
  DeviceTensor self(ACL_FLOAT16, {2, 4, 0}), scale(ACL_FLOAT, {1}), out(ACL_INT8, {2, 4, 0}), mean(ACL_FLOAT16, {2, 2}),
      rstd(ACL_FLOAT16, {2, 2});
  scale.WriteView({0.5});
  mean.Poison();
  rstd.Poison();
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnGroupNormSiluQuantGetWorkspaceSize(a.Tensor(self), nullptr, nullptr, a.Tensor(scale), 2, kEps, true,
                                                       a.Tensor(out), a.Tensor(mean), a.Tensor(rstd), w, e);
      },
      aclnnGroupNormSiluQuant);
  for (const Value& v : mean.ReadView()) EXPECT_EQ(v.real(), 0.0);
  for (const Value& v : rstd.ReadView()) EXPECT_TRUE(std::isnan(v.real()));
}

TEST(GroupNormSiluQuant, Rejections) {
  // A valid call, then one change each.
  struct Call {
    aclDataType self = ACL_FLOAT16, gamma = ACL_FLOAT16, scale = ACL_FLOAT, out = ACL_INT8, stats = ACL_FLOAT16;
    Shape shape{2, 4, 3}, gammaShape{4}, scaleShape{1}, outShape{2, 4, 3}, statsShape{2, 2};
    int64_t group = 2;
    double eps = kEps;
    bool silu = true;
  };
  struct Bad {
    const char* name;
    std::function<void(Call&)> change;
    const char* keyword;
  };
  const Bad cases[] = {
      {"f32 self", [](Call& c) { c.self = c.gamma = c.stats = ACL_FLOAT; }, "'self'"},
      {"gamma dtype", [](Call& c) { c.gamma = ACL_BF16; }, "'gammaOptional'"},
      {"f16 quantScale", [](Call& c) { c.scale = ACL_FLOAT16; }, "'quantScale'"},
      {"out dtype", [](Call& c) { c.out = ACL_UINT8; }, "'out'"},
      {"stats dtype", [](Call& c) { c.stats = ACL_FLOAT; }, "'meanOut'"},
      {"rank 1", [](Call& c) { c.shape = c.outShape = {4}; }, "'self'"},
      {"out shape",
       [](Call& c) {
         c.outShape = {2, 12};
       },
       "'out'"},
      {"stats shape",
       [](Call& c) {
         c.statsShape = {2, 4};
       },
       "'meanOut'"},
      {"gamma shape", [](Call& c) { c.gammaShape = {2}; }, "'gamma'"},
      {"quantScale shape", [](Call& c) { c.scaleShape = {2}; }, "'quantScale'"},
      {"group 0",
       [](Call& c) {
         c.group = 0, c.statsShape = {2, 0};
       },
       "'group'"},
      {"N of 0",
       [](Call& c) {
         c.shape = c.outShape = {0, 4, 3}, c.statsShape = {0, 2};
       },
       "N and C"},
      {"eps 0", [](Call& c) { c.eps = 0; }, "'eps'"},
      {"silu off", [](Call& c) { c.silu = false; }, "activateSilu"},
      {"C not divisible",
       [](Call& c) {
         c.group = 3, c.statsShape = {2, 3};
       },
       "divisible"},
  };
  for (const Bad& bad : cases) {
    Call c;
    bad.change(c);
    DeviceTensor self(c.self, c.shape), gamma(c.gamma, c.gammaShape), beta(c.gamma, c.gammaShape),
        scale(c.scale, c.scaleShape), out(c.out, c.outShape), mean(c.stats, c.statsShape), rstd(c.stats, c.statsShape);
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnGroupNormSiluQuantGetWorkspaceSize(a.Tensor(self), a.Tensor(gamma), a.Tensor(beta),
                                                         a.Tensor(scale), c.group, c.eps, c.silu, a.Tensor(out),
                                                         a.Tensor(mean), a.Tensor(rstd), w, e);
        },
        aclnnGroupNormSiluQuant);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
}

}  // namespace
}  // namespace canopy_test
