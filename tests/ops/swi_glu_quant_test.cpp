// aclnnSwiGluQuant and aclnnSwiGluQuantV2 against a float64 reference: swish of the activated half
// times the other half, smoothed by the row's group (first cumulative end above the row; rows past
// the last end unsmoothed), quantised dynamically (scaleOut = q_max / max|row|) or statically (per
// tensor or per channel, scaleOut 0), INT8 or INT4; every x dtype, both halves, cumsum and count
// group lists, views, rank 3, empties, CANN's doc example and rejections with their codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_swi_glu_quant.h"
#include "aclnnop/aclnn_swi_glu_quant_v2.h"
#include "llm_test_support.h"
#include "norm_test_support.h"

namespace canopy_test {
namespace {

enum class Mode { kDynamic, kPerTensor, kPerChannel };
enum class Groups { kNone, kCumsum, kCounts };

struct SwiGluQuantCase {
  std::string name;
  aclDataType dtype;
  Shape x;
  Mode mode;
  Groups groups = Groups::kNone;
  bool activateLeft = true;
  bool int4 = false;
  bool v2 = true;
  View xView = View::kContiguous, smoothView = View::kContiguous, yView = View::kContiguous;
};
void PrintTo(const SwiGluQuantCase& c, std::ostream* os) { *os << c.name; }

// Cumulative ends for `rows`: an empty group and rows past the last end (left unsmoothed).
std::vector<int64_t> GroupEnds(int64_t rows) { return {rows / 3, rows / 3, rows - 2}; }

// INT8 dynamic quantisation of the rows of `act` (n each) times `smooth` (n values): yOut and
// scaleOut = 127 / max|row|.
void ExpectDynamicInt8(const DeviceTensor& y, const DeviceTensor& scale, const std::vector<double>& act, size_t n,
                       const std::vector<double>& smooth, const std::string& what) {
  std::vector<double> q;
  Values wantScale;
  for (size_t r = 0; r < act.size(); r += n) {
    double max = 0;
    for (size_t j = 0; j < n; ++j) max = std::max(max, std::abs(act[r + j] * smooth[j]));
    for (size_t j = 0; j < n; ++j) q.push_back(act[r + j] * smooth[j] * 127 / max);
    wantScale.emplace_back(127 / max);
  }
  ExpectNear(y.ReadView(), RintQuant(q, -128, 127), what + " yOut");
  ExpectNear(scale.ReadView(), RelativeTolerance(wantScale, ACL_FLOAT, 64), what + " scaleOut");
}

class SwiGluQuantTest : public ::testing::TestWithParam<SwiGluQuantCase> {};

TEST_P(SwiGluQuantTest, MatchesFloat64Reference) {
  const SwiGluQuantCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const int64_t last = c.x.back(), n = last / 2;
  const int64_t rows = NumElements(c.x) / last;
  Shape before(c.x.begin(), c.x.end() - 1), yShape = before;
  yShape.push_back(n);
  const int64_t g = c.groups == Groups::kNone ? 1 : 3;
  const Shape smoothShape = c.mode == Mode::kPerTensor ? Shape{g} : Shape{g, n};
  DeviceTensor x(c.dtype, c.x, c.xView), smooth(ACL_FLOAT, smoothShape, c.smoothView),
      y(c.int4 ? ACL_INT4 : ACL_INT8, yShape, c.yView), scale(ACL_FLOAT, before);
  std::optional<DeviceTensor> offsets, group;
  const std::vector<double> xv = Reals(x.FillRandom(rng, Range{-4, 4}));
  const std::vector<double> sv = Reals(smooth.FillRandom(rng, Range{0.5, 2}));
  std::vector<double> ov;
  if (c.mode != Mode::kDynamic) {
    offsets.emplace(ACL_FLOAT, smoothShape);
    ov = Reals(offsets->FillRandom(rng, Range{-3, 3}));
  }
  std::vector<int64_t> ends = GroupEnds(rows);
  if (c.groups != Groups::kNone) {
    group.emplace(ACL_INT32, Shape{g});
    Values values;
    for (size_t i = 0; i < ends.size(); ++i) {
      values.emplace_back(static_cast<double>(c.groups == Groups::kCounts && i > 0 ? ends[i] - ends[i - 1] : ends[i]));
    }
    group->WriteView(values);
  }
  y.Poison();
  scale.Poison();
  std::string quantMode = c.mode == Mode::kDynamic ? "dynamic" : "static";
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        if (!c.v2) {
          return aclnnSwiGluQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(smooth), Or(a, offsets), Or(a, group),
                                                  c.activateLeft, quantMode.data(), a.Tensor(y), a.Tensor(scale), w, e);
        }
        return aclnnSwiGluQuantV2GetWorkspaceSize(a.Tensor(x), a.Tensor(smooth), Or(a, offsets), Or(a, group),
                                                  c.activateLeft, quantMode.data(), c.groups == Groups::kCounts ? 1 : 0,
                                                  c.int4 ? 29 : 2, a.Tensor(y), a.Tensor(scale), w, e);
      },
      c.v2 ? aclnnSwiGluQuantV2 : aclnnSwiGluQuant);
  if (rows == 0) return;
  const double qMax = c.int4 ? 7 : 127;
  const std::vector<double> act = SwiGluRows(xv, last, c.activateLeft);
  std::vector<double> q, wantScale;
  for (int64_t r = 0; r < rows; ++r) {
    int64_t group_of_row = 0;
    if (c.groups != Groups::kNone) {
      group_of_row = -1;
      for (int64_t k = 0; k < g && group_of_row < 0; ++k) {
        if (ends[static_cast<size_t>(k)] > r) group_of_row = k;
      }
    }
    std::vector<double> t(static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j) {
      double v = act[static_cast<size_t>(r * n + j)];
      if (group_of_row >= 0) {
        const size_t p = static_cast<size_t>(c.mode == Mode::kPerTensor ? group_of_row : group_of_row * n + j);
        v = c.mode == Mode::kDynamic ? v * sv[p] : v * sv[p] + ov[p];
      }
      t[static_cast<size_t>(j)] = v;
    }
    double rowScale = 0;
    if (c.mode == Mode::kDynamic) {
      double max = 0;
      for (const double v : t) max = std::max(max, std::abs(v));
      rowScale = qMax / max;
      for (double& v : t) v *= rowScale;
    }
    wantScale.push_back(rowScale);
    q.insert(q.end(), t.begin(), t.end());
  }
  Values got;
  for (const int v : QuantisedValues(y, y.dtype(), rows * n)) got.emplace_back(v);
  ExpectNear(got, RintQuant(q, -qMax - 1, qMax), c.name + " yOut");
  Values want;
  for (const double s : wantScale) want.emplace_back(s);
  ExpectNear(scale.ReadView(), RelativeTolerance(want, ACL_FLOAT, 64), c.name + " scaleOut");
}

std::vector<SwiGluQuantCase> Cases() {
  std::vector<SwiGluQuantCase> cases;
  const View tr = View::kTransposed, st = View::kStepped, ct = View::kContiguous;
  for (const aclDataType dtype : {ACL_FLOAT16, ACL_BF16, ACL_FLOAT}) {
    const std::string d = Name(dtype);
    cases.push_back({"v1_dynamic_groups_" + d, dtype, {7, 32}, Mode::kDynamic, Groups::kCumsum, false, false, false});
    cases.push_back({"v1_dynamic_left_" + d, dtype, {5, 24}, Mode::kDynamic, Groups::kNone, true, false, false, tr});
    cases.push_back({"v1_per_tensor_" + d, dtype, {9, 16}, Mode::kPerTensor, Groups::kCumsum, true, false, false});
    cases.push_back(
        {"v1_per_channel_" + d, dtype, {8, 40}, Mode::kPerChannel, Groups::kCumsum, false, false, false, st, st, st});
    cases.push_back(
        {"dynamic_counts_" + d, dtype, {2, 4, 48}, Mode::kDynamic, Groups::kCounts, true, false, true, st, st, st});
    cases.push_back({"dynamic_int4_" + d, dtype, {6, 32}, Mode::kDynamic, Groups::kCumsum, false, true, true, tr});
    cases.push_back({"per_tensor_counts_" + d, dtype, {10, 8}, Mode::kPerTensor, Groups::kCounts, false});
    cases.push_back({"per_tensor_int4_" + d, dtype, {4, 16}, Mode::kPerTensor, Groups::kNone, true, true});
    cases.push_back(
        {"per_channel_int4_" + d, dtype, {7, 24}, Mode::kPerChannel, Groups::kCounts, true, true, true, ct, st});
    cases.push_back(
        {"per_channel_" + d, dtype, {3, 2, 64}, Mode::kPerChannel, Groups::kNone, false, false, true, tr, ct, st});
    cases.push_back({"long_rows_" + d, dtype, {3, 4096}, Mode::kDynamic, Groups::kNone, true});
    cases.push_back({"empty_" + d, dtype, {0, 16}, Mode::kDynamic, Groups::kNone, true});
    cases.push_back({"empty_static_" + d, dtype, {2, 0, 16}, Mode::kPerChannel, Groups::kNone, false, false, false});
  }
  return cases;
}
INSTANTIATE_TEST_SUITE_P(Cases, SwiGluQuantTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<SwiGluQuantCase>& info) { return info.param.name; });

// CANN's doc example, bytes and all: x is 96 floats 0..95 handed over as BFLOAT16 [3, 32] (so x
// holds the bf16 halves of the first 48 floats), groupIndex {1.0f, 3.0f} as INT32 (bit patterns far
// above 3: every row takes smooth row 0, all ones), dynamic, activateLeft false.
TEST(SwiGluQuant, DocExample) {
  std::vector<float> host(96);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i);
  const std::vector<float> groups = {1, 3};
  std::vector<uint8_t> xBytes(3 * 32 * 2), groupBytes(8);
  std::memcpy(xBytes.data(), host.data(), xBytes.size());
  std::memcpy(groupBytes.data(), groups.data(), groupBytes.size());
  for (const bool v2 : {false, true}) {
    DeviceTensor x(ACL_BF16, {3, 32}), smooth(ACL_FLOAT, {2, 16}), group(ACL_INT32, {2}), y(ACL_INT8, {3, 16}),
        scale(ACL_FLOAT, {3});
    x.UploadBytes(xBytes);
    group.UploadBytes(groupBytes);
    smooth.WriteView(Values(32, 1.0));
    y.Poison();
    char mode[] = "dynamic";
    ExpectRuns(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          if (v2) {
            return aclnnSwiGluQuantV2GetWorkspaceSize(a.Tensor(x), a.Tensor(smooth), nullptr, a.Tensor(group), false,
                                                      mode, 0, 2, a.Tensor(y), a.Tensor(scale), w, e);
          }
          return aclnnSwiGluQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(smooth), nullptr, a.Tensor(group), false, mode,
                                                  a.Tensor(y), a.Tensor(scale), w, e);
        },
        v2 ? aclnnSwiGluQuantV2 : aclnnSwiGluQuant);
    ExpectDynamicInt8(y, scale, SwiGluRows(Reals(x.ReadView()), 32, false), 16, std::vector<double>(16, 1.0),
                      v2 ? "V2" : "V1");
  }
}

TEST(SwiGluQuant, Rejections) {
  struct Bad {
    const char* name;
    aclDataType x = ACL_FLOAT16, smooth = ACL_FLOAT, offsets = ACL_FLOAT, group = ACL_INT32, y = ACL_INT8,
                scale = ACL_FLOAT;
    Shape xShape = {6, 16}, smoothShape = {2, 8}, offsetsShape = {2, 8}, groupShape = {2}, yShape = {6, 8},
          scaleShape = {6};
    const char* mode = "dynamic";
    bool withOffsets = false;
    int64_t groupListType = 0, dstType = 2;
    bool v2 = true;
    aclnnStatus status = ACLNN_ERR_INNER_TILING_ERROR;
    const char* keyword = "";
  };
  const aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
  const Bad cases[] = {
      {.name = "x dtype", .x = ACL_INT8, .status = kInvalid, .keyword = "'x'"},
      {.name = "smooth dtype", .smooth = ACL_FLOAT16, .status = kInvalid, .keyword = "smoothScalesOptional"},
      {.name = "offsets dtype", .offsets = ACL_BF16, .withOffsets = true, .status = kInvalid, .keyword = "offsets"},
      {.name = "group dtype", .group = ACL_INT64, .status = kInvalid, .keyword = "groupIndexOptional"},
      {.name = "y dtype", .y = ACL_INT32, .status = kInvalid, .keyword = "yOut"},
      {.name = "scale dtype", .scale = ACL_FLOAT16, .status = kInvalid, .keyword = "scaleOut"},
      {.name = "quant mode", .mode = "dynamic_pertoken", .status = kInvalid, .keyword = "quantModeOptional"},
      {.name = "group list type", .groupListType = 2, .status = kInvalid, .keyword = "groupListType"},
      {.name = "dst type", .dstType = 3, .status = kInvalid, .keyword = "dstType"},
      {.name = "static without offsets", .mode = "static", .status = ACLNN_ERR_PARAM_NULLPTR, .keyword = "offsets"},
      {.name = "x rank 1", .xShape = {16}, .yShape = {8}, .scaleShape = {}, .keyword = "'x'"},
      {.name = "int4 last dim",
       .y = ACL_INT4,
       .xShape = {6, 18},
       .smoothShape = {2, 9},
       .yShape = {6, 9},
       .dstType = 29,
       .keyword = "multiple of 4"},
      {.name = "group length 0", .groupShape = {0}, .keyword = "groupIndexOptional"},
      {.name = "group rank", .groupShape = {2, 1}, .keyword = "groupIndexOptional"},
      {.name = "smooth rows", .smoothShape = {3, 8}, .keyword = "smoothScalesOptional"},
      {.name = "smooth columns", .smoothShape = {2, 4}, .keyword = "smoothScalesOptional"},
      {.name = "dynamic per tensor smooth", .smoothShape = {2}, .keyword = "smoothScalesOptional"},
      {.name = "dynamic offsets groups", .offsetsShape = {3, 8}, .withOffsets = true, .keyword = "offsets"},
      {.name = "offsets shape", .offsetsShape = {2}, .mode = "static", .withOffsets = true, .keyword = "offsets"},
      {.name = "odd last dim", .xShape = {6, 15}, .smoothShape = {2, 7}, .yShape = {6, 7}, .keyword = "even"},
      {.name = "y shape", .yShape = {6, 16}, .keyword = "yOut"},
      {.name = "scale shape", .scaleShape = {6, 1}, .keyword = "scaleOut"},
      {.name = "int4 y without dstType", .y = ACL_INT4, .keyword = "dstType"},
      {.name = "V1 int4 y", .y = ACL_INT4, .v2 = false, .keyword = "dstType 29"},
      {.name = "int8 y with dstType 29", .dstType = 29, .keyword = "dstType"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor x(bad.x, bad.xShape), smooth(bad.smooth, bad.smoothShape), offsets(bad.offsets, bad.offsetsShape),
        group(bad.group, bad.groupShape), y(bad.y, bad.yShape), scale(bad.scale, bad.scaleShape);
    std::string mode = bad.mode;
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          aclTensor* off = bad.withOffsets ? a.Tensor(offsets) : nullptr;
          if (!bad.v2) {
            return aclnnSwiGluQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(smooth), off, a.Tensor(group), true,
                                                    mode.data(), a.Tensor(y), a.Tensor(scale), w, e);
          }
          return aclnnSwiGluQuantV2GetWorkspaceSize(a.Tensor(x), a.Tensor(smooth), off, a.Tensor(group), true,
                                                    mode.data(), bad.groupListType, bad.dstType, a.Tensor(y),
                                                    a.Tensor(scale), w, e);
        },
        bad.v2 ? aclnnSwiGluQuantV2 : aclnnSwiGluQuant);
    SCOPED_TRACE(bad.name);
    ExpectRejectedWith(run, bad.status, {bad.keyword});
  }
  // smoothScalesOptional is read in every mode: null is 161001.
  DeviceTensor x(ACL_FLOAT, {2, 8}), y(ACL_INT8, {2, 4}), scale(ACL_FLOAT, {2});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnSwiGluQuantGetWorkspaceSize(a.Tensor(x), nullptr, nullptr, nullptr, false, nullptr, a.Tensor(y),
                                                a.Tensor(scale), w, e);
      },
      aclnnSwiGluQuant);
  ExpectRejectedWith(run, ACLNN_ERR_PARAM_NULLPTR, {"smoothScalesOptional"});
}

// A null quantModeOptional is dynamic; a smooth tensor of more rows than one group reads its first.
// A NaN in a row makes its dynamic scale NaN and its values 0 (std::max dropped it).
TEST(SwiGluQuant, NanRowGetsANanScaleAndZeros) {
  DeviceTensor x(ACL_FLOAT, {2, 8}), smooth(ACL_FLOAT, {1, 4}), y(ACL_INT8, {2, 4}), scale(ACL_FLOAT, {2});
  Values values(16, Value(1.0));
  values[1] = std::numeric_limits<double>::quiet_NaN();
  x.WriteView(values);
  smooth.WriteView(Values(4, Value(1.0)));
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnSwiGluQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(smooth), nullptr, nullptr, true, nullptr,
                                                a.Tensor(y), a.Tensor(scale), w, e);
      },
      aclnnSwiGluQuant);
  const Values s = scale.ReadView();
  EXPECT_TRUE(std::isnan(s[0].real())) << s[0].real();
  EXPECT_FALSE(std::isnan(s[1].real()));
  const Values q = y.ReadView();
  for (int j = 0; j < 4; ++j) EXPECT_EQ(q[static_cast<size_t>(j)].real(), 0) << j;
  for (int j = 4; j < 8; ++j) EXPECT_EQ(q[static_cast<size_t>(j)].real(), 127) << j;
}

TEST(SwiGluQuant, NullModeIsDynamic) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor x(ACL_FLOAT, {4, 8}), smooth(ACL_FLOAT, {3, 4}), y(ACL_INT8, {4, 4}), scale(ACL_FLOAT, {4});
  const std::vector<double> xv = Reals(x.FillRandom(rng, Range{-3, 3}));
  const std::vector<double> sv = Reals(smooth.FillRandom(rng, Range{0.5, 2}));
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnSwiGluQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(smooth), nullptr, nullptr, true, nullptr,
                                                a.Tensor(y), a.Tensor(scale), w, e);
      },
      aclnnSwiGluQuant);
  ExpectDynamicInt8(y, scale, SwiGluRows(xv, 8, true), 4, sv, "null mode");
}

}  // namespace
}  // namespace canopy_test
