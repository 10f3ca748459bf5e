// Resize through the public API against a float64 reference of TensorFlow's
// ResizeNearestNeighborV2 / ResizeBilinearV2 (no corner alignment, no
// half-pixel centres: source = i * in / out), up and down, both A2 dtypes,
// strided views, a hand-worked 2x2 to 4x4 case, and the rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_resize.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

// Per output index: (lo, hi, weight of hi).
std::vector<std::tuple<int64_t, int64_t, double>> Taps(int64_t in, int64_t out, bool nearest) {
  const float scale = static_cast<float>(in) / static_cast<float>(out);
  std::vector<std::tuple<int64_t, int64_t, double>> taps;
  for (int64_t i = 0; i < out; ++i) {
    const double source = static_cast<double>(static_cast<float>(i) * scale);
    const int64_t lo = std::min(static_cast<int64_t>(std::floor(source)), in - 1);
    taps.emplace_back(lo, std::min(lo + 1, in - 1), nearest ? 0.0 : source - static_cast<double>(lo));
  }
  return taps;
}

OpRun RunResize(const DeviceTensor& self, const char* mode, const DeviceTensor& out,
                std::vector<float> scales = {1, 1, 2, 2}) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnResizeGetWorkspaceSize(a.Tensor(self, ACL_FORMAT_NCHW), a.FloatArray(scales), mode,
                                           a.Tensor(out, ACL_FORMAT_NCHW), w, e);
      },
      aclnnResize);
}

TEST(Resize, MatchesTensorFlowsAsymmetricRule) {
  struct Case {
    Shape in;
    int64_t oh, ow;
  };
  const std::vector<Case> cases = {
      {{1, 2, 4, 5}, 8, 10}, {{2, 1, 9, 7}, 4, 3}, {{1, 3, 5, 5}, 7, 2}, {{1, 1, 1, 3}, 3, 1}};
  for (const char* mode : {"nearest", "bilinear"}) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16}) {
      for (const Case& c : cases) {
        SCOPED_TRACE(std::string(mode) + " " + Name(dtype) + " " + ShapeString(c.in) + " -> " + std::to_string(c.oh) +
                     "x" + std::to_string(c.ow));
        Rng rng = Rng::ForCurrentTest();
        DeviceTensor self(dtype, c.in, View::kTransposed);
        const Values x = self.FillRandom(rng, Range{-4, 4});
        DeviceTensor out(dtype, {c.in[0], c.in[1], c.oh, c.ow}, View::kStepped);
        // out's H and W as self's times scales (CANN's A2 host code checks them).
        const std::vector<float> scales = {1, 1, static_cast<float>(c.oh) / static_cast<float>(c.in[2]),
                                           static_cast<float>(c.ow) / static_cast<float>(c.in[3])};
        const OpRun run = RunResize(self, mode, out, scales);
        ASSERT_TRUE(run.ok()) << Describe(run);
        const bool nearest = std::string(mode) == "nearest";
        const auto rows = Taps(c.in[2], c.oh, nearest), cols = Taps(c.in[3], c.ow, nearest);
        Expected want;
        for (int64_t p = 0; p < c.in[0] * c.in[1]; ++p) {
          for (const auto& [y0, y1, ty] : rows) {
            for (const auto& [x0, x1, tx] : cols) {
              auto at = [&](int64_t y, int64_t xx) {
                return x[static_cast<size_t>((p * c.in[2] + y) * c.in[3] + xx)].real();
              };
              const double v =
                  (1 - ty) * ((1 - tx) * at(y0, x0) + tx * at(y0, x1)) + ty * ((1 - tx) * at(y1, x0) + tx * at(y1, x1));
              want.values.emplace_back(v);
              want.tolerance.push_back(8 * UnitRoundoff(ACL_FLOAT) * 4 + 2 * UnitRoundoff(dtype) * std::abs(v));
            }
          }
        }
        ExpectNear(out.ReadView(), want, "Resize");
      }
    }
  }
}

// [[0, 1], [2, 3]] to 4 x 4: sources 0, 0.5, 1, 1.5 on each axis, the last clamped to the edge.
TEST(Resize, BilinearByHand) {
  const auto self = Upload(ACL_FLOAT, {1, 1, 2, 2}, {0, 1, 2, 3});
  DeviceTensor out(ACL_FLOAT, {1, 1, 4, 4});
  ASSERT_TRUE(RunResize(*self, "bilinear", out).ok());
  ExpectExact(out.ReadView(), {0, 0.5, 1, 1, 1, 1.5, 2, 2, 2, 2.5, 3, 3, 2, 2.5, 3, 3}, "bilinear 2x2 to 4x4");
  ASSERT_TRUE(RunResize(*self, "nearest", out).ok());
  ExpectExact(out.ReadView(), {0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3}, "nearest 2x2 to 4x4");
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> Rejections() {
  auto call = [](aclDataType dtype, Shape in, const char* mode, aclDataType outDtype, Shape out,
                 std::vector<float> scales, aclFormat format) {
    return [=](A& a, W w, E e) {
      return aclnnResizeGetWorkspaceSize(a.NewTensor(dtype, in, View::kContiguous, format), a.FloatArray(scales), mode,
                                         a.NewTensor(outDtype, out, View::kContiguous, format), w, e);
    };
  };
  const aclDataType f = ACL_FLOAT;
  const Shape in = {1, 2, 4, 4}, o = {1, 2, 8, 8};
  const std::vector<float> s = {1, 1, 2, 2};
  const aclFormat nchw = ACL_FORMAT_NCHW;
  return {
      {"mode", call(f, in, "bicubic", f, o, s, nchw), aclnnResize, "'mode'"},
      {"bf16", call(ACL_BF16, in, "nearest", ACL_BF16, o, s, nchw), aclnnResize, "'self'"},
      {"out_dtype", call(f, in, "nearest", ACL_FLOAT16, o, s, nchw), aclnnResize, "'out'"},
      {"nhwc", call(f, in, "nearest", f, o, s, ACL_FORMAT_NHWC), aclnnResize, "NCHW"},
      {"rank", call(f, {2, 4, 4}, "nearest", f, {2, 8, 8}, s, ACL_FORMAT_ND), aclnnResize, "NCHW"},
      {"scales_three", call(f, in, "nearest", f, o, {1, 2, 2}, nchw), aclnnResize, "'scales'"},
      {"channels", call(f, in, "nearest", f, {1, 3, 8, 8}, s, nchw), aclnnResize, "channels"},
      // CANN's A2 host code: out's H and W within 1e-5 of self's times scales.
      {"scales_mismatch_h", call(f, in, "bilinear", f, {1, 2, 5, 8}, s, nchw), aclnnResize, "'scales'"},
      {"scales_mismatch_w", call(f, in, "nearest", f, {1, 2, 8, 3}, s, nchw), aclnnResize, "'scales'"},
  };
}

class ResizeRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(ResizeRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, ResizeRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
