// RoiAlign and RoiAlignV2 through the public API: against a float64
// re-derivation of torchvision's roi_align (bilinear samples, a sampling grid
// fixed or adaptive, avg or max, aligned or not, regions partly outside the
// image), against the closed form on a linear image (a bilinear sample of a
// linear function is exact, so each bin's average is the function at the
// mean of its sample points), every A2 dtype, empty regions (zeros), an image
// index out of range (a stream error) and the rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_roi_align.h"
#include "aclnnop/aclnn_roi_align_v2.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

struct Geometry {
  int64_t n, c, h, w, ph, pw, sampling;
  double scale;
  bool aligned, max;
};

double Bilinear(const Values& img, const Geometry& g, int64_t b, int64_t ch, double y, double x) {
  if (y < -1 || y > static_cast<double>(g.h) || x < -1 || x > static_cast<double>(g.w)) return 0;
  y = std::max(y, 0.0);
  x = std::max(x, 0.0);
  auto yl = static_cast<int64_t>(y), xl = static_cast<int64_t>(x);
  int64_t yh = yl + 1, xh = xl + 1;
  if (yl >= g.h - 1) y = static_cast<double>(yh = yl = g.h - 1);
  if (xl >= g.w - 1) x = static_cast<double>(xh = xl = g.w - 1);
  auto at = [&](int64_t yy, int64_t xx) {
    return img[static_cast<size_t>(((b * g.c + ch) * g.h + yy) * g.w + xx)].real();
  };
  const double ly = y - static_cast<double>(yl), lx = x - static_cast<double>(xl);
  return (1 - ly) * (1 - lx) * at(yl, xl) + (1 - ly) * lx * at(yl, xh) + ly * (1 - lx) * at(yh, xl) +
         ly * lx * at(yh, xh);
}

// out [K, C, PH, PW] for boxes (b, x1, y1, x2, y2).
Values Reference(const Values& img, const std::vector<std::array<double, 5>>& boxes, const Geometry& g) {
  Values out;
  for (const auto& box : boxes) {
    const double off = g.aligned ? 0.5 : 0;
    const double x0 = box[1] * g.scale - off, y0 = box[2] * g.scale - off;
    double rw = box[3] * g.scale - off - x0, rh = box[4] * g.scale - off - y0;
    if (!g.aligned) {
      rw = std::max(rw, 1.0);
      rh = std::max(rh, 1.0);
    }
    const double bh = rh / static_cast<double>(g.ph), bw = rw / static_cast<double>(g.pw);
    const int64_t gh = g.sampling > 0 ? g.sampling : static_cast<int64_t>(std::ceil(rh / static_cast<double>(g.ph)));
    const int64_t gw = g.sampling > 0 ? g.sampling : static_cast<int64_t>(std::ceil(rw / static_cast<double>(g.pw)));
    for (int64_t ch = 0; ch < g.c; ++ch) {
      for (int64_t i = 0; i < g.ph; ++i) {
        for (int64_t j = 0; j < g.pw; ++j) {
          double acc = g.max ? -std::numeric_limits<double>::infinity() : 0;
          for (int64_t iy = 0; iy < gh; ++iy) {
            for (int64_t ix = 0; ix < gw; ++ix) {
              const double y =
                  y0 + static_cast<double>(i) * bh + (static_cast<double>(iy) + 0.5) * bh / static_cast<double>(gh);
              const double x =
                  x0 + static_cast<double>(j) * bw + (static_cast<double>(ix) + 0.5) * bw / static_cast<double>(gw);
              const double v = Bilinear(img, g, static_cast<int64_t>(box[0]), ch, y, x);
              acc = g.max ? std::max(acc, v) : acc + v;
            }
          }
          out.emplace_back(g.max ? (gh * gw == 0 ? 0 : acc) : acc / static_cast<double>(std::max<int64_t>(gh * gw, 1)));
        }
      }
    }
  }
  return out;
}

std::vector<std::array<double, 5>> RandomBoxes(Rng& rng, int64_t k, const Geometry& g) {
  std::vector<std::array<double, 5>> boxes;
  for (int64_t r = 0; r < k; ++r) {
    const double x1 = rng.Uniform(-2, static_cast<double>(g.w) / g.scale),
                 y1 = rng.Uniform(-2, static_cast<double>(g.h) / g.scale);
    boxes.push_back({std::floor(rng.Uniform(0, static_cast<double>(g.n) - 0.01)), x1, y1, x1 + rng.Uniform(0, 6),
                     y1 + rng.Uniform(0, 6)});
  }
  return boxes;
}

Expected Near(const Values& want, aclDataType dtype) {
  Expected e{want, {}};
  for (const Value& v : want)
    e.tolerance.push_back(32 * UnitRoundoff(ACL_FLOAT) * std::max(std::abs(v.real()), 1.0) +
                          2 * UnitRoundoff(dtype) * std::abs(v.real()));
  return e;
}

TEST(RoiAlign, MatchesTorchvisionDerivation) {
  const std::vector<Geometry> geometries = {{2, 3, 7, 9, 2, 3, 0, 1.0, false, false},
                                            {2, 3, 7, 9, 3, 2, 2, 0.5, false, true},
                                            {1, 4, 5, 5, 1, 1, 0, 2.0, false, false},
                                            {3, 2, 8, 6, 2, 2, 1, 1.0, false, true}};
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16}) {
    for (const Geometry& g : geometries) {
      SCOPED_TRACE(std::string(Name(dtype)) + (g.max ? " max" : " avg") + " sampling " + std::to_string(g.sampling));
      Rng rng = Rng::ForCurrentTest();
      DeviceTensor self(dtype, {g.n, g.c, g.h, g.w});
      const Values img = self.FillRandom(rng, Range{-3, 3});
      const int64_t k = 5;
      const auto boxes = RandomBoxes(rng, k, g);
      Values rois, indices;
      for (const auto& b : boxes) {
        indices.emplace_back(b[0]);
        for (int d = 1; d < 5; ++d) rois.push_back(ConvertValue(b[static_cast<size_t>(d)], dtype));
      }
      std::vector<std::array<double, 5>> rounded = boxes;
      for (size_t r = 0; r < boxes.size(); ++r) {
        for (int d = 1; d < 5; ++d)
          rounded[r][static_cast<size_t>(d)] = rois[r * 4 + static_cast<size_t>(d - 1)].real();
      }
      const auto roisTensor = Upload(dtype, {k, 4}, rois);
      const auto indexTensor = Upload(ACL_INT32, {k}, indices);
      DeviceTensor out(dtype, {k, g.c, g.ph, g.pw});
      ExpectRuns(
          [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            return aclnnRoiAlignGetWorkspaceSize(a.Tensor(self, ACL_FORMAT_NCHW), a.Tensor(*roisTensor),
                                                 a.Tensor(*indexTensor), g.max ? "max" : "avg", static_cast<int>(g.ph),
                                                 static_cast<int>(g.pw), static_cast<int>(g.sampling),
                                                 static_cast<float>(g.scale), a.Tensor(out, ACL_FORMAT_NCHW), w, e);
          },
          aclnnRoiAlign);
      ExpectNear(out.ReadView(), Near(Reference(img, rounded, g), dtype), "RoiAlign");
    }
  }
}

TEST(RoiAlignV2, MatchesTorchvisionDerivation) {
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16}) {
    for (const bool aligned : {false, true}) {
      for (const int64_t sampling : {int64_t{0}, int64_t{2}}) {
        SCOPED_TRACE(std::string(Name(dtype)) + (aligned ? " aligned" : "") + " sampling " + std::to_string(sampling));
        const Geometry g{2, 3, 8, 7, 3, 2, sampling, 0.5, aligned, false};
        Rng rng = Rng::ForCurrentTest();
        DeviceTensor self(dtype, {g.n, g.c, g.h, g.w}, View::kTransposed);
        const Values img = self.FillRandom(rng, Range{-3, 3});
        const int64_t k = 6;
        auto boxes = RandomBoxes(rng, k, g);
        Values flat;
        for (auto& b : boxes) {
          for (double& v : b) v = ConvertValue(v, dtype).real();
          for (double v : b) flat.emplace_back(v);
        }
        const auto boxTensor = Upload(dtype, {k, 5}, flat);
        DeviceTensor out(dtype, {k, g.c, g.ph, g.pw}, View::kStepped);
        ExpectRuns(
            [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
              return aclnnRoiAlignV2GetWorkspaceSize(a.Tensor(self, ACL_FORMAT_NCHW), a.Tensor(*boxTensor), g.ph, g.pw,
                                                     static_cast<float>(g.scale), g.sampling, aligned,
                                                     a.Tensor(out, ACL_FORMAT_NCHW), w, e);
            },
            aclnnRoiAlignV2);
        ExpectNear(out.ReadView(), Near(Reference(img, boxes, g), dtype), "RoiAlignV2");
      }
    }
  }
}

// On f(y, x) = 2x - y + 1 each bin's average is f at its centre (boxes well inside the image, aligned).
TEST(RoiAlignV2, LinearImageGivesBinCentres) {
  const int64_t h = 10, w = 12;
  Values img;
  for (int64_t y = 0; y < h; ++y) {
    for (int64_t x = 0; x < w; ++x) img.emplace_back(2.0 * static_cast<double>(x) - static_cast<double>(y) + 1);
  }
  const auto self = Upload(ACL_FLOAT, {1, 1, h, w}, img);
  const auto boxes = Upload(ACL_FLOAT, {1, 5}, {0, 2, 3, 8, 7});
  DeviceTensor out(ACL_FLOAT, {1, 1, 2, 3});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnRoiAlignV2GetWorkspaceSize(a.Tensor(*self, ACL_FORMAT_NCHW), a.Tensor(*boxes), 2, 3, 1.0F, 2, true,
                                               a.Tensor(out, ACL_FORMAT_NCHW), ws, e);
      },
      aclnnRoiAlignV2);
  // aligned: the region is [1.5, 7.5] x [2.5, 6.5]; bins 2 wide and 2 high.
  Values want;
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) {
      const double cy = 2.5 + 2.0 * i + 1.0, cx = 1.5 + 2.0 * j + 1.0;
      want.emplace_back(2 * cx - cy + 1);
    }
  }
  Expected e{want, std::vector<double>(want.size(), 1e-5)};
  ExpectNear(out.ReadView(), e, "linear image");
}

TEST(RoiAlign, EmptyRegionsGiveZerosAndBadImagesFail) {
  const auto rois = Upload(ACL_FLOAT, {2, 4}, {0, 0, 2, 2, 1, 1, 3, 3});
  const auto indices = Upload(ACL_INT32, {2}, {0, 2});
  DeviceTensor out(ACL_FLOAT, {2, 3, 2, 2});
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun bad = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnRoiAlignGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {2, 3, 4, 4}, View::kContiguous, ACL_FORMAT_NCHW),
                                             a.Tensor(*rois), a.Tensor(*indices), "avg", 2, 2, 0, 1.0F,
                                             a.Tensor(out, ACL_FORMAT_NCHW), w, e);
      },
      aclnnRoiAlign);
  EXPECT_EQ(bad.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(bad);
  EXPECT_NE(bad.message.find("image 2"), std::string::npos) << bad.message;
  EXPECT_EQ(out.DownloadBytes(), before);
  const OpRun empty = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnRoiAlignGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {2, 3, 0, 4}, View::kContiguous, ACL_FORMAT_NCHW),
                                             a.Tensor(*rois), a.Tensor(*indices), "avg", 2, 2, 0, 1.0F,
                                             a.Tensor(out, ACL_FORMAT_NCHW), w, e);
      },
      aclnnRoiAlign);
  ASSERT_TRUE(empty.ok()) << Describe(empty);
  ExpectExact(out.ReadView(), Values(24, Value(0)), "zeros");
}

// Boxes no image fits: a NaN box with samplingRatio samples NaN (it used to
// convert NaN to an integer); without it, its grid is NaN and the run fails, as
// it does for a box whose bins would take more than 2^26 samples (1e30 wide:
// the loop would never end) and for a V2 image index of NaN or 1e30 (converted
// to an integer before the check). A failing run writes nothing.
TEST(RoiAlignV2, BoxesNoImageFits) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto self = Upload(ACL_FLOAT, {1, 1, 4, 4}, Values(16, Value(1.0)));
  auto run = [&](const Values& box, int64_t sampling, DeviceTensor& out) {
    const auto boxes = Upload(ACL_FLOAT, {1, 5}, box);
    return RunOp(
        [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
          return aclnnRoiAlignV2GetWorkspaceSize(a.Tensor(*self, ACL_FORMAT_NCHW), a.Tensor(*boxes), 1, 1, 1.0F,
                                                 sampling, false, a.Tensor(out, ACL_FORMAT_NCHW), ws, e);
        },
        aclnnRoiAlignV2);
  };
  DeviceTensor out(ACL_FLOAT, {1, 1, 1, 1});
  const OpRun fixed = run({0, nan, 0, 2, 2}, 2, out);
  ASSERT_TRUE(fixed.ok()) << Describe(fixed);
  EXPECT_TRUE(std::isnan(out.ReadView()[0].real()));
  for (const Values& box :
       {Values{0, nan, 0, 2, 2}, Values{0, 0, 0, 1e30, 2}, Values{nan, 0, 0, 2, 2}, Values{1e30, 0, 0, 2, 2}}) {
    out.Poison();
    const std::vector<uint8_t> before = out.DownloadBytes();
    const OpRun bad = run(box, 0, out);
    EXPECT_EQ(bad.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(bad);
    EXPECT_NE(bad.message.find("region 0"), std::string::npos) << bad.message;
    EXPECT_EQ(out.DownloadBytes(), before);
  }
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> Rejections() {
  auto v1 = [](aclDataType dtype, Shape self, Shape rois, aclDataType index, Shape indices, const char* mode,
               int sampling, float scale, Shape out, aclFormat format = ACL_FORMAT_NCHW) {
    return [=](A& a, W w, E e) {
      return aclnnRoiAlignGetWorkspaceSize(a.NewTensor(dtype, self, View::kContiguous, format),
                                           a.NewTensor(dtype, rois), a.NewTensorIn(Range{0, 0}, index, indices), mode,
                                           2, 2, sampling, scale, a.NewTensor(dtype, out, View::kContiguous, format), w,
                                           e);
    };
  };
  auto v2 = [](aclDataType dtype, Shape self, Shape boxes, int64_t sampling, float scale, Shape out) {
    return [=](A& a, W w, E e) {
      return aclnnRoiAlignV2GetWorkspaceSize(a.NewTensor(dtype, self, View::kContiguous, ACL_FORMAT_NCHW),
                                             a.NewTensorIn(Range{0, 0}, dtype, boxes), 2, 2, scale, sampling, false,
                                             a.NewTensor(dtype, out, View::kContiguous, ACL_FORMAT_NCHW), w, e);
    };
  };
  const aclDataType f = ACL_FLOAT, i = ACL_INT32;
  const Shape s = {1, 3, 4, 4}, o = {2, 3, 2, 2};
  return {
      {"V1_bf16", v1(ACL_BF16, s, {2, 4}, i, {2}, "avg", 0, 1, o), aclnnRoiAlign, "'self'"},
      {"V1_index_int64", v1(f, s, {2, 4}, ACL_INT64, {2}, "avg", 0, 1, o), aclnnRoiAlign, "'batchIndices'"},
      {"V1_format", v1(f, s, {2, 4}, i, {2}, "avg", 0, 1, o, ACL_FORMAT_ND), aclnnRoiAlign, "NCHW"},
      {"V1_rois_shape", v1(f, s, {2, 5}, i, {2}, "avg", 0, 1, o), aclnnRoiAlign, "[K, 4]"},
      {"V1_indices_count", v1(f, s, {2, 4}, i, {3}, "avg", 0, 1, o), aclnnRoiAlign, "[K, 4]"},
      {"V1_out_shape", v1(f, s, {2, 4}, i, {2}, "avg", 0, 1, {2, 3, 2, 3}), aclnnRoiAlign, "'out'"},
      {"V1_mode", v1(f, s, {2, 4}, i, {2}, "sum", 0, 1, o), aclnnRoiAlign, "'mode'"},
      {"V1_sampling", v1(f, s, {2, 4}, i, {2}, "avg", -1, 1, o), aclnnRoiAlign, "samplingRatio"},
      {"V1_scale", v1(f, s, {2, 4}, i, {2}, "avg", 0, 0, o), aclnnRoiAlign, "spatialScale"},
      {"V2_double", v2(ACL_DOUBLE, s, {2, 5}, 0, 1, o), aclnnRoiAlignV2, "'self'"},
      {"V2_empty_image", v2(f, {1, 3, 0, 4}, {2, 5}, 0, 1, o), aclnnRoiAlignV2, "'self'"},
      {"V2_boxes_shape", v2(f, s, {2, 4}, 0, 1, o), aclnnRoiAlignV2, "'boxes'"},
      {"V2_out_shape", v2(f, s, {2, 5}, 0, 1, {1, 3, 2, 2}), aclnnRoiAlignV2, "'out'"},
      {"V2_scale", v2(f, s, {2, 5}, 0, -1, o), aclnnRoiAlignV2, "spatialScale"},
  };
}

class RoiAlignRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(RoiAlignRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, RoiAlignRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
