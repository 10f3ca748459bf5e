// AddN, MaxN and MinN (tensor lists) and the ONNX-style reductions MeanV2,
// MaxV2, GlobalAveragePool and GlobalMaxPool, through the public API against
// float64 references: every A2 dtype, strided and broadcast views, an output
// that is also an element of the list, NaN, empty and noop cases, CANN's
// examples, and the rejections with their codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add_n.h"
#include "aclnnop/aclnn_global_average_pool.h"
#include "aclnnop/aclnn_global_max_pool.h"
#include "aclnnop/aclnn_max_v2.h"
#include "aclnnop/aclnn_maxn.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_minn.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

// ---- AddN, MaxN, MinN ------------------------------------------------------------------------------

enum class ListOp { kAddN, kMaxN, kMinN };

using ListPhase1 = aclnnStatus (*)(const aclTensorList*, aclTensor*, uint64_t*, aclOpExecutor**);

ListPhase1 Phase1Of(ListOp op) {
  return op == ListOp::kAddN ? aclnnAddNGetWorkspaceSize
                             : (op == ListOp::kMaxN ? aclnnMaxNGetWorkspaceSize : aclnnMinNGetWorkspaceSize);
}
Phase2 Phase2Of(ListOp op) { return op == ListOp::kAddN ? aclnnAddN : (op == ListOp::kMaxN ? aclnnMaxN : aclnnMinN); }

OpRun RunList(ListOp op, const std::vector<const DeviceTensor*>& tensors, const DeviceTensor& out) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        std::vector<aclTensor*> list;
        for (const DeviceTensor* t : tensors) list.push_back(a.Tensor(*t));
        return Phase1Of(op)(a.TensorList(list), a.Tensor(out), w, e);
      },
      Phase2Of(op));
}

// Element i of a row-major `out` shape read from a tensor of `shape` broadcast to it.
Value Broadcast(const Values& values, const Shape& shape, const Shape& out, int64_t i) {
  int64_t index = 0, stride = 1;
  for (size_t d = out.size(); d-- > 0;) {
    const int64_t coordinate = i % out[d];
    i /= out[d];
    const size_t from = d + shape.size();
    if (from < out.size()) continue;  // a leading dimension shape does not have
    const size_t s = from - out.size();
    if (shape[s] != 1) index += coordinate * stride;
    stride *= shape[s];
  }
  return values[static_cast<size_t>(index)];
}

struct ListCase {
  std::string name;
  ListOp op;
  aclDataType dtype;
};
void PrintTo(const ListCase& c, std::ostream* os) { *os << c.name; }

std::vector<ListCase> ListCases() {
  std::vector<ListCase> cases;
  for (aclDataType d : {ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_BF16, ACL_FLOAT}) {
    cases.push_back({std::string("AddN_") + Name(d), ListOp::kAddN, d});
  }
  for (aclDataType d : {ACL_FLOAT16, ACL_FLOAT, ACL_INT8, ACL_INT32, ACL_INT64, ACL_BF16}) {
    cases.push_back({std::string("MaxN_") + Name(d), ListOp::kMaxN, d});
    cases.push_back({std::string("MinN_") + Name(d), ListOp::kMinN, d});
  }
  return cases;
}

class ListOpTest : public ::testing::TestWithParam<ListCase> {};

TEST_P(ListOpTest, MatchesReference) {
  const ListCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  const Shape full = {4, 5};
  // AddN takes no broadcast: three [4, 5] views; MaxN / MinN broadcast [5] and [4, 1].
  const bool add = c.op == ListOp::kAddN;
  const std::vector<Shape> shapes = add ? std::vector<Shape>{full, full, full} : std::vector<Shape>{full, {5}, {4, 1}};
  DeviceTensor a(c.dtype, shapes[0], View::kTransposed), b(c.dtype, shapes[1], View::kStepped),
      d(c.dtype, shapes[2], add ? View::kReversed : View::kContiguous);
  DeviceTensor out(c.dtype, full, View::kStepped);
  const Range range{-40, 40};
  Values va = a.FillRandom(rng, range);
  const Values vb = b.FillRandom(rng, range), vd = d.FillRandom(rng, range);
  if (!add && IsRealFloat(c.dtype)) {  // NaN propagates
    va[7] = std::nan("");
    a.WriteView(va);
  }
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run = RunList(c.op, {&a, &b, &d}, out);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Expected want;
  for (int64_t i = 0; i < NumElements(full); ++i) {
    const double x = Broadcast(va, shapes[0], full, i).real(), y = Broadcast(vb, shapes[1], full, i).real(),
                 z = Broadcast(vd, shapes[2], full, i).real();
    double v = 0;
    if (add) {
      v = x + y + z;
    } else if (std::isnan(x) || std::isnan(y) || std::isnan(z)) {
      v = std::nan("");
    } else {
      v = c.op == ListOp::kMaxN ? std::max({x, y, z}) : std::min({x, y, z});
    }
    want.values.push_back(ConvertValue(v, c.dtype));
    // A sum adds in f32 and rounds once: relative to its terms.
    const double terms = std::abs(x) + std::abs(y) + std::abs(z);
    want.tolerance.push_back(add && IsFloating(c.dtype) ? (UnitRoundoff(c.dtype) + 4 * UnitRoundoff(ACL_FLOAT)) * terms
                                                        : 0);
  }
  ExpectNear(out.ReadView(), want, c.name);
  ExpectOutsideViewUnchanged(out, before, "out storage");
}

INSTANTIATE_TEST_SUITE_P(Cases, ListOpTest, ::testing::ValuesIn(ListCases()),
                         [](const ::testing::TestParamInfo<ListCase>& info) { return info.param.name; });

// out is also the list's second element: every element is read as it was before the op.
TEST(ListOps, OutIsAnElementOfTheList) {
  for (ListOp op : {ListOp::kAddN, ListOp::kMaxN, ListOp::kMinN}) {
    DeviceTensor a(ACL_FLOAT, {3, 4}), b(ACL_FLOAT, {3, 4}), c(ACL_FLOAT, {3, 4});
    Rng rng = Rng::ForCurrentTest();
    const Values va = a.FillRandom(rng, Range{-5, 5}), vb = b.FillRandom(rng, Range{-5, 5}),
                 vc = c.FillRandom(rng, Range{-5, 5});
    const OpRun run = RunList(op, {&a, &b, &c}, b);
    ASSERT_TRUE(run.ok()) << Describe(run);
    Expected want;
    for (size_t i = 0; i < va.size(); ++i) {
      const double x = va[i].real(), y = vb[i].real(), z = vc[i].real();
      want.values.push_back(op == ListOp::kAddN   ? x + y + z
                            : op == ListOp::kMaxN ? std::max({x, y, z})
                                                  : std::min({x, y, z}));
      want.tolerance.push_back(8 * UnitRoundoff(ACL_FLOAT) * (std::abs(x) + std::abs(y) + std::abs(z)));
    }
    ExpectNear(b.ReadView(), want, "out aliasing tensors[1]");
  }
}

TEST(ListOps, CannExamples) {
  DeviceTensor a(ACL_FLOAT, {4, 2}), b(ACL_FLOAT, {4, 2}), sum(ACL_FLOAT, {4, 2});
  a.WriteView(Values{0, 1, 2, 3, 4, 5, 6, 7});
  b.WriteView(Values{1, 1, 1, 2, 2, 2, 3, 3});
  ASSERT_TRUE(RunList(ListOp::kAddN, {&a, &b}, sum).ok());
  ExpectExact(sum.ReadView(), Values{1, 2, 3, 5, 6, 7, 9, 10}, "AddN");
  DeviceTensor x(ACL_FLOAT, {2, 3}), y(ACL_FLOAT, {1, 3}), out(ACL_FLOAT, {2, 3});
  x.WriteView(Values{11, 12, 13, 4, 5, 6});
  y.WriteView(Values{7, 8, 9});
  ASSERT_TRUE(RunList(ListOp::kMaxN, {&x, &y}, out).ok());
  ExpectExact(out.ReadView(), Values{11, 12, 13, 7, 8, 9}, "MaxN");
  ASSERT_TRUE(RunList(ListOp::kMinN, {&x, &y}, out).ok());
  ExpectExact(out.ReadView(), Values{7, 8, 9, 4, 5, 6}, "MinN");
}

TEST(ListOps, Rejections) {
  struct Case {
    std::string name;
    ListOp op;
    std::vector<std::pair<aclDataType, Shape>> list;
    aclDataType out;
    Shape outShape;
  };
  const std::vector<Case> cases = {
      {"AddN_double", ListOp::kAddN, {{ACL_DOUBLE, {2}}, {ACL_DOUBLE, {2}}}, ACL_DOUBLE, {2}},
      {"AddN_first_dtype_not_out", ListOp::kAddN, {{ACL_FLOAT16, {2}}, {ACL_FLOAT16, {2}}}, ACL_FLOAT, {2}},
      {"AddN_mixed_dtypes", ListOp::kAddN, {{ACL_FLOAT, {2}}, {ACL_INT32, {2}}}, ACL_FLOAT, {2}},
      {"AddN_broadcast", ListOp::kAddN, {{ACL_FLOAT, {2, 3}}, {ACL_FLOAT, {3}}}, ACL_FLOAT, {2, 3}},
      {"AddN_out_shape", ListOp::kAddN, {{ACL_FLOAT, {2}}, {ACL_FLOAT, {2}}}, ACL_FLOAT, {3}},
      {"MaxN_uint8", ListOp::kMaxN, {{ACL_UINT8, {2}}}, ACL_UINT8, {2}},
      {"MinN_uint8", ListOp::kMinN, {{ACL_UINT8, {2}}}, ACL_UINT8, {2}},
      {"MaxN_empty", ListOp::kMaxN, {}, ACL_FLOAT, {2}},
      {"MaxN_not_broadcastable", ListOp::kMaxN, {{ACL_FLOAT, {2}}, {ACL_FLOAT, {3}}}, ACL_FLOAT, {2}},
      {"MinN_out_shape", ListOp::kMinN, {{ACL_FLOAT, {2, 1}}, {ACL_FLOAT, {3}}}, ACL_FLOAT, {2, 1}},
      {"MinN_dtype", ListOp::kMinN, {{ACL_FLOAT, {2}}, {ACL_FLOAT16, {2}}}, ACL_FLOAT, {2}},
  };
  for (const Case& c : cases) {
    std::vector<std::unique_ptr<DeviceTensor>> tensors;
    std::vector<const DeviceTensor*> list;
    for (const auto& [dtype, shape] : c.list) {
      tensors.push_back(std::make_unique<DeviceTensor>(dtype, shape));
      list.push_back(tensors.back().get());
    }
    DeviceTensor out(c.out, c.outShape);
    const OpRun run = RunList(c.op, list, out);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << c.name << ": " << Describe(run);
  }
  // AddN's document allows an empty list: nothing to do.
  DeviceTensor out(ACL_FLOAT, {2});
  EXPECT_TRUE(RunList(ListOp::kAddN, {}, out).ok());
}

// ---- MeanV2, MaxV2 -----------------------------------------------------------------------------------

enum class ReduceOp { kMeanV2, kMaxV2 };

OpRun RunReduce(ReduceOp op, const DeviceTensor& self, const std::vector<int64_t>& dims, bool keep, bool noop,
                const DeviceTensor& out) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return op == ReduceOp::kMeanV2
                   ? aclnnMeanV2GetWorkspaceSize(a.Tensor(self), a.IntArray(dims), keep, noop, a.Tensor(out), w, e)
                   : aclnnMaxV2GetWorkspaceSize(a.Tensor(self), a.IntArray(dims), keep, noop, a.Tensor(out), w, e);
      },
      op == ReduceOp::kMeanV2 ? aclnnMeanV2 : aclnnMaxV2);
}

// The reduction of `values` (row-major over `shape`) over `dims` (empty: all), kept in row-major order.
Values ReduceReference(ReduceOp op, const Values& values, const Shape& shape, std::vector<int64_t> dims,
                       Shape& out_shape, bool keep) {
  const auto rank = static_cast<int64_t>(shape.size());
  std::vector<bool> reduced(shape.size(), dims.empty());
  for (int64_t d : dims) reduced[static_cast<size_t>(d < 0 ? d + rank : d)] = true;
  out_shape.clear();
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!reduced[d]) out_shape.push_back(shape[d]);
    if (reduced[d] && keep) out_shape.push_back(1);
  }
  const int64_t n_out = NumElements(out_shape);
  Values acc(static_cast<size_t>(n_out), op == ReduceOp::kMeanV2 ? 0.0 : -std::numeric_limits<double>::infinity());
  std::vector<int64_t> count(static_cast<size_t>(n_out), 0);
  Shape index(shape.size(), 0);
  for (const Value& v : values) {
    int64_t o = 0;
    for (size_t d = 0; d < shape.size(); ++d) {
      if (!reduced[d]) o = o * shape[d] + index[d];
    }
    Value& a = acc[static_cast<size_t>(o)];
    if (op == ReduceOp::kMeanV2) {
      a += v;
    } else if (std::isnan(v.real()) || std::isnan(a.real())) {
      a = std::nan("");
    } else {
      a = std::max(a.real(), v.real());
    }
    ++count[static_cast<size_t>(o)];
    for (size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
  if (op == ReduceOp::kMeanV2) {
    for (size_t i = 0; i < acc.size(); ++i) acc[i] /= static_cast<double>(count[i]);
  }
  return acc;
}

struct ReduceCase {
  std::string name;
  ReduceOp op;
  aclDataType dtype;
  Shape shape;
  std::vector<int64_t> dims;
  bool keep = false;
  View view = View::kContiguous;
};
void PrintTo(const ReduceCase& c, std::ostream* os) { *os << c.name; }

std::vector<ReduceCase> ReduceCases() {
  std::vector<ReduceCase> cases;
  for (aclDataType d : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128}) {
    cases.push_back({std::string("MeanV2_") + Name(d), ReduceOp::kMeanV2, d, {4, 5, 3}, {1}});
  }
  for (aclDataType d :
       {ACL_FLOAT, ACL_FLOAT16, ACL_UINT8, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_DOUBLE, ACL_BOOL, ACL_BF16}) {
    cases.push_back({std::string("MaxV2_") + Name(d), ReduceOp::kMaxV2, d, {4, 5, 3}, {0, 2}});
  }
  cases.push_back({"MeanV2_all_keep", ReduceOp::kMeanV2, ACL_FLOAT, {6, 7}, {}, true, View::kTransposed});
  cases.push_back({"MeanV2_negative_dims", ReduceOp::kMeanV2, ACL_FLOAT, {3, 4, 5}, {-1, 0}, false, View::kStepped});
  cases.push_back({"MeanV2_large", ReduceOp::kMeanV2, ACL_FLOAT, {64, 300}, {0}});
  cases.push_back({"MaxV2_all", ReduceOp::kMaxV2, ACL_FLOAT, {6, 7}, {}, false, View::kReversed});
  cases.push_back({"MaxV2_keep", ReduceOp::kMaxV2, ACL_INT32, {3, 4, 5}, {1}, true, View::kTransposed});
  return cases;
}

class OnnxReduceTest : public ::testing::TestWithParam<ReduceCase> {};

TEST_P(OnnxReduceTest, MatchesReference) {
  const ReduceCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  DeviceTensor self(c.dtype, c.shape, c.view);
  Values values = self.FillRandom(rng, IsBool(c.dtype) ? Range{0, 1} : Range{-20, 20});
  if (c.op == ReduceOp::kMaxV2 && IsRealFloat(c.dtype)) {  // NaN propagates to its group
    values[2] = std::nan("");
    self.WriteView(values);
  }
  Shape out_shape;
  const Values want = ReduceReference(c.op, values, c.shape, c.dims, out_shape, c.keep);
  DeviceTensor out(c.dtype, out_shape);
  const OpRun run = RunReduce(c.op, self, c.dims, c.keep, /*noop=*/false, out);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Expected expected;
  const double groups = static_cast<double>(NumElements(c.shape)) / std::max<double>(NumElements(out_shape), 1);
  for (const Value& v : want) {
    expected.values.push_back(ConvertValue(v, c.dtype));
    // A mean of `groups` terms of at most 20 each, summed in the accumulator, then rounded to out.
    expected.tolerance.push_back(c.op == ReduceOp::kMeanV2 && IsFloating(c.dtype)
                                     ? UnitRoundoff(c.dtype) * 20 + 2 * groups * 20 * UnitRoundoff(ACL_FLOAT)
                                     : 0);
  }
  ExpectNear(out.ReadView(), expected, c.name);
}

INSTANTIATE_TEST_SUITE_P(Cases, OnnxReduceTest, ::testing::ValuesIn(ReduceCases()),
                         [](const ::testing::TestParamInfo<ReduceCase>& info) { return info.param.name; });

TEST(OnnxReduce, EmptyDimsWithNoopCopySelf) {
  for (ReduceOp op : {ReduceOp::kMeanV2, ReduceOp::kMaxV2}) {
    DeviceTensor self(ACL_FLOAT, {3, 4}, View::kTransposed), out(ACL_FLOAT, {3, 4});
    Rng rng = Rng::ForCurrentTest();
    const Values values = self.FillRandom(rng, Range{-5, 5});
    const OpRun run = RunReduce(op, self, {}, false, /*noop=*/true, out);
    ASSERT_TRUE(run.ok()) << Describe(run);
    ExpectExact(out.ReadView(), values, "a copy of self");
  }
}

// CANN's MaxV2 example: [4, 2] of 0..7 over dim 0 is [6, 7].
TEST(OnnxReduce, CannExamples) {
  DeviceTensor self(ACL_FLOAT, {4, 2}), out(ACL_FLOAT, {2});
  self.WriteView(Values{0, 1, 2, 3, 4, 5, 6, 7});
  ASSERT_TRUE(RunReduce(ReduceOp::kMaxV2, self, {0}, false, false, out).ok());
  ExpectExact(out.ReadView(), Values{6, 7}, "MaxV2");
  ASSERT_TRUE(RunReduce(ReduceOp::kMeanV2, self, {0}, false, true, out).ok());
  ExpectExact(out.ReadView(), Values{3, 4}, "MeanV2");
}

TEST(OnnxReduce, Rejections) {
  struct Case {
    std::string name;
    ReduceOp op;
    aclDataType self, out;
    Shape selfShape, outShape;
    std::vector<int64_t> dims;
    bool noop;
  };
  const std::vector<Case> cases = {
      {"MeanV2_bool", ReduceOp::kMeanV2, ACL_BOOL, ACL_BOOL, {2, 3}, {2}, {1}, false},
      {"MeanV2_out_dtype", ReduceOp::kMeanV2, ACL_FLOAT, ACL_DOUBLE, {2, 3}, {2}, {1}, false},
      {"MeanV2_dim_range", ReduceOp::kMeanV2, ACL_FLOAT, ACL_FLOAT, {2, 3}, {2}, {2}, false},
      {"MeanV2_dim_twice", ReduceOp::kMeanV2, ACL_FLOAT, ACL_FLOAT, {2, 3}, {2}, {1, -1}, false},
      {"MeanV2_out_shape", ReduceOp::kMeanV2, ACL_FLOAT, ACL_FLOAT, {2, 3}, {3}, {1}, false},
      {"MeanV2_noop_out_shape", ReduceOp::kMeanV2, ACL_FLOAT, ACL_FLOAT, {2, 3}, {3, 2}, {}, true},
      {"MaxV2_complex", ReduceOp::kMaxV2, ACL_COMPLEX64, ACL_COMPLEX64, {2, 3}, {2}, {1}, false},
      {"MaxV2_out_dtype", ReduceOp::kMaxV2, ACL_FLOAT, ACL_FLOAT16, {2, 3}, {2}, {1}, false},
      {"MaxV2_empty_axis", ReduceOp::kMaxV2, ACL_FLOAT, ACL_FLOAT, {2, 0}, {2}, {1}, false},
      {"MaxV2_out_shape", ReduceOp::kMaxV2, ACL_FLOAT, ACL_FLOAT, {2, 3}, {2, 1}, {1}, false},
  };
  for (const Case& c : cases) {
    DeviceTensor self(c.self, c.selfShape), out(c.out, c.outShape);
    const OpRun run = RunReduce(c.op, self, c.dims, false, c.noop, out);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << c.name << ": " << Describe(run);
  }
}

// ---- GlobalAveragePool, GlobalMaxPool ---------------------------------------------------------------

OpRun RunGlobalPool(bool max, const DeviceTensor& self, const DeviceTensor& out, aclFormat format = ACL_FORMAT_NCHW) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return max ? aclnnGlobalMaxPoolGetWorkspaceSize(a.Tensor(self, format), a.Tensor(out, format), w, e)
                   : aclnnGlobalAveragePoolGetWorkspaceSize(a.Tensor(self, format), a.Tensor(out, format), w, e);
      },
      max ? aclnnGlobalMaxPool : aclnnGlobalAveragePool);
}

TEST(GlobalPool, EveryDtypeAndRankAgainstFloat64) {
  Rng rng = Rng::ForCurrentTest();
  for (bool max : {false, true}) {
    std::vector<aclDataType> dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE};
    if (!max) dtypes.push_back(ACL_BF16);
    for (aclDataType dtype : dtypes) {
      for (const Shape& shape : {Shape{2, 3, 4, 5}, Shape{1, 2, 3, 4, 5}, Shape{2, 2, 1, 2, 1, 3, 1, 2}}) {
        SCOPED_TRACE(std::string(max ? "GlobalMaxPool " : "GlobalAveragePool ") + Name(dtype) + " " +
                     ShapeString(shape));
        DeviceTensor self(dtype, shape, View::kTransposed);
        const Values values = self.FillRandom(rng, Range{-20, 20});
        Shape out_shape(shape.size(), 1);
        out_shape[0] = shape[0];
        out_shape[1] = shape[1];
        DeviceTensor out(dtype, out_shape);
        const OpRun run = RunGlobalPool(max, self, out, shape.size() == 5 ? ACL_FORMAT_NCDHW : ACL_FORMAT_ND);
        ASSERT_TRUE(run.ok()) << Describe(run);
        const int64_t planes = shape[0] * shape[1], plane = NumElements(shape) / planes;
        Expected want;
        for (int64_t p = 0; p < planes; ++p) {
          double sum = 0, best = -std::numeric_limits<double>::infinity();
          for (int64_t i = 0; i < plane; ++i) {
            const double v = values[static_cast<size_t>(p * plane + i)].real();
            sum += v;
            best = std::max(best, v);
          }
          want.values.push_back(ConvertValue(max ? best : sum / static_cast<double>(plane), dtype));
          want.tolerance.push_back(max ? 0 : UnitRoundoff(dtype) * 20 + 2 * plane * 20 * UnitRoundoff(ACL_FLOAT));
        }
        ExpectNear(out.ReadView(), want, "out");
      }
    }
  }
}

// CANN's example: [1, 3, 2, 2] gives means [4.5, 7.25, 5.25] and maxima [8, 12, 7].
TEST(GlobalPool, CannExamples) {
  DeviceTensor self(ACL_FLOAT, {1, 3, 2, 2}), out(ACL_FLOAT, {1, 3, 1, 1});
  self.WriteView(Values{2, 3, 5, 8, 4, 12, 6, 7, 5, 3, 7, 6});
  ASSERT_TRUE(RunGlobalPool(false, self, out).ok());
  ExpectExact(out.ReadView(), Values{4.5, 7.25, 5.25}, "GlobalAveragePool");
  ASSERT_TRUE(RunGlobalPool(true, self, out).ok());
  ExpectExact(out.ReadView(), Values{8, 12, 7}, "GlobalMaxPool");
}

TEST(GlobalPool, Rejections) {
  struct Case {
    std::string name;
    bool max;
    aclDataType self, out;
    Shape selfShape, outShape;
    aclFormat format;
  };
  const std::vector<Case> cases = {
      {"max_bf16", true, ACL_BF16, ACL_BF16, {1, 2, 3, 3}, {1, 2, 1, 1}, ACL_FORMAT_NCHW},
      {"average_int32", false, ACL_INT32, ACL_INT32, {1, 2, 3, 3}, {1, 2, 1, 1}, ACL_FORMAT_NCHW},
      {"out_dtype", false, ACL_FLOAT, ACL_FLOAT16, {1, 2, 3, 3}, {1, 2, 1, 1}, ACL_FORMAT_NCHW},
      {"rank3", false, ACL_FLOAT, ACL_FLOAT, {1, 2, 3}, {1, 2, 1}, ACL_FORMAT_ND},
      {"out_rank", true, ACL_FLOAT, ACL_FLOAT, {1, 2, 3, 3}, {1, 2, 1}, ACL_FORMAT_NCHW},
      {"out_shape", true, ACL_FLOAT, ACL_FLOAT, {1, 2, 3, 3}, {1, 2, 3, 1}, ACL_FORMAT_NCHW},
      {"nhwc", false, ACL_FLOAT, ACL_FLOAT, {1, 2, 3, 3}, {1, 2, 1, 1}, ACL_FORMAT_NHWC},
      {"max_of_nothing", true, ACL_FLOAT, ACL_FLOAT, {1, 2, 0, 3}, {1, 2, 1, 1}, ACL_FORMAT_NCHW},
  };
  for (const Case& c : cases) {
    DeviceTensor self(c.self, c.selfShape), out(c.out, c.outShape);
    const OpRun run = RunGlobalPool(c.max, self, out, c.format);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << c.name << ": " << Describe(run);
  }
}

}  // namespace
}  // namespace canopy_test
