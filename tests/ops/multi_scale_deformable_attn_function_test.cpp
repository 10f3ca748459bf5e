// aclnnMultiScaleDeformableAttnFunction against a float64 reference: every value dtype with INT32
// and INT64 index tensors, several levels of different sizes (keys left over after them), sampling
// points inside, outside and exactly on the maps' borders, strided and transposed views, CANN's doc
// example shapes, empty inputs (a no-op: output keeps its contents), a read past value's keys
// (the run fails) and the rejections with their codes.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_multi_scale_deformable_attn_function.h"
#include "llm_test_support.h"
#include "norm_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  std::string name;
  aclDataType dtype = ACL_FLOAT, index = ACL_INT64;
  int64_t batch = 2, heads = 2, channels = 8, queries = 32, points = 2;
  std::vector<std::pair<int64_t, int64_t>> levels = {{4, 8}, {2, 2}};
  int64_t spareKeys = 0;  // keys after the last level
  View valueView = View::kContiguous, locationView = View::kContiguous, weightView = View::kContiguous,
       outView = View::kContiguous;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

struct Problem {
  int64_t batch, keys, heads, channels, queries, levels, points;
  std::vector<std::pair<int64_t, int64_t>> hw;
  std::vector<int64_t> start;
};

// The bilinear read's corners of (y, x) in an h x w map, zeros outside.
void Corners(double y, double x, int64_t h, int64_t w, std::vector<std::pair<int64_t, double>>& out) {
  out.clear();
  if (!(y > -1 && x > -1 && y < static_cast<double>(h) && x < static_cast<double>(w))) return;
  const double y0 = std::floor(y), x0 = std::floor(x), ly = y - y0, lx = x - x0;
  for (int dy = 0; dy < 2; ++dy) {
    for (int dx = 0; dx < 2; ++dx) {
      const auto r = static_cast<int64_t>(y0) + dy, c = static_cast<int64_t>(x0) + dx;
      if (r < 0 || r >= h || c < 0 || c >= w) continue;
      out.emplace_back(r * w + c, (dy != 0 ? ly : 1 - ly) * (dx != 0 ? lx : 1 - lx));
    }
  }
}

// output [batch, queries, heads * channels] and the magnitude each element's error scales with.
Expected Reference(const Problem& p, const std::vector<double>& value, const std::vector<double>& location,
                   const std::vector<double>& weight, aclDataType dtype) {
  Values want;
  std::vector<double> magnitude;
  std::vector<std::pair<int64_t, double>> corners;
  for (int64_t b = 0; b < p.batch; ++b) {
    for (int64_t q = 0; q < p.queries; ++q) {
      for (int64_t h = 0; h < p.heads; ++h) {
        std::vector<double> acc(static_cast<size_t>(p.channels)), mag(static_cast<size_t>(p.channels));
        for (int64_t l = 0; l < p.levels; ++l) {
          const auto [lh, lw] = p.hw[static_cast<size_t>(l)];
          for (int64_t pt = 0; pt < p.points; ++pt) {
            const int64_t s = (((b * p.queries + q) * p.heads + h) * p.levels + l) * p.points + pt;
            const double x = location[static_cast<size_t>(2 * s)] * static_cast<double>(lw) - 0.5;
            const double y = location[static_cast<size_t>(2 * s + 1)] * static_cast<double>(lh) - 0.5;
            const double a = weight[static_cast<size_t>(s)];
            Corners(y, x, lh, lw, corners);
            for (const auto& [offset, wk] : corners) {
              const int64_t key = p.start[static_cast<size_t>(l)] + offset;
              for (int64_t c = 0; c < p.channels; ++c) {
                const double v = value[static_cast<size_t>(((b * p.keys + key) * p.heads + h) * p.channels + c)];
                acc[static_cast<size_t>(c)] += a * wk * v;
                mag[static_cast<size_t>(c)] += std::abs(a * wk * v);
              }
            }
          }
        }
        for (size_t c = 0; c < acc.size(); ++c) {
          want.emplace_back(acc[c]);
          magnitude.push_back(mag[c]);
        }
      }
    }
  }
  return RelativeTolerance(want, dtype, 16, magnitude);
}

// Normalised coordinates: random ones in [-0.3, 1.3] (outside the map too), and every fourth one
// exactly on a border or a grid line of a level of `extent` (the read's -1, 0, extent - 1, extent).
Values Coordinates(Rng& rng, int64_t count, const Problem& p) {
  Values v;
  const double borders[] = {-1, 0, 0.5, -0.75};  // in pixels; then extent and extent - 1
  for (int64_t i = 0; i < count; ++i) {
    const int64_t s = i / 2;
    const int64_t level = (s / p.points) % p.levels;
    const auto [lh, lw] = p.hw[static_cast<size_t>(level)];
    const auto extent = static_cast<double>(i % 2 == 0 ? lw : lh);
    if (i % 4 < 2) {
      v.emplace_back(rng.Uniform(-0.3, 1.3));
    } else {
      const size_t k = static_cast<size_t>(s % 6);
      const double pixel = k < 4 ? borders[k] : k == 4 ? extent : extent - 1;
      v.emplace_back((pixel + 0.5) / extent);  // x = u * extent - 0.5 = pixel
    }
  }
  return v;
}

Problem ProblemOf(const Case& c) {
  Problem p{c.batch, 0, c.heads, c.channels, c.queries, static_cast<int64_t>(c.levels.size()), c.points, c.levels, {}};
  for (const auto& [h, w] : c.levels) {
    p.start.push_back(p.keys);
    p.keys += h * w;
  }
  p.keys += c.spareKeys;
  return p;
}

class MultiScaleDeformableAttnTest : public ::testing::TestWithParam<Case> {};

TEST_P(MultiScaleDeformableAttnTest, MatchesFloat64Reference) {
  const Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const Problem p = ProblemOf(c);
  DeviceTensor value(c.dtype, {p.batch, p.keys, p.heads, p.channels}, c.valueView), spatial(c.index, {p.levels, 2}),
      start(c.index, {p.levels}),
      location(c.dtype, {p.batch, p.queries, p.heads, p.levels, p.points, 2}, c.locationView),
      weight(c.dtype, {p.batch, p.queries, p.heads, p.levels, p.points}, c.weightView),
      out(c.dtype, {p.batch, p.queries, p.heads * p.channels}, c.outView);
  const std::vector<double> values = Reals(value.FillRandom(rng, Range{-2, 2}));
  Values hw, starts;
  for (int64_t l = 0; l < p.levels; ++l) {
    hw.emplace_back(static_cast<double>(p.hw[static_cast<size_t>(l)].first));
    hw.emplace_back(static_cast<double>(p.hw[static_cast<size_t>(l)].second));
    starts.emplace_back(static_cast<double>(p.start[static_cast<size_t>(l)]));
  }
  spatial.WriteView(hw);
  start.WriteView(starts);
  location.WriteView(Coordinates(rng, location.numel(), p));
  const std::vector<double> locations = Reals(location.ReadView());
  const std::vector<double> weights = Reals(weight.FillRandom(rng, Range{0, 1}));
  out.Poison();
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMultiScaleDeformableAttnFunctionGetWorkspaceSize(a.Tensor(value), a.Tensor(spatial),
                                                                     a.Tensor(start), a.Tensor(location),
                                                                     a.Tensor(weight), a.Tensor(out), w, e);
      },
      aclnnMultiScaleDeformableAttnFunction);
  ExpectNear(out.ReadView(), Reference(p, values, locations, weights, c.dtype), c.name);
}

std::vector<Case> Cases() {
  const View st = View::kStepped, tr = View::kTransposed, rv = View::kReversed;
  std::vector<Case> cases;
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const std::string d = Name(dtype);
    cases.push_back({.name = "two_levels_" + d, .dtype = dtype});
    cases.push_back({.name = "three_levels_i32_" + d,
                     .dtype = dtype,
                     .index = ACL_INT32,
                     .batch = 1,
                     .heads = 3,
                     .channels = 16,
                     .queries = 40,
                     .points = 4,
                     .levels = {{8, 4}, {4, 4}, {1, 2}},
                     .spareKeys = 3});
    cases.push_back({.name = "views_" + d,
                     .dtype = dtype,
                     .channels = 16,
                     .queries = 33,
                     .points = 3,
                     .levels = {{2, 4}, {4, 2}, {1, 1}},
                     .valueView = st,
                     .locationView = st,
                     .weightView = tr,
                     .outView = st});
  }
  cases.push_back({.name = "wide_channels_reversed",
                   .batch = 1,
                   .heads = 1,
                   .channels = 256,
                   .queries = 32,
                   .points = 1,
                   .levels = {{16, 16}},
                   .valueView = rv,
                   .locationView = rv,
                   .weightView = rv,
                   .outView = tr});
  cases.push_back({.name = "limits", .heads = 16, .channels = 8, .points = 16, .levels = {{2, 2}, {1, 3}, {3, 1}}});
  return cases;
}
INSTANTIATE_TEST_SUITE_P(Cases, MultiScaleDeformableAttnTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

// CANN's doc example's shapes: value [1, 1, 2, 32], one 1 x 1 level, every location (0, 0), so
// each point reads a quarter of the one key.
TEST(MultiScaleDeformableAttnFunction, DocExampleShapes) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor value(ACL_FLOAT, {1, 1, 2, 32}), spatial(ACL_INT32, {1, 2}), start(ACL_INT32, {1}),
      location(ACL_FLOAT, {1, 32, 2, 1, 4, 2}), weight(ACL_FLOAT, {1, 32, 2, 1, 4}), out(ACL_FLOAT, {1, 32, 64});
  const std::vector<double> values = Reals(value.FillRandom(rng, Range{-2, 2}));
  spatial.WriteView({1.0, 1.0});
  start.WriteView({0.0});
  location.WriteView(Values(static_cast<size_t>(location.numel()), 0.0));
  const std::vector<double> weights = Reals(weight.FillRandom(rng, Range{0, 1}));
  out.Poison();
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMultiScaleDeformableAttnFunctionGetWorkspaceSize(a.Tensor(value), a.Tensor(spatial),
                                                                     a.Tensor(start), a.Tensor(location),
                                                                     a.Tensor(weight), a.Tensor(out), w, e);
      },
      aclnnMultiScaleDeformableAttnFunction);
  Values want;
  for (int64_t q = 0; q < 32; ++q) {
    for (int64_t h = 0; h < 2; ++h) {
      double sum = 0;
      for (int64_t pt = 0; pt < 4; ++pt) sum += weights[static_cast<size_t>((q * 2 + h) * 4 + pt)];
      for (int64_t c = 0; c < 32; ++c) want.emplace_back(sum * 0.25 * values[static_cast<size_t>(h * 32 + c)]);
    }
  }
  ExpectNear(out.ReadView(), RelativeTolerance(want, ACL_FLOAT, 16), "doc example");
}

// An empty input returns at once, as CANN's host code does: output keeps its contents.
TEST(MultiScaleDeformableAttnFunction, EmptyInputsLeaveOutput) {
  struct Empty {
    const char* name;
    Shape value, location, weight;
  };
  for (const Empty& e : {Empty{"no points", {1, 4, 2, 8}, {1, 32, 2, 1, 0, 2}, {1, 32, 2, 1, 0}},
                         Empty{"no keys", {1, 0, 2, 8}, {1, 32, 2, 1, 2, 2}, {1, 32, 2, 1, 2}}}) {
    SCOPED_TRACE(e.name);
    DeviceTensor value(ACL_FLOAT, e.value), spatial(ACL_INT64, {1, 2}), start(ACL_INT64, {1}),
        location(ACL_FLOAT, e.location), weight(ACL_FLOAT, e.weight), out(ACL_FLOAT, {1, 32, 16});
    spatial.WriteView({2.0, 2.0});
    start.WriteView({0.0});
    out.Poison();
    const std::vector<uint8_t> before = out.DownloadBytes();
    ExpectRuns(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** ex) {
          return aclnnMultiScaleDeformableAttnFunctionGetWorkspaceSize(a.Tensor(value), a.Tensor(spatial),
                                                                       a.Tensor(start), a.Tensor(location),
                                                                       a.Tensor(weight), a.Tensor(out), w, ex);
        },
        aclnnMultiScaleDeformableAttnFunction);
    EXPECT_EQ(out.DownloadBytes(), before);
  }
}

// One query block (32 queries, one head of 8 channels, one level, one point)
// over value's 8 keys (value[key][c] = key * 8 + c + 1), every query reading
// at normalised (x, y) with weight 1.
OpRun RunOnePoint(aclDataType spatial_dtype, const Values& hw, double first, double x, double y, DeviceTensor& out) {
  DeviceTensor value(ACL_FLOAT, {1, 8, 1, 8}), spatial(spatial_dtype, {1, 2}), start(spatial_dtype, {1}),
      location(ACL_FLOAT, {1, 32, 1, 1, 1, 2}), weight(ACL_FLOAT, {1, 32, 1, 1, 1});
  Values values(64);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i + 1);
  value.WriteView(values);
  spatial.WriteView(hw);
  start.WriteView({first});
  Values points;
  for (int q = 0; q < 32; ++q) points.insert(points.end(), {x, y});
  location.WriteView(points);
  weight.WriteView(Values(32, 1.0));
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMultiScaleDeformableAttnFunctionGetWorkspaceSize(a.Tensor(value), a.Tensor(spatial),
                                                                     a.Tensor(start), a.Tensor(location),
                                                                     a.Tensor(weight), a.Tensor(out), w, e);
      },
      aclnnMultiScaleDeformableAttnFunction);
}

// A read that lands outside value's keys fails the run (CANN's kernel would
// read past value): the corner (2, 2) of a 3 x 3 map is key 8; a 2 x 2 map
// from key 6 reads keys 6-9; a map from key -1 reads key -1; a map wider than
// int32 coordinates.
TEST(MultiScaleDeformableAttnFunction, AReadOutsideValuesKeysFailsTheRun) {
  struct Case {
    aclDataType dtype;
    Values hw;
    double first, x, y;
  };
  const Case cases[] = {{ACL_INT32, {3.0, 3.0}, 0.0, 2.5 / 3, 2.5 / 3},
                        {ACL_INT32, {2.0, 2.0}, 6.0, 0.5, 0.5},
                        {ACL_INT32, {2.0, 2.0}, -1.0, 0.25, 0.25},
                        {ACL_INT64, {2.0, 4294967296.0}, 0.0, 0.0, 0.0}};
  for (const Case& c : cases) {
    DeviceTensor out(ACL_FLOAT, {1, 32, 8});
    const OpRun run = RunOnePoint(c.dtype, c.hw, c.first, c.x, c.y, out);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
    EXPECT_NE(run.sync, ACL_SUCCESS) << "a read outside value's keys must fail the run";
  }
}

// A map may be declared larger than value as long as its points read inside
// it: CANN's own example program declares (1065353216, 1065353216) maps (float
// 1.0's bits in an INT32 tensor) over value's first key and reads at (0, 0),
// i.e. (-0.5, -0.5), where only corner (0, 0) is inside, with weight 1/4.
// A map of negative size reads nothing.
TEST(MultiScaleDeformableAttnFunction, AMapLargerThanValueRunsWhenItsPointsReadInside) {
  DeviceTensor out(ACL_FLOAT, {1, 32, 8});
  OpRun run = RunOnePoint(ACL_INT32, {1065353216.0, 1065353216.0}, 0.0, 0.0, 0.0, out);
  ASSERT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
  ASSERT_EQ(run.sync, ACL_SUCCESS) << Describe(run);
  const Values got = out.ReadView();
  for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i].real(), 0.25 * static_cast<double>(i % 8 + 1)) << i;
  run = RunOnePoint(ACL_INT32, {-1.0, 2.0}, 0.0, 0.5, 0.5, out);
  ASSERT_EQ(run.sync, ACL_SUCCESS) << Describe(run);
  for (const auto& v : out.ReadView()) EXPECT_EQ(v.real(), 0.0);
}

TEST(MultiScaleDeformableAttnFunction, Rejections) {
  struct Bad {
    const char* name;
    aclDataType value = ACL_FLOAT, spatial = ACL_INT32, start = ACL_INT32, location = ACL_FLOAT, weight = ACL_FLOAT,
                out = ACL_FLOAT;
    Shape valueShape = {2, 8, 2, 16}, spatialShape = {2, 2}, startShape = {2}, locationShape = {2, 32, 2, 2, 4, 2},
          weightShape = {2, 32, 2, 2, 4}, outShape = {2, 32, 32};
    const char* keyword = "";
  };
  const Bad cases[] = {
      {.name = "value dtype", .value = ACL_DOUBLE, .keyword = "'value'"},
      {.name = "spatial dtype", .spatial = ACL_INT16, .keyword = "spatialShape"},
      {.name = "start dtype", .start = ACL_FLOAT, .keyword = "levelStartIndex"},
      {.name = "location dtype", .location = ACL_INT32, .keyword = "'location'"},
      {.name = "weight dtype", .weight = ACL_INT8, .keyword = "attnWeight"},
      {.name = "output dtype", .out = ACL_DOUBLE, .keyword = "'output'"},
      {.name = "location mismatch", .location = ACL_FLOAT16, .keyword = "'location'"},
      {.name = "weight mismatch", .weight = ACL_BF16, .keyword = "attnWeight"},
      {.name = "output mismatch", .out = ACL_FLOAT16, .keyword = "'output'"},
      {.name = "value rank", .valueShape = {2, 8, 32}, .keyword = "'value'"},
      {.name = "spatial rank", .spatialShape = {4}, .keyword = "spatialShape"},
      {.name = "start rank", .startShape = {2, 1}, .keyword = "levelStartIndex"},
      {.name = "location rank", .locationShape = {2, 32, 2, 2, 8}, .keyword = "'location'"},
      {.name = "weight rank", .weightShape = {2, 32, 2, 8}, .keyword = "attnWeight"},
      {.name = "output rank", .outShape = {2, 32, 2, 16}, .keyword = "'output'"},
      {.name = "spatial last dim", .spatialShape = {2, 3}, .keyword = "spatialShape"},
      {.name = "location last dim", .locationShape = {2, 32, 2, 2, 4, 3}, .keyword = "'location'"},
      {.name = "queries",
       .locationShape = {2, 31, 2, 2, 4, 2},
       .weightShape = {2, 31, 2, 2, 4},
       .outShape = {2, 31, 32},
       .keyword = "numQueries"},
      {.name = "heads",
       .valueShape = {2, 8, 17, 8},
       .locationShape = {2, 32, 17, 2, 4, 2},
       .weightShape = {2, 32, 17, 2, 4},
       .outShape = {2, 32, 136},
       .keyword = "numHeads"},
      {.name = "levels",
       .spatialShape = {17, 2},
       .startShape = {17},
       .locationShape = {2, 32, 2, 17, 4, 2},
       .weightShape = {2, 32, 2, 17, 4},
       .keyword = "numLevels"},
      {.name = "points",
       .locationShape = {2, 32, 2, 2, 17, 2},
       .weightShape = {2, 32, 2, 2, 17},
       .keyword = "numPoints"},
      {.name = "channels align", .valueShape = {2, 8, 2, 12}, .outShape = {2, 32, 24}, .keyword = "channels"},
      {.name = "channels limit",
       .valueShape = {2, 8, 1, 264},
       .locationShape = {2, 32, 1, 2, 4, 2},
       .weightShape = {2, 32, 1, 2, 4},
       .outShape = {2, 32, 264},
       .keyword = "channels"},
      {.name = "spatial levels", .spatialShape = {3, 2}, .keyword = "numLevels"},
      {.name = "weight levels", .weightShape = {2, 32, 2, 3, 4}, .keyword = "numLevels"},
      {.name = "start levels", .startShape = {3}, .keyword = "levelStartIndex"},
      {.name = "location batch",
       .locationShape = {1, 32, 2, 2, 4, 2},
       .weightShape = {1, 32, 2, 2, 4},
       .outShape = {1, 32, 32},
       .keyword = "'location'"},
      {.name = "value heads", .valueShape = {2, 8, 4, 8}, .keyword = "'value'"},
      {.name = "weight points", .weightShape = {2, 32, 2, 2, 3}, .keyword = "attnWeight"},
      {.name = "output shape", .outShape = {2, 32, 16}, .keyword = "'output'"},
  };
  for (const Bad& bad : cases) {
    SCOPED_TRACE(bad.name);
    DeviceTensor value(bad.value, bad.valueShape), spatial(bad.spatial, bad.spatialShape),
        start(bad.start, bad.startShape), location(bad.location, bad.locationShape),
        weight(bad.weight, bad.weightShape), out(bad.out, bad.outShape);
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnMultiScaleDeformableAttnFunctionGetWorkspaceSize(a.Tensor(value), a.Tensor(spatial),
                                                                       a.Tensor(start), a.Tensor(location),
                                                                       a.Tensor(weight), a.Tensor(out), w, e);
        },
        aclnnMultiScaleDeformableAttnFunction);
    ExpectRejectedWith(run, ACLNN_ERR_PARAM_INVALID, {bad.keyword});
  }
}

}  // namespace
}  // namespace canopy_test
