// aclnnDeformableConv2d against a float64 reference: every dtype; strides, asymmetric padding,
// dilation, groups and deformable groups; kernel taps moved inside, outside and exactly onto the
// map's borders and grid lines; masks; with and without the bias and deformOutOptional (the
// sampled columns); strided and transposed views; CANN's doc example; and the rejections with
// their codes.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_deformable_conv2d.h"
#include "llm_test_support.h"
#include "norm_test_support.h"

namespace canopy_test {
namespace {

struct Geometry {
  int64_t n = 1, channels = 4, h = 5, w = 6, outChannels = 4, kh = 3, kw = 3;
  std::vector<int64_t> stride = {1, 1, 1, 1}, padding = {1, 1, 1, 1}, dilation = {1, 1, 1, 1};
  int64_t groups = 1, deformableGroups = 1;
  int64_t OutH() const { return (h + padding[0] + padding[1] - (kh - 1) * dilation[2] - 1) / stride[2] + 1; }
  int64_t OutW() const { return (w + padding[2] + padding[3] - (kw - 1) * dilation[3] - 1) / stride[3] + 1; }
};

struct Case {
  std::string name;
  aclDataType dtype = ACL_FLOAT;
  Geometry g;
  bool bias = true, deformOut = true;
  View xView = View::kContiguous, weightView = View::kContiguous, offsetView = View::kContiguous,
       outView = View::kContiguous, deformView = View::kContiguous;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

double Bilinear(const std::vector<double>& x, int64_t base, int64_t h, int64_t w, double y, double xx) {
  if (!(y > -1 && xx > -1 && y < static_cast<double>(h) && xx < static_cast<double>(w))) return 0;
  const double y0 = std::floor(y), x0 = std::floor(xx);
  double v = 0;
  for (int dy = 0; dy < 2; ++dy) {
    for (int dx = 0; dx < 2; ++dx) {
      const auto r = static_cast<int64_t>(y0) + dy, c = static_cast<int64_t>(x0) + dx;
      if (r < 0 || r >= h || c < 0 || c >= w) continue;
      const double wy = dy != 0 ? y - y0 : 1 - (y - y0), wx = dx != 0 ? xx - x0 : 1 - (xx - x0);
      v += wy * wx * x[static_cast<size_t>(base + r * w + c)];
    }
  }
  return v;
}

struct Want {
  Expected out, deformOut;
};

Want Compute(const Geometry& g, const std::vector<double>& x, const std::vector<double>& weight,
             const std::vector<double>& offset, const std::vector<double>& bias, aclDataType dtype) {
  const int64_t oh = g.OutH(), ow = g.OutW(), taps = g.kh * g.kw, planes = g.deformableGroups * taps;
  const int64_t perGroup = g.channels / g.deformableGroups, cg = g.channels / g.groups;
  const int64_t ocg = g.outChannels / g.groups;
  // columns[n][c][k][oh][ow]
  std::vector<double> cols(static_cast<size_t>(g.n * g.channels * taps * oh * ow)), colMag(cols.size());
  const auto at = [](const std::vector<double>& v, int64_t i) { return v[static_cast<size_t>(i)]; };
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t c = 0; c < g.channels; ++c) {
      const int64_t d = c / perGroup;
      for (int64_t k = 0; k < taps; ++k) {
        for (int64_t i = 0; i < oh; ++i) {
          for (int64_t j = 0; j < ow; ++j) {
            const int64_t pos = (n * 3 * planes + d * taps + k) * oh * ow + i * ow + j;
            const double dx = at(offset, pos), dy = at(offset, pos + planes * oh * ow),
                         mask = at(offset, pos + 2 * planes * oh * ow);
            const int64_t tapRow = k / g.kw, tapColumn = k % g.kw;
            const int64_t baseY = i * g.stride[2] - g.padding[0] + tapRow * g.dilation[2];
            const int64_t baseX = j * g.stride[3] - g.padding[2] + tapColumn * g.dilation[3];
            const double y = static_cast<double>(baseY) + dy, xx = static_cast<double>(baseX) + dx;
            const auto index = static_cast<size_t>(((n * g.channels + c) * taps + k) * oh * ow + i * ow + j);
            cols[index] = Bilinear(x, (n * g.channels + c) * g.h * g.w, g.h, g.w, y, xx) * mask;
            // The f32 tap position's rounding moves the read by up to |x|'s slope (at most 4 here).
            colMag[index] = std::abs(mask) * 4 * (std::abs(y) + std::abs(xx) + 1);
          }
        }
      }
    }
  }
  Values out, deform;
  std::vector<double> magnitude, deformMagnitude;
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t o = 0; o < g.outChannels; ++o) {
      const int64_t group = o / ocg;
      for (int64_t p = 0; p < oh * ow; ++p) {
        double sum = bias.empty() ? 0.0 : at(bias, o), mag = std::abs(sum);
        for (int64_t ci = 0; ci < cg; ++ci) {
          const int64_t c = group * cg + ci;
          for (int64_t k = 0; k < taps; ++k) {
            const double term =
                at(weight, (o * cg + ci) * taps + k) * at(cols, ((n * g.channels + c) * taps + k) * oh * ow + p);
            sum += term;
            mag += std::abs(term);
          }
        }
        out.emplace_back(sum);
        magnitude.push_back(mag);
      }
    }
    // deformOut[n][c][i * kh + a][j * kw + b]
    for (int64_t c = 0; c < g.channels; ++c) {
      for (int64_t r = 0; r < oh * g.kh; ++r) {
        for (int64_t s = 0; s < ow * g.kw; ++s) {
          const int64_t k = (r % g.kh) * g.kw + s % g.kw, p = (r / g.kh) * ow + s / g.kw;
          const int64_t column = ((n * g.channels + c) * taps + k) * oh * ow + p;
          deform.emplace_back(at(cols, column));
          deformMagnitude.push_back(std::abs(at(cols, column)) + at(colMag, column));
        }
      }
    }
  }
  return {RelativeTolerance(out, dtype, 64, magnitude), RelativeTolerance(deform, dtype, 8, deformMagnitude)};
}

// Offsets: random ones within [-2.5, 2.5], and every third an integer or a half (a tap exactly on
// a grid line or a border, or half way); masks within [0, 1].
Values Offsets(Rng& rng, const Geometry& g) {
  const int64_t planes = g.deformableGroups * g.kh * g.kw, positions = g.OutH() * g.OutW();
  Values v;
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t plane = 0; plane < 3 * planes; ++plane) {
      for (int64_t p = 0; p < positions; ++p) {
        const int64_t i = plane * positions + p;
        if (plane >= 2 * planes) {
          v.emplace_back(rng.Uniform(0, 1));
        } else if (i % 3 == 0) {
          v.emplace_back(static_cast<double>(i % 7 - 3) * 0.5);
        } else {
          v.emplace_back(rng.Uniform(-2.5, 2.5));
        }
      }
    }
  }
  return v;
}

void RunCase(const Case& c, const Values* fixedOffset = nullptr, double fill = 0) {
  const Geometry& g = c.g;
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor x(c.dtype, {g.n, g.channels, g.h, g.w}, c.xView),
      weight(c.dtype, {g.outChannels, g.channels / g.groups, g.kh, g.kw}, c.weightView),
      offset(c.dtype, {g.n, 3 * g.deformableGroups * g.kh * g.kw, g.OutH(), g.OutW()}, c.offsetView),
      out(c.dtype, {g.n, g.outChannels, g.OutH(), g.OutW()}, c.outView);
  std::optional<DeviceTensor> bias, deformOut;
  if (fill != 0) {
    x.WriteView(Values(static_cast<size_t>(x.numel()), fill));
    weight.WriteView(Values(static_cast<size_t>(weight.numel()), fill));
  } else {
    x.FillRandom(rng, Range{-2, 2});
    weight.FillRandom(rng, Range{-1, 1});
  }
  offset.WriteView(fixedOffset != nullptr ? *fixedOffset : Offsets(rng, g));
  std::vector<double> biasValues;
  if (c.bias) {
    bias.emplace(c.dtype, Shape{g.outChannels});
    if (fill != 0) {
      bias->WriteView(Values(static_cast<size_t>(g.outChannels), 0.0));
    } else {
      bias->FillRandom(rng, Range{-1, 1});
    }
    biasValues = Reals(bias->ReadView());
  }
  if (c.deformOut) {
    deformOut.emplace(c.dtype, Shape{g.n, g.channels, g.OutH() * g.kh, g.OutW() * g.kw}, c.deformView);
    deformOut->Poison();
  }
  out.Poison();
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDeformableConv2dGetWorkspaceSize(a.Tensor(x), a.Tensor(weight), a.Tensor(offset), Or(a, bias),
                                                     a.IntArray({g.kh, g.kw}), a.IntArray(g.stride),
                                                     a.IntArray(g.padding), a.IntArray(g.dilation), g.groups,
                                                     g.deformableGroups, true, a.Tensor(out), Or(a, deformOut), w, e);
      },
      aclnnDeformableConv2d);
  const Want want =
      Compute(g, Reals(x.ReadView()), Reals(weight.ReadView()), Reals(offset.ReadView()), biasValues, c.dtype);
  ExpectNear(out.ReadView(), want.out, c.name + " out");
  if (deformOut) ExpectNear(deformOut->ReadView(), want.deformOut, c.name + " deformOut");
}

class DeformableConv2dTest : public ::testing::TestWithParam<Case> {};

TEST_P(DeformableConv2dTest, MatchesFloat64Reference) { RunCase(GetParam()); }

std::vector<Case> Cases() {
  const View st = View::kStepped, tr = View::kTransposed;
  std::vector<Case> cases;
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const std::string d = Name(dtype);
    cases.push_back({.name = "basic_" + d, .dtype = dtype, .g = {}});
    cases.push_back({.name = "strided_dilated_groups_" + d,
                     .dtype = dtype,
                     .g = {.n = 2,
                           .channels = 6,
                           .h = 7,
                           .w = 8,
                           .outChannels = 4,
                           .kh = 2,
                           .kw = 3,
                           .stride = {1, 1, 2, 1},
                           .padding = {0, 2, 1, 0},
                           .dilation = {1, 1, 2, 1},
                           .groups = 2,
                           .deformableGroups = 3},
                     .bias = false});
    cases.push_back({.name = "views_" + d,
                     .dtype = dtype,
                     .g = {.n = 2,
                           .channels = 4,
                           .h = 4,
                           .w = 5,
                           .outChannels = 6,
                           .kh = 3,
                           .kw = 2,
                           .stride = {1, 1, 1, 2},
                           .padding = {1, 0, 2, 1},
                           .dilation = {1, 1, 1, 1},
                           .groups = 2,
                           .deformableGroups = 2},
                     .xView = st,
                     .weightView = tr,
                     .offsetView = st,
                     .outView = st,
                     .deformView = tr});
  }
  cases.push_back({.name = "pointwise_no_deform_out",
                   .g = {.channels = 8, .h = 3, .w = 3, .outChannels = 2, .kh = 1, .kw = 1, .padding = {0, 0, 0, 0}},
                   .deformOut = false});
  cases.push_back({.name = "depthwise",
                   .g = {.n = 1,
                         .channels = 4,
                         .h = 6,
                         .w = 4,
                         .outChannels = 4,
                         .kh = 3,
                         .kw = 3,
                         .stride = {1, 1, 2, 2},
                         .padding = {1, 1, 1, 1},
                         .dilation = {1, 1, 1, 1},
                         .groups = 4,
                         .deformableGroups = 4},
                   .bias = true,
                   .deformOut = false,
                   .outView = tr});
  return cases;
}
INSTANTIATE_TEST_SUITE_P(Cases, DeformableConv2dTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

// CANN's doc example: x [1, 6, 2, 4], weight [4, 3, 5, 5] (groups 2), every x, weight and offset 1,
// a zero bias, kernel 5 x 5, padding 2.
TEST(DeformableConv2d, DocExample) {
  Case c{.name = "doc example",
         .g = {.n = 1,
               .channels = 6,
               .h = 2,
               .w = 4,
               .outChannels = 4,
               .kh = 5,
               .kw = 5,
               .padding = {2, 2, 2, 2},
               .groups = 2}};
  const Values ones(static_cast<size_t>(75 * 2 * 4), 1.0);
  RunCase(c, &ones, 1.0);
}

TEST(DeformableConv2d, Rejections) {
  struct Bad {
    const char* name;
    aclDataType x = ACL_FLOAT, weight = ACL_FLOAT, offset = ACL_FLOAT, bias = ACL_FLOAT, out = ACL_FLOAT,
                deform = ACL_FLOAT;
    aclFormat xFormat = ACL_FORMAT_NCHW, weightFormat = ACL_FORMAT_NCHW, biasFormat = ACL_FORMAT_ND;
    Shape xShape = {1, 4, 5, 5}, weightShape = {2, 4, 3, 3}, offsetShape = {1, 27, 3, 3}, biasShape = {2},
          outShape = {1, 2, 3, 3}, deformShape = {1, 4, 9, 9};
    std::vector<int64_t> kernel = {3, 3}, stride = {1, 1, 1, 1}, padding = {0, 0, 0, 0}, dilation = {1, 1, 1, 1};
    int64_t groups = 1, deformableGroups = 1;
    bool modulated = true;
    const char* keyword = "";
  };
  const Bad cases[] = {
      {.name = "x dtype", .x = ACL_DOUBLE, .keyword = "'x'"},
      {.name = "bias dtype", .bias = ACL_FLOAT16, .keyword = "biasOptional"},
      {.name = "deformOut dtype", .deform = ACL_BF16, .keyword = "deformOutOptional"},
      {.name = "offset dtype", .offset = ACL_FLOAT16, .keyword = "'offset'"},
      {.name = "weight dtype", .weight = ACL_BF16, .keyword = "'weight'"},
      {.name = "out dtype", .out = ACL_FLOAT16, .keyword = "'out'"},
      {.name = "x format", .xFormat = ACL_FORMAT_NHWC, .keyword = "'x'"},
      {.name = "weight format", .weightFormat = ACL_FORMAT_ND, .keyword = "'weight'"},
      {.name = "bias format", .biasFormat = ACL_FORMAT_NCHW, .keyword = "biasOptional"},
      {.name = "kernel size", .kernel = {3, 3, 1}, .keyword = "kernelSize"},
      {.name = "stride size", .stride = {1, 1}, .keyword = "stride"},
      {.name = "padding size", .padding = {0, 0}, .keyword = "padding"},
      {.name = "dilation size", .dilation = {1, 1, 1}, .keyword = "dilation"},
      {.name = "kernel zero", .kernel = {0, 3}, .keyword = "kernelSize"},
      {.name = "kernel taps", .kernel = {64, 33}, .keyword = "kernelSize"},
      // Products that overflowed int64: the taps (2^32 x 2^32), and an output extent.
      {.name = "kernel taps past int64", .kernel = {int64_t{1} << 32, int64_t{1} << 32}, .keyword = "kernelSize"},
      {.name = "extent past int64",
       .padding = {std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::max(), 0, 0},
       .keyword = "int64"},
      {.name = "stride N", .stride = {2, 1, 1, 1}, .keyword = "stride"},
      {.name = "stride H", .stride = {1, 1, 0, 1}, .keyword = "stride"},
      {.name = "dilation C", .dilation = {1, 2, 1, 1}, .keyword = "dilation"},
      {.name = "dilation W", .dilation = {1, 1, 1, -1}, .keyword = "dilation"},
      {.name = "groups", .groups = 0, .keyword = "groups"},
      {.name = "deformable groups", .deformableGroups = 0, .keyword = "deformableGroups"},
      {.name = "modulated", .modulated = false, .keyword = "modulated"},
      {.name = "x rank", .xShape = {4, 5, 5}, .keyword = "'x'"},
      {.name = "bias rank", .biasShape = {1, 2}, .keyword = "biasOptional"},
      {.name = "deformOut rank", .deformShape = {4, 9, 9}, .keyword = "deformOutOptional"},
      {.name = "deformable groups divide", .deformableGroups = 3, .keyword = "deformableGroups"},
      {.name = "groups divide", .weightShape = {2, 1, 3, 3}, .groups = 3, .keyword = "groups"},
      {.name = "weight shape", .weightShape = {2, 4, 3, 2}, .keyword = "'weight'"},
      {.name = "offset shape", .offsetShape = {1, 18, 3, 3}, .keyword = "'offset'"},
      {.name = "bias shape", .biasShape = {3}, .keyword = "biasOptional"},
      {.name = "out shape", .outShape = {1, 2, 3, 4}, .keyword = "'out'"},
      {.name = "deformOut shape", .deformShape = {1, 4, 3, 3}, .keyword = "deformOutOptional"},
      {.name = "product depth",
       .xShape = {1, 32, 64, 64},
       .weightShape = {2, 32, 64, 32},
       .offsetShape = {1, 6144, 1, 33},
       .outShape = {1, 2, 1, 33},
       .deformShape = {1, 32, 64, 1056},
       .kernel = {64, 32},
       .keyword = "65535"},
      {.name = "empty x",
       .xShape = {0, 4, 5, 5},
       .offsetShape = {0, 27, 3, 3},
       .outShape = {0, 2, 3, 3},
       .deformShape = {0, 4, 9, 9},
       .keyword = "empty"},
  };
  for (const Bad& bad : cases) {
    SCOPED_TRACE(bad.name);
    DeviceTensor x(bad.x, bad.xShape), weight(bad.weight, bad.weightShape), offset(bad.offset, bad.offsetShape),
        bias(bad.bias, bad.biasShape), out(bad.out, bad.outShape), deform(bad.deform, bad.deformShape);
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnDeformableConv2dGetWorkspaceSize(
              a.Tensor(x, bad.xFormat), a.Tensor(weight, bad.weightFormat), a.Tensor(offset, bad.xFormat),
              a.Tensor(bias, bad.biasFormat), a.IntArray(bad.kernel), a.IntArray(bad.stride), a.IntArray(bad.padding),
              a.IntArray(bad.dilation), bad.groups, bad.deformableGroups, bad.modulated, a.Tensor(out, bad.xFormat),
              a.Tensor(deform, bad.xFormat), w, e);
        },
        aclnnDeformableConv2d);
    ExpectRejectedWith(run, ACLNN_ERR_PARAM_INVALID, {bad.keyword});
  }
}

}  // namespace
}  // namespace canopy_test
